"""Choosing reviews that clear others: when more is due than today's limit allows, the reviews
whose credit (implicit, and down the idea graph) would push the most other due items past
today come first. Pure: no database; the caller passes the due items, the graph's edges and
the policies.

A right first-try answer to a review of kind K gives each other due item of K an implicit
Good review (at least a day with py-fsrs, so past today) and each item the graph reaches its
fraction of the interval a Good review would give (``services.cards.card_credit``). A review
*covers* the other due items its credit would move past the learner's next midnight. The
choice is greedy set cover: repeatedly the review covering the most still-uncovered items
(the earliest due on a tie), never one already covered, until the limit is reached or nothing
is left uncovered. The chosen reviews come first, interleaved across kinds as the queue always
is; the covered ones follow, in case an answer goes wrong and they stay due.
"""

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from courses.graph import CreditEdge, credit_fraction, credit_targets
from grading.kinds import MISTAKES_BY_KIND

from . import scheduling
from .codes import KIND_LEVEL
from .evidence import MAX_SHARE, evidence_share, mistake_likelihood


class DueItem(Protocol):
    """What clearing reads of a review item (a ``ReviewItem`` has all of it)."""

    pk: int
    kind: str
    mistake: str
    due: datetime


T = TypeVar("T", bound=DueItem)


def interleave(items: Iterable[T]) -> list[T]:
    """Return the items round-robin across kinds, each kind in the given order, the kind met
    first first."""
    by_kind: dict[str, deque[T]] = defaultdict(deque)
    for item in items:
        by_kind[item.kind].append(item)
    queues = list(by_kind.values())
    out: list[T] = []
    while queues:
        for queue in queues:
            out.append(queue.popleft())
        queues = [q for q in queues if q]
    return out


def coverage(
    due: Sequence[T],
    *,
    edges: Sequence[CreditEdge],
    implicit: bool,
    graph: bool,
    good_due: Callable[[T], datetime],
    now: datetime,
    day_end: datetime,
) -> dict[int, set[int]]:
    """Return, per due item's pk, the pks of the other due items its right answer would move
    past ``day_end``. ``good_due(item)`` is the due date a Good review at ``now`` would give."""
    good = {item.pk: good_due(item) for item in due}

    def cleared(item: T, fraction: float) -> bool:
        if fraction <= 0:
            return False
        wanted = now + (good[item.pk] - now) * fraction
        last_review = getattr(item, "last_review", None)
        if last_review is not None:
            # Credit never goes past the item's own step by more than the share (an estimate
            # of cards.credited_due's explicit bound: the last interval the item was given).
            wanted = min(
                wanted, item.due + max(item.due - item.last_review, timedelta(0)) * fraction
            )
        return wanted >= day_end

    def own_share(item: T) -> float:
        mistakes = MISTAKES_BY_KIND.get(item.kind, ())
        likelihood = mistake_likelihood(
            mistake=item.mistake,
            kind_mistakes=tuple(str(m) for m in mistakes),
            target=None,
            kind_level=item.mistake in KIND_LEVEL,
        )
        return evidence_share(
            reps=getattr(item, "reps", 0), lapses=getattr(item, "lapses", 0), likelihood=likelihood
        )

    # What a right answer clears depends only on its kind: computed once per kind.
    by_kind: dict[str, set[int]] = {}
    for kind in {item.kind for item in due}:
        targets = credit_targets(edges, kind) if graph else {}
        by_kind[kind] = {
            other.pk
            for other in due
            if cleared(
                other,
                (own_share(other) if implicit else 0.0)
                if other.kind == kind
                else min(MAX_SHARE, credit_fraction(targets, other.kind, other.mistake)),
            )
        }
    return {review.pk: by_kind[review.kind] - {review.pk} for review in due}


def clearing_order(due: Sequence[T], *, limit: int, covers: dict[int, set[int]]) -> list[T]:
    """Return the due items (in due order) with the reviews that clear the most others first.

    Greedy set cover within ``limit`` picks; the picks are interleaved across kinds, then the
    rest follow, interleaved too. Every due item appears exactly once.
    """
    uncovered = {item.pk for item in due}
    chosen: list[T] = []
    while uncovered and len(chosen) < limit:
        best = max(
            (item for item in due if item.pk in uncovered),
            key=lambda item: len(covers.get(item.pk, set()) & uncovered),
        )  # max keeps the first (earliest due) of equals
        chosen.append(best)
        uncovered -= {best.pk} | covers.get(best.pk, set())
    picked = {item.pk for item in chosen}
    return interleave(chosen) + interleave(item for item in due if item.pk not in picked)


def good_due_at(
    now: datetime,
    retention: float,
    parameters: Sequence[float] | None = None,
    time_scale: float = 1.0,
) -> Callable[[Any], datetime]:
    """Return a function giving an item's due date after a Good review at ``now`` (the item
    has the card columns: ``scheduling.card_of``), with the fitted FSRS ``parameters`` and
    ``time_scale`` in use (None and 1: py-fsrs's defaults)."""

    def due_after_good(item: Any) -> datetime:
        card = scheduling.card_review(
            scheduling.card_of(item),
            scheduling.Rating.Good,
            at=now,
            desired_retention=retention,
            parameters=parameters,
            time_scale=time_scale,
        )
        return card.due

    return due_after_good
