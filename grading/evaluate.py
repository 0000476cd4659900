"""Evaluation: turn a syntax tree into exact values, bounding every size before computing it.

Values are Fractions while every number is rational, SymPy expressions once `exp`, `sqrt`,
`log`, `pi` or `e` appear, and tuples of those for vectors. Bounds: bits of every rational
built, exponents of powers, the argument of `exp`, the argument of `log` (a positive rational,
a root of one or a power of e, `grading.logs`: a log cannot nest, and 0 or a negative number is
refused before any work), the number of irrational atoms, coordinates of a vector, and a
cooperative clock between nodes. A sum written out term by term is expanded into
its terms by `written_terms.py`, which evaluates through this module's `Evaluator`.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from .bounds import (
    MAX_BITS,
    MAX_COORDINATES,
    MAX_EXP_ARGUMENT,
    MAX_EXP_DENOMINATOR,
    MAX_INTEGER_POWER,
    MAX_IRRATIONAL_ATOMS,
    MAX_ROOT_DENOMINATOR,
    MAX_SYMBOLIC_POWER,
    TIME_BUDGET_SECONDS,
)
from .clock import cpu_now
from .compare import Scalar, as_fraction, float_bound, to_sympy
from .errors import AnswerError
from .exact import add, exp_of, multiply
from .logs import LogArgumentError, log_of
from .proof import proven_nonzero
from .syntax import negative_literal
from .tree import Call, Const, Frac, Group, Neg, Node, Num, Power, Product, Sum, Value, Vec


def is_vector(value: Value) -> bool:
    """Return True for a vector value (a tuple)."""
    return isinstance(value, tuple)


def is_zero(value: Scalar, column: int | None = None) -> bool:
    """Return True for an exact zero, False for a value proven nonzero; raise AnswerError for
    an irrational value neither proven nonzero nor zero (a divisor within 10^-600 of 0).

    Rationals compare exactly. An irrational value is nonzero when the float filter or, for a
    tiny one such as a sum of `exp(-150)` terms, interval arithmetic at 120 and then 600 digits
    (`proof.proven_nonzero`) proves it; SymPy's canonical forms already reduce the zeros a
    learner writes (`sqrt(2)**2 - 2`, `exp(1)*exp(-1) - 1`) to the rational 0."""
    fraction = as_fraction(value)
    if fraction is not None:
        return fraction == 0
    bound = float_bound(value)
    if bound is not None and abs(bound[0]) - bound[1] > 1e-20:
        return False  # surely far from 0 (the float filter): no interval needed
    if proven_nonzero(to_sympy(value)):
        return False
    raise AnswerError(
        "a divisor could not be told apart from zero (it is within 10^-600 of it); write the "
        "answer in a simpler form",
        column=column,
        bound="zero",
    )


_ARITHMETIC = frozenset({Sum, Product, Power, Frac, Neg})
_NOT_FINITE = (sympy.zoo, sympy.oo, -sympy.oo, sympy.nan)
_QUOTIENTS = frozenset({Product, Frac, Power})


class Evaluator:
    """Evaluate nodes once each (values cached by node), bounding every size first."""

    def __init__(self, deadline: float, values: dict[int, Value] | None = None) -> None:
        self.deadline = deadline
        self.values: dict[int, Value] = values if values is not None else {}
        self.irrational = 0
        self.steps = 0

    def value(self, node: Node) -> Value:
        """Return the exact value of a node, evaluated once (bounds checked, clock read)."""
        if type(node) is Num:  # a literal: its digits are already bounded
            return node.value
        cached = self.values.get(id(node))
        if cached is None:
            self.steps += 1
            if self.steps & 15 == 1 and cpu_now() > self.deadline:  # 1st, 17th, ...: 0.6 µs a read
                raise AnswerError(
                    f"reading the answer took longer than {TIME_BUDGET_SECONDS:g} s of computing",
                    column=node.pos + 1,
                    bound="time",
                )
            cached = self._value(node)
            if isinstance(cached, sympy.Basic):
                # zoo, oo, nan: never a value a learner meant. Only a quotient or a power can
                # make one of finite parts (sums, negations, exp and sqrt of rationals cannot)
                if type(node) in _QUOTIENTS and cached.has(*_NOT_FINITE):
                    raise AnswerError("division by zero", column=node.pos + 1)
                if cached.is_Rational:  # e - e is 0: keep rationals on the Fraction path
                    cached = Fraction(int(cached.p), int(cached.q))
            if type(cached) is Fraction and type(node) in _ARITHMETIC:
                self._check_fraction(cached, node)
            self.values[id(node)] = cached
        return cached

    def _check_fraction(self, value: Fraction, node: Node) -> None:
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
            raise AnswerError(
                f"a number in the answer grows past {MAX_BITS} bits",
                column=node.pos + 1,
                bound="size",
            )

    def scalar(self, node: Node, what: str) -> Scalar:
        """Return a node's value, or raise AnswerError when it is a vector."""
        value = self.value(node)
        if is_vector(value):
            raise AnswerError(f"{what} must be a number, not a vector", column=node.pos + 1)
        return value

    def irrational_atom(self, node: Node) -> None:
        """Count one use of exp, sqrt, log, pi or e; raise AnswerError past
        MAX_IRRATIONAL_ATOMS."""
        self.irrational += 1
        if self.irrational > MAX_IRRATIONAL_ATOMS:
            raise AnswerError(
                f"the answer uses exp, sqrt, log, pi or e more than {MAX_IRRATIONAL_ATOMS} times",
                column=node.pos + 1,
                bound="size",
            )

    def _value(self, node: Node) -> Value:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Const):
            self.irrational_atom(node)
            return sympy.pi if node.name == "pi" else sympy.E
        if isinstance(node, Group):
            return self.value(node.inner)
        if isinstance(node, Neg):
            return _negate(self.value(node.arg))
        if isinstance(node, Vec):
            if len(node.items) > MAX_COORDINATES:
                raise AnswerError(
                    f"a vector has more than {MAX_COORDINATES} coordinates",
                    column=node.pos + 1,
                    bound="size",
                )
            return tuple(
                item.value
                if type(item) is Num
                else negative_literal(item.arg.text)  # type: ignore[attr-defined]
                if type(item) is Neg and type(item.arg) is Num  # type: ignore[attr-defined]
                else self.scalar(item, "a coordinate")
                for item in node.items
            )
        if isinstance(node, Sum):
            # A sum of numbers with an irrational one is built in one step (SymPy's Add of
            # them all is the same expression as adding them one by one, and cheaper).
            scalars: list[Scalar] = []
            for sign, term in node.terms:
                value = self.value(term)
                if is_vector(value):
                    break
                scalars.append(value if sign == 1 else _negate(value))  # type: ignore[arg-type]
            else:
                if any(isinstance(x, sympy.Basic) for x in scalars):
                    return sympy.Add(*(to_sympy(x) for x in scalars))
            total: Value | None = None
            for sign, term in node.terms:
                value = self.value(term)
                value = value if sign == 1 else _negate(value)
                total = value if total is None else _add(total, value, term)
            assert total is not None
            return total
        if isinstance(node, Product):
            result = self.value(node.factors[0][1])
            for op, factor in node.factors[1:]:
                value = self.value(factor)
                if op == "/":
                    result = self.divide(result, value, factor)
                else:
                    result = _multiply(result, value, factor)
            return result
        if isinstance(node, Frac):
            return self.divide(self.value(node.num), self.value(node.den), node.den)
        if isinstance(node, Power):
            return self.power(node)
        if isinstance(node, Call):
            return self.call(node)
        raise AnswerError("unreadable answer", column=node.pos + 1)

    def divide(self, left: Value, right: Value, node: Node) -> Value:
        """Return left / right, refusing division by a vector or by zero."""
        if is_vector(right):
            raise AnswerError("division by a vector", column=node.pos + 1)
        if is_zero(right, node.pos + 1):
            raise AnswerError("division by zero", column=node.pos + 1)
        if isinstance(right, Fraction):
            if isinstance(left, Fraction):
                return left / right
            return _multiply(left, 1 / right, node)
        return _multiply(left, 1 / to_sympy(right), node)

    def power(self, node: Power) -> Value:
        """Return base ^ exponent, bounding its bits, roots and symbolic powers first."""
        base = self.value(node.base)
        if is_vector(base):
            raise AnswerError("a vector cannot be raised to a power", column=node.pos + 1)
        exponent = as_fraction(self.scalar(node.exponent, "an exponent"))
        if exponent is None:
            raise AnswerError("an exponent must be a rational number", column=node.pos + 1)
        if base is sympy.E:
            # e^x is one use of exp, not two: the base's own count is taken back first
            self.irrational -= 1
            return self.exp(exponent, node)
        if isinstance(base, Fraction):
            if base == 0 and exponent < 0:
                raise AnswerError("division by zero (0 to a negative power)", column=node.pos + 1)
            bits = max(base.numerator.bit_length(), base.denominator.bit_length())
            size = abs(exponent.numerator)
            if size > MAX_INTEGER_POWER or bits * size > MAX_BITS:
                raise AnswerError(
                    f"the power is too large (more than {MAX_BITS} bits)",
                    column=node.pos + 1,
                    bound="power",
                )
            if exponent.denominator == 1:
                return base**exponent.numerator
            if base < 0:
                raise AnswerError(
                    "a root of a negative number: complex numbers are not accepted",
                    column=node.pos + 1,
                )
            if exponent.denominator > MAX_ROOT_DENOMINATOR:
                raise AnswerError("the root is too deep", column=node.pos + 1, bound="power")
            self.irrational_atom(node)
            return to_sympy(base) ** sympy.Rational(exponent.numerator, exponent.denominator)
        if exponent < 0 and is_zero(base, node.pos + 1):
            raise AnswerError("division by zero (0 to a negative power)", column=node.pos + 1)
        if exponent.denominator != 1 or abs(exponent.numerator) > MAX_SYMBOLIC_POWER:
            raise AnswerError(
                f"powers of exp, sqrt or pi are limited to whole exponents up to "
                f"{MAX_SYMBOLIC_POWER}",
                column=node.pos + 1,
                bound="power",
            )
        return base**exponent.numerator

    def exp(self, argument: Fraction, node: Node) -> Scalar:
        """Return exp(argument), bounding the argument and its denominator first."""
        if abs(argument) > MAX_EXP_ARGUMENT or argument.denominator > MAX_EXP_DENOMINATOR:
            raise AnswerError(
                f"exp is read for rational arguments up to {MAX_EXP_ARGUMENT} in size with "
                f"denominators up to {MAX_EXP_DENOMINATOR}",
                column=node.pos + 1,
                bound="exp",
            )
        self.irrational_atom(node)
        return exp_of(argument)

    def call(self, node: Call) -> Scalar:
        """Return exp(x) or sqrt(x) of a rational argument x, or log(x) (`grading.logs`)."""
        argument = self.scalar(node.arg, f"the argument of {node.fn}")
        if node.fn == "log":
            try:
                value = log_of(argument)
            except LogArgumentError as error:
                raise AnswerError(error.reason, column=node.pos + 1) from None
            self.irrational_atom(node)
            return value
        fraction = as_fraction(argument)
        if fraction is None:
            raise AnswerError(
                f"{node.fn} is read only for a rational argument here", column=node.pos + 1
            )
        if node.fn == "exp":
            return self.exp(fraction, node)
        if fraction < 0:
            raise AnswerError(
                "the square root of a negative number: complex numbers are not accepted",
                column=node.pos + 1,
            )
        self.irrational_atom(node)
        return sympy.sqrt(sympy.Rational(fraction.numerator, fraction.denominator))


def _negate(value: Value) -> Value:
    if isinstance(value, tuple):
        return tuple(-x for x in value)
    return -value


def _add(left: Value, right: Value, node: Node) -> Value:
    if (
        type(left) is tuple
        and type(right) is tuple
        and len(left) == len(right)
        and all(type(x) is Fraction for x in left)
        and all(type(y) is Fraction for y in right)
    ):
        return tuple(x + y for x, y in zip(left, right, strict=True))
    if is_vector(left) and is_vector(right):
        if len(left) != len(right):
            raise AnswerError(
                f"a vector with {len(right)} coordinates is added to one with {len(left)}",
                column=node.pos + 1,
            )
        return tuple(add(a, b) for a, b in zip(left, right, strict=True))
    if is_vector(left) or is_vector(right):
        raise AnswerError("a number is added to a vector", column=node.pos + 1)
    return add(left, right)


def _multiply(left: Value, right: Value, node: Node) -> Value:
    if type(left) is Fraction:
        if type(right) is Fraction:
            return left * right
        if type(right) is tuple and all(type(x) is Fraction for x in right):
            return tuple(left * x for x in right)
    if is_vector(left) and is_vector(right):
        raise AnswerError(
            "two vectors are multiplied; write a number times a vector", column=node.pos + 1
        )
    if is_vector(left):
        return tuple(multiply(x, right) for x in left)
    if is_vector(right):
        return tuple(multiply(left, x) for x in right)
    return multiply(left, right)
