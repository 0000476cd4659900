"""`weighted_sum`: one layer's mix at a word, `h_i = sum_j w_ij x_j`.

Spec fields: `tokens`, `position` (i), `weights` (w_ij over j), `rows` (x_j). The answer is a
vector, typed as the final vector or as the sum written out term by term (then each term is
matched against the problem's terms and the wrong one is named).

This module is the catalog: each mistake's variants, form, words and reading from written-out
terms. Solving the forms for a learner's vector is `_weighted_sum_solver.py`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..compare import as_fraction, equal, vectors_equal
from ..exact import ratio_literal, rational_combine
from ..shapes import Shape, Vector
from ..spec import (
    MAX_POSITIONS,
    canonical_number,
    list_field,
    numbers,
    position,
    rows,
    rows_out,
    same_length,
    strings,
)
from ..terms import TermReport, TermTable
from ..tex import scalar_tex, vector_tex
from ..verdict import Diagnosis
from ._sums import SELF_POINT, right_term, row_name, sum_tex, term_name, weighted_sum_steps
from ._weighted_sum_problem import WeightedSumProblem
from ._weighted_sum_solver import (
    problem_floats,
    solve_omitted,
    solve_swapped,
    solve_wrong_row,
    solve_wrong_weight,
    whole_sum_solve,
)
from .base import (
    SOLVE_BOUND,
    Form,
    Kind,
    MistakeDef,
    Numbered,
    Step,
    Variant,
    gettext_noop,
    register,
    variant,
)

P = WeightedSumProblem
Row = tuple[Fraction, ...]
Diff = tuple[Fraction, ...]


def _term(p: P, k: int) -> str:
    return term_name(p.tokens, k)


def _right(p: P, k: int) -> str:
    return right_term(p.weights[k], p.rows[k])


def _weight_text(text: object) -> Fraction:
    """Return the weight a `detail["weight"]` names ("1/2", "1"), without Fraction's regex."""
    numerator, _, denominator = str(text).partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def _weight_of(text: object) -> Fraction:
    """Return the weight a `detail["weight"]` names, as Fraction(text) reads it (the usual
    spelling from the literals shared by every problem, without Fraction's regex)."""
    used = ratio_literal(text) if type(text) is str else None
    return Fraction(text) if used is None else used  # type: ignore[arg-type]


def _unique(values: list[Fraction]) -> list[Fraction]:
    seen: list[Fraction] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


# omitted_term


def _omitted_variants(p: P) -> list[Variant]:
    return [variant("omitted_term", (k,)) for k in range(len(p.rows))]


def _omitted_form(p: P, d: Any) -> Form:
    (k,) = d.terms
    return (1, ((-p.weights[k], p.rows[k]),))


def _omitted_explain(p: P, d: Diagnosis) -> str:
    (k,) = d.terms
    text = (
        f"Your answer leaves out {_term(p, k)}: it is the sum without that term. "
        f"That term is {_right(p, k)}."
    )
    if k == p.position:
        text += " " + SELF_POINT.format(w=scalar_tex(p.weights[k]))
    return text


def _omitted_from_terms(p: P, report: TermReport) -> Diagnosis | None:
    if len(report.issues) == 1 and report.issues[0][0] == "omitted":
        return Diagnosis("omitted_term", (report.issues[0][1],))
    return None


# wrong_weight


def _wrong_weight_variants(p: P) -> list[Variant]:
    out = []
    for k, own in enumerate(p.weights):
        others = [w for j, w in enumerate(p.weights) if j != k] + [Fraction(1)]
        for weight in _unique(others):
            if weight != own:
                out.append(variant("wrong_weight", (k,), {"weight": str(weight)}))
    return out


def _wrong_weight_form(p: P, d: Any) -> Form:
    (k,) = d.terms
    return (1, ((_weight_text(d.detail["weight"]) - p.weights[k], p.rows[k]),))


def _wrong_weight_explain(p: P, d: Diagnosis) -> str:
    (k,) = d.terms
    used = _weight_of(d.detail["weight"])
    where = "1, as if the row had no weight"
    top, bottom = used.numerator, used.denominator
    if top != 1 or bottom != 1:  # (Fractions are equal when their integers are)
        owners = [
            j
            for j, w in enumerate(p.weights)
            if w.numerator == top and w.denominator == bottom and j != k
        ]
        where = f"${scalar_tex(used)}$" + (
            f", the weight of {_term(p, owners[0])}" if owners else ""
        )
    return (
        f"In {_term(p, k)}, you seem to have used the weight {where}. Its weight "
        f"is ${scalar_tex(p.weights[k])}$, so the term should be {_right(p, k)}."
    )


def _wrong_weight_from_terms(p: P, report: TermReport) -> Diagnosis | None:
    if len(report.issues) != 1 or report.issues[0][0] != "weight":
        return None
    _, k, used = report.issues[0]
    fraction = as_fraction(used)
    if fraction is None:
        return None
    return Diagnosis("wrong_weight", (k,), detail={"weight": str(fraction)})


# wrong_row


def _wrong_row_variants(p: P) -> list[Variant]:
    n = len(p.rows)
    return [variant("wrong_row", (k,), {"row": r}) for k in range(n) for r in range(n) if r != k]


def _wrong_row_form(p: P, d: Any) -> Form:
    (k,) = d.terms
    row = p.rows[int(d.detail["row"])]
    return (1, ((p.weights[k], row), (-p.weights[k], p.rows[k])))


def _wrong_row_explain(p: P, d: Diagnosis) -> str:
    (k,) = d.terms
    if "row" in d.detail:
        row = int(d.detail["row"])
        used = f"{row_name(p.tokens, row)}, ${vector_tex(p.rows[row])}$"
    else:
        vector = [Fraction(x) for x in d.detail.get("vector", ())]
        used = f"the row ${vector_tex(vector)}$" if vector else "a different row"
    return (
        f"In {_term(p, k)}, you seem to have used {used}, instead of its own "
        f"row ${vector_tex(p.rows[k])}$. The term should be {_right(p, k)}."
    )


def _wrong_row_from_terms(p: P, report: TermReport) -> Diagnosis | None:
    if len(report.issues) != 1 or report.issues[0][0] != "row":
        return None
    _, k, used = report.issues[0]
    owners = [r for r, row in enumerate(p.rows) if vectors_equal(used, row)]
    if owners:
        return Diagnosis("wrong_row", (k,), detail={"row": owners[0]})
    vector = [str(as_fraction(x)) if as_fraction(x) is not None else str(x) for x in used]
    return Diagnosis("wrong_row", (k,), detail={"vector": vector})


def _wrong_row_describe(p: P, d: Diagnosis) -> str:
    if "row" not in d.detail:
        return "wrong row"
    return f"using {row_name(p.tokens, int(d.detail['row']))} in {_term(p, d.terms[0])}"


# swapped_weights


def _swapped_variants(p: P) -> list[Variant]:
    n = len(p.weights)
    return [
        variant("swapped_weights", (a, b))
        for a in range(n)
        for b in range(a + 1, n)
        if p.weights[a] != p.weights[b]
    ]


def _swapped_form(p: P, d: Any) -> Form:
    a, b = d.terms
    change = p.weights[b] - p.weights[a]
    return (1, ((change, p.rows[a]), (-change, p.rows[b])))


def _swapped_explain(p: P, d: Diagnosis) -> str:
    a, b = d.terms
    return (
        f"You seem to have exchanged the weights of {_term(p, a)}, and "
        f"{_term(p, b)}. Each weight belongs to its own row: the terms should be "
        f"{_right(p, a)} and {_right(p, b)}."
    )


def _swapped_from_terms(p: P, report: TermReport) -> Diagnosis | None:
    if len(report.issues) != 2 or {what for what, _, _ in report.issues} != {"weight"}:
        return None
    (_, a, used_a), (_, b, used_b) = sorted(report.issues, key=lambda x: x[1])
    if equal(used_a, p.weights[b]) and equal(used_b, p.weights[a]):
        return Diagnosis("swapped_weights", (a, b))
    return None


# unweighted_sum, plain_average


def _unweighted_explain(p: P, d: Diagnosis) -> str:
    return (
        "You seem to have added the rows without their weights. Each row is multiplied by "
        f"its weight first: $\\mathbf{{h}}_i = {sum_tex(p.weights, p.rows)}$."
    )


def _average_explain(p: P, d: Diagnosis) -> str:
    n = len(p.rows)
    return (
        f"You seem to have averaged the rows, each with weight $\\frac{{1}}{{{n}}}$. The "
        f"weights are the problem's own, not equal: "
        f"$\\mathbf{{h}}_i = {sum_tex(p.weights, p.rows)}$."
    )


@register
class WeightedSum(Kind):
    name = "weighted_sum"
    label = gettext_noop("Weighted sum of rows")
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.weights), first=0)}
    mistakes = (
        MistakeDef(
            code="omitted_term",
            number=1,
            label=gettext_noop("left a term out of the sum"),
            parts="[k]: the term left out (k = i is the self term, which the sum includes)",
            variants=_omitted_variants,
            form=_omitted_form,
            solve=solve_omitted,
            explain=_omitted_explain,
            describe=lambda p, d: f"leaving out {_term(p, d.terms[0])}",
            from_terms=_omitted_from_terms,
        ),
        MistakeDef(
            code="wrong_weight",
            number=2,
            label=gettext_noop("multiplied a row by the wrong weight"),
            parts="[k]: the term whose row got another term's weight, or 1",
            variants=_wrong_weight_variants,
            form=_wrong_weight_form,
            solve=solve_wrong_weight,
            explain=_wrong_weight_explain,
            describe=lambda p, d: (
                f"using the weight ${scalar_tex(_weight_of(d.detail['weight']))}$ in "
                f"{_term(p, d.terms[0])}"
            ),
            from_terms=_wrong_weight_from_terms,
        ),
        MistakeDef(
            code="wrong_row",
            number=3,
            label=gettext_noop("used the wrong row in a term"),
            parts="[k]: the term that used a row other than x_k",
            variants=_wrong_row_variants,
            form=_wrong_row_form,
            solve=solve_wrong_row,
            explain=_wrong_row_explain,
            describe=_wrong_row_describe,
            from_terms=_wrong_row_from_terms,
        ),
        MistakeDef(
            code="swapped_weights",
            number=4,
            label=gettext_noop("exchanged the weights of two terms"),
            parts="[a, b]: the two terms whose weights were exchanged (a < b)",
            variants=_swapped_variants,
            form=_swapped_form,
            solve=solve_swapped,
            explain=_swapped_explain,
            describe=lambda p, d: (
                f"exchanging the weights of {_term(p, d.terms[0])}, and {_term(p, d.terms[1])}"
            ),
            from_terms=_swapped_from_terms,
        ),
        MistakeDef(
            code="unweighted_sum",
            number=5,
            label=gettext_noop("added the rows without weights"),
            form=lambda p, d: (0, tuple((Fraction(1), row) for row in p.rows)),
            solve=whole_sum_solve("unweighted_sum", lambda p: Fraction(1), lambda p: 1.0),
            explain=_unweighted_explain,
            weights=lambda p: (Fraction(1),) * len(p.rows),
        ),
        MistakeDef(
            code="plain_average",
            number=6,
            label=gettext_noop("averaged the rows with equal weights"),
            form=lambda p, d: (0, tuple((Fraction(1, len(p.rows)), row) for row in p.rows)),
            solve=whole_sum_solve(
                "plain_average", lambda p: Fraction(1, len(p.rows)), lambda p: 1 / len(p.rows)
            ),
            explain=_average_explain,
            weights=lambda p: (Fraction(1, len(p.rows)),) * len(p.rows),
        ),
    )

    def load(self, spec: dict[str, Any]) -> P:
        values = rows(spec, "rows", low=1, high=MAX_POSITIONS)
        tokens = strings(spec, "tokens", low=1, high=MAX_POSITIONS)
        same_length("tokens", tokens, "rows", len(values))
        raw = list_field(spec, "weights", low=1, high=MAX_POSITIONS)
        weights = numbers(raw, "weights")
        same_length("weights", weights, "rows", len(values))
        return P(tokens, position(spec, len(values)), weights, values)

    def normal(self, problem: P) -> dict[str, Any]:
        return {
            "tokens": list(problem.tokens),
            "position": problem.position,
            "weights": [canonical_number(w) for w in problem.weights],
            "rows": rows_out(problem.rows),
        }

    def shape(self, problem: P) -> Shape:
        return Vector(len(problem.rows[0]))

    def right(self, problem: P) -> tuple[Fraction, ...]:
        # `load` reads every weight and row as Fractions: their sum in integers
        return rational_combine(problem.weights, problem.rows)

    def solves(self, problem: P) -> bool:
        weights, rows, *_ = problem_floats(problem)  # the solvers' own floats, kept per problem
        return max(map(abs, weights)) <= SOLVE_BOUND and all(
            max(map(abs, row)) <= SOLVE_BOUND for row in rows
        )

    def size(self, problem: P) -> int:
        return len(problem.rows)

    def steps(self, problem: P) -> tuple[Step, ...]:
        return weighted_sum_steps(problem.tokens, problem.position, problem.weights, problem.rows)

    def terms(self, problem: P) -> TermTable:
        names = tuple(_term(problem, k) for k in range(len(problem.rows)))
        return TermTable(problem.weights, problem.rows, names)

    def hint(self, problem: P) -> str:
        return "Check each term's weight and row."
