"""`contrast`: the same word in two sentences, `h_i^B - h_i^A`.

Spec fields: `position`, `weights`, `rows_a`, `rows_b` (the two sentences' rows), and optionally
`tokens_a`, `tokens_b`. The answer is a vector; a written-out answer is matched against the
terms `+w_k x_k^B` and `-w_k x_k^A` (a position whose row is the same in both cancels).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any

from ..exact import (
    difference,
    floats,
    ratio_offset_equal,
    rational_difference_sum,
    rational_sum,
    scale,
)
from ..fraction_parts import num_den
from ..shapes import Shape, Vector
from ..spec import (
    MAX_POSITIONS,
    SpecError,
    canonical_number,
    list_field,
    numbers,
    position,
    rows,
    rows_out,
    same_length,
    strings,
)
from ..terms import TermTable
from ..tex import ratios_tex, scalar_tex, vector_tex
from ..verdict import Diagnosis
from ._sums import vector_total
from .base import (
    SOLVE_BOUND,
    Form,
    Gap,
    Kind,
    MistakeDef,
    Numbered,
    Step,
    Variant,
    gettext_noop,
    near,
    register,
    variant,
)
from .lookup import SAME_ROW_POINT

Row = tuple[Fraction, ...]


@dataclass(frozen=True, eq=False)
class ContrastProblem:
    position: int
    weights: tuple[Fraction, ...]
    rows_a: tuple[Row, ...]
    rows_b: tuple[Row, ...]
    tokens_a: tuple[str, ...] = ()
    tokens_b: tuple[str, ...] = ()


P = ContrastProblem


def term_name(p: P, k: int) -> str:
    """Return 'the term for position 2 (*bank* in A, *money* in B)'."""
    if p.tokens_a:
        a, b = p.tokens_a[k], p.tokens_b[k]
        words = f"*{a}* in both sentences" if a == b else f"*{a}* in A, *{b}* in B"
        return f"the term for position {k} ({words})"
    return f"the term for position {k}"


@lru_cache(maxsize=512)
def _right(p: P) -> tuple[Fraction, ...]:
    # h^B - h^A as one sum of w_k (x_k^B - x_k^A), in integers
    return rational_difference_sum(p.weights, p.rows_b, p.rows_a)


def _answer(p: P) -> str:
    i = p.position  # written as the statement writes it: h_2^B - h_2^A, not h_i
    return f"$\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A = {vector_tex(_right(p))}$"


def _forgot_weight_variants(p: P) -> list[Variant]:
    return [variant("forgot_weight", (k,)) for k in range(len(p.rows_a))]


def _forgot_weight_form(p: P, d: Any) -> Form:
    (k,) = d.terms
    change = 1 - p.weights[k]
    return (1, ((change, p.rows_b[k]), (-change, p.rows_a[k])))


# The float filters below read each coordinate's float as the correctly rounded quotient of
# its Fraction (what `exact.floats` gives), one coordinate at a time: most candidates fail at
# the first, so the rest of a row is never converted.


def _forgot_weight_solve(p: P, gap: Gap) -> list[Variant]:
    # (1 - w_k)(x_k^B - x_k^A) = diff
    approx = gap.approx
    out = []
    for k, weight in enumerate(p.weights):
        top, bottom = num_den(weight)
        if top == bottom:
            continue  # a weight of 1: forgetting it changes nothing
        change = (bottom - top) / bottom  # float(1 - w)
        row_b, row_a = p.rows_b[k], p.rows_a[k]
        for d, (bn, bd), (an, ad) in zip(
            approx, map(num_den, row_b), map(num_den, row_a), strict=True
        ):
            if not near(d, change * (bn / bd - an / ad)):
                break
        else:
            if ratio_offset_equal(gap.answer, gap.right, bottom - top, bottom, row_b, row_a):
                out.append(variant("forgot_weight", (k,)))
    return out


def _reversed_solve(p: P, gap: Gap) -> list[Variant]:
    # -right = right + diff: diff = 2 * answer
    if not all(near(d, 2 * a) for d, a in zip(gap.approx, gap.answer_approx, strict=True)):
        return []
    exact = ratio_offset_equal(gap.answer, gap.right, -2, 1, gap.right)
    return [variant("reversed_difference")] if exact else []


def _one_side_solve(p: P, gap: Gap) -> list[Variant]:
    # h^B (or h^A) = answer
    weights = floats(p.weights)
    # the first coordinate of both sides in one pass (summed as `sum` adds, left to right):
    # it rules out almost every answer before a side's loop
    first_b = first_a = 0
    for w, row_b, row_a in zip(weights, p.rows_b, p.rows_a, strict=True):
        (xn, xd), (yn, yd) = num_den(row_b[0]), num_den(row_a[0])
        first_b += w * (xn / xd)
        first_a += w * (yn / yd)
    first = gap.answer_approx[0]
    out = []
    for side, values, made in (("b", p.rows_b, first_b), ("a", p.rows_a, first_a)):
        if not near(first, made):
            continue
        for d, a in enumerate(gap.answer_approx):
            made = sum(
                w * (n / den)
                for w, (n, den) in zip(weights, (num_den(row[d]) for row in values), strict=True)
            )
            if not near(a, made):
                break
        else:
            if rational_sum(p.weights, values) == gap.answer:
                out.append(variant("answered_one_side", (), {"side": side}))
    return out


def _forgot_weight_explain(p: P, d: Diagnosis) -> str:
    (k,) = d.terms
    # x_k^B - x_k^A and w_k times it, written from integers (`load` reads Fractions)
    steps = [
        (bn * ad - an * bd, bd * ad)
        for (bn, bd), (an, ad) in zip(
            map(num_den, p.rows_b[k]), map(num_den, p.rows_a[k]), strict=True
        )
    ]
    top, bottom = p.weights[k].numerator, p.weights[k].denominator
    diff = ratios_tex(steps)
    right = ratios_tex([(top * n, bottom * m) for n, m in steps])
    return (
        f"In {term_name(p, k)}, you seem to have used "
        f"$\\mathbf{{x}}_{k}^B - \\mathbf{{x}}_{k}^A = {diff}$ without its "
        f"weight ${scalar_tex(p.weights[k])}$. The term should be "
        f"${scalar_tex(p.weights[k])}\\,{diff} = {right}$, "
        f"so {_answer(p)}."
    )


def _reversed_explain(p: P, d: Diagnosis) -> str:
    return (
        f"You seem to have computed $\\mathbf{{h}}_{{{p.position}}}^A - "
        f"\\mathbf{{h}}_{{{p.position}}}^B$: every sign is "
        f"flipped. The question asks for sentence B minus sentence A: {_answer(p)}."
    )


def _one_side_form(p: P, d: Any) -> Form:
    values = p.rows_b if d.detail.get("side", "b") == "b" else p.rows_a
    return (0, tuple(zip(p.weights, values, strict=True)))


def _one_side_explain(p: P, d: Diagnosis) -> str:
    side = str(d.detail.get("side", "b")).upper()
    return (
        f"You seem to have given $\\mathbf{{h}}_i^{side}$ alone. The question asks for the "
        f"difference, {_answer(p)}. {SAME_ROW_POINT} Only the rows around it differ, so only "
        "those terms survive the difference."
    )


@register
class Contrast(Kind):
    name = "contrast"
    label = gettext_noop("Same word, two sentences")
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.weights), first=0)}
    mistakes = (
        MistakeDef(
            code="forgot_weight",
            number=10,
            label=gettext_noop("gave a row difference without its weight"),
            parts="[k]: the position whose difference x_k^B - x_k^A lost its weight",
            variants=_forgot_weight_variants,
            form=_forgot_weight_form,
            solve=_forgot_weight_solve,
            explain=_forgot_weight_explain,
            describe=lambda p, d: f"leaving the weight out of {term_name(p, d.terms[0])}",
        ),
        MistakeDef(
            code="reversed_difference",
            number=11,
            label=gettext_noop("subtracted the wrong way round"),
            form=lambda p, d: (-1, ()),
            solve=_reversed_solve,
            explain=_reversed_explain,
        ),
        MistakeDef(
            code="answered_one_side",
            number=12,
            label=gettext_noop("gave one sentence's vector instead of the difference"),
            variants=lambda p: [variant("answered_one_side", (), {"side": s}) for s in "ba"],
            form=_one_side_form,
            solve=_one_side_solve,
            explain=_one_side_explain,
            describe=lambda p, d: (
                f"giving $\\mathbf{{h}}_i^{d.detail.get('side', 'b').upper()}$ alone"
            ),
        ),
    )

    def load(self, spec: dict[str, Any]) -> P:
        rows_a = rows(spec, "rows_a", low=1, high=MAX_POSITIONS)
        rows_b = rows(spec, "rows_b", low=1, high=MAX_POSITIONS)
        same_length("rows_b", rows_b, "rows_a", len(rows_a))
        if len(rows_b[0]) != len(rows_a[0]):
            raise SpecError("rows_b[0]", "has a different number of coordinates from rows_a")
        raw = list_field(spec, "weights", low=1, high=MAX_POSITIONS)
        weights = numbers(raw, "weights")
        same_length("weights", weights, "rows_a", len(rows_a))
        at = position(spec, len(rows_a))
        tokens_a: tuple[str, ...] = ()
        tokens_b: tuple[str, ...] = ()
        if "tokens_a" in spec or "tokens_b" in spec:
            tokens_a = strings(spec, "tokens_a", low=1, high=MAX_POSITIONS)
            tokens_b = strings(spec, "tokens_b", low=1, high=MAX_POSITIONS)
            same_length("tokens_a", tokens_a, "rows_a", len(rows_a))
            same_length("tokens_b", tokens_b, "rows_b", len(rows_b))
        return P(at, weights, rows_a, rows_b, tokens_a, tokens_b)

    def normal(self, problem: P) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if problem.tokens_a:
            out.update(tokens_a=list(problem.tokens_a), tokens_b=list(problem.tokens_b))
        out["position"] = problem.position
        out["weights"] = [canonical_number(w) for w in problem.weights]
        out.update(rows_a=rows_out(problem.rows_a), rows_b=rows_out(problem.rows_b))
        return out

    def shape(self, problem: P) -> Shape:
        return Vector(len(problem.rows_a[0]))

    def right(self, problem: P) -> tuple[Fraction, ...]:
        return _right(problem)

    def solves(self, problem: P) -> bool:
        numbers = floats([*problem.weights, *chain(*problem.rows_a, *problem.rows_b)])
        return max(map(abs, numbers)) <= SOLVE_BOUND

    def size(self, problem: P) -> int:
        return len(problem.rows_a)

    def terms(self, problem: P) -> TermTable:
        weights: list[Fraction] = []
        values: list[Row] = []
        names: list[str] = []
        for k, weight in enumerate(problem.weights):
            if problem.rows_a[k] == problem.rows_b[k]:
                continue
            for sign, side, row, tokens in (
                (1, "B", problem.rows_b[k], problem.tokens_b),
                (-1, "A", problem.rows_a[k], problem.tokens_a),
            ):
                weights.append(sign * weight)
                values.append(row)
                token = f", *{tokens[k]}*" if tokens else ""
                names.append(f"the term for position {k} of sentence {side}{token}")
        return TermTable(tuple(weights), tuple(values), tuple(names), cancel_pairs=True)

    def hint(self, problem: P) -> str:
        return "Compute each sentence's sum, then subtract A from B."

    def steps(self, problem: P) -> tuple[Step, ...]:
        i = problem.position
        same = [k for k in range(len(problem.weights)) if problem.rows_a[k] == problem.rows_b[k]]
        steps = [
            Step(
                "Both sentences use the same weights, so "
                f"$\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A = \\sum_k w_{{{i}k}}\\,"
                "(\\mathbf{x}_k^B - \\mathbf{x}_k^A)$: a position whose row is the same in "
                "both sentences cancels"
                + (
                    f" (here position{'s' if len(same) > 1 else ''} "
                    + ", ".join(str(k) for k in same)
                    + ")."
                    if same
                    else "; here no position does."
                )
            )
        ]
        terms = []
        for k, w in enumerate(problem.weights):
            if k in same:
                continue
            change = difference(problem.rows_b[k], problem.rows_a[k])
            term = scale(w, change)
            terms.append(term)
            steps.append(
                Step(
                    f"Position {k}: $\\mathbf{{x}}_{{{k}}}^B - \\mathbf{{x}}_{{{k}}}^A = "
                    f"{vector_tex(problem.rows_b[k])} - {vector_tex(problem.rows_a[k])} = "
                    f"{vector_tex(change)}$, times its weight ${scalar_tex(w)}$: "
                    f"${vector_tex(term)}$.",
                    term,
                )
            )
        if not terms:
            terms.append(tuple(Fraction(0) for _ in problem.rows_a[0]))
        total = vector_total(terms)
        added = " + ".join(vector_tex(t) for t in terms) + " = "
        words = "Add the terms"
        if len(terms) == 1:
            added, words = "", "The difference is that one term"
        steps.append(
            Step(
                f"{words}: $\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A = {added}"
                f"{vector_tex(total)}$.",
                total,
            )
        )
        return tuple(steps)
