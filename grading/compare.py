"""Compare exact values: Fractions by `==`; `exp`/`sqrt` expressions numerically, then exactly.

Rational answers (every kind but content_weights) never touch SymPy here. Two values of which
one is not rational are compared in steps, each cheap and sure before the next:
1. at 30 significant digits (mpmath): a difference there is a wrong answer;
2. SymPy's own evaluation of the difference: a structural 0 is a right answer;
3. interval arithmetic at 120, then 600 digits: an interval that excludes 0 proves the values
   differ (a near miss, the right value plus 10^-60 times anything, ends here);
4. only what is still undecided needs an exact proof of equality. Its size is bounded first,
   from the expression tree and without expanding anything (`check_confirmable`: distinct
   roots and exp values, terms of the expansion); then the proof runs in a separate worker
   process with a time limit and a memory cap (`grading.confirm`). Each `exp(r)` becomes
   `t**(r*L)` for `t = exp(1/L)`, and the difference, a rational function of the
   transcendental `t`, must cancel to zero (Lindemann); with roots or `pi`, the expanded
   numerator must be 0. Past a bound or the limit, or with no proof, `TooComplex`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
import mpmath.ctx_iv
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


_approx_sympy.cache_clear = _walk_cached.cache_clear  # type: ignore[attr-defined]


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
MAX_EXP_ATOMS = 32
MAX_RADICALS = 8
MAX_EXPANSION_TERMS = 500
MAX_RADICAL_TERMS = 60
PROOF_DIGITS = (120, 600)
_CAP = 10**12


class TooComplex(Exception):
    """Raise when an answer needs an exact confirmation that a bound refuses, or that did not
    finish within the time limit; `.message` says so for the learner, `.bound` names it."""

    def __init__(self, message: str, *, bound: str) -> None:
        super().__init__(message)
        self.message = message
        self.bound = bound


def _refuse(what: str, bound: str) -> TooComplex:
    return TooComplex(
        f"the answer is too complex to confirm exactly ({what}); write it in a simpler form",
        bound=bound,
    )


def _exp_atoms_to_t(expr: sympy.Expr) -> sympy.Expr | None:
    """Rewrite every exp(r), r rational, as a power of t; None when that is not possible.

    Nothing is expanded here: the substitution is one `xreplace`. Roots and `pi` may remain
    (then a zero numerator still proves equality, and only then).
    """
    replacements: dict[sympy.Expr, sympy.Rational] = {}
    for atom in expr.atoms(sympy.exp):
        if not atom.args[0].is_Rational:
            return None
        replacements[atom] = atom.args[0]
    if expr.has(sympy.E):
        replacements[sympy.E] = sympy.Integer(1)
    lcm = math.lcm(*(int(r.q) for r in replacements.values())) if replacements else 1
    if lcm > MAX_EXP_LCM:
        return None
    return expr.xreplace({atom: _T ** int(r * lcm) for atom, r in replacements.items()})


def _only_exp(expr: sympy.Expr) -> bool:
    """Return True when the only irrational atoms of `expr` are exp values (no root, no pi)."""
    return not expr.has(sympy.pi) and all(p.exp.is_Integer for p in expr.atoms(sympy.Pow))


def _multinomial(terms: int, power: int) -> int:
    """Return how many monomials (a sum of `terms` terms)^power has, capped at _CAP."""
    if power == 0 or terms <= 1:
        return 1
    # C(power + terms - 1, terms - 1), built one factor at a time so it stops at the cap
    top, low = power + terms - 1, min(power, terms - 1)
    count = 1
    for i in range(1, low + 1):
        count = count * (top - low + i) // i
        if count >= _CAP:
            return _CAP
    return count


def _capped(value: int) -> int:
    return _CAP if value >= _CAP else value


def expansion_terms(expr: sympy.Expr) -> int:
    """Estimate, without expanding, how many terms the numerator of `expr` has once it is put
    over one common denominator and expanded (an upper bound; the cost of `together` then
    `expand`). Denominators that are the same expression are counted once, as `together`
    shares them."""
    memo: dict[sympy.Basic, tuple[int, dict[sympy.Basic, int]]] = {}

    def walk(node: sympy.Basic) -> tuple[int, dict[sympy.Basic, int]]:
        # (terms of the expanded numerator, {denominator factor: its expanded terms})
        found = memo.get(node)
        if found is not None:
            return found
        if node.is_Add:
            parts = [walk(arg) for arg in node.args]
            common: dict[sympy.Basic, int] = {}
            for _, denominators in parts:
                common.update(denominators)
            total = 0
            for numerator, denominators in parts:
                scale = numerator
                for factor, size in common.items():
                    if factor not in denominators:
                        scale = _capped(scale * size)
                total = _capped(total + scale)
            result = (total, common)
        elif node.is_Mul:
            numerator, common = 1, {}
            for arg in node.args:
                terms, denominators = walk(arg)
                numerator = _capped(numerator * terms)
                common.update(denominators)
            result = (numerator, common)
        elif node.is_Pow and node.exp.is_Integer:
            terms, denominators = walk(node.base)
            power = abs(int(node.exp))
            if node.exp > 0:
                grown = {f: _multinomial(s, power) for f, s in denominators.items()}
                result = (_multinomial(terms, power), grown)
            else:  # 1 / base^power: the base's numerator becomes one denominator factor
                size = _multinomial(terms, power)
                result = (1, {node: size} if size > 1 else {})
        else:  # a number, a radical, exp(r), E, pi: one term
            result = (1, {})
        memo[node] = result
        return result

    return walk(expr)[0]


def check_confirmable(diff: sympy.Expr) -> None:
    """Raise TooComplex when confirming `diff == 0` exactly could be long: too many distinct
    radicals or exp atoms, or an expansion of too many terms. Counts only; nothing is expanded."""
    radicals = {p for p in diff.atoms(sympy.Pow) if not p.exp.is_Integer}
    if len(radicals) > MAX_RADICALS:
        raise _refuse(f"more than {MAX_RADICALS} different roots", "radicals")
    exps = diff.atoms(sympy.exp)
    if len(exps) > MAX_EXP_ATOMS:
        raise _refuse(f"more than {MAX_EXP_ATOMS} different exp values", "exp_atoms")
    terms = expansion_terms(diff)
    # Exp values all become powers of one symbol t (`_exp_atoms_to_t`), whose products
    # SymPy multiplies quickly; roots, pi, and exp values past the lcm bound stay atoms whose
    # products cost about ten times more per term.
    arguments = [atom.args[0] for atom in exps]
    as_powers_of_t = all(a.is_Rational for a in arguments) and (
        math.lcm(*(int(a.q) for a in arguments)) <= MAX_EXP_LCM if arguments else True
    )
    slow = radicals or diff.has(sympy.pi) or not as_powers_of_t
    limit = MAX_RADICAL_TERMS if slow else MAX_EXPANSION_TERMS
    if terms > limit:
        raise _refuse(f"expanded, it would have more than {limit} terms", "expansion")


_contexts = threading.local()


def _interval_context() -> Any:
    context = getattr(_contexts, "iv", None)
    if context is None:
        context = _contexts.iv = mpmath.ctx_iv.MPIntervalContext()
    return context


class _Unknown(Exception):
    """Raise inside `_interval` for a node it does not evaluate."""


def _interval(expr: sympy.Expr, iv: Any) -> Any:
    memo: dict[sympy.Basic, Any] = {}

    def walk(node: sympy.Basic) -> Any:
        found = memo.get(node)
        if found is not None:
            return found
        if node.is_Rational:
            value = iv.mpf(int(node.p)) / iv.mpf(int(node.q))
        elif node is sympy.E:
            value = iv.e
        elif node is sympy.pi:
            value = iv.pi
        elif isinstance(node, sympy.exp):
            value = iv.exp(walk(node.args[0]))
        elif node.is_Add:
            value = sum((walk(arg) for arg in node.args[1:]), walk(node.args[0]))
        elif node.is_Mul:
            value = walk(node.args[0])
            for arg in node.args[1:]:
                value = value * walk(arg)
        elif node.is_Pow and node.exp.is_Integer:
            base = walk(node.base)
            if node.exp < 0 and 0 in base:
                raise _Unknown
            value = base ** int(node.exp)
        elif node.is_Pow and node.exp.is_Rational:
            base = walk(node.base)
            if not base.a > 0:
                raise _Unknown
            value = iv.exp(iv.log(base) * (iv.mpf(int(node.exp.p)) / int(node.exp.q)))
        else:
            raise _Unknown
        memo[node] = value
        return value

    return walk(expr)


def proven_nonzero(diff: sympy.Expr) -> bool:
    """Return True when interval arithmetic proves `diff` is not 0 (at 120, then 600 digits).

    A near miss (the right value plus something of size 10^-60) is decided here, in process
    and in milliseconds, with no symbolic step. False means "not proven", not "zero".
    """
    iv = _interval_context()
    for digits in PROOF_DIGITS:
        iv.dps = digits
        try:
            value = _interval(diff, iv)
        except (_Unknown, ZeroDivisionError, ValueError, OverflowError):
            return False
        if not (value.a <= 0 <= value.b):
            return True
    return False


def _exactly_zero(diff: sympy.Expr) -> bool | None:
    """Decide whether an expression already known to be ~0 at 600 digits is exactly 0: True,
    False, or None when no proof was found. Runs in the confirmation worker (grading.confirm),
    after `check_confirmable` has bounded it.

    The difference is put over one denominator and its numerator expanded. With `exp` values
    only, each `exp(r)` is first `t**(r*L)` for `t = exp(1/L)`: a rational function of the
    transcendental `t` vanishes only if its numerator polynomial is identically zero
    (Lindemann), so both answers are proofs. With roots or `pi`, a numerator of 0 proves
    equality; otherwise nothing is proven (None).
    """
    if diff == 0:
        return True
    proof_both_ways = _only_exp(diff)
    polynomial = _exp_atoms_to_t(diff)
    if polynomial is None:
        polynomial = diff
        proof_both_ways = False
    numerator, _ = sympy.together(polynomial).as_numer_denom()
    if sympy.expand(numerator) == 0:
        return True
    # Roots of rationals are kept in SymPy's canonical form (sqrt(8) is 2*sqrt(2),
    # sqrt(2)*sqrt(3) is sqrt(6)), so an expanded numerator of 0 is the proof; `simplify`,
    # whose cost cannot be bounded beforehand, is not tried.
    return False if proof_both_ways else None


def _pending(a: Scalar, b: Scalar) -> bool | sympy.Expr:
    """Decide a == b in process when that is cheap and sure; else return the difference that
    needs an exact symbolic confirmation (already bounded by `check_confirmable`)."""
    fa, fb = as_fraction(a), as_fraction(b)
    if fa is not None and fb is not None:
        return fa == fb
    if not _close(a, b):
        return False
    diff = to_sympy(a) - to_sympy(b)  # SymPy's automatic evaluation only: nothing expanded
    if diff == 0:
        return True
    if proven_nonzero(diff):
        return False
    return diff


CONFIRM_SECONDS = 0.5
_budget = threading.local()


@contextmanager
def confirmation_budget(seconds: float = CONFIRM_SECONDS) -> Iterator[None]:
    """Share `seconds` of worker time among every exact confirmation made inside the block
    (one answer: its comparison with the right value and with each mistaken one)."""
    previous = getattr(_budget, "deadline", None)
    _budget.deadline = time.monotonic() + seconds
    try:
        yield
    finally:
        _budget.deadline = previous


def _remaining() -> float:
    deadline = getattr(_budget, "deadline", None)
    if deadline is None:
        return CONFIRM_SECONDS
    return min(CONFIRM_SECONDS, deadline - time.monotonic())


def _confirm(diffs: list[sympy.Expr]) -> list[bool]:
    from .confirm import confirm_zero  # the worker pool, started only when first needed

    for diff in diffs:
        check_confirmable(diff)
    timeout = _remaining()
    if timeout <= 0:
        raise TooComplex(
            f"the answer was too complex to confirm within the time limit of "
            f"{CONFIRM_SECONDS:g} s; write it in a simpler form",
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
            if x.numerator != y.numerator or x.denominator != y.denominator:
                return False
            continue
        decided = _pending(x, y)
        if decided is False:
            return False
        if decided is not True:
            waiting.append(decided)
    return not waiting or all(_confirm(waiting))


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
