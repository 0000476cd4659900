"""Exact arithmetic the Gaussian-noise kinds share: square roots of rationals, kept rational
when the rational is a perfect square, and linear combinations of numbers or vectors.

A value is a number (``Fraction`` or a SymPy number) or a tuple of them (a vector). Rational
results stay ``Fraction`` so that the engine's exact index applies; anything with a genuine
square root is an expanded SymPy expression with a rational denominator (``sqrt(3)/2``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import sympy

from grading.spec import SpecError
from grading.tex import scalar_tex, vector_tex

Number = Any  # Fraction | sympy.Expr
Value = Any  # Number | tuple[Number, ...]

MAX_NUMBER_CHARS = 24
_RATIONAL = re.compile(r"-?\d{1,12}(?:/\d{1,12})?")


def rational(value: object, field: str) -> Fraction:
    """Return the exact rational a spec string such as ``"9/25"`` holds, or raise SpecError."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise SpecError(field, 'must be a string holding an exact rational such as "9/25"')
    text = str(value).strip()
    if len(text) > MAX_NUMBER_CHARS or not _RATIONAL.fullmatch(text):
        raise SpecError(field, f'{text[:30]!r} is not an exact rational such as "9/25"')
    numerator, _, denominator = text.partition("/")
    if denominator and int(denominator) == 0:
        raise SpecError(field, "has a zero denominator")
    return Fraction(int(numerator), int(denominator or 1))


def value_field(spec: dict, field: str, *, max_dim: int) -> Value:
    """Return a field that holds one number or a list of 1..max_dim numbers."""
    raw = spec.get(field)
    if isinstance(raw, list):
        if not 1 <= len(raw) <= max_dim:
            raise SpecError(field, f"must have between 1 and {max_dim} entries, has {len(raw)}")
        return tuple(rational(x, f"{field}[{j}]") for j, x in enumerate(raw))
    if raw is None:
        raise SpecError(field, "is required: a number or a list of numbers")
    return rational(raw, field)


def root(q: Fraction) -> Number:
    """Return the exact square root of a non-negative rational: a Fraction when it is one."""
    if q < 0:
        raise ValueError("square root of a negative number")
    n, d = q.numerator, q.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return Fraction(rn, rd)
    return sympy.sqrt(sympy.Rational(n, d))


def sym(x: Number) -> sympy.Expr:
    """Return a SymPy number for a Fraction or int (SymPy numbers unchanged)."""
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    if isinstance(x, int):
        return sympy.Integer(x)
    return x


def tidy(x: Number) -> Number:
    """Return a rational result as a Fraction, anything else as an expanded SymPy number."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    x = x if x.is_Rational else sympy.radsimp(sympy.expand(x))
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    return x


def _times(a: Number, b: Number) -> Number:
    if isinstance(a, Fraction | int) and isinstance(b, Fraction | int):
        return Fraction(a) * Fraction(b)
    return sym(a) * sym(b)


def combine(terms: Iterable[tuple[Number, Value]]) -> Value:
    """Return ``sum(c * x)`` for numbers ``c`` and values ``x`` (all numbers, or all vectors of
    one length), exactly; rational coordinates stay Fractions."""
    terms = list(terms)
    first = terms[0][1]
    if isinstance(first, tuple):
        return tuple(_sum(_times(c, x[d]) for c, x in terms) for d in range(len(first)))
    return _sum(_times(c, x) for c, x in terms)


def _sum(parts: Iterable[Number]) -> Number:
    parts = list(parts)
    if all(isinstance(x, Fraction) for x in parts):
        return sum(parts, Fraction(0))
    return tidy(sympy.Add(*(sym(x) for x in parts)))


def scale(c: Number, x: Value) -> Value:
    """Return ``c * x``, exactly."""
    return combine(((c, x),))


def divide(x: Value, c: Number) -> Value:
    """Return ``x / c`` for a nonzero number ``c``, exactly."""
    if isinstance(c, Fraction):
        return scale(1 / c, x)
    return scale(tidy(1 / sym(c)), x)


def value_tex(x: Value) -> str:
    """Return a number or a vector in TeX."""
    return vector_tex(x) if isinstance(x, tuple) else scalar_tex(x)


def factor_tex(x: Value) -> str:
    """Return a number or a vector in TeX as a factor: a negative number in parentheses."""
    text = value_tex(x)
    return f"\\left({text}\\right)" if text.startswith("-") else text


def value_float(x: Value) -> Any:
    """Return a float, or a tuple of floats, for a value."""
    if isinstance(x, tuple):
        return tuple(float(c) for c in x)
    return float(x)
