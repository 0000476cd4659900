"""FSRS parameters fitted to this site's review logs: the set in use, and the weekly fit.

The site-wide set is fitted once the optimizer has enough logs (it gives back its defaults
below its own minimum); a learner's own set once they have ``LEARNER_MIN_LOGS`` logs. A new set
is stored whatever its scores, and adopted only when it beats the set in use on later reviews
held out by time (``practice.review.fitting``). When the 21 weights cannot be fitted (too few
failed reviews, or a set refused), a time scale for the weights in use is fitted instead
(``fitting.fit_time_scale``) and stored and judged the same way. A set is checked for
runaway intervals (``fitting.refusal``) at the retentions in use (``retentions_in_use``): the
site's default and what the scope's learners chose. Setting
``REVIEW_FITTED_PARAMETERS`` off keeps every card on py-fsrs's defaults.
"""

from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from courses.models import CourseCopy

from .. import fitting
from ..models import ParameterSet, ReviewLog, ReviewSettings, site_desired_retention
from ..selectors import review_parameters_current
from .cards import EXPLICIT_ORIGINS

# A learner's own fit needs this many of their logs, and this many held-out long-term reviews
# to be judged on: fewer say more about chance than about the learner.
LEARNER_MIN_LOGS = 300
MIN_TEST_REVIEWS = 30


def _histories(
    logs: list[tuple[int, datetime, int, str]],
) -> list[list[tuple[datetime, int, bool]]]:
    """Return each item's (moment, rating, target) entries: every explicit log is history, and
    only a review's outcome is a target (``fitting._is_target``: a practice mistake, or a
    worked solution the learner asked to see, happened at a moment no schedule chose)."""
    by_item: dict[int, list[tuple[datetime, int, bool]]] = defaultdict(list)
    for item_id, at, rating, origin in logs:
        by_item[item_id].append((at, rating, origin == ReviewLog.Origin.REVIEW))
    return list(by_item.values())


def retentions_in_use(*, user_id: int | None = None) -> tuple[float, ...]:
    """Return the desired retentions a set of this scope would schedule at, lowest first: the
    learner's own (the site's default before they chose one), or, for the site's set, the
    site's default and every retention a learner has chosen. One statement."""
    chosen = ReviewSettings.objects.all()
    if user_id is not None:
        chosen = chosen.filter(user_id=user_id)
    found = set(chosen.values_list("desired_retention", flat=True).distinct())
    if user_id is None or not found:
        found.add(site_desired_retention())
    return tuple(sorted(float(r) for r in found))


def review_parameters_fit(
    *, user_id: int | None = None, now: datetime | None = None
) -> ParameterSet | None:
    """Fit a parameter set to the site's logs (or one learner's), store it, adopt it if it
    beats the set in use on held-out later reviews; return it.

    Returns None, storing nothing, when there is too little data (the optimizer's minimum, or
    the learner minimum) or when no log was written since the last fit of the same scope, so
    a task delivered twice fits once.
    """
    now = now or timezone.now()
    scope = ParameterSet.Scope.SITE if user_id is None else ParameterSet.Scope.LEARNER
    # Fitted and scored on explicit outcomes only: credit (implicit, graph) only moves a due
    # date, it is evidence for scheduling, never an outcome to learn from.
    logs = ReviewLog.objects.filter(reviewed_at__lte=now, origin__in=EXPLICIT_ORIGINS)
    if user_id is not None:
        logs = logs.filter(item__copy__owner_id=user_id)
    rows = list(
        logs.order_by("item_id", "reviewed_at", "pk").values_list(
            "item_id", "reviewed_at", "rating", "origin"
        )
    )
    if user_id is not None and len(rows) < LEARNER_MIN_LOGS:
        return None
    last = ParameterSet.objects.filter(scope=scope, user_id=user_id).order_by("-fitted_at", "-pk")
    last_fit = last.first()
    if last_fit is not None and last_fit.logs == len(rows):
        return None
    current = (
        review_parameters_current(user_id=user_id)
        if user_id is not None
        else ParameterSet.objects.filter(scope=scope, adopted=True)
        .order_by("-fitted_at", "-pk")
        .first()
    )
    histories = _histories(rows)
    retentions = retentions_in_use(user_id=user_id)
    fit = fitting.fit_parameters(
        histories,
        current=current.parameters if current is not None else None,
        current_scale=current.time_scale if current is not None else 1.0,
        min_test_reviews=MIN_TEST_REVIEWS,
        retentions=retentions,
    ) or fitting.fit_time_scale(
        histories,
        parameters=current.parameters if current is not None else None,
        current_scale=current.time_scale if current is not None else 1.0,
        min_test_reviews=MIN_TEST_REVIEWS,
        retentions=retentions,
    )
    if fit is None:
        return None
    with transaction.atomic():
        return ParameterSet.objects.create(
            scope=scope,
            user_id=user_id,
            parameters=list(fit.parameters),
            time_scale=fit.time_scale,
            fitted_at=now,
            logs=len(rows),
            train_reviews=fit.train_reviews,
            test_reviews=fit.test_reviews,
            log_loss=fit.candidate.log_loss,
            rmse_bins=fit.candidate.rmse_bins,
            previous=current,
            previous_log_loss=fit.current.log_loss,
            previous_rmse_bins=fit.current.rmse_bins,
            adopted=fit.beats_current,
        )


def review_parameters_fit_all(*, now: datetime | None = None) -> list[ParameterSet]:
    """Fit the site's set, then each learner's with enough logs; return the sets stored."""
    now = now or timezone.now()
    stored = [review_parameters_fit(now=now)]
    learners = (
        CourseCopy.objects.values("owner_id")
        .annotate(
            n=Count(
                "review_items__logs",
                filter=Q(review_items__logs__origin__in=EXPLICIT_ORIGINS),
            )
        )
        .filter(n__gte=LEARNER_MIN_LOGS)
        .order_by("owner_id")
        .values_list("owner_id", flat=True)
    )
    for owner_id in learners:
        stored.append(review_parameters_fit(user_id=owner_id, now=now))
    return [row for row in stored if row is not None]
