"""The weekly calibration report: predicted recall against explicit review outcomes, site-wide
and per kind; a parameter set whose predictions lose to a constant guess is withdrawn."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from .. import calibration
from ..models import CalibrationReport, ParameterSet, ReviewLog

WINDOW = timedelta(days=7)
# Fewer explicit reviews than this in the window say more about chance than about the set.
MIN_REVIEWS_TO_WITHDRAW = 100


def review_calibration_report(*, now: datetime | None = None) -> list[CalibrationReport]:
    """Score the week's reviews (those with a stored prediction) against what the scheduler
    predicted, site-wide and per kind; store and return the reports.

    Only reviews are scored, at the moments the schedule chose: a mistake made in ordinary
    practice is logged (a lapse) but the right answers of practice are not ratings, so the
    practice's logs are its failures alone, and scoring them would count the prediction wrong
    by selection, not by memory (``fitting._is_target`` leaves them out of fitting too).

    An explicit outcome is recalled unless rated Again. When the predictions the site's set in
    use made itself (the window's reviews whose log names it) lose to a constant guess on at
    least ``MIN_REVIEWS_TO_WITHDRAW`` of them, that set is withdrawn, so the last set not
    withdrawn (or py-fsrs's defaults) schedules. A set is judged on its own predictions only:
    one adopted a day ago is not withdrawn for the predictions of the set before it.
    """
    now = now or timezone.now()
    start = now - WINDOW
    rows = list(
        ReviewLog.objects.filter(
            reviewed_at__gt=start,
            reviewed_at__lte=now,
            origin=ReviewLog.Origin.REVIEW,
            predicted_recall__isnull=False,
        ).values_list("item__kind", "predicted_recall", "rating", "parameters_id")
    )
    in_use = (
        ParameterSet.objects.filter(
            scope=ParameterSet.Scope.SITE, adopted=True, withdrawn_at__isnull=True
        )
        .order_by("-fitted_at", "-pk")
        .first()
    )
    groups: dict[str, list[tuple[float, bool]]] = {"": []}
    by_in_use: list[tuple[float, bool]] = []
    for kind, predicted, rating, parameters_id in rows:
        pair = (float(predicted), rating != ReviewLog.Rating.AGAIN)
        groups[""].append(pair)
        groups.setdefault(kind, []).append(pair)
        if in_use is not None and parameters_id == in_use.pk:
            by_in_use.append(pair)
    own = calibration.calibration_of(by_in_use)
    reports = []
    with transaction.atomic():
        for kind in sorted(groups):
            measures = calibration.calibration_of(groups[kind])
            if measures is None:
                continue
            report = CalibrationReport(
                computed_at=now,
                window_start=start,
                kind=kind,
                reviews=measures.reviews,
                recalled=measures.recalled,
                log_loss=measures.log_loss,
                constant_log_loss=measures.constant_log_loss,
                rmse_bins=measures.rmse_bins,
                auc=measures.auc,
                parameters=in_use,
            )
            if (
                kind == ""
                and own is not None
                and own.log_loss >= own.constant_log_loss
                and own.reviews >= MIN_REVIEWS_TO_WITHDRAW
            ):
                in_use.withdrawn_at = now
                in_use.save(update_fields=["withdrawn_at"])
                report.withdrew = True
            report.save()
            reports.append(report)
    return reports
