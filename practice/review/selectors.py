"""Reads for spaced review: ownership-checked lookups, the due queue and counts, settings.

Nothing here writes: a learner without stored settings reads the unsaved defaults.
"""

import hashlib
import json
import re
import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import F, OuterRef, Q, Subquery
from django.http import Http404
from django.utils import timezone

from basislab.literal import Choice
from courses.models import CourseCopy
from courses.selectors import copy_credit_graph
from practice.models import Attempt, ProblemInstance

from . import clearing, policy, recall_map, scheduling, workload
from .models import CalibrationMap, ParameterSet, ReviewItem, ReviewLog, ReviewSettings


def access_review_item(
    *, user: AbstractBaseUser | AnonymousUser, copy_id: int, item_id: int
) -> ReviewItem:
    """Return the review item if the user owns its copy; raise Http404 otherwise."""
    if not user.is_authenticated:
        raise Http404("No such review")
    try:
        return ReviewItem.objects.select_related(
            "copy", "copy__course", "copy__owner", "source_problem", "source_attempt", "problem"
        ).get(pk=item_id, copy_id=copy_id, copy__owner=user)
    except ReviewItem.DoesNotExist:
        raise Http404("No such review") from None


def review_item_for_attempt(*, attempt: Attempt) -> ReviewItem | None:
    """Return the item an attempt at a review variant was about, or None."""
    log = (
        ReviewLog.objects.select_related("item")
        .filter(attempt=attempt, origin=ReviewLog.Origin.REVIEW)
        .first()
    )
    if log is not None:
        return log.item
    return review_item_for_problem(problem=attempt.problem)


def review_item_for_problem(*, problem: ProblemInstance) -> ReviewItem | None:
    """Return the item whose current or previous variant is this problem, or None."""
    return (
        ReviewItem.objects.select_related("copy", "source_problem", "source_attempt")
        .filter(copy_id=problem.copy_id)
        .filter(Q(problem=problem) | Q(previous_problem=problem))
        .first()
    )


# --- settings -------------------------------------------------------------------------------

# Tokens are made by ``models.new_unsubscribe_token`` (URL-safe base64); anything else, such as
# a NUL byte that PostgreSQL refuses in text, is no token and never reaches the database. The
# URL converter of the unsubscribe link matches the same pattern.
UNSUBSCRIBE_TOKEN_PATTERN = "[A-Za-z0-9_-]{16,64}"  # noqa: S105 (a pattern, not a secret)
_TOKEN = re.compile(UNSUBSCRIBE_TOKEN_PATTERN)


def is_unsubscribe_token(token: str) -> bool:
    """Return whether the text has the shape of an unsubscribe token."""
    return bool(_TOKEN.fullmatch(token or ""))


def _attempt_logs(attempt_id: int, item_id: int | None = None) -> list[ReviewLog]:
    # An attempt's review logs with their items, without the reviewed item's own when the
    # attempt answered a review.
    logs = ReviewLog.objects.filter(attempt_id=attempt_id)
    if item_id is not None:
        logs = logs.exclude(item_id=item_id)
    return list(logs.select_related("item").order_by("item__kind", "item__mistake"))


def review_settings_stored(*, user_id: int) -> ReviewSettings | None:
    """Return the learner's stored review settings, or None before their first use."""
    # One row a learner (unique per user): no ORDER BY needed, so no .first().
    return next(iter(ReviewSettings.objects.filter(user_id=user_id)[:1]), None)


def review_settings_of(*, user_id: int) -> ReviewSettings:
    """Return the learner's review settings, or the unsaved defaults if none are stored yet."""
    return review_settings_stored(user_id=user_id) or ReviewSettings(user_id=user_id)


def review_settings_by_token(*, token: str) -> ReviewSettings | None:
    """Return the settings whose unsubscribe link carries this token, or None."""
    if not is_unsubscribe_token(token):
        return None
    return ReviewSettings.objects.select_related("user").filter(unsubscribe_token=token).first()


# --- the queue ------------------------------------------------------------------------------


def _local_midnight(*, now: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    local = now.astimezone(zone)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def _next_local_midnight(*, now: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    """Return the learner's next midnight (the end of their today), DST-safe."""
    local = now.astimezone(zone).date() + timedelta(days=1)
    return datetime(local.year, local.month, local.day, tzinfo=zone)


def _interleave(items: list[ReviewItem]) -> list[ReviewItem]:
    """Return the items round-robin across kinds, each kind in due order, oldest kind first."""
    return clearing.interleave(items)  # already in due order


def review_done_today(
    *, copy: CourseCopy, now: datetime | None = None, row: ReviewSettings | None = None
) -> int:
    """Return how many reviews the learner did today, in their own time zone.

    ``row`` is the learner's settings when the caller already has them. With implicit credit
    on, a review is one variant answered (a failed review and its retry count once, and so
    does a variant answered with another mistake, which rates another item); otherwise every
    review rating counts.
    """
    now = now or timezone.now()
    zone = (row or review_settings_of(user_id=copy.owner_id)).zone
    today = ReviewLog.objects.filter(
        item__copy=copy, reviewed_at__gte=_local_midnight(now=now, zone=zone)
    )
    if policy.implicit_credit():
        return (
            # Written into the text: bound, SQLite compiles again on every run (basislab.literal).
            today.filter(attempt__problem__purpose=Choice(ProblemInstance.Purpose.REVIEW))
            .values("attempt__problem_id")
            .distinct()
            .count()
        )
    return today.filter(origin=ReviewLog.Origin.REVIEW).count()


def review_next(*, copy: CourseCopy, now: datetime | None = None) -> list[ReviewItem]:
    """Return the review queue: due items, interleaved across kinds, within today's limit.

    The limit counts reviews already done today in the learner's time zone. When more is due
    than the limit leaves and ``REVIEW_QUEUE_CLEARING`` is on, the reviews whose credit would
    clear the most other due items today come first (``clearing``).
    """
    now = now or timezone.now()
    row = review_settings_of(user_id=copy.owner_id)
    remaining = max(0, row.daily_limit - review_done_today(copy=copy, now=now, row=row))
    if remaining == 0:
        return []
    # A copy has at most one item per catalogued mistake, so the due list is short.
    due = list(
        ReviewItem.objects.filter(copy=copy, due__lte=now)
        .select_related("source_problem", "source_attempt")
        .order_by("due", "pk")
    )
    if len(due) > remaining and policy.queue_clearing():
        return _clearing_queue(copy=copy, due=due, now=now, row=row, remaining=remaining)
    return _interleave(due)[:remaining]


def _memory_of(copy: CourseCopy) -> tuple[list[float] | None, float]:
    """Return the fitted weights (None: the defaults) and time scale in use for the learner."""
    fitted = review_parameters_current(user_id=copy.owner_id)
    return (fitted.parameters, fitted.time_scale) if fitted is not None else (None, 1.0)


def _clearing_queue(
    *, copy: CourseCopy, due: list[ReviewItem], now: datetime, row: ReviewSettings, remaining: int
) -> list[ReviewItem]:
    implicit, graph = policy.implicit_credit(), policy.graph_credit()
    edges: tuple = ()
    if graph:
        edges = copy_credit_graph(copy=copy)
    day_end = _next_local_midnight(now=now, zone=row.zone)
    covers = clearing.coverage(
        due,
        edges=edges,
        implicit=implicit,
        graph=graph,
        good_due=clearing.good_due_at(
            now, review_retention_scheduled(row.desired_retention), *_memory_of(copy)
        ),
        now=now,
        day_end=day_end,
    )
    return clearing.clearing_order(due, limit=remaining, covers=covers)[:remaining]


# --- fitted FSRS parameters -----------------------------------------------------------------


def review_parameters_current(*, user_id: int | None) -> ParameterSet | None:
    """Return the parameter set that schedules the learner's reviews: their newest adopted
    set, else the site's, else None (py-fsrs's defaults), and None when the switch is off."""
    if not settings.REVIEW_FITTED_PARAMETERS:
        return None
    mine = Q(user_id=user_id) if user_id is not None else Q(pk__in=[])
    return (
        ParameterSet.objects.filter(adopted=True, withdrawn_at__isnull=True)
        .filter(mine | Q(scope=ParameterSet.Scope.SITE))
        .order_by(F("user_id").asc(nulls_last=True), "-fitted_at", "-pk")
        .first()
    )


def review_recall_map_current() -> recall_map.RecallMap | None:
    """Return the calibration map in use: the newest adopted one, or None (FSRS's own recall)
    when there is none or ``REVIEW_CALIBRATED_RECALL`` is off (then no statement is made)."""
    if not settings.REVIEW_CALIBRATED_RECALL:
        return None
    row = (
        CalibrationMap.objects.filter(adopted=True)
        .order_by("-fitted_at", "-pk")
        .values_list("a", "b", "lowest")
        .first()
    )
    return recall_map.RecallMap(*row) if row is not None else None


def review_retention_scheduled(desired: float) -> float:
    """Return the FSRS retention a card is scheduled at for a learner aiming at ``desired``:
    ``desired`` itself, or with a calibration map in use the retention at which the calibrated
    recall is ``desired`` (``recall_map.RecallMap.effective_retention``)."""
    calibration = review_recall_map_current()
    return calibration.effective_retention(desired) if calibration is not None else desired


def review_due_count(*, copy: CourseCopy, now: datetime | None = None) -> int:
    """Return how many of the copy's items are due now."""
    return ReviewItem.objects.filter(copy=copy, due__lte=now or timezone.now()).count()


def review_upcoming(
    *, copy: CourseCopy, now: datetime | None = None, limit: int = 5
) -> list[ReviewItem]:
    """Return the copy's next items to come due after ``now``, soonest first."""
    now = now or timezone.now()
    return list(ReviewItem.objects.filter(copy=copy, due__gt=now).order_by("due", "pk")[:limit])


# --- where credit came from -----------------------------------------------------------------

CREDIT_ORIGINS = (ReviewLog.Origin.IMPLICIT, ReviewLog.Origin.GRAPH)


@dataclass(frozen=True)
class AttemptCredit:
    """What one answer did to the learner's reviews besides its own item."""

    # Implicit and graph credit the answer gave, each log with its item.
    credited: list[ReviewLog] = field(default_factory=list)
    # Among them: items that were due at the answer and that the credit moved past today.
    cleared: list[ReviewLog] = field(default_factory=list)
    # Items of other mistakes a review answer relapsed (it was not the reviewed mistake).
    relapsed: list[ReviewLog] = field(default_factory=list)


def review_attempt_credit(*, attempt: Attempt, item: ReviewItem | None = None) -> AttemptCredit:
    """Return the credit an attempt gave other items, and which of them it cleared today.

    ``item`` is the reviewed item when the attempt answered a review variant: its own rating
    is not credit, and another item's relapse is reported as such.
    """
    logs = _attempt_logs(attempt.pk, item.pk if item is not None else None)
    if not logs:
        return AttemptCredit()
    zone = review_settings_of(user_id=attempt.copy.owner_id).zone
    credited = [log for log in logs if log.origin in CREDIT_ORIGINS]
    cleared = [
        log
        for log in credited
        if log.previous_due is not None
        and log.previous_due <= log.reviewed_at
        and log.due >= _next_local_midnight(now=log.reviewed_at, zone=zone)
    ]
    relapsed = [log for log in logs if log.origin == ReviewLog.Origin.PRACTICE]
    return AttemptCredit(credited=credited, cleared=cleared, relapsed=relapsed)


def review_with_last_credit(items: list[ReviewItem]) -> list[ReviewItem]:
    """Return the items, each with ``last_credit``: its latest log when that log is credit
    from another answer (implicit or graph, with the answer's problem), else None."""
    if not items:
        return items
    latest = Subquery(
        ReviewLog.objects.filter(item=OuterRef("pk"))
        .order_by("-reviewed_at", "-pk")
        .values("pk")[:1]
    )
    last_ids = ReviewItem.objects.filter(pk__in=[i.pk for i in items]).annotate(last=latest)
    logs = {
        log.item_id: log
        for log in ReviewLog.objects.filter(
            pk__in=last_ids.values("last"), origin__in=CREDIT_ORIGINS
        ).select_related("attempt__problem")
    }
    for item in items:
        item.last_credit = logs.get(item.pk)
    return items


# --- the workload against desired retention ---------------------------------------------------

# A learner's workload is drawn again at most this often for the same cards (seconds).
WORKLOAD_CACHE_SECONDS = 3600


@dataclass(frozen=True)
class Workload:
    """The expected reviews per day at each retention for the learner's items, and how many
    items there are and how many the run followed (``workload.MAX_CARDS`` at most)."""

    points: list[workload.WorkloadPoint]
    items: int
    followed: int


def review_workload(*, user_id: int, now: datetime | None = None) -> Workload:
    """Return the learner's expected review workload at each retention of
    ``workload.RETENTIONS``, over all their copies' items, under the parameters that schedule
    them (``review_parameters_current``). Two statements (the cards, the parameters); the
    result is cached for an hour for the same cards, parameters and hour."""
    now = now or timezone.now()
    rows = list(
        ReviewItem.objects.filter(copy__owner_id=user_id, stability__isnull=False)
        .order_by("pk")
        .values_list(*scheduling.CARD_COLUMNS)
    )
    if not rows:
        return Workload(points=[], items=0, followed=0)
    fitted = review_parameters_current(user_id=user_id)
    parameters = fitted.parameters if fitted is not None else None
    time_scale = fitted.time_scale if fitted is not None else 1.0
    cards = [scheduling.CardState(scheduling.State(row[0]), *row[1:]) for row in rows]
    key_parts = [now.strftime("%Y-%m-%dT%H"), parameters, time_scale, workload.RETENTIONS, rows]
    digest = hashlib.sha256(json.dumps(key_parts, default=str).encode()).hexdigest()
    key = f"review-workload:{user_id}:{digest}"
    found = cache.get(key)
    if found is None:
        points = workload.expected_workload(
            cards, now=now, parameters=parameters, time_scale=time_scale
        )
        found = Workload(
            points=points, items=len(cards), followed=min(len(cards), workload.MAX_CARDS)
        )
        cache.set(key, found, WORKLOAD_CACHE_SECONDS)
    return found
