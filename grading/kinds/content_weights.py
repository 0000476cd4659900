"""`content_weights`: weights computed from content, `w_ij = softmax_j(x_i . x_j)`, and the
mix `h_i = sum_j w_ij x_j`.

Spec fields: `tokens`, `position` (i), `rows` (x_j); every score `x_i . x_j` stays within
±MAX_SCORE with denominators up to MAX_SCORE_DENOMINATOR, so exact answers (in `exp` of the
scores) stay cheap to confirm. The answer is a vector, exact in `exp`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy

from ..compare import (
    Bound,
    Scalar,
    bound_exp,
    bound_product,
    bound_quotient,
    bound_sum,
    float_bound,
    to_sympy,
)
from ..exact import combine, dot, exp_of
from ..shapes import Shape, Vector
from ..spec import MAX_POSITIONS, SpecError, position, rows, rows_out, same_length, strings
from ..terms import TermTable
from ..tex import scalar_tex, vector_tex
from ..verdict import Diagnosis
from ._sums import SELF_POINT, term_name
from .base import Kind, MistakeDef, Numbered, Step, Variant, gettext_noop, register, variant

MAX_SCORE = 60
MAX_SCORE_DENOMINATOR = 60

Row = tuple[Fraction, ...]


@dataclass(frozen=True, eq=False)
class ContentProblem:
    tokens: tuple[str, ...]
    position: int
    rows: tuple[Row, ...]
    scores: tuple[Fraction, ...]  # s_ij = x_i . x_j, found while the spec is checked


P = ContentProblem


def scores(p: P) -> tuple[Fraction, ...]:
    """Return the content scores s_ij = x_i . x_j."""
    return p.scores


def softmax(exponents: Sequence[Fraction]) -> tuple[sympy.Expr, ...]:
    """Return exact softmax weights exp(a_j) / sum_k exp(a_k)."""
    powers = [exp_of(a) for a in exponents]
    total = sympy.Add(*powers)
    return tuple(p / total for p in powers)


def softmax_combine(exponents: Sequence[Fraction], values: Sequence[Sequence[Scalar]]) -> tuple:
    """Return sum_j softmax(a)_j x_j as one fraction per coordinate (numerator / total)."""
    powers = [exp_of(a) for a in exponents]
    total = sympy.Add(*powers)
    dim = len(values[0])
    return tuple(
        sympy.Add(*[p * to_sympy(row[d]) for p, row in zip(powers, values, strict=True)]) / total
        for d in range(dim)
    )


def _bounded(x: Fraction) -> Bound:
    found = float_bound(x)
    if found is None:
        raise OverflowError("a number past a double's range")
    return found


def estimate_combine(
    exponents: Sequence[Fraction], values: Sequence[Sequence[Fraction]], *, divide: bool
) -> tuple[Bound, ...]:
    """Return sum_j exp(a_j) x_j, divided by sum_k exp(a_k) when `divide` (the softmax), as
    floats with bounds on their errors: what `softmax_combine` (or `combine` of the exp
    values) gives, estimated without SymPy."""
    powers = [bound_exp(a) for a in exponents]
    total = bound_sum(powers)
    out = []
    for d in range(len(values[0])):
        top = bound_sum(
            bound_product(p, _bounded(row[d])) for p, row in zip(powers, values, strict=True)
        )
        out.append(bound_quotient(top, total) if divide else top)
    return tuple(out)


def _omitted(p: P) -> tuple[list[Fraction], list[Row]]:
    keep = [j for j in range(len(p.rows)) if j != p.position]
    s = scores(p)
    return [s[j] for j in keep], [p.rows[j] for j in keep]


@lru_cache(maxsize=512)
def weights(p: P) -> tuple[sympy.Expr, ...]:
    """Return the exact weights w_ij = softmax_j(x_i . x_j)."""
    return softmax(scores(p))


def _positional_exponents(p: P) -> tuple[Fraction, ...]:
    return tuple(Fraction(-abs(p.position - j)) for j in range(len(p.rows)))


def _scores_tex(p: P) -> str:
    listed = ", ".join(scalar_tex(x) for x in scores(p))
    i = p.position
    return f"the scores $s_{{{i},j}} = \\mathbf{{x}}_{i}\\cdot\\mathbf{{x}}_j$ are $({listed})$"


def _explain(did):
    def explain(p: P, d: Diagnosis) -> str:
        i = p.position
        formula = f"$w_{{{i},j}} = e^{{s_{{{i},j}}}} / \\sum_k e^{{s_{{{i},k}}}}$, which add to 1"
        answer = f"$\\mathbf{{h}}_{i} = {vector_tex(_right(p))}$"
        return f"{did(p)} Here {_scores_tex(p)}, the weights are {formula}, and {answer}."

    return explain


def _omitted_self_did(p: P) -> str:
    i = p.position
    token = f", *{p.tokens[i]}*" if p.tokens else ""
    return (
        f"You seem to have left out the self score $s_{{{i},{i}}}$ of position {i}{token} (its "
        "own row's score with itself) from the softmax and the sum. "
        + SELF_POINT.format(w=scalar_tex(weights(p)[i]))
    )


def _omitted_self_variants(p: P) -> list[Variant]:
    return [variant("omitted_self_score", (p.position,))] if len(p.rows) > 1 else []


def _omitted_self_apply(p: P, d: Any) -> tuple:
    return softmax_combine(*_omitted(p))


def _omitted_self_weights(p: P) -> tuple[Any, ...] | None:
    if len(p.rows) < 2:
        return None
    i = p.position
    out: list[Any] = list(softmax([x for j, x in enumerate(scores(p)) if j != i]))
    out.insert(i, None)
    return tuple(out)


@lru_cache(maxsize=512)
def _right(p: P) -> tuple:
    return softmax_combine(scores(p), p.rows)


@register
class ContentWeights(Kind):
    name = "content_weights"
    label = gettext_noop("Weights from content")
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.tokens), first=0)}
    mistakes = (
        MistakeDef(
            code="unnormalised_weights",
            number=13,
            label=gettext_noop("used exp of the scores as weights, without dividing"),
            apply=lambda p, d: combine([sympy.exp(to_sympy(s)) for s in scores(p)], p.rows),
            explain=_explain(
                lambda p: (
                    f"You seem to have used $e^{{s_{{{p.position},j}}}}$ as the weights without "
                    "dividing by their sum."
                )
            ),
            weights=lambda p: tuple(sympy.exp(to_sympy(x)) for x in scores(p)),
            estimate=lambda p, d: estimate_combine(scores(p), p.rows, divide=False),
        ),
        MistakeDef(
            code="positional_weights",
            number=14,
            label=gettext_noop("weighted by position instead of content"),
            apply=lambda p, d: softmax_combine(_positional_exponents(p), p.rows),
            explain=_explain(
                lambda p: (
                    "You seem to have weighted the positions by their distance, "
                    f"$\\mathrm{{softmax}}_j(-|{p.position}-j|)$. The weights come from the "
                    "content, not the position."
                )
            ),
            weights=lambda p: softmax(_positional_exponents(p)),
            estimate=lambda p, d: estimate_combine(_positional_exponents(p), p.rows, divide=True),
        ),
        MistakeDef(
            code="omitted_self_score",
            number=15,
            label=gettext_noop("left the position's own score out"),
            parts="[i]: the position whose own score was left out",
            variants=_omitted_self_variants,
            apply=_omitted_self_apply,
            explain=_explain(_omitted_self_did),
            weights=_omitted_self_weights,
            estimate=lambda p, d: estimate_combine(*_omitted(p), divide=True),
        ),
        MistakeDef(
            code="raw_scores",
            number=16,
            label=gettext_noop("used the raw scores as weights"),
            apply=lambda p, d: combine(scores(p), p.rows),
            explain=_explain(
                lambda p: (
                    f"You seem to have used the scores $s_{{{p.position},j}}$ themselves as "
                    "weights; the weights are their softmax."
                )
            ),
            weights=scores,
            estimate=lambda p, d: tuple(_bounded(x) for x in combine(scores(p), p.rows)),
        ),
    )

    def load(self, spec: dict[str, Any]) -> P:
        values = rows(spec, "rows", low=1, high=MAX_POSITIONS)
        tokens = strings(spec, "tokens", low=1, high=MAX_POSITIONS)
        same_length("tokens", tokens, "rows", len(values))
        at = position(spec, len(values))
        found = tuple(dot(values[at], row) for row in values)
        for j, score in enumerate(found):
            if abs(score) > MAX_SCORE or score.denominator > MAX_SCORE_DENOMINATOR:
                raise SpecError(
                    f"rows[{j}]",
                    f"its score with the row at position {at} is {score}; scores must "
                    f"stay within ±{MAX_SCORE} with denominators up to {MAX_SCORE_DENOMINATOR}",
                )
        return P(tokens, at, values, found)

    def normal(self, problem: P) -> dict[str, Any]:
        return {
            "tokens": list(problem.tokens),
            "position": problem.position,
            "rows": rows_out(problem.rows),
        }

    def shape(self, problem: P) -> Shape:
        return Vector(len(problem.rows[0]))

    def right(self, problem: P) -> tuple:
        return _right(problem)

    def size(self, problem: P) -> int:
        return len(problem.rows)

    def terms(self, problem: P) -> TermTable:
        names = tuple(term_name(problem.tokens, k) for k in range(len(problem.rows)))
        return TermTable(weights(problem), problem.rows, names)

    def hint(self, problem: P) -> str:
        return "Check the scores, their softmax, and each weighted row."

    def steps(self, problem: P) -> tuple[Step, ...]:
        i, rows_ = problem.position, problem.rows
        own = rows_[i]
        found = tuple(dot(own, row) for row in rows_)
        listed = ", ".join(
            f"$s_{{{i},{j}}} = {vector_tex(own)}\\cdot{vector_tex(row)} = {scalar_tex(x)}$"
            for j, (row, x) in enumerate(zip(rows_, found, strict=True))
        )
        powers = " + ".join(f"e^{{{scalar_tex(x)}}}" for x in found)
        shares = softmax(found)
        weights_tex = ", ".join(
            f"$w_{{{i},{j}}} = {scalar_tex(w)} \\approx {float(w):.3f}$"
            for j, w in enumerate(shares)
        )
        total = softmax_combine(found, rows_)
        approx = ", ".join(f"{float(x):.3f}" for x in total)
        return (
            Step(
                f"Score every position against position {i} with the dot product "
                f"$s_{{{i},j}} = \\mathbf{{x}}_{{{i}}}\\cdot\\mathbf{{x}}_j$: {listed}."
            ),
            Step(
                f"Softmax the scores: $w_{{{i},j}} = e^{{s_{{{i},j}}}} / ({powers})$, so "
                f"{weights_tex} (they add to 1)."
            ),
            Step(
                f"Mix the rows with these weights: $\\mathbf{{h}}_{{{i}}} = \\sum_j "
                f"w_{{{i},j}}\\,\\mathbf{{x}}_j = {vector_tex(total)}$ "
                f"(about $({approx})$).",
                total,
            ),
        )
