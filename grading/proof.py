"""Exact proof that a difference of two values is zero, bounded before it runs.

The symbolic half of comparison (`grading.compare` is the numeric half and decides when a proof
is needed): `check_confirmable` bounds a difference's size from its expression tree without
expanding anything (distinct roots and exp values, terms of the expansion), `proven_nonzero`
settles near misses by interval arithmetic, and `exactly_zero` is the proof itself, which the
worker processes of `grading.confirm` run under a time limit and a memory cap. Past a bound,
`TooComplex`.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import mpmath
import mpmath.ctx_iv
import sympy

_T = sympy.Symbol("t", positive=True)

MAX_EXP_LCM = 10**6
MAX_EXP_ATOMS = 32
MAX_RADICALS = 8
MAX_LOGS = 16
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
    """Return True when the only irrational atoms of `expr` are exp values (no root, no pi,
    no log: whether e and log 2 are algebraically independent is not known)."""
    return not expr.has(sympy.pi, sympy.log) and all(
        p.exp.is_Integer for p in expr.atoms(sympy.Pow)
    )


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
    logs = diff.atoms(sympy.log)
    if len(logs) > MAX_LOGS:
        raise _refuse(f"more than {MAX_LOGS} different logarithms", "logs")
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
    slow = radicals or logs or diff.has(sympy.pi) or not as_powers_of_t
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
        elif isinstance(node, sympy.log):
            argument = walk(node.args[0])
            if not argument.a > 0:
                raise _Unknown
            value = iv.log(argument)
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


def exactly_zero(diff: sympy.Expr) -> bool | None:
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
