"""Fresh review variants: a new problem aimed at an item's mistake, never the same numbers
as the variant shown last."""

import logging
import secrets
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from courses.models import CourseCopy
from grading.kinds import MistakeCode, ProblemKind
from practice.generators import generate
from practice.models import ProblemInstance
from practice.problems import problem_store

from ..codes import KIND_LEVEL
from ..models import ReviewItem

logger = logging.getLogger(__name__)

# Draws tried before giving up on "different numbers from the last variant". Most kinds
# almost never draw the same numbers twice, but a few have only a handful of problems at a
# level: for `attention_cost`'s `left_out_self_pairs` at level 2 (six problems), the two shown
# last are up to 42% of draws (`sequence_lengths` and `utf8_bytes` 26%), so 8 draws would all
# repeat them about once in a thousand reviews; 0.42**32 is about 1e-12 (docs/review.md).
VARIANT_TRIES = 32
_SPEC_METADATA = frozenset({"generator", "level"})


def _numbers(spec: dict[str, Any]) -> dict[str, Any]:
    """Return the spec without the generator's bookkeeping: what the learner sees."""
    return {k: v for k, v in spec.items() if k not in _SPEC_METADATA}


def _draw(kind: ProblemKind, *, level: int, target: MistakeCode | None) -> tuple[int, dict]:
    seed = secrets.randbits(63)
    try:
        return seed, generate(kind, seed=seed, level=level, target=target)
    except (ValueError, RuntimeError):
        if target is None:
            raise
        # The generator could not aim at this mistake at this level: an untargeted variant of
        # the same kind still exercises the idea, which beats no review at all.
        logger.warning("no %s variant targeted at %s; drawing untargeted", kind, target)
        return seed, generate(kind, seed=seed, level=level, target=None)


def _variant_create(item: ReviewItem) -> ProblemInstance:
    """Create a fresh review variant aimed at the item's mistake, unlike the last one shown."""
    kind = ProblemKind(item.kind)
    shown = [p for p in (item.previous_problem, item.source_problem) if p is not None]
    avoid = [_numbers(p.spec) for p in shown]
    origin = item.source_problem or item.previous_problem
    level = origin.level if origin is not None else 1
    # A kind-level item (unexplained, revealed) names no catalogued mistake: the kind as a
    # whole comes back, as a fresh untargeted variant.
    target = None if item.mistake in KIND_LEVEL else MistakeCode(item.mistake)
    for _try in range(VARIANT_TRIES):
        seed, spec = _draw(kind, level=level, target=target)
        if _numbers(spec) not in avoid:
            break
    else:
        # Every draw repeated numbers shown before (about once in 10^12 reviews at the worst
        # kind): the review still happens, with the last draw, rather than an error page.
        logger.warning("no fresh %s variant in %d draws; serving a repeat", kind, VARIANT_TRIES)
    return problem_store(
        copy_id=item.copy_id,
        page_slug=origin.page_slug if origin is not None else "",
        idea_slug=origin.idea_slug if origin is not None else "",
        kind=kind,
        seed=seed,
        level=level,
        spec=spec,
        purpose=ProblemInstance.Purpose.REVIEW,
    )


def review_open(*, copy: CourseCopy, item: ReviewItem) -> ProblemInstance:
    """Return the item's review variant, creating a fresh one aimed at its mistake if needed
    (untargeted for a kind-level item: ``codes.KIND_LEVEL``).

    The variant stays the same until it is answered (reloading the page shows the same
    numbers); the next one is drawn anew and never repeats the previous variant's numbers.
    Raises ValueError for another copy's item.
    """
    if item.copy_id != copy.pk:
        raise ValueError("the review item belongs to another copy")
    with transaction.atomic():
        # Lock the item row only: the joined problems are read, not written.
        locked = (
            ReviewItem.objects.select_for_update(of=("self",))
            .select_related("problem", "previous_problem", "source_problem")
            .get(pk=item.pk)
        )
        if locked.problem is None:
            locked.problem = _variant_create(locked)
            locked.save(update_fields=["problem"])
    item.problem = locked.problem
    item.previous_problem = locked.previous_problem
    return locked.problem


def review_prepare(*, item_id: int, now: datetime | None = None) -> ProblemInstance | None:
    """Prepare the variant of a claimed, due item (the worker's half of publishing).

    Returns None, doing nothing, when the item is gone, already has a variant or is not due
    (it was reviewed since the claim) — so a task delivered twice does the work once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        item = (
            ReviewItem.objects.select_for_update(of=("self",))
            .select_related("previous_problem", "source_problem")
            .filter(pk=item_id)
            .first()
        )
        if item is None or item.problem_id is not None or item.due > now:
            return None
        item.problem = _variant_create(item)
        item.save(update_fields=["problem"])
        return item.problem
