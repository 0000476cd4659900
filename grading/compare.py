"""Compare exact values: Fractions by `==`; `exp`/`sqrt` expressions numerically, then exactly.

Rational answers (every kind but content_weights) never touch SymPy here. An expression with
`exp` is first evaluated at high precision; only when it agrees to 30 digits is equality
confirmed exactly: each `exp(r)` (r rational) becomes `t**(r*L)` for `t = exp(1/L)`, and the
difference, a rational function of the transcendental `t`, must cancel to zero (Lindemann).
Anything else (`sqrt`, `pi`) is confirmed with `simplify` when small, or at 120 digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy

Scalar = Fraction | sympy.Expr

DIGITS = 30
_T = sympy.Symbol("t", positive=True)


def to_sympy(value: Scalar) -> sympy.Expr:
    """Return a SymPy number for a Fraction (unchanged for SymPy expressions)."""
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, int):
        return sympy.Integer(value)
    return value


def as_fraction(value: Scalar) -> Fraction | None:
    """Return the value as a Fraction when it is rational, else None."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    return None


def _walk(value: sympy.Expr) -> mpmath.mpf:
    """Evaluate a tree of rationals, E, pi, exp, Add, Mul and Pow in the current mpmath
    precision: several times cheaper than SymPy's adaptive `evalf` on these shapes."""
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / int(value.q)
    if value is sympy.E:
        return mpmath.e + 0
    if value is sympy.pi:
        return mpmath.pi + 0
    if isinstance(value, sympy.exp):
        return mpmath.exp(_walk(value.args[0]))
    if value.is_Add:
        return mpmath.fsum(_walk(arg) for arg in value.args)
    if value.is_Mul:
        return mpmath.fprod(_walk(arg) for arg in value.args)
    if value.is_Pow:
        exponent = value.exp
        if exponent.is_Integer:
            return _walk(value.base) ** int(exponent)
        return mpmath.power(_walk(value.base), _walk(exponent))
    return mpmath.mpf(sympy.N(value, DIGITS + 10)._mpf_)


@lru_cache(maxsize=4096)
def _approx_sympy(value: sympy.Expr) -> mpmath.mpf:
    # Fixed precision, no adaptive refinement: 40 guard digits absorb the cancellation a
    # reasonable exact form can have before the 30-digit comparison.
    with mpmath.workdps(DIGITS + 40):
        return _walk(value)


def approx(value: Scalar) -> mpmath.mpf:
    """Return the value as an mpmath number good to DIGITS + 10 significant digits."""
    fraction = as_fraction(value)
    with mpmath.workdps(DIGITS + 10):
        if fraction is not None:
            return mpmath.mpf(fraction.numerator) / fraction.denominator
        return _approx_sympy(value)


def numeric(value: Scalar) -> Fraction | mpmath.mpf:
    """Return the Fraction itself when rational, else a high-precision mpmath number."""
    fraction = as_fraction(value)
    return fraction if fraction is not None else approx(value)


def close(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    """Return True when two high-precision numbers agree to DIGITS significant digits."""
    with mpmath.workdps(DIGITS + 10):
        scale = max(abs(a), abs(b), mpmath.mpf(1))
        return bool(abs(a - b) <= scale * mpmath.mpf(10) ** (-DIGITS))


def _close(a: Scalar, b: Scalar) -> bool:
    return close(approx(a), approx(b))


MAX_EXP_LCM = 10**6
MAX_SIMPLIFY_OPS = 60
CONFIRM_DIGITS = 120


def _exp_atoms_to_t(expr: sympy.Expr) -> sympy.Expr | None:
    """Rewrite every exp(r), r rational, as a power of t; None when that is not possible."""
    replacements: dict[sympy.Expr, sympy.Rational] = {}
    for atom in expr.atoms(sympy.exp):
        if not atom.args[0].is_Rational:
            return None
        replacements[atom] = atom.args[0]
    if expr.has(sympy.E):
        replacements[sympy.E] = sympy.Integer(1)
    if expr.has(sympy.pi) or any(not p.exp.is_Integer for p in expr.atoms(sympy.Pow)):
        return None
    lcm = math.lcm(*(int(r.q) for r in replacements.values())) if replacements else 1
    if lcm > MAX_EXP_LCM:
        return None
    return expr.xreplace({atom: _T ** int(r * lcm) for atom, r in replacements.items()})


def _exactly_zero(diff: sympy.Expr) -> bool:
    """Decide whether an expression already known to be ~0 at 30 digits is exactly 0.

    Sums of exp(rational) terms are decided exactly (a rational function of t = exp(1/L)
    vanishes only if its numerator polynomial is identically zero). Small `sqrt`/`pi`
    expressions go to `simplify`; anything larger is decided by a 120-digit numeric test,
    which keeps a hostile answer from turning into a long symbolic computation.
    """
    if diff == 0:
        return True
    polynomial = _exp_atoms_to_t(diff)
    if polynomial is not None:
        numerator, _ = sympy.together(polynomial).as_numer_denom()
        return sympy.expand(numerator) == 0
    if sympy.count_ops(diff) <= MAX_SIMPLIFY_OPS:
        return sympy.simplify(diff) == 0
    with mpmath.workdps(CONFIRM_DIGITS + 10):
        value = mpmath.mpf(sympy.N(diff, CONFIRM_DIGITS + 10)._mpf_) if diff.is_real else 1
        return bool(abs(value) < mpmath.mpf(10) ** (-CONFIRM_DIGITS))


def equal(a: Scalar, b: Scalar) -> bool:
    """Return True when two exact scalars are equal (numeric test first, then exact proof)."""
    fa, fb = as_fraction(a), as_fraction(b)
    if fa is not None and fb is not None:
        return fa == fb
    if not _close(a, b):
        return False
    return _exactly_zero(sympy.expand(to_sympy(a) - to_sympy(b)))


def vectors_equal(a: Sequence[Scalar], b: Sequence[Scalar]) -> bool:
    """Return True when two vectors have the same length and equal coordinates."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if type(x) is Fraction and type(y) is Fraction:
            # Fractions are kept in lowest terms: equal exactly when both parts are
            if x.numerator != y.numerator or x.denominator != y.denominator:
                return False
        elif not equal(x, y):
            return False
    return True


class Rounding(StrEnum):
    """How a number typed as a decimal stands to an exact value."""

    EXACT = "exact"
    ROUNDED = "rounded"  # rounds the exact value correctly, at least 3 significant figures
    TOO_FEW_DIGITS = "too_few_digits"  # rounds correctly, fewer than 3 significant figures
    WRONG = "wrong"


MIN_SIGNIFICANT = 3


def significant_figures(text: str) -> int:
    """Return the significant figures of a typed decimal (`"0.0330"` has 3)."""
    digits = text.lstrip("+-").replace(".", "").lstrip("0")
    return len(digits)


def decimal_places(text: str) -> int:
    """Return the digits typed after the decimal point."""
    return len(text.split(".", 1)[1]) if "." in text else 0


def rounding(text: str, typed: Fraction, exact: Scalar) -> Rounding:
    """Classify a typed decimal against the exact value it stands for.

    A decimal rounds the exact value correctly when it lies within half a unit of its last
    typed digit of it. Truncation (0.666 for 2/3) is not rounding.
    """
    half_unit = Fraction(1, 2 * 10 ** decimal_places(text))
    exact_fraction = as_fraction(exact)
    if exact_fraction is not None:
        if typed == exact_fraction:
            return Rounding.EXACT
        within = abs(typed - exact_fraction) <= half_unit
    else:
        # A decimal is rational; an exp/sqrt value is not, so only rounding can apply.
        with mpmath.workdps(DIGITS + 10):
            within = bool(abs(approx(typed) - approx(exact)) <= approx(half_unit))
    if not within:
        return Rounding.WRONG
    if significant_figures(text) >= MIN_SIGNIFICANT:
        return Rounding.ROUNDED
    return Rounding.TOO_FEW_DIGITS


# SymPy's numeric evaluation imports and initialises lazily (about 0.1 s on first use); pay it
# at import so that no learner's first answer spends it inside the per-answer time budget.
approx(sympy.exp(1) / 3)
