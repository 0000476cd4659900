"""Compare exact values: Fractions by `==`; `exp`/`sqrt` expressions numerically, then exactly.

Rational answers (every kind but content_weights) never touch SymPy here. Two values of which
one is not rational are compared in steps, each cheap and sure before the next:
0. the same expression (SymPy's structural `==`) is a right answer; doubles with error bounds
   (`float_bound`) that differ by far more than their bounds are a wrong answer (microseconds;
   "surely different" is never said of values the next test would call equal);
1. at 30 significant digits (mpmath): a difference there is a wrong answer;
2. SymPy's own evaluation of the difference: a structural 0 is a right answer;
3. interval arithmetic at 120, then 600 digits: an interval that excludes 0 proves the values
   differ (a near miss, the right value plus 10^-60 times anything, ends here);
4. only what is still undecided needs an exact proof of equality. Its size is bounded first,
   from the expression tree and without expanding anything (`grading.proof.check_confirmable`:
   distinct roots and exp values, terms of the expansion); then the proof
   (`grading.proof.exactly_zero`) runs in a separate worker process with a time limit and a
   memory cap (`grading.confirm`). Each `exp(r)` becomes
   `t**(r*L)` for `t = exp(1/L)`, and the difference, a rational function of the
   transcendental `t`, must cancel to zero (Lindemann); with roots or `pi`, the expanded
   numerator must be 0. Past a bound or the limit, or with no proof, `TooComplex`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache

import mpmath
import mpmath.ctx_iv
import sympy

from .clock import CONFIRM_SECONDS, confirmation_remaining
from .fraction_parts import num_den
from .logs import has_log, is_log_linear, over_one_basis
from .proof import (
    TooComplex,
    check_confirmable,
    proven_nonzero,
)

Scalar = Fraction | sympy.Expr

DIGITS = 30


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
    precision: several times cheaper than SymPy's adaptive `evalf` on these shapes. Parts
    that are themselves sums, products, powers or exp values are looked up in the cache of
    `_approx_sympy` first: the mistaken vectors of one problem share most of them (the same
    exp atoms, the same softmax denominator)."""
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / int(value.q)
    if value is sympy.E:
        return mpmath.e + 0
    if value is sympy.pi:
        return mpmath.pi + 0
    if isinstance(value, sympy.exp):
        return mpmath.exp(_part(value.args[0]))
    if isinstance(value, sympy.log):
        return mpmath.log(_part(value.args[0]))
    if value.is_Add:
        return mpmath.fsum(_part(arg) for arg in value.args)
    if value.is_Mul:
        return mpmath.fprod(_part(arg) for arg in value.args)
    if value.is_Pow:
        exponent = value.exp
        if exponent.is_Integer:
            return _part(value.base) ** int(exponent)
        return mpmath.power(_part(value.base), _part(exponent))
    return mpmath.mpf(sympy.N(value, DIGITS + 10)._mpf_)


def _part(value: sympy.Expr) -> mpmath.mpf:
    if value.is_Atom:
        return _walk(value)
    return _walk_cached(value)


# Fixed precision, no adaptive refinement: 40 guard digits absorb the cancellation a
# reasonable exact form can have before the 30-digit comparison. Only called inside
# `_approx_sympy`'s precision.
_walk_cached = lru_cache(maxsize=4096)(_walk)


def _approx_sympy(value: sympy.Expr) -> mpmath.mpf:
    with mpmath.workdps(DIGITS + 40):
        return _walk_cached(value)


def _clear_approximations() -> None:
    _walk_cached.cache_clear()
    _float_bounded.cache_clear()


_approx_sympy.cache_clear = _clear_approximations  # type: ignore[attr-defined]


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


# ---------------------------------------------------------------- the float filter
# Step 0 of every comparison: a double-precision value with a bound on its error, from which
# two numbers that differ by far more than any later test could call equal are told apart in
# microseconds. Only "surely apart" is decided here; everything else goes on to the tests
# above, so no verdict changes (tests/grading/test_compare.py checks the bounds against
# mpmath).

Bound = tuple[float, float]  # a float and a bound on its absolute error

_UNIT = 2.0**-53  # the unit roundoff of a double
_SAFETY = 4.0  # every bound is widened fourfold: it may be loose, never short
APART = 1e-12  # relative gap above the bounds that "surely apart" needs


def _relative(factor: float) -> float:
    return _SAFETY * factor * _UNIT


def _bound_of(value: sympy.Expr) -> Bound | None:
    """Return a float for a tree of rationals, E, pi, exp of a rational, sums, products and
    powers (integer exponents, or rational powers of positive rationals), with a bound on its
    absolute error; None for anything else or a bound that is not small (an overflow raises:
    `float_bound` catches it)."""
    if value.is_Rational:
        x = int(value.p) / int(value.q)  # correctly rounded, even for big integers
        return x, abs(x) * _relative(1)
    if value is sympy.E:
        return math.e, math.e * _relative(1)
    if value is sympy.pi:
        return math.pi, math.pi * _relative(1)
    if isinstance(value, sympy.exp):
        argument = value.args[0]
        if not argument.is_Rational:
            return None
        x = int(argument.p) / int(argument.q)
        y = math.exp(x)
        return y, y * _relative(abs(x) + 2)
    if isinstance(value, sympy.log):
        argument = value.args[0]
        if not (argument.is_Rational and argument > 0):
            return None
        # math.log of an integer is correctly rounded up to an ulp, however big the integer
        top, bottom = math.log(int(argument.p)), math.log(int(argument.q))
        return top - bottom, (abs(top) + abs(bottom) + 1.0) * _relative(2)
    if value.is_Add:
        parts = [_float_bounded(arg) for arg in value.args]
        return None if None in parts else bound_sum(parts)  # type: ignore[arg-type]
    if value.is_Mul:
        product, spread = 1.0, 1.0
        for arg in value.args:
            part = _float_bounded(arg)
            if part is None:
                return None
            x, e = part
            if x == 0.0:
                return (0.0, 0.0) if e == 0.0 else None
            product *= x
            spread *= 1.0 + e / abs(x) + _relative(1)
        return _scaled(product, spread - 1.0)
    if value.is_Pow:
        base, exponent = value.args
        if exponent.is_Integer:
            part = _float_bounded(base)
            if part is None or part[0] == 0.0:
                return None
            x, e = part
            k = abs(int(exponent))
            y = x ** int(exponent)
            return _scaled(y, (1.0 + e / abs(x) + _relative(1)) ** (k + 1) - 1.0)
        if base.is_Rational and exponent.is_Rational and base > 0:
            b = int(base.p) / int(base.q)
            r = int(exponent.p) / int(exponent.q)
            y = b**r
            return y, y * _relative(abs(r) * (1 + abs(math.log(b))) + 4)
    return None


def _scaled(value: float, relative: float) -> Bound | None:
    """Return a value with an absolute bound from a relative one (None when not small)."""
    if not relative < 1e-6 or not math.isfinite(value):
        return None
    return value, abs(value) * relative * _SAFETY


_float_bounded = lru_cache(maxsize=4096)(_bound_of)


def float_bound(value: Scalar) -> Bound | None:
    """Return a float for an exact value with a bound on its error (None: not available)."""
    if type(value) is Fraction:
        try:
            x = value.numerator / value.denominator
        except OverflowError:
            return None
        return x, abs(x) * _relative(1)
    if isinstance(value, int):
        return float_bound(Fraction(value))
    try:
        return _float_bounded(value)
    except (OverflowError, ZeroDivisionError, ValueError):
        return None


def bound_exp(argument: Fraction) -> Bound:
    """Return exp of a rational as a float with a bound on its error (OverflowError past a
    double's range)."""
    x = argument.numerator / argument.denominator
    y = math.exp(x)
    if math.isinf(y):
        raise OverflowError("exp past a double's range")
    return y, y * _relative(abs(x) + 2)


def bound_sum(parts: Iterable[Bound]) -> Bound:
    """Return the sum of bounded floats, with a bound on its error."""
    parts = list(parts)
    total = math.fsum(x for x, _ in parts)
    return total, math.fsum(e for _, e in parts) + abs(total) * _relative(1)


def bound_product(a: Bound, b: Bound) -> Bound:
    """Return the product of two bounded floats, with a bound on its error."""
    (x, ex), (y, ey) = a, b
    product = x * y
    return product, abs(x) * ey + abs(y) * ex + ex * ey + abs(product) * _relative(1)


def bound_quotient(a: Bound, b: Bound) -> Bound:
    """Return a / b for bounded floats, with a bound on its error (ZeroDivisionError when b's
    bound does not keep it well away from 0)."""
    (x, ex), (y, ey) = a, b
    if not abs(y) > 2 * ey:
        raise ZeroDivisionError("the divisor's bound reaches 0")
    quotient = x / y
    # |x'/y' - x/y| <= (|x| ey + |y| ex) / (|y| (|y| - ey)), plus the rounding of x / y
    error = (abs(x) * ey + abs(y) * ex) / (abs(y) * (abs(y) - ey))
    return quotient, error + abs(quotient) * _relative(1)


def apart(a: Bound, b: Bound, tolerance: float = 0.0) -> bool:
    """Return True when the two numbers the bounds stand for surely differ by more than
    `tolerance` plus APART of their size: then no 30-digit test calls them equal, and no
    decimal within `tolerance` of one rounds the other."""
    (x, ex), (y, ey) = a, b
    scale = max(abs(x) + ex, abs(y) + ey, 1.0)
    gap = abs(x - y) * (1.0 - _relative(1)) - ex - ey
    return gap > tolerance * (1.0 + APART) + APART * scale


def floats_apart(a: Scalar, b: Scalar) -> bool:
    """Return True when a and b surely differ (by the float filter); False: not known."""
    bound_a, bound_b = float_bound(a), float_bound(b)
    return bound_a is not None and bound_b is not None and apart(bound_a, bound_b)


def close(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    """Return True when two high-precision numbers agree to DIGITS significant digits."""
    with mpmath.workdps(DIGITS + 10):
        scale = max(abs(a), abs(b), mpmath.mpf(1))
        return bool(abs(a - b) <= scale * mpmath.mpf(10) ** (-DIGITS))


def _close(a: Scalar, b: Scalar) -> bool:
    return close(approx(a), approx(b))


def _pending(a: Scalar, b: Scalar) -> bool | sympy.Expr:
    """Decide a == b in process when that is cheap and sure; else return the difference that
    needs an exact symbolic confirmation (already bounded by `check_confirmable`)."""
    fa, fb = as_fraction(a), as_fraction(b)
    if fa is not None and fb is not None:
        return fa == fb
    if isinstance(a, sympy.Basic) and isinstance(b, sympy.Basic) and a == b:
        return True  # the same expression (SymPy's structural ==): equal, nothing to test
    if has_log(a) or has_log(b):
        # logs of rationals over one coprime basis (grading.logs): log(6) and log(2) + log(3)
        # become the same expression, and log-linear values are equal only when they are
        a, b = over_one_basis(to_sympy(a), to_sympy(b))
        if a == b:
            return True
        if is_log_linear(a) and is_log_linear(b):
            return False
    if floats_apart(a, b) or not _close(a, b):
        return False
    diff = to_sympy(a) - to_sympy(b)  # SymPy's automatic evaluation only: nothing expanded
    if diff == 0:
        return True
    if proven_nonzero(diff):
        return False
    return diff


def _confirm(diffs: list[sympy.Expr]) -> list[bool]:
    from .confirm import confirm_zero  # the worker pool, started only when first needed

    for diff in diffs:
        check_confirmable(diff)
    timeout = confirmation_remaining()
    if timeout <= 0:
        raise TooComplex(
            f"the answer was too complex to confirm within the limit of {CONFIRM_SECONDS:g} s "
            "of computing; write it in a simpler form",
            bound="time",
        )
    results = confirm_zero(diffs, timeout=timeout)
    if any(result is None for result in results):
        raise TooComplex(
            "the answer agrees with the right value to 600 digits, yet could not be confirmed "
            "exactly; write it in a simpler form",
            bound="unconfirmed",
        )
    return [bool(result) for result in results]


def equal(a: Scalar, b: Scalar) -> bool:
    """Return True when two exact scalars are equal: rationals exactly; others by a 30-digit
    test, then an interval proof of a difference, then (bounded, in a worker process with a
    time limit) an exact proof of equality. Raise TooComplex past a bound or the limit."""
    decided = _pending(a, b)
    if isinstance(decided, bool):
        return decided
    return _confirm([decided])[0]


def vectors_equal(a: Sequence[Scalar], b: Sequence[Scalar]) -> bool:
    """Return True when two vectors have the same length and equal coordinates (the
    coordinates that need an exact confirmation are sent to the worker together)."""
    if len(a) != len(b):
        return False
    waiting: list[sympy.Expr] = []
    for x, y in zip(a, b, strict=True):
        if type(x) is Fraction and type(y) is Fraction:
            # Fractions are kept in lowest terms: equal exactly when both parts are
            if num_den(x) != num_den(y):
                return False
            continue
        decided = _pending(x, y)
        if decided is False:
            return False
        if decided is not True:
            waiting.append(decided)
    return not waiting or all(_confirm(waiting))


# SymPy's numeric evaluation imports and initialises lazily (about 0.1 s on first use); pay it
# at import so that no learner's first answer spends it inside the per-answer time budget.
approx(sympy.exp(1) / 3)
