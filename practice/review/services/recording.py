"""Scheduling review from one graded attempt: an explained mistake becomes (or relapses) a
review item; an answer to a review variant rates its item's card."""

import functools
from collections.abc import Callable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from grading.kinds import Status
from practice.models import Attempt, ProblemInstance

from .. import scheduling
from ..models import ReviewItem, ReviewLog
from .cards import CARD_FIELDS, card_rate
from .review_settings import review_settings_get_or_create


def _review_on_variant(
    *, item: ReviewItem, attempt: Attempt, retention: Callable[[], float]
) -> ReviewLog | None:
    """Rate the item from an attempt at one of its review variants (caller holds the lock).

    Per variant at most one Again (the first wrong answer) and one Good or Hard (the first
    right one: Hard when a wrong answer to the same variant came before). ``retention`` gives
    the learner's desired retention, read only when a card is rated.
    """
    problem = attempt.problem
    ratings = set(
        ReviewLog.objects.filter(item=item, attempt__problem=problem).values_list(
            "rating", flat=True
        )
    )
    if attempt.status == Status.CORRECT:
        if ratings & {ReviewLog.Rating.HARD, ReviewLog.Rating.GOOD, ReviewLog.Rating.EASY}:
            return None
        retried = (
            Attempt.objects.filter(problem=problem, status=Status.INCORRECT)
            .exclude(pk=attempt.pk)
            .exists()
        )
        rating = scheduling.rating_for(correct=True, retried=retried)
    else:
        if ReviewLog.Rating.AGAIN in ratings:
            return None
        rating = scheduling.Rating.Again
    log = card_rate(
        item=item,
        attempt=attempt,
        rating=rating,
        origin=ReviewLog.Origin.REVIEW,
        retention=retention(),
    )
    # This variant has been used: the next due date gets a fresh one, prepared anew.
    if item.problem_id == problem.pk:
        item.previous_problem = problem
        item.problem = None
    item.published_at = None
    item.save(update_fields=[*CARD_FIELDS, "problem", "previous_problem", "published_at"])
    return log


def _item_for_mistake(
    *, copy_id: int, kind: str, mistake: str, attempt: Attempt, now: datetime
) -> tuple[ReviewItem, bool]:
    """Return the locked item for (copy, kind, mistake) and whether the attempt's problem has
    already rated it, creating a new card (not yet rated) if there is none.

    The check rides on the locking select. Under PostgreSQL a select that waited for a row
    lock reads its subqueries as of before the wait, but every log for this problem is
    written by a transaction holding the problem's row lock, which the caller holds now, so
    all of them committed before this select began.
    """
    locked = (
        ReviewItem.objects.select_for_update()
        .filter(copy_id=copy_id, kind=kind, mistake=mistake)
        .annotate(
            rated_by_problem=Exists(
                ReviewLog.objects.filter(
                    item=OuterRef("pk"), attempt__problem_id=attempt.problem_id
                )
            )
        )
    )
    item = locked.first()
    if item is not None:
        return item, item.rated_by_problem
    try:
        with transaction.atomic():
            item = ReviewItem.objects.create(
                copy_id=copy_id,
                kind=kind,
                mistake=mistake,
                source_problem=attempt.problem,
                source_attempt=attempt,
                **scheduling.card_columns(scheduling.card_new(now=now)),
            )
    except IntegrityError:
        # A concurrent answer created it first (the unique constraint lets one row in).
        item = locked.get()
        return item, item.rated_by_problem
    return item, False


def review_record_attempt(*, attempt: Attempt) -> list[ReviewLog]:
    """Schedule review from one graded attempt; call inside the attempt's transaction, holding
    its problem's row lock (as ``attempt_submit`` does).

    - An attempt at a review variant rates that item's card (Good, Hard or Again).
    - An incorrect attempt with a diagnosis creates the item for (copy, kind, mistake) or
      relapses it (Again), once per problem; the item's recall then shows this attempt.
    Invalid attempts change nothing. Recording the same attempt twice changes nothing.
    Returns the review logs appended.

    Only what the attempt can change is read: a right answer to a practice problem costs no
    statement, and the learner's settings are read only when a card is rated.
    """
    if attempt.status == Status.INVALID:
        return []
    problem = attempt.problem
    is_variant = problem.purpose == ProblemInstance.Purpose.REVIEW
    explained = attempt.status == Status.INCORRECT and bool(attempt.mistake)
    if not (is_variant or explained):
        return []
    # Recorded before? For a practice problem the mistake's item answers that below: its only
    # log could be there, and a card is rated at most once per problem.
    if is_variant and ReviewLog.objects.filter(attempt=attempt).exists():
        return []
    owner_id = attempt.copy.owner_id
    retention = functools.cache(
        lambda: review_settings_get_or_create(user_id=owner_id).desired_retention
    )
    now = scheduling.to_utc(attempt.created_at or timezone.now())
    logs: list[ReviewLog] = []
    rated_item_id: int | None = None
    # No savepoint of its own: an error here rolls back the attempt's whole transaction.
    with transaction.atomic(savepoint=False):
        if is_variant:
            item = (
                ReviewItem.objects.select_for_update()
                .filter(copy_id=attempt.copy_id)
                .filter(Q(problem=problem) | Q(previous_problem=problem))
                .first()
            )
            if item is not None:
                rated_item_id = item.pk
                log = _review_on_variant(item=item, attempt=attempt, retention=retention)
                if log is not None:
                    logs.append(log)
        if explained:
            item, already_rated = _item_for_mistake(
                copy_id=attempt.copy_id,
                kind=problem.kind,
                mistake=attempt.mistake,
                attempt=attempt,
                now=now,
            )
            if item.pk != rated_item_id and not already_rated:
                logs.append(
                    card_rate(
                        item=item,
                        attempt=attempt,
                        rating=scheduling.Rating.Again,
                        origin=ReviewLog.Origin.PRACTICE,
                        retention=retention(),
                    )
                )
                item.source_problem = problem
                item.source_attempt = attempt
                item.save(update_fields=[*CARD_FIELDS, "source_problem", "source_attempt"])
    return logs
