"""Credit from a right first-try answer: implicit reviews of the learner's other items of the
kind, and fractional credit down the course's idea graph (``courses.graph``).

Both run inside the attempt's transaction (``review_record_attempt``), under row locks taken in
primary-key order, and write at most one log per item and attempt (a unique constraint), so a
double submit or a second recording of the attempt credits once.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from courses.graph import credit_fraction
from courses.models import CourseCopy
from courses.selectors import copy_credit_targets
from practice.generators import GENERATORS
from practice.models import Attempt

from .. import policy
from ..codes import KIND_LEVEL
from ..evidence import MAX_SHARE, evidence_share, mistake_likelihood
from ..models import ReviewItem, ReviewLog, ReviewSettings
from .cards import CARD_FIELDS, card_credit


@dataclass
class CreditPlan:
    """What a right answer to ``kind`` credits: fractions by (kind, mistake or None), and the
    learner's items of those kinds, locked."""

    kind: str
    implicit: bool
    targets: dict[tuple[str, str | None], float] = field(default_factory=dict)
    items: list[ReviewItem] = field(default_factory=list)
    # The mistake the answered problem was generated to show (None: untargeted).
    aimed_at: str | None = None

    def fraction(self, item: ReviewItem) -> float:
        """Return the share of the item's last explicit interval this plan's right answer
        postpones it by: the evidence share (``evidence.evidence_share``) for its own kind,
        the graph's fraction capped at ``MAX_SHARE`` for a kind the graph reaches, 0 for
        none."""
        if item.kind == self.kind:
            if not self.implicit:
                return 0.0
            generator = GENERATORS.get(item.kind)
            likelihood = mistake_likelihood(
                mistake=item.mistake,
                kind_mistakes=tuple(generator.mistakes) if generator is not None else (),
                target=self.aimed_at,
                kind_level=item.mistake in KIND_LEVEL,
            )
            return evidence_share(reps=item.reps, lapses=item.lapses, likelihood=likelihood)
        return min(MAX_SHARE, credit_fraction(self.targets, item.kind, item.mistake))


def _aimed_at(attempt: Attempt) -> str | None:
    """Return the mistake the attempt's problem was generated to show, None when untargeted."""
    spec = attempt.problem.spec
    generator = spec.get("generator") if isinstance(spec, dict) else None
    target = generator.get("target") if isinstance(generator, dict) else None
    return str(target) if target else None


def credit_targets_of(*, copy: CourseCopy, kind: str) -> dict[tuple[str, str | None], float]:
    """Return what a right answer to ``kind`` credits down the graph of the copy's course
    version (nothing when graph credit is switched off); read once per process and version."""
    if not policy.graph_credit():
        return {}
    return copy_credit_targets(copy=copy, kind=kind)


def credit_plan_lock(*, attempt: Attempt) -> CreditPlan | None:
    """Lock and return the learner's items a right answer to this attempt's kind credits.

    Call inside the attempt's transaction before locking any item (rows are locked in
    primary-key order, so two answers crediting overlapping items cannot deadlock). Returns
    None when no policy gives credit.
    """
    implicit = policy.implicit_credit()
    if not (implicit or policy.graph_credit()):
        return None
    kind = attempt.problem.kind
    plan = CreditPlan(
        kind=kind,
        implicit=implicit,
        targets=credit_targets_of(copy=attempt.copy, kind=kind),
        aimed_at=_aimed_at(attempt),
    )
    kinds = {k for k, _mistake in plan.targets}
    if implicit:
        kinds.add(kind)
    if kinds:
        plan.items = list(
            ReviewItem.objects.select_for_update()
            .filter(copy_id=attempt.copy_id, kind__in=sorted(kinds))
            .order_by("pk")
        )
    return plan


def credit_apply(
    *,
    plan: CreditPlan,
    attempt: Attempt,
    skip_item_id: int | None,
    review_settings: Callable[[], ReviewSettings],
) -> list[ReviewLog]:
    """Credit every locked item of the plan (but the one the attempt reviewed) once.

    Credit is evidence, never a review: an item of the answer's own kind (origin ``implicit``)
    gets its evidence share, an item the graph reaches (origin ``graph``) its capped fraction;
    either only moves the due date (``cards.card_credit``), never the card's memory state.
    Items already credited by this attempt are skipped, and so are items never reviewed.
    """
    candidates = [
        (item, fraction)
        for item in plan.items
        if item.pk != skip_item_id and (fraction := plan.fraction(item)) > 0
    ]
    if not candidates:
        return []
    done = set(
        ReviewLog.objects.filter(
            attempt=attempt, item_id__in=[item.pk for item, _f in candidates]
        ).values_list("item_id", flat=True)
    )
    logs = []
    for item, fraction in candidates:
        if item.pk in done:
            continue
        if item.stability is None:
            continue  # never reviewed: nothing to push
        origin = ReviewLog.Origin.IMPLICIT if item.kind == plan.kind else ReviewLog.Origin.GRAPH
        logs.append(
            card_credit(
                item=item,
                attempt=attempt,
                fraction=fraction,
                origin=origin,
                review_settings=review_settings(),
            )
        )
        item.save(update_fields=CARD_FIELDS)
    return logs
