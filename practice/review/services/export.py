"""The copy's review data (settings, items with their cards, logs) as plain JSON data."""

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _

from courses.models import CourseCopy

from ..models import ParameterSet, ReviewItem, ReviewLog
from ..selectors import review_settings_of

EXPORT_FORMAT = "basislab-review/1"


def review_export(*, copy: CourseCopy) -> dict[str, Any]:
    """Return the copy's review items, cards and logs as plain JSON data."""
    items = ReviewItem.objects.filter(copy=copy).order_by("created_at", "pk")
    logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for log in (
        ReviewLog.objects.filter(item__copy=copy)
        .select_related("attempt__problem")
        .order_by("reviewed_at", "pk")
    ):
        logs[log.item_id].append(_log_entry(log))
    used = {id_ for entries in logs.values() for entry in entries if (id_ := entry["parameters"])}
    row = review_settings_of(user_id=copy.owner_id)
    return {
        "format": EXPORT_FORMAT,
        "settings": {
            "desired_retention": row.desired_retention,
            "time_zone": row.time_zone,
            "daily_limit": row.daily_limit,
            "reminders": row.reminders,
        },
        "items": [_item_entry(item, logs[item.pk]) for item in items],
        # The fitted FSRS parameter sets that scheduled these logs (null on a log: defaults).
        "parameter_sets": [
            _parameter_set_entry(parameters)
            for parameters in ParameterSet.objects.filter(pk__in=used).order_by("fitted_at", "pk")
        ],
        "note": _("Times are UTC."),
    }


def _log_entry(log: ReviewLog) -> dict[str, Any]:
    """Return one review log as JSON data."""
    return {
        "attempt": log.attempt_id,
        "reveal": log.reveal_id,  # set instead of the attempt for a worked solution
        "rating": log.get_rating_display(),
        # practice, review, or credit from a right answer elsewhere: implicit (the
        # same kind) or graph (a kind built on this one, for ``credit`` of a review)
        "origin": log.origin,
        "credit": log.credit,
        "credited_by_kind": log.attempt.problem.kind
        if log.origin in (ReviewLog.Origin.IMPLICIT, ReviewLog.Origin.GRAPH)
        else None,
        "reviewed_at": log.reviewed_at.isoformat(),
        "previous_due": log.previous_due.isoformat() if log.previous_due else None,
        "due": log.due.isoformat(),
        "parameters": log.parameters_id,
    }


def _item_entry(item: ReviewItem, logs: list[dict[str, Any]]) -> dict[str, Any]:
    """Return one review item, its FSRS card and its logs as JSON data."""
    return {
        "kind": item.kind,
        "mistake": item.mistake,
        "card": {
            "state": item.get_state_display(),
            "step": item.step,
            "stability": item.stability,
            "difficulty": item.difficulty,
            "due": item.due.isoformat(),
            "last_review": item.last_review.isoformat() if item.last_review else None,
        },
        "reps": item.reps,
        "lapses": item.lapses,
        "source_problem": item.source_problem_id,
        "source_attempt": item.source_attempt_id,
        "logs": logs,
    }


def _parameter_set_entry(parameters: ParameterSet) -> dict[str, Any]:
    """Return one fitted FSRS parameter set as JSON data."""
    return {
        "id": parameters.pk,
        "scope": parameters.scope,
        "parameters": parameters.parameters,
        "time_scale": parameters.time_scale,
        "fitted_at": parameters.fitted_at.isoformat(),
        "logs": parameters.logs,
        "log_loss": parameters.log_loss,
        "rmse_bins": parameters.rmse_bins,
    }
