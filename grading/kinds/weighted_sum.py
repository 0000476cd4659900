"""`weighted_sum`: one layer's mix at a word, `h_i = sum_j w_ij x_j`.

Spec fields: `tokens`, `position` (i), `weights` (w_ij over j), `rows` (x_j). The answer is a
vector, typed as the final vector or as the sum written out term by term (then each term is
matched against the problem's terms and the wrong one is named).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import Any

from ..compare import as_fraction, equal, vectors_equal
from ..exact import (
    floats,
    ratio_literal,
    ratio_offset_equal,
    rational_combine,
    rational_sum,
)
from ..fraction_parts import num_den
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
from .base import (
    SOLVE_BOUND,
    Form,
    Gap,
    Kind,
    MistakeDef,
    Step,
    Variant,
    gettext_noop,
    near,
    register,
    variant,
)


@dataclass(frozen=True, eq=False)
class WeightedSumProblem:
    tokens: tuple[str, ...]
    position: int
    weights: tuple[Fraction, ...]
    rows: tuple[tuple[Fraction, ...], ...]


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


# ---------------------------------------------------------------- solving the forms
# Each mistake's form says how it changes the right answer; `solve` finds the variants that
# give the learner's vector from the difference, with a float filter first and an exact test
# for what passes it (floats of small exact rationals: a true equality always passes `near`).


@lru_cache(maxsize=512)
def _floats(
    p: P,
) -> tuple[
    tuple[float, ...],
    tuple[tuple[float, ...], ...],
    tuple[tuple[int, int], ...],
    tuple[float, ...],
    tuple[float, float, float],
]:
    """Return the weights and rows as floats, each weight's numerator and denominator, the
    rows' column sums in floats (the whole-sum mistakes' filter), and the largest |w| and
    |x_j| in the first two coordinates (the pairs' filter's bound in `_solved`)."""
    rows = tuple([floats(row) for row in p.rows])
    weights = floats(p.weights)
    two = len(rows[0]) >= 2
    return (
        weights,
        rows,
        tuple(map(num_den, p.weights)),
        tuple([sum(column) for column in zip(*rows, strict=True)]),
        (
            max(map(abs, weights)),
            max([abs(row[0]) for row in rows]),
            max([abs(row[1]) for row in rows]) if two else 0.0,
        ),
    )


def _solved(p: P, gap: Gap) -> tuple[list[Variant], ...]:
    """Return the variants of omitted_term, wrong_weight, wrong_row and swapped_weights that
    give the learner's vector, each list in its `variants` order; found in one pass over the
    terms per answer (shared through `gap.memo`), a float filter before each exact test.

    Per term k, λ with difference ≈ λ·x_k (omitted: λ = -w_k; wrong weight: w_k + λ another
    weight or 1); per term k, the row x_k + difference / w_k (wrong row: another row, its
    first coordinate compared first); per pair a < b, (w_b - w_a)(x_a - x_b) (swapped)."""
    found = gap.memo.get("solved")
    if found is not None:
        return found
    weights, rows, ratios, _, (big_w, big_x0, big_x1) = _floats(p)
    approx = gap.approx
    answer, right = gap.answer, gap.right
    exact_rows = p.rows
    omitted: list[Variant] = []
    wrong_weight: list[Variant] = []
    wrong_row: list[Variant] = []
    d0 = approx[0]
    # Parallel to x_k needs d_0 x_1 ≈ d_1 x_0, a cross-ratio of two coordinates that rules
    # out most rows at once: when every |d_j - λ x_j| <= τ_j (the test below, τ_j =
    # 1e-9 (1 + |d_j|)), |d_0 x_1 - d_1 x_0| <= τ_0 |x_1| + τ_1 |x_0| (rounding adds far less
    # than the factor 2 allows), so no row the test below passes is ruled out.
    two = len(approx) >= 2
    if two:
        d1 = approx[1]
        tau0, tau1 = 2e-9 * (1.0 + abs(d0)), 2e-9 * (1.0 + abs(d1))
    crosses = []
    for k, row in enumerate(rows):
        weight = weights[k]
        # the λ with difference ≈ λ·x_k, from the row's first nonzero coordinate
        factor = None
        if two:
            x0, x1 = row[0], row[1]
            cross = d0 * x1 - d1 * x0
            crosses.append(cross)
            parallel = abs(cross) <= tau0 * abs(x1) + tau1 * abs(x0)
        else:
            parallel = True
        for x, d in zip(row, approx, strict=True) if parallel else ():
            if x:
                factor = d / x
                for y, e in zip(row, approx, strict=True):
                    if abs(e - factor * y) > 1e-9 * (1.0 + abs(e)):
                        factor = None
                        break
                break
        if factor is not None:
            # omitted_term: -w_k x_k = diff
            own_top, own_bottom = ratios[k]
            if near(factor, -weight) and ratio_offset_equal(
                answer, right, -own_top, own_bottom, exact_rows[k]
            ):
                omitted.append(variant("omitted_term", (k,)))
            # wrong_weight: (w' - w_k) x_k = diff, w' another term's weight or 1
            if not near(factor, 0.0):
                used = weight + factor
                one = near(used, 1.0)
                size = abs(used)
                listed = [  # near(w, used), inline
                    j
                    for j, w in enumerate(weights)
                    if j != k and abs(w - used) <= 1e-9 * (1.0 + abs(w) + size)
                ]
                if one or listed:
                    # (w' - w_k) in integers; a Fraction is built only for the one named
                    for top, bottom in [ratios[j] for j in listed] + ([(1, 1)] if one else []):
                        if (top, bottom) != (own_top, own_bottom) and ratio_offset_equal(
                            answer,
                            right,
                            top * own_bottom - own_top * bottom,
                            bottom * own_bottom,
                            exact_rows[k],
                        ):
                            # str of the Fraction top/bottom (in lowest terms, bottom > 0)
                            text = f"{top}/{bottom}" if bottom != 1 else str(top)
                            wrong_weight.append(variant("wrong_weight", (k,), {"weight": text}))
                            break
    # The pairs: a wrong row (k, r) gives diff = w_k (x_r - x_k), swapped weights (a, b) give
    # diff = (w_b - w_a)(x_a - x_b); either way the pair's rows differ by Δ parallel to diff,
    # and the cross-ratio c_j = d_0 x_j1 - d_1 x_j0 of the two rows is nearly equal:
    # c_r - c_k = d_0 Δ_1 - d_1 Δ_0 = e_0 Δ_1 - e_1 Δ_0 where e_j = (factor) Δ_j - d_j, which
    # the tests below bound by 1e-9 (1 + |(factor) Δ_j| + |d_j|), |factor| <= 2 max |w|,
    # |Δ_j| <= 2 max |x_j|. With no two c_j that close (sorted, neighbours compared), no pair
    # passes those tests and neither loop runs (rounding is far below the bound's slack and
    # its last term).
    pairs = True
    if two and len(crosses) > 1:
        span0, span1 = 2.0 * big_x0, 2.0 * big_x1
        tolerance = 2e-9 * (
            (1.0 + 2.0 * big_w * span0 + abs(d0)) * span1
            + (1.0 + 2.0 * big_w * span1 + abs(d1)) * span0
        ) + 1e-12 * (abs(d0) * big_x1 + abs(d1) * big_x0)
        crosses.sort()
        pairs = False
        for low, high in pairwise(crosses):
            if high - low <= tolerance:
                pairs = True
                break
    for k, row in enumerate(rows) if pairs else ():
        weight = weights[k]
        # wrong_row: w_k (x_r - x_k) = diff
        if weight:
            start = row[0] + d0 / weight
            bound = 1e-9 * (1.0 + abs(start))
            for r, other in enumerate(rows):
                if (
                    r != k
                    and abs(other[0] - start) <= bound
                    and all(
                        near(weight * (y - x), d)
                        for y, x, d in zip(other, row, approx, strict=True)
                    )
                    and ratio_offset_equal(answer, right, *ratios[k], exact_rows[r], exact_rows[k])
                ):
                    wrong_row.append(variant("wrong_row", (k,), {"row": r}))
    # swapped_weights: (w_b - w_a)(x_a - x_b) = diff
    swapped: list[Variant] = []
    bound = 1e-9 * (1.0 + abs(d0))
    n = len(weights) if pairs else 0
    for a in range(n):
        weight_a, row_a = weights[a], rows[a]
        first_a = row_a[0]
        top_a, bottom_a = ratios[a]
        for b in range(a + 1, n):
            change = weights[b] - weight_a
            if (
                abs(d0 - change * (first_a - rows[b][0])) <= bound
                and ratios[b] != ratios[a]
                and all(
                    near(d, change * (x - y))
                    for d, x, y in zip(approx, row_a, rows[b], strict=True)
                )
                and ratio_offset_equal(
                    answer,
                    right,
                    ratios[b][0] * bottom_a - top_a * ratios[b][1],
                    ratios[b][1] * bottom_a,
                    exact_rows[a],
                    exact_rows[b],
                )
            ):
                swapped.append(variant("swapped_weights", (a, b)))
    found = gap.memo["solved"] = (omitted, wrong_weight, wrong_row, swapped)
    return found


def _omitted_solve(p: P, gap: Gap) -> list[Variant]:
    return _solved(p, gap)[0]


def _wrong_weight_solve(p: P, gap: Gap) -> list[Variant]:
    return _solved(p, gap)[1]


def _wrong_row_solve(p: P, gap: Gap) -> list[Variant]:
    return _solved(p, gap)[2]


def _swapped_solve(p: P, gap: Gap) -> list[Variant]:
    return _solved(p, gap)[3]


def _whole_sum_solve(
    code: str, weight: Callable[[P], Fraction], scale_of: Callable[[P], float]
) -> Callable[[P, Gap], list]:
    """Return the solver of a whole-sum mistake, every row with one weight w (`scale_of`
    gives float(w), so no Fraction is built for an answer the float filter rejects)."""

    def solve(p: P, gap: Gap) -> list[Variant]:
        scale = scale_of(p)
        totals = _floats(p)[3]
        answer = gap.answer_approx
        if not near(scale * totals[0], answer[0]) or not all(
            near(scale * total, a) for total, a in zip(totals, answer, strict=True)
        ):  # the first coordinate alone rules out almost every answer
            return []
        w = weight(p)
        return [variant(code)] if rational_sum([w] * len(p.rows), p.rows) == gap.answer else []

    return solve


@register
class WeightedSum(Kind):
    name = "weighted_sum"
    label = gettext_noop("Weighted sum of rows")
    mistakes = (
        MistakeDef(
            code="omitted_term",
            number=1,
            label=gettext_noop("left a term out of the sum"),
            parts="[k]: the term left out (k = i is the self term, which the sum includes)",
            variants=_omitted_variants,
            form=_omitted_form,
            solve=_omitted_solve,
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
            solve=_wrong_weight_solve,
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
            solve=_wrong_row_solve,
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
            solve=_swapped_solve,
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
            solve=_whole_sum_solve("unweighted_sum", lambda p: Fraction(1), lambda p: 1.0),
            explain=_unweighted_explain,
            weights=lambda p: (Fraction(1),) * len(p.rows),
        ),
        MistakeDef(
            code="plain_average",
            number=6,
            label=gettext_noop("averaged the rows with equal weights"),
            form=lambda p, d: (0, tuple((Fraction(1, len(p.rows)), row) for row in p.rows)),
            solve=_whole_sum_solve(
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
        weights, rows, *_ = _floats(problem)  # the solvers' own floats, kept per problem
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
