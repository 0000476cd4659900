"""Reads that need care: ownership-checked lookups of review items and the due count."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q
from django.http import Http404

from practice.models import Attempt, ProblemInstance

from .models import ReviewItem, ReviewLog


def access_review_item(
    *, user: AbstractBaseUser | AnonymousUser, copy_id: int, item_id: int
) -> ReviewItem:
    """Return the review item if the user owns its copy; raise Http404 otherwise."""
    if not user.is_authenticated:
        raise Http404("No such review")
    item = (
        ReviewItem.objects.select_related(
            "copy", "copy__course", "copy__owner", "source_problem", "source_attempt", "problem"
        )
        .filter(pk=item_id, copy_id=copy_id, copy__owner=user)
        .first()
    )
    if item is None:
        raise Http404("No such review")
    return item


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
