"""Scheduling review from a reveal: the learner asked for a problem's worked solution.

The kind comes back as a whole: the item (copy, kind, ``revealed``) is created as a new card
rated Again at the reveal, or the existing one relapses (Again), so a fresh variant of the kind
returns on the usual schedule. A reveal of a review variant also rates that variant's own item
Again, as a wrong answer would, and uses the variant up.
"""

import functools

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from grading.verdict import Status
from practice.models import Attempt, ProblemInstance, Reveal

from .. import scheduling
from ..codes import REVEALED
from ..models import ReviewItem, ReviewLog, ReviewSettings
from .cards import CARD_FIELDS, card_rate
from .review_settings import review_settings_get_or_create


def _revealed_item(*, reveal: Reveal, problem: ProblemInstance) -> ReviewItem:
    """Return the locked (copy, kind, revealed) item, creating a new, unrated card if needed."""
    locked = ReviewItem.objects.select_for_update().filter(
        copy_id=reveal.copy_id, kind=problem.kind, mistake=REVEALED
    )
    item = locked.first()
    if item is not None:
        return item
    now = scheduling.to_utc(reveal.created_at or timezone.now())
    try:
        with transaction.atomic():
            return ReviewItem.objects.create(
                copy_id=reveal.copy_id,
                kind=problem.kind,
                mistake=REVEALED,
                source_problem=problem,
                **scheduling.card_columns(scheduling.card_new(now=now)),
            )
    except IntegrityError:
        # A concurrent reveal of another problem of the kind created it first.
        return locked.get()


def review_record_reveal(*, reveal: Reveal) -> list[ReviewLog]:
    """Schedule review from a reveal; call inside the reveal's transaction, holding its
    problem's row lock (as ``problem_reveal`` does). Returns the review logs appended.

    Recording the same reveal twice changes nothing (one log per item and reveal).
    """
    problem = reveal.problem
    owner_id = reveal.copy.owner_id
    review_settings = functools.cache(lambda: review_settings_get_or_create(user_id=owner_id))
    if ReviewLog.objects.filter(reveal=reveal).exists():
        return []
    logs: list[ReviewLog] = []
    with transaction.atomic(savepoint=False):
        rated_item_id = None
        if problem.purpose == ProblemInstance.Purpose.REVIEW:
            variant_item = (
                ReviewItem.objects.select_for_update()
                .filter(copy_id=reveal.copy_id)
                .filter(Q(problem=problem) | Q(previous_problem=problem))
                .first()
            )
            if variant_item is not None:
                rated_item_id = variant_item.pk
                again = ReviewLog.objects.filter(
                    item=variant_item,
                    attempt__problem=problem,
                    rating=ReviewLog.Rating.AGAIN,
                ).exists()
                if not again:
                    logs.append(_rate_again(variant_item, reveal, review_settings()))
                if variant_item.problem_id == problem.pk:
                    variant_item.previous_problem = problem
                    variant_item.problem = None
                variant_item.published_at = None
                variant_item.save(
                    update_fields=[*CARD_FIELDS, "problem", "previous_problem", "published_at"]
                )
        item = _revealed_item(reveal=reveal, problem=problem)
        if item.pk != rated_item_id:
            logs.append(_rate_again(item, reveal, review_settings()))
            item.source_problem = problem
            # The recall shows the last wrong answer to the problem, when there was one.
            item.source_attempt = (
                Attempt.objects.filter(problem=problem, status=Status.INCORRECT)
                .order_by("-created_at", "-pk")
                .first()
            )
            item.save(update_fields=[*CARD_FIELDS, "source_problem", "source_attempt"])
    return logs


def _rate_again(item: ReviewItem, reveal: Reveal, review_settings: ReviewSettings) -> ReviewLog:
    return card_rate(
        item=item,
        attempt=None,
        reveal=reveal,
        rating=scheduling.Rating.Again,
        origin=ReviewLog.Origin.REVEAL,
        review_settings=review_settings,
    )
