"""Scheduling review from one graded attempt: an explained mistake becomes (or relapses) a
review item; an answer to a review variant rates its item's card; a right first-try answer
credits the learner's other items of the kind and, down the idea graph, of simpler kinds."""

import functools
from collections.abc import Callable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from basislab.compiled_reads import CompiledRead
from grading.kinds import Status
from practice.models import Attempt, ProblemInstance

from .. import policy, scheduling
from ..codes import KIND_LEVEL, UNEXPLAINED
from ..models import ReviewItem, ReviewLog, ReviewSettings
from .cards import CARD_FIELDS, card_rate
from .credit import credit_apply, credit_plan_lock
from .review_settings import review_settings_get_or_create


def _retried(attempt: Attempt) -> bool:
    """Return whether a wrong answer to the same problem came before this attempt."""
    return (
        Attempt.objects.filter(problem_id=attempt.problem_id, status=Status.INCORRECT)
        .exclude(pk=attempt.pk)
        .exists()
    )


def _mistake_of(attempt: Attempt) -> str | None:
    """Return the review code a wrong attempt relapses: its diagnosed mistake, or
    ``UNEXPLAINED`` when none explains it and unexplained items are on; None otherwise."""
    if attempt.status != Status.INCORRECT:
        return None
    if attempt.mistake:
        return attempt.mistake
    return UNEXPLAINED if policy.unexplained_items() else None


def _is_own_mistake(item: ReviewItem, mistake: str | None) -> bool:
    """Return whether a wrong answer to the item's variant is the item's own mistake.

    A kind-level item (unexplained, revealed) stands for the kind as a whole: an answer no
    catalogued mistake explains is its own; a catalogued one is a mistake of its own item.
    """
    if item.mistake in KIND_LEVEL:
        return mistake is None or mistake in KIND_LEVEL
    return mistake == item.mistake


def _review_on_variant(
    *,
    item: ReviewItem,
    attempt: Attempt,
    review_settings: Callable[[], ReviewSettings],
    retried: Callable[[], bool],
    mistake: str | None,
) -> ReviewLog | None:
    """Rate the item from an attempt at one of its review variants (caller holds the lock).

    Per variant at most one Again (the first wrong answer) and one Good or Hard (the first
    right one: Hard when a wrong answer to the same variant came before). With implicit credit
    on, a wrong answer is Again only when it is the item's own mistake (``mistake``, as
    ``_mistake_of`` gives it): another mistake relapses that mistake's item instead, and an
    undiagnosed answer with unexplained items off still rates Again (nothing else would record
    it). ``review_settings`` gives the learner's settings, read only when a card is rated;
    ``retried`` whether a wrong answer to the variant came before, read only when needed.
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
        rating = scheduling.rating_for(correct=True, retried=retried())
    else:
        if ReviewLog.Rating.AGAIN in ratings:
            return None
        if policy.implicit_credit() and mistake is not None and not _is_own_mistake(item, mistake):
            return None
        rating = scheduling.Rating.Again
    log = card_rate(
        item=item,
        attempt=attempt,
        rating=rating,
        origin=ReviewLog.Origin.REVIEW,
        review_settings=review_settings(),
    )
    # This variant has been used: the next due date gets a fresh one, prepared anew.
    if item.problem_id == problem.pk:
        item.previous_problem = problem
        item.problem = None
    item.published_at = None
    item.save(update_fields=[*CARD_FIELDS, "problem", "previous_problem", "published_at"])
    return log


def _item_rated_by(copy_id: int, kind: str, mistake: str, problem_id: int) -> QuerySet:
    rated = ReviewLog.objects.filter(item_id=OuterRef("pk"), attempt__problem_id=problem_id)
    found = ReviewItem.objects.select_for_update().filter(copy_id=copy_id, kind=kind)
    found = found.filter(mistake=mistake).annotate(rated_by_problem=Exists(rated))
    return found.order_by("pk")[:1]


# Built by the ORM once per process (basislab.compiled_reads): built on every explained wrong
# answer, this locking select cost about twenty times its run time in Python. FOR UPDATE where
# the database has it; compiled inside the submit's transaction, as the ORM requires.
_LOCKED_ITEM = CompiledRead(_item_rated_by, copy_id=int, kind=str, mistake=str, problem_id=int)


def _locked_item(*, copy_id: int, kind: str, mistake: str, problem_id: int) -> ReviewItem | None:
    """Return the copy's item for (kind, mistake), locked, with ``rated_by_problem``: whether
    an answer to the problem has rated it; None when there is none."""
    found = _LOCKED_ITEM.rows(copy_id=copy_id, kind=kind, mistake=mistake, problem_id=problem_id)
    return found[0] if found else None


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
    item = _locked_item(copy_id=copy_id, kind=kind, mistake=mistake, problem_id=attempt.problem_id)
    if item is not None:
        return item, bool(item.rated_by_problem)
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
        item = _locked_item(
            copy_id=copy_id, kind=kind, mistake=mistake, problem_id=attempt.problem_id
        )
        if item is None:
            raise
        return item, bool(item.rated_by_problem)
    return item, False


def _record_on_variant(
    *,
    attempt: Attempt,
    mistake: str | None,
    review_settings: Callable[[], ReviewSettings],
    retried: Callable[[], bool],
) -> tuple[int | None, ReviewLog | None, bool]:
    """Rate the item whose review variant the attempt answers (locking it); return the item's
    id (None when the variant has none), the log written, and whether the attempt's mistake is
    that item's own (then rated here, and not relapsed again)."""
    problem = attempt.problem
    item = (
        ReviewItem.objects.select_for_update()
        .filter(copy_id=attempt.copy_id)
        .filter(Q(problem=problem) | Q(previous_problem=problem))
        .first()
    )
    if item is None:
        return None, None, False
    log = _review_on_variant(
        item=item,
        attempt=attempt,
        review_settings=review_settings,
        retried=retried,
        mistake=mistake,
    )
    return item.pk, log, mistake is not None and _is_own_mistake(item, mistake)


def _relapse(
    *,
    attempt: Attempt,
    mistake: str,
    now: datetime,
    rated_item_id: int | None,
    review_settings: Callable[[], ReviewSettings],
) -> ReviewLog | None:
    """Create or relapse (Again) the item of the attempt's mistake, once per problem, and point
    its recall at this attempt; nothing when the item was rated already."""
    item, already_rated = _item_for_mistake(
        copy_id=attempt.copy_id,
        kind=attempt.problem.kind,
        mistake=mistake,
        attempt=attempt,
        now=now,
    )
    if item.pk == rated_item_id or already_rated:
        return None
    log = card_rate(
        item=item,
        attempt=attempt,
        rating=scheduling.Rating.Again,
        origin=ReviewLog.Origin.PRACTICE,
        review_settings=review_settings(),
    )
    item.source_problem = attempt.problem
    item.source_attempt = attempt
    item.save(update_fields=[*CARD_FIELDS, "source_problem", "source_attempt"])
    return log


def _work_of(attempt: Attempt) -> tuple[bool, str | None, bool] | None:
    """Return what the attempt may record: whether it answers a review variant, the mistake
    to relapse (None when none), and whether it credits others; None when there is nothing."""
    if attempt.status == Status.INVALID:
        return None
    is_variant = attempt.problem.purpose == ProblemInstance.Purpose.REVIEW
    mistake = _mistake_of(attempt)
    crediting = attempt.status == Status.CORRECT and (
        policy.implicit_credit() or policy.graph_credit()
    )
    if not (is_variant or mistake is not None or crediting):
        return None
    # Recorded before? For a practice problem the mistake's item answers that later: its only
    # log could be there, and a card is rated at most once per problem; credit skips the items
    # this attempt already credited.
    if is_variant and ReviewLog.objects.filter(attempt=attempt).exists():
        return None
    return is_variant, mistake, crediting


def review_record_attempt(*, attempt: Attempt, retried: bool | None = None) -> list[ReviewLog]:
    """Schedule review from one graded attempt; call inside the attempt's transaction, holding
    its problem's row lock (as ``attempt_submit`` does). ``retried`` says whether a wrong answer
    to the same problem came before, when the caller read it under that lock (``attempt_submit``
    does, in the statement that marks a right answer's problem solved); None reads it here.

    - An attempt at a review variant rates that item's card (Good, Hard or Again; see
      ``_review_on_variant`` for which wrong answers are the item's own).
    - An incorrect attempt with a diagnosis creates the item for (copy, kind, mistake) or
      relapses it (Again), once per problem; the item's recall then shows this attempt. An
      incorrect attempt no catalogued mistake explains does the same for (copy, kind,
      ``unexplained``) when ``REVIEW_UNEXPLAINED_ITEMS`` is on.
    - A right first-try answer (practice or review) credits the learner's other items of the
      kind (``REVIEW_IMPLICIT_CREDIT``) and, down the course's idea graph, of simpler kinds
      (``REVIEW_GRAPH_CREDIT``): ``services.credit``.
    Invalid attempts change nothing. Recording the same attempt twice changes nothing.
    Returns the review logs appended.

    Only what the attempt can change is read: a right answer to a practice problem after a
    wrong one costs one statement, and the learner's settings are read only when a card is
    rated.
    """
    work = _work_of(attempt)
    if work is None:
        return []
    is_variant, mistake, crediting = work
    explained = mistake is not None
    owner_id = attempt.copy.owner_id
    review_settings = functools.cache(lambda: review_settings_get_or_create(user_id=owner_id))
    was_retried = functools.cache(lambda: _retried(attempt) if retried is None else retried)
    now = scheduling.to_utc(attempt.created_at or timezone.now())
    logs: list[ReviewLog] = []
    rated_item_id: int | None = None
    # No savepoint of its own: an error here rolls back the attempt's whole transaction.
    with transaction.atomic(savepoint=False):
        # Credit locks its items first, all in primary-key order (the variant's item among
        # them), so answers crediting overlapping items wait for each other, never deadlock.
        plan = credit_plan_lock(attempt=attempt) if crediting and not was_retried() else None
        if is_variant:
            rated_item_id, log, own = _record_on_variant(
                attempt=attempt,
                mistake=mistake,
                review_settings=review_settings,
                retried=was_retried,
            )
            logs.extend([log] if log is not None else [])
            explained = explained and not own  # the variant's own mistake: rated above, once
        if explained and mistake is not None:
            log = _relapse(
                attempt=attempt,
                mistake=mistake,
                now=now,
                rated_item_id=rated_item_id,
                review_settings=review_settings,
            )
            logs.extend([log] if log is not None else [])
        if plan is not None:
            logs.extend(
                credit_apply(
                    plan=plan,
                    attempt=attempt,
                    skip_item_id=rated_item_id,
                    review_settings=review_settings,
                )
            )
    return logs
