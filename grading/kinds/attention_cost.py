"""``attention_cost``: attention's score entries at two lengths, and how many times more.

Attention computes one score for every pair of positions it compares. With a ``full`` mask
every position is compared with every position, itself included: $n^2$ scores. With a
``causal`` mask every position is compared with itself and every earlier one:
$n(n+1)/2$ scores. The learner gives the scores at the short length (the pieces), at the long
length (the characters) and the cost ratio long / short.

The answer is a tuple: part 0 and part 1 the score entries (integers), part 2 the ratio (an
exact scalar; a decimal counts under the engine's decimal policy).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import IntegerShape, ScalarShape, TupleShape
from grading.spec import SpecError

MASKS = ("full", "causal")
MAX_LENGTH = 200

Answer = tuple[int, int, Fraction]


@dataclass(frozen=True)
class AttentionCostProblem:
    """Two sequence lengths (short, then long) and the attention mask."""

    short: int
    long: int
    mask: str


def entries(n: int, mask: str) -> int:
    """Return the number of scores attention computes over ``n`` positions under ``mask``."""
    return n * n if mask == "full" else n * (n + 1) // 2


def entries_without_self(n: int, mask: str) -> int:
    """Return the scores left when a position is never compared with itself."""
    return n * (n - 1) if mask == "full" else n * (n - 1) // 2


def other(mask: str) -> str:
    return "causal" if mask == "full" else "full"


def formula_tex(mask: str, n: int | str = "n") -> str:
    """Return the count of scores under ``mask`` as TeX, for ``n`` a number or a symbol."""
    if mask == "full":
        return f"{n}^2" if isinstance(n, str) else f"{n}^2 = {n * n}"
    if isinstance(n, str):
        return r"\frac{n(n+1)}{2}"
    return f"\\frac{{{n} \\cdot {n + 1}}}{{2}} = {entries(n, mask)}"


def _frac_tex(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _triple(a: int, b: int) -> Answer:
    return a, b, Fraction(b, a)


def _right(p: AttentionCostProblem) -> Answer:
    return _triple(entries(p.short, p.mask), entries(p.long, p.mask))


def ratio_tex(top: int, bottom: int) -> str:
    """Return ``\\frac{top}{bottom}``, then reduced and as a decimal where that says more:
    ``\\frac{378}{21} = 18``, ``\\frac{325}{21} \\approx 15.5``."""
    value = Fraction(top, bottom)
    text = f"\\frac{{{top}}}{{{bottom}}}"
    if value.denominator == 1:
        return f"{text} = {value.numerator}"
    if value.denominator != bottom:
        text += f" = {_frac_tex(value)}"
    relation = "=" if value * 1000 == int(value * 1000) else "\\approx"
    return f"{text} {relation} {float(value):.3g}"


def _ratio_line(p: AttentionCostProblem) -> str:
    a, b, _ = _right(p)
    return f"${ratio_tex(b, a)}$"


def _mask_words(mask: str) -> str:
    if mask == "full":
        return "every position is compared with every position, itself included"
    return "every position is compared with itself and every earlier position"


# -- mistakes ------------------------------------------------------------------------------


def _linear_variants(p: AttentionCostProblem) -> Iterable[Variant]:
    yield Variant("scaled_linearly", (2,), {})


def _linear_apply(p: AttentionCostProblem, v: Variant) -> Answer:
    a, b, _ = _right(p)
    return a, b, Fraction(p.long, p.short)


def _linear_explain(p: AttentionCostProblem, d: object) -> str:
    return (
        f"Your ratio, ${ratio_tex(p.long, p.short)}$, "
        f"is the ratio of the lengths: it assumes the cost grows in step with the length. "
        f"Attention scores pairs of positions, so the cost grows faster: divide the score "
        f"counts, {_ratio_line(p)}."
    )


def _no_self_variants(p: AttentionCostProblem) -> Iterable[Variant]:
    yield Variant("left_out_self_pairs", (0,), {})


def _no_self_apply(p: AttentionCostProblem, v: Variant) -> Answer:
    return _triple(entries_without_self(p.short, p.mask), entries_without_self(p.long, p.mask))


def _no_self_explain(p: AttentionCostProblem, d: object) -> str:
    a = entries_without_self(p.short, p.mask)
    return (
        f"Your counts leave out the pairs of a position with itself: {a} at {p.short} "
        f"positions is {entries(p.short, p.mask)} minus the {p.short} self pairs. Each "
        f"position also scores itself (the diagonal of the grid), so the counts are "
        f"${formula_tex(p.mask, p.short)}$ and ${formula_tex(p.mask, p.long)}$, and the "
        f"ratio is {_ratio_line(p)}."
    )


def _other_mask_variants(p: AttentionCostProblem) -> Iterable[Variant]:
    yield Variant("other_mask", (0,), {"mask": other(p.mask)})


def _other_mask_apply(p: AttentionCostProblem, v: Variant) -> Answer:
    return _triple(entries(p.short, other(p.mask)), entries(p.long, other(p.mask)))


def _other_mask_explain(p: AttentionCostProblem, d: object) -> str:
    used = other(p.mask)
    return (
        f"Your counts are those of the {used} mask (${formula_tex(used)}$ scores: "
        f"{_mask_words(used)}). This attention is {p.mask}: {_mask_words(p.mask)}, so it "
        f"computes ${formula_tex(p.mask)}$ scores: ${formula_tex(p.mask, p.short)}$ and "
        f"${formula_tex(p.mask, p.long)}$, ratio {_ratio_line(p)}."
    )


def _inverted_variants(p: AttentionCostProblem) -> Iterable[Variant]:
    yield Variant("ratio_inverted", (2,), {})


def _inverted_apply(p: AttentionCostProblem, v: Variant) -> Answer:
    a, b, _ = _right(p)
    return a, b, Fraction(a, b)


def _inverted_explain(p: AttentionCostProblem, d: object) -> str:
    a, b, _ = _right(p)
    return (
        f"Your ratio is upside down: ${ratio_tex(a, b)}$ is less than 1, the short "
        f"sequence's cost as a share of the long one's. The question asks how many times more "
        f"the long sequence costs: {_ratio_line(p)}."
    )


@register
class AttentionCost(Kind):
    """Count attention's scores at two lengths under a stated mask; give the cost ratio."""

    name = "attention_cost"
    label = "Attention's score entries at two lengths"
    mistakes = (
        MistakeDef(
            code="scaled_linearly",
            number=1,
            label="scaled the cost with the length",
            parts="[2]: the ratio",
            variants=_linear_variants,
            apply=_linear_apply,
            explain=_linear_explain,
        ),
        MistakeDef(
            code="left_out_self_pairs",
            number=2,
            label="left out each position's score with itself",
            parts="[0]: the score counts",
            variants=_no_self_variants,
            apply=_no_self_apply,
            explain=_no_self_explain,
        ),
        MistakeDef(
            code="other_mask",
            number=3,
            label="counted the scores of the other mask",
            parts="[0]: the score counts",
            variants=_other_mask_variants,
            apply=_other_mask_apply,
            explain=_other_mask_explain,
        ),
        MistakeDef(
            code="ratio_inverted",
            number=4,
            label="turned the ratio upside down",
            parts="[2]: the ratio",
            variants=_inverted_variants,
            apply=_inverted_apply,
            explain=_inverted_explain,
        ),
    )

    def load(self, spec: dict) -> AttentionCostProblem:
        """Validate ``short`` < ``long`` (positions) and ``mask``; raise ``SpecError`` naming
        the field."""
        short, long, mask = spec.get("short"), spec.get("long"), spec.get("mask")
        for field, value in (("short", short), ("long", long)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SpecError(field, "must be an integer number of positions")
            if not 2 <= value <= MAX_LENGTH:
                raise SpecError(field, f"must be between 2 and {MAX_LENGTH}")
        if not short < long:
            raise SpecError("long", "must be greater than short")
        if mask not in MASKS:
            raise SpecError("mask", f"must be one of {list(MASKS)}")
        return AttentionCostProblem(short=short, long=long, mask=mask)

    def shape(self, problem: AttentionCostProblem) -> TupleShape:
        return TupleShape(
            (IntegerShape(), IntegerShape(), ScalarShape()),
            ("scores at the short length", "scores at the long length", "the cost ratio"),
        )

    def right(self, problem: AttentionCostProblem) -> Answer:
        return _right(problem)

    def right_tex(self, problem: AttentionCostProblem) -> str:
        a, b, ratio = _right(problem)
        return f"{a};\\ {b};\\ {_frac_tex(ratio)}"

    def steps(self, problem: AttentionCostProblem) -> tuple[Step, ...]:
        mask, short, long = problem.mask, problem.short, problem.long

        def count(n: int) -> int:
            return n * n if mask == "full" else n * (n + 1) // 2

        a, b = count(short), count(long)
        return (
            Step(
                f"Under a {mask} mask, {_mask_words(mask)}: ${formula_tex(mask)}$ scores for "
                "$n$ positions."
            ),
            Step(f"At {short} positions: ${formula_tex(mask, short)}$.", a),
            Step(f"At {long} positions: ${formula_tex(mask, long)}$.", b),
            Step(
                f"How many times more: ${ratio_tex(b, a)}$. The answer is "
                f"${a};\\ {b};\\ {_frac_tex(Fraction(b, a))}$.",
                (a, b, Fraction(b, a)),
            ),
        )

    def hint(self, problem: AttentionCostProblem) -> str:
        return (
            f"Under a {problem.mask} mask, {_mask_words(problem.mask)}: "
            f"${formula_tex(problem.mask)}$ scores for $n$ positions. Count them at both "
            f"lengths, then divide the long count by the short one."
        )
