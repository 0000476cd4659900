"""Exact arithmetic on answers' numbers: Fractions while every value is rational, SymPy once
one is not, and integer arithmetic where Fraction's gcd at every step would dominate.

One place for what parsing, the mistake catalog, term matching and explanations all compute:
sums and products of scalars, weighted sums of vectors, and rationals over one denominator.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import gcd

import sympy

from .compare import Scalar, to_sympy
from .fraction_parts import num_den

Vector = tuple[Scalar, ...]

# The helpers below that read every number of a problem or an answer (`floats`,
# `rational_combine`, `rational_sum`, `rational_difference_sum`, `ratio_offset_equal`) take
# a Fraction's integers with `fraction_parts.num_den`: from its two private slots where a
# check at import found them (CPython 3.11-3.13), not through the `numerator` and
# `denominator` properties, a Python call each: a third of the time; from the properties
# elsewhere. They are given Fractions (the two sums also take ints, as Fractions); the few
# other hot places that read the parts the same way (tex.scalar_tex and vector_tex,
# compare.vectors_equal, shapes.differences.describe_offset, kinds._sums.right_term, the
# contrast and weighted_sum solvers) do so only where the value's type is Fraction.


def add(a: Scalar, b: Scalar) -> Scalar:
    """Return a + b, a Fraction when both are."""
    if type(a) is Fraction and type(b) is Fraction:
        return a + b
    return to_sympy(a) + to_sympy(b)


def multiply(a: Scalar, b: Scalar) -> Scalar:
    """Return a * b, a Fraction when both are."""
    if type(a) is Fraction and type(b) is Fraction:
        return a * b
    return to_sympy(a) * to_sympy(b)


def subtract(a: Scalar, b: Scalar) -> Scalar:
    """Return a - b, a Fraction when both are."""
    if type(a) is Fraction and type(b) is Fraction:
        return a - b
    return to_sympy(a) - to_sympy(b)


def rational_combine(
    weights: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]
) -> tuple[Fraction, ...]:
    """Return sum_j weights[j] * rows[j] in integer arithmetic, one Fraction per coordinate,
    multiplying the denominators together (no gcd until the end): the faster way for the two
    or three terms of a mistake's form. No Fraction is built per product or partial sum
    (Fraction's + and * reduce by a gcd at every step, which dominated listing mistakes)."""
    try:
        return _rational_combine(weights, rows)
    except AttributeError:  # an int among them (no slots): the same sum, as Fractions
        return _rational_combine(_as_fractions(weights), [_as_fractions(row) for row in rows])


def _as_fractions(values: Sequence[Fraction | int]) -> list[Fraction]:
    return [Fraction(x) if type(x) is int else x for x in values]  # type: ignore[misc]


def _rational_combine(
    weights: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]
) -> tuple[Fraction, ...]:
    pairs = list(map(num_den, weights))
    out = []
    for d in range(len(rows[0])):
        num, den = 0, 1
        for (wn, wd), row in zip(pairs, rows, strict=True):
            xn, xd = num_den(row[d])
            if wn and xn:
                term_den = wd * xd
                num = num * term_den + wn * xn * den
                den *= term_den
        out.append(Fraction(num, den))
    return tuple(out)


def rational_sum(
    weights: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]
) -> tuple[Fraction, ...]:
    """Return sum_j weights[j] * rows[j] in integer arithmetic, one Fraction per coordinate,
    keeping the running denominator the least common multiple of the terms' (a gcd per term):
    the faster way for many terms that share denominators, as in a learner's written-out sum.
    """
    try:
        return _rational_sum(weights, rows)
    except AttributeError:  # an int among them (no slots): the same sum, as Fractions
        return _rational_sum(_as_fractions(weights), [_as_fractions(row) for row in rows])


def _rational_sum(
    weights: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]
) -> tuple[Fraction, ...]:
    out = []
    for d in range(len(rows[0])):
        num, den = 0, 1
        for weight, row in zip(weights, rows, strict=True):
            wn, wd = num_den(weight)
            xn, xd = num_den(row[d])
            term_num = wn * xn
            if not term_num:
                continue
            term_den = wd * xd
            if term_den == den:
                num += term_num
                continue
            common = gcd(den, term_den)
            if common == term_den:
                num += term_num * (den // term_den)
            else:
                grow = term_den // common
                num = num * grow + term_num * (den // common)
                den *= grow
        out.append(Fraction(num, den))
    return tuple(out)


def rational_difference_sum(
    weights: Sequence[Fraction],
    rows_b: Sequence[Sequence[Fraction]],
    rows_a: Sequence[Sequence[Fraction]],
) -> tuple[Fraction, ...]:
    """Return sum_j weights[j] * (rows_b[j] - rows_a[j]) in integer arithmetic, as
    `rational_sum` adds its terms (a running least common denominator), one Fraction per
    coordinate: no Fraction is built for a negated weight, a difference or a partial sum."""
    pairs = list(map(num_den, weights))
    out = []
    for d in range(len(rows_b[0])):
        num, den = 0, 1
        for (wn, wd), row_b, row_a in zip(pairs, rows_b, rows_a, strict=True):
            (bn, bd), (an, ad) = num_den(row_b[d]), num_den(row_a[d])
            if bd == ad:
                term_num, term_den = wn * (bn - an), wd * bd
            else:
                term_num, term_den = wn * (bn * ad - an * bd), wd * bd * ad
            if not term_num:
                continue
            if term_den == den:
                num += term_num
                continue
            common = gcd(den, term_den)
            if common == term_den:
                num += term_num * (den // term_den)
            else:
                grow = term_den // common
                num = num * grow + term_num * (den // common)
                den *= grow
        out.append(Fraction(num, den))
    return tuple(out)


def floats(values: Sequence[Fraction]) -> tuple[float, ...]:
    """Return Fractions as floats, each the correctly rounded quotient, as float(x) gives
    (without the abstract base class's float(), which converts through int() twice)."""
    return tuple([n / d for n, d in map(num_den, values)])


def is_rational(values: Sequence[Scalar]) -> bool:
    """Return True when every value is a Fraction."""
    return all(type(x) is Fraction for x in values)


def combine(weights: Sequence[Scalar], rows: Sequence[Sequence[Scalar]]) -> Vector:
    """Return sum_j weights[j] * rows[j], exactly."""
    if is_rational(weights) and all(is_rational(row) for row in rows):
        return rational_combine(weights, rows)  # type: ignore[arg-type]
    dim = len(rows[0])
    total: list[Scalar] = [Fraction(0)] * dim
    for weight, row in zip(weights, rows, strict=True):
        for d in range(dim):
            total[d] = add(total[d], multiply(weight, row[d]))
    return tuple(total)


def scale(weight: Scalar, row: Sequence[Scalar]) -> Vector:
    """Return weight * row, exactly."""
    return tuple(multiply(weight, x) for x in row)


def difference(a: Sequence[Scalar], b: Sequence[Scalar]) -> Vector:
    """Return a - b coordinate by coordinate, exactly."""
    return tuple(subtract(x, y) for x, y in zip(a, b, strict=True))


def dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    """Return the dot product of two rational vectors, in integer arithmetic (one Fraction at
    the end, no gcd per product or partial sum)."""
    num, den = 0, 1
    for x, y in zip(a, b, strict=True):
        term_num = x.numerator * y.numerator
        if term_num:
            term_den = x.denominator * y.denominator
            if term_den == den:
                num += term_num
            else:
                num = num * term_den + term_num * den
                den *= term_den
    return Fraction(num, den)


def offset_equal(
    answer: Sequence[Fraction],
    right: Sequence[Fraction],
    factor: Fraction,
    row: Sequence[Fraction],
    minus: Sequence[Fraction] | None = None,
) -> bool:
    """Return True when answer - right == factor * (row - minus) exactly (minus: 0 when None),
    cross-multiplied in integers (no Fraction built: a mistake's form checked in a few µs)."""
    return ratio_offset_equal(answer, right, factor.numerator, factor.denominator, row, minus)


def ratio_offset_equal(
    answer: Sequence[Fraction],
    right: Sequence[Fraction],
    fn: int,
    fd: int,
    row: Sequence[Fraction],
    minus: Sequence[Fraction] | None = None,
) -> bool:
    """Return what `offset_equal` returns for the factor fn/fd (fd > 0, not necessarily in
    lowest terms), so a caller holding the factor's integers builds no Fraction for it."""
    for k, (a, r, x) in enumerate(zip(answer, right, row, strict=True)):
        (an, ad), (rn, rd), (xn, xd) = num_den(a), num_den(r), num_den(x)
        if minus is not None:
            yn, yd = num_den(minus[k])
            xn, xd = xn * yd - yn * xd, xd * yd
        if (an * rd - rn * ad) * fd * xd != fn * xn * ad * rd:
            return False
    return True


def scaled_key(vector: Sequence[Fraction], scale: int) -> tuple[int, ...] | None:
    """Return the coordinates times `scale` when all are integers, else None."""
    key = []
    for x in vector:
        denominator = x.denominator
        if scale % denominator:
            return None
        key.append(x.numerator * (scale // denominator))
    return tuple(key)


@lru_cache(maxsize=1024)
def decimal_literal(text: str) -> Fraction:
    """Return the exact value of a typed unsigned number, `0.1` as 1/10 (cached by text: the
    same few numbers are typed again and again)."""
    whole, _, decimals = text.partition(".")
    if not decimals:
        return Fraction(int(whole or "0"))
    return Fraction(int((whole or "0") + decimals), 10 ** len(decimals))


@lru_cache(maxsize=4096)
def ratio_literal(text: str) -> Fraction | None:
    """Return the value of `"-3"` or `"1/4"` (ASCII digits, no spaces), else None (cached by
    text: specs spell the same few numbers again and again, in every problem)."""
    numerator, slash, denominator = text.partition("/")
    digits = numerator[1:] if numerator[:1] == "-" else numerator
    if not (digits.isascii() and digits.isdigit()):
        return None
    if not slash:
        return Fraction(int(numerator))
    if denominator.isascii() and denominator.isdigit() and int(denominator):
        return Fraction(int(numerator), int(denominator))
    return None


@lru_cache(maxsize=4096)
def exp_of(argument: Fraction) -> sympy.Expr:
    """Return exp of a rational as a SymPy number (cached by the rational: exp values are
    literals, the same few in answer after answer and problem after problem; SymPy's own cache
    is too small to keep them)."""
    return sympy.exp(sympy.Rational(argument.numerator, argument.denominator))
