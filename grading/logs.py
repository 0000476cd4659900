"""Natural logarithms in answers: the log of a learner's argument, and one canonical form in
which log identities are equal structurally.

An answer reads `log(x)` only where its shape accepts it (`ScalarShape(logs=True)`: a declared
kind whose steps take a logarithm). `log_of` takes the argument's exact value: a positive
rational (`log(3/8)`), a root of one (`log(sqrt(2))` is `log(2)/2`), a power of `e`
(`log(e^2)` is 2), or a product of those; 0 and negative arguments are refused with the reason,
before any work. The value is SymPy's `log` of positive rationals (`log(1/2)` is `-log(2)`).

`over_one_basis(a, b)` rewrites the logarithms of two values together over one basis of
pairwise coprime integers greater than 1 (built with gcds only: no factoring, whose cost no
bound tames): `log(6)` and `log(2) + log(3)`, `log(8)` and `3 log(2)`, `log(2/5)` and
`log(2) - log(5)` become the same expression. Pairwise coprime integers are multiplicatively
independent, so their logs and 1 are linearly independent over the rationals (a rational
combination equal to a nonzero rational would make `e` to that rational algebraic, which
Lindemann's theorem forbids): two *log-linear* values (rationals plus rational multiples of
those logs, `is_log_linear`) are equal exactly when the rewritten expressions are the same.
Every size is bounded first (`MAX_LOG_ARGUMENTS`, `MAX_LOG_BASIS`, `MAX_SPLITS`); past one,
`TooComplex`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import gcd

import sympy

from .proof import TooComplex

MAX_LOG_ARGUMENTS = 24  # distinct logarithms in two values compared together
MAX_LOG_BASIS = 32  # integers of the coprime basis, and numbers waiting to join it
MAX_SPLITS = 20_000  # gcd splits while building the basis (each divides the product by 2+)
_NEGATIVE = "the logarithm of a negative number is not a real number (log(x) needs x > 0)"


class LogArgumentError(ValueError):
    """An argument `log` does not take: `.reason` says why, for the learner."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@lru_cache(maxsize=4096)
def log_of_fraction(x: Fraction) -> sympy.Expr:
    """Return log(x) of a positive rational (cached: the same few in answer after answer)."""
    if x == 1:
        return sympy.Integer(0)
    return sympy.log(sympy.Rational(x.numerator, x.denominator))


def log_of(value: Fraction | sympy.Expr) -> Fraction | sympy.Expr:
    """Return log(value) for a positive rational, a root of one, a power of e or a product of
    those; raise LogArgumentError for 0, a negative number or any other argument."""
    if type(value) is Fraction:
        if value == 0:
            raise LogArgumentError("the logarithm of 0 is not a number (log(x) needs x > 0)")
        if value < 0:
            raise LogArgumentError(_NEGATIVE)
        if value == 1:
            return Fraction(0)
        return log_of_fraction(value)
    factors = value.args if value.is_Mul else (value,)
    total: list[sympy.Expr] = []
    for factor in factors:
        if factor.is_Rational:
            if factor < 0:
                raise LogArgumentError(_NEGATIVE)
            total.append(log_of_fraction(Fraction(int(factor.p), int(factor.q))))
        elif factor is sympy.E:
            total.append(sympy.Integer(1))
        elif isinstance(factor, sympy.exp) and factor.args[0].is_Rational:
            total.append(factor.args[0])
        elif (
            factor.is_Pow and factor.base.is_Rational and factor.base > 0 and factor.exp.is_Rational
        ):
            base = Fraction(int(factor.base.p), int(factor.base.q))
            total.append(factor.exp * log_of_fraction(base))
        else:
            raise LogArgumentError(
                "log is read for a positive rational argument, a root of one or a power of e"
            )
    result = sympy.Add(*total)
    if result.is_Rational:
        return Fraction(int(result.p), int(result.q))
    return result


def has_log(value: object) -> bool:
    """Return True for a SymPy value with a logarithm in it."""
    return isinstance(value, sympy.Basic) and value.has(sympy.log)


def _too_complex(what: str) -> TooComplex:
    return TooComplex(
        f"the answer is too complex to confirm exactly ({what}); write it in a simpler form",
        bound="logs",
    )


def coprime_basis(numbers: list[int]) -> list[int]:
    """Return pairwise coprime integers > 1 of which every number given is a product of
    powers (by gcds alone); TooComplex past MAX_LOG_BASIS integers or MAX_SPLITS splits."""
    basis: list[int] = []
    pending = sorted({n for n in numbers if n > 1})
    splits = 0
    while pending:
        n = pending.pop()
        for k, b in enumerate(basis):
            g = gcd(n, b)
            if g > 1:
                # n b becomes g (b/g) (n/g): the product shrinks by g >= 2 at every split
                splits += 1
                if splits > MAX_SPLITS:
                    raise _too_complex("its logarithms share too many factors")
                basis.pop(k)
                pending.extend(x for x in (g, b // g, n // g) if x > 1)
                break
        else:
            basis.append(n)
        if len(basis) + len(pending) > MAX_LOG_BASIS:
            raise _too_complex(f"more than {MAX_LOG_BASIS} different logarithms")
    return sorted(basis)


def _exponents(n: int, basis: list[int]) -> list[tuple[int, int]]:
    """Return (b, e) with n = prod b^e over the basis (n a product of its powers)."""
    out = []
    for b in basis:
        if n == 1:
            break
        e = 0
        # strip b, b^2, b^4, ... then back down: O(log e) divisions of big numbers
        powers = [b]
        while n % (powers[-1] * powers[-1]) == 0:
            powers.append(powers[-1] * powers[-1])
        for k in range(len(powers) - 1, -1, -1):
            while n % powers[k] == 0:
                n //= powers[k]
                e += 1 << k
        if e:
            out.append((b, e))
    return out


def over_one_basis(*values: sympy.Expr) -> tuple[sympy.Expr, ...]:
    """Return the values with every log of a rational rewritten over one coprime basis."""
    atoms: set[sympy.Expr] = set()
    for value in values:
        if isinstance(value, sympy.Basic):
            atoms |= value.atoms(sympy.log)
    if not atoms:
        return values
    if len(atoms) > MAX_LOG_ARGUMENTS:
        raise _too_complex(f"more than {MAX_LOG_ARGUMENTS} different logarithms")
    arguments = {}
    for atom in atoms:
        argument = atom.args[0]
        if not (argument.is_Rational and argument > 0):
            return values  # not from a learner's answer: left as it is
        arguments[atom] = (int(argument.p), int(argument.q))
    basis = coprime_basis([n for pair in arguments.values() for n in pair])
    logs = {b: sympy.log(sympy.Integer(b)) for b in basis}
    replacements = {}
    for atom, (p, q) in arguments.items():
        terms = [e * logs[b] for b, e in _exponents(p, basis)]
        terms += [-e * logs[b] for b, e in _exponents(q, basis)]
        replacements[atom] = sympy.Add(*terms)
    return tuple(
        value.xreplace(replacements) if isinstance(value, sympy.Basic) else value
        for value in values
    )


def _log_linear_term(term: sympy.Expr) -> bool:
    if term.is_Rational or (isinstance(term, sympy.log) and term.args[0].is_Integer):
        return True
    if term.is_Mul and len(term.args) == 2:
        c, atom = term.args
        return bool(c.is_Rational and isinstance(atom, sympy.log) and atom.args[0].is_Integer)
    return False


def is_log_linear(value: object) -> bool:
    """Return True for a rational plus rational multiples of logs of integers (the form
    `over_one_basis` leaves a log-linear value in)."""
    if isinstance(value, (Fraction, int)):
        return True
    if not isinstance(value, sympy.Basic):
        return False
    terms = value.args if value.is_Add else (value,)
    return all(_log_linear_term(term) for term in terms)
