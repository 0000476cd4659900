"""The weekly calibration map of predicted recall (``practice.review.recall_map``): fitted on
explicit review outcomes against FSRS's own predictions stored for them, stored whatever its
scores, adopted only when it beats the map in use on later reviews held out by time."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from .. import recall_map
from ..models import CalibrationMap, ReviewLog


def review_recall_map_fit(*, now: datetime | None = None) -> CalibrationMap | None:
    """Fit a map to every review with a stored FSRS prediction up to ``now``, store it, adopt it
    if it beats the map in use on the later, held-out reviews; return it.

    Only reviews are outcomes (rated Again: forgotten; otherwise recalled): a practice mistake
    or a worked solution shown happened at a moment no schedule chose, and credit is no outcome
    (as in ``services/calibration.py``). Returns None, storing nothing, when the log is too small
    or degenerate (``recall_map.fit_and_judge``) or when no review was logged since the last
    fit, so a task delivered twice fits once.
    """
    now = now or timezone.now()
    rows = list(
        ReviewLog.objects.filter(
            reviewed_at__lte=now,
            origin=ReviewLog.Origin.REVIEW,
            fsrs_recall__isnull=False,
        )
        .order_by("reviewed_at", "pk")
        .values_list("reviewed_at", "item_id", "fsrs_recall", "rating")
    )
    last = CalibrationMap.objects.order_by("-fitted_at", "-pk").first()
    if last is not None and last.reviews == len(rows):
        return None
    current = CalibrationMap.objects.filter(adopted=True).order_by("-fitted_at", "-pk").first()
    fit = recall_map.fit_and_judge(
        [(at, item, float(p), rating != ReviewLog.Rating.AGAIN) for at, item, p, rating in rows],
        current=recall_map.RecallMap(current.a, current.b, current.lowest) if current else None,
    )
    if fit is None:
        return None
    with transaction.atomic():
        return CalibrationMap.objects.create(
            fitted_at=now,
            a=fit.map.a,
            b=fit.map.b,
            lowest=fit.map.lowest,
            reviews=len(rows),
            items=fit.items,
            train_reviews=fit.train_reviews,
            test_reviews=fit.test_reviews,
            log_loss=fit.log_loss,
            previous=current,
            previous_log_loss=fit.current_log_loss,
            constant_log_loss=fit.constant_log_loss,
            adopted=fit.beats_current,
        )
