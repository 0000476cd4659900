"""Solving `weighted_sum`'s mistakes: which variants give a learner's vector.

Each mistake's form says how it changes the right answer; the solvers here find the variants
that give the learner's vector from the difference, with a float filter first and an exact
test for what passes it (floats of small exact rationals: a true equality always passes
`near`). The four mistakes of one term or a pair of terms are found in one pass per answer
(`solved`, shared through `Gap.memo`); the whole-sum mistakes each by one comparison
(`whole_sum_solve`). The catalog that uses them is `weighted_sum.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from ..exact import floats, ratio_offset_equal, rational_sum
from ..fraction_parts import num_den
from ._weighted_sum_problem import WeightedSumProblem as P
from .base import Gap, Variant, near, variant

Floats = tuple[
    tuple[float, ...],
    tuple[tuple[float, ...], ...],
    tuple[tuple[int, int], ...],
    tuple[float, ...],
    tuple[float, float, float],
]


@lru_cache(maxsize=512)
def problem_floats(p: P) -> Floats:
    """Return the weights and rows as floats, each weight's numerator and denominator, the
    rows' column sums in floats (the whole-sum mistakes' filter), and the largest |w| and
    |x_j| in the first two coordinates (the pairs' filter's bound in `solved`)."""
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


def solved(p: P, gap: Gap) -> tuple[list[Variant], ...]:
    """Return the variants of omitted_term, wrong_weight, wrong_row and swapped_weights that
    give the learner's vector, each list in its `variants` order; found in one pass over the
    terms per answer (shared through `gap.memo`), a float filter before each exact test.

    Per term k, λ with difference ≈ λ·x_k (omitted: λ = -w_k; wrong weight: w_k + λ another
    weight or 1); per term k, the row x_k + difference / w_k (wrong row: another row, its
    first coordinate compared first); per pair a < b, (w_b - w_a)(x_a - x_b) (swapped)."""
    found = gap.memo.get("solved")
    if found is not None:
        return found
    numbers = problem_floats(p)
    approx = gap.approx
    two = len(approx) >= 2
    # d_0 x_1 - d_1 x_0 per row: the cross-ratio both filters below read
    crosses = [approx[0] * row[1] - approx[1] * row[0] for row in numbers[1]] if two else []
    omitted, wrong_weight = _single_terms(p, gap, numbers, crosses)
    if _pairs_possible(gap, numbers, crosses):
        wrong_row, swapped = _wrong_rows(p, gap, numbers), _swapped(p, gap, numbers)
    else:
        wrong_row, swapped = [], []
    found = gap.memo["solved"] = (omitted, wrong_weight, wrong_row, swapped)
    return found


def _single_terms(
    p: P, gap: Gap, numbers: Floats, crosses: list[float]
) -> tuple[list[Variant], list[Variant]]:
    """Return the omitted_term and wrong_weight variants: per term k, the difference ≈ λ·x_k
    with λ = -w_k (omitted) or λ = w' - w_k, w' another term's weight or 1 (wrong weight)."""
    weights, rows, ratios, _, _ = numbers
    approx = gap.approx
    omitted: list[Variant] = []
    wrong_weight: list[Variant] = []
    # Parallel to x_k needs d_0 x_1 ≈ d_1 x_0, a cross-ratio of two coordinates that rules
    # out most rows at once: when every |d_j - λ x_j| <= τ_j (the test in `_factor`, τ_j =
    # 1e-9 (1 + |d_j|)), |d_0 x_1 - d_1 x_0| <= τ_0 |x_1| + τ_1 |x_0| (rounding adds far less
    # than the factor 2 allows), so no row the test passes is ruled out.
    two = len(approx) >= 2
    if two:
        tau0, tau1 = 2e-9 * (1.0 + abs(approx[0])), 2e-9 * (1.0 + abs(approx[1]))
    for k, row in enumerate(rows):
        parallel = not two or abs(crosses[k]) <= tau0 * abs(row[1]) + tau1 * abs(row[0])
        factor = _factor(row, approx) if parallel else None
        if factor is None:
            continue
        # omitted_term: -w_k x_k = diff
        own_top, own_bottom = ratios[k]
        if near(factor, -weights[k]) and ratio_offset_equal(
            gap.answer, gap.right, -own_top, own_bottom, p.rows[k]
        ):
            omitted.append(variant("omitted_term", (k,)))
        # wrong_weight: (w' - w_k) x_k = diff, w' another term's weight or 1
        if not near(factor, 0.0):
            text = _used_weight(p, gap, numbers, k, factor)
            if text is not None:
                wrong_weight.append(variant("wrong_weight", (k,), {"weight": text}))
    return omitted, wrong_weight


def _factor(row: tuple[float, ...], approx: tuple[float, ...]) -> float | None:
    """Return the λ with difference ≈ λ·row, from the row's first nonzero coordinate (None:
    the row is 0, or the difference is not parallel to it)."""
    for x, d in zip(row, approx, strict=True):
        if x:
            factor = d / x
            for y, e in zip(row, approx, strict=True):
                if abs(e - factor * y) > 1e-9 * (1.0 + abs(e)):
                    return None
            return factor
    return None


def _used_weight(p: P, gap: Gap, numbers: Floats, k: int, factor: float) -> str | None:
    """Return the weight w' (as str of its Fraction) that term k used when the difference is
    (w' - w_k) x_k = factor·x_k, w' another term's weight or 1; None when there is none."""
    weights, _, ratios, _, _ = numbers
    own_top, own_bottom = ratios[k]
    used = weights[k] + factor
    one = near(used, 1.0)
    size = abs(used)
    listed = [  # near(w, used), inline
        j for j, w in enumerate(weights) if j != k and abs(w - used) <= 1e-9 * (1.0 + abs(w) + size)
    ]
    if not (one or listed):
        return None
    # (w' - w_k) in integers; a Fraction is built only for the one named
    for top, bottom in [ratios[j] for j in listed] + ([(1, 1)] if one else []):
        if (top, bottom) != (own_top, own_bottom) and ratio_offset_equal(
            gap.answer,
            gap.right,
            top * own_bottom - own_top * bottom,
            bottom * own_bottom,
            p.rows[k],
        ):
            # str of the Fraction top/bottom (in lowest terms, bottom > 0)
            return f"{top}/{bottom}" if bottom != 1 else str(top)
    return None


def _pairs_possible(gap: Gap, numbers: Floats, crosses: list[float]) -> bool:
    """Return False when no pair of rows can explain the difference (then neither wrong_row
    nor swapped_weights is tried).

    A wrong row (k, r) gives diff = w_k (x_r - x_k), swapped weights (a, b) give
    diff = (w_b - w_a)(x_a - x_b); either way the pair's rows differ by Δ parallel to diff,
    and the cross-ratio c_j = d_0 x_j1 - d_1 x_j0 of the two rows is nearly equal:
    c_r - c_k = d_0 Δ_1 - d_1 Δ_0 = e_0 Δ_1 - e_1 Δ_0 where e_j = (factor) Δ_j - d_j, which
    the pairs' tests bound by 1e-9 (1 + |(factor) Δ_j| + |d_j|), |factor| <= 2 max |w|,
    |Δ_j| <= 2 max |x_j|. With no two c_j that close (sorted, neighbours compared), no pair
    passes those tests (rounding is far below the bound's slack and its last term)."""
    if len(gap.approx) < 2 or len(crosses) <= 1:
        return True
    d0, d1 = gap.approx[0], gap.approx[1]
    big_w, big_x0, big_x1 = numbers[4]
    span0, span1 = 2.0 * big_x0, 2.0 * big_x1
    tolerance = 2e-9 * (
        (1.0 + 2.0 * big_w * span0 + abs(d0)) * span1
        + (1.0 + 2.0 * big_w * span1 + abs(d1)) * span0
    ) + 1e-12 * (abs(d0) * big_x1 + abs(d1) * big_x0)
    return any(high - low <= tolerance for low, high in pairwise(sorted(crosses)))


def _wrong_rows(p: P, gap: Gap, numbers: Floats) -> list[Variant]:
    """Return the wrong_row variants: w_k (x_r - x_k) = diff, the row x_r found by its first
    coordinate x_k0 + d_0 / w_k before the others are compared."""
    weights, rows, ratios, _, _ = numbers
    approx = gap.approx
    d0 = approx[0]
    wrong_row: list[Variant] = []
    for k, row in enumerate(rows):
        weight = weights[k]
        if not weight:
            continue
        start = row[0] + d0 / weight
        bound = 1e-9 * (1.0 + abs(start))
        for r, other in enumerate(rows):
            if (
                r != k
                and abs(other[0] - start) <= bound
                and all(
                    near(weight * (y - x), d) for y, x, d in zip(other, row, approx, strict=True)
                )
                and ratio_offset_equal(gap.answer, gap.right, *ratios[k], p.rows[r], p.rows[k])
            ):
                wrong_row.append(variant("wrong_row", (k,), {"row": r}))
    return wrong_row


def _swapped(p: P, gap: Gap, numbers: Floats) -> list[Variant]:
    """Return the swapped_weights variants: (w_b - w_a)(x_a - x_b) = diff, for a < b."""
    weights, rows, ratios, _, _ = numbers
    approx = gap.approx
    d0 = approx[0]
    swapped: list[Variant] = []
    bound = 1e-9 * (1.0 + abs(d0))
    n = len(weights)
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
                    gap.answer,
                    gap.right,
                    ratios[b][0] * bottom_a - top_a * ratios[b][1],
                    ratios[b][1] * bottom_a,
                    p.rows[a],
                    p.rows[b],
                )
            ):
                swapped.append(variant("swapped_weights", (a, b)))
    return swapped


def solve_omitted(p: P, gap: Gap) -> list[Variant]:
    """Return the omitted_term variants that give the learner's vector."""
    return solved(p, gap)[0]


def solve_wrong_weight(p: P, gap: Gap) -> list[Variant]:
    """Return the wrong_weight variants that give the learner's vector."""
    return solved(p, gap)[1]


def solve_wrong_row(p: P, gap: Gap) -> list[Variant]:
    """Return the wrong_row variants that give the learner's vector."""
    return solved(p, gap)[2]


def solve_swapped(p: P, gap: Gap) -> list[Variant]:
    """Return the swapped_weights variants that give the learner's vector."""
    return solved(p, gap)[3]


def whole_sum_solve(
    code: str, weight: Callable[[P], Fraction], scale_of: Callable[[P], float]
) -> Callable[[P, Gap], list]:
    """Return the solver of a whole-sum mistake, every row with one weight w (`scale_of`
    gives float(w), so no Fraction is built for an answer the float filter rejects)."""

    def solve(p: P, gap: Gap) -> list[Variant]:
        scale = scale_of(p)
        totals = problem_floats(p)[3]
        answer = gap.answer_approx
        if not near(scale * totals[0], answer[0]) or not all(
            near(scale * total, a) for total, a in zip(totals, answer, strict=True)
        ):  # the first coordinate alone rules out almost every answer
            return []
        w = weight(p)
        return [variant(code)] if rational_sum([w] * len(p.rows), p.rows) == gap.answer else []

    return solve
