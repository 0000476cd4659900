"""Written-out terms: a vector-valued sum expanded into its terms (coefficient times vector),
as the learner typed them, for term-by-term marking (`terms.match_terms`).

Every sub-node is evaluated through the `evaluate.Evaluator` reading the answer, in its order,
so expanding raises nothing the evaluator would not raise first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .compare import Scalar, to_sympy
from .evaluate import Evaluator, is_vector, is_zero
from .exact import multiply, rational_sum
from .tree import Frac, Group, Neg, Node, Num, Product, Sum, Value, Vec


@dataclass(frozen=True)
class Term:
    """One term of a written-out sum: coefficient times vector, as the learner typed it."""

    coefficient: Scalar
    vector: tuple[Scalar, ...]
    decimal: str | None = None  # the coefficient's text when typed as one bare decimal
    explicit: bool = False  # a coefficient was written (`1/2*[1,0]`, not `[1/2,0]`)


def decimal_text(node: Node) -> str | None:
    """Return the text of a number typed as a decimal (with its sign), else None."""
    if isinstance(node, Num) and node.decimal:
        return node.text
    if isinstance(node, Neg) and isinstance(node.arg, Num) and node.arg.decimal:
        return "-" + node.arg.text
    if isinstance(node, Group):
        return decimal_text(node.inner)
    return None


_ONE = Fraction(1)


def expand(node: Node, ev: Evaluator) -> list[Term] | None:
    """Return the terms of a vector-valued node, distributing a coefficient over a sum.

    Sub-nodes are evaluated in the order the evaluator takes them, and None is returned at the
    first thing the evaluator would refuse (a product or quotient of vectors, a division by
    zero, vectors of different lengths, a number added to a vector) before anything after it
    is evaluated: expanding an answer first therefore raises nothing the evaluator would not
    raise first, and on None the evaluator gives its own message.
    """
    if isinstance(node, Group):
        return expand(node.inner, ev)
    if isinstance(node, Vec):
        return [Term(_ONE, ev.value(node))]  # type: ignore[arg-type]
    if isinstance(node, Neg):
        return _negated(expand(node.arg, ev))
    if isinstance(node, Sum):
        return _expand_sum(node, ev)
    if isinstance(node, Product):
        return _expand_product(node, ev)
    if isinstance(node, Frac) and is_vector(ev.value(node.num)):
        return _expand_quotient(node, ev)
    return None


def _negated(inner: list[Term] | None) -> list[Term] | None:
    """Return the terms with every coefficient negated (a typed decimal keeps its sign)."""
    if inner is None:
        return None
    return [
        Term(
            -t.coefficient,
            t.vector,
            None if t.decimal is None else ("-" + t.decimal).replace("--", ""),
            t.explicit,
        )
        for t in inner
    ]


def _expand_sum(node: Sum, ev: Evaluator) -> list[Term] | None:
    """Return the terms of every summand, in order (None: vectors of different lengths)."""
    terms: list[Term] = []
    for sign, item in node.terms:
        part = expand(Neg(item.pos, item) if sign == -1 else item, ev)
        if part is None or (terms and len(part[0].vector) != len(terms[0].vector)):
            return None
        terms.extend(part)
    return terms


def _vector_factor(node: Product, ev: Evaluator) -> tuple[int, list[Value]] | None:
    """Return the index of a product's one vector factor and every factor's value; None when
    it has no vector, or the evaluator would refuse it (two vectors, division by a vector or
    by zero)."""
    vector_at = -1
    values: list[Value] = []
    for k, (op, factor) in enumerate(node.factors):
        value = ev.value(factor)
        if is_vector(value):
            if vector_at >= 0 or (k > 0 and op == "/"):
                return None
            vector_at = k
        elif op == "/" and is_zero(value, factor.pos + 1):
            return None
        values.append(value)
    if vector_at < 0:
        return None
    return vector_at, values


def _expand_product(node: Product, ev: Evaluator) -> list[Term] | None:
    """Return the terms of the vector factor, each times the product of the other factors."""
    found = _vector_factor(node, ev)
    if found is None:
        return None
    vector_at, values = found
    coefficient: Scalar | None = None
    scalars = [(op, f) for k, (op, f) in enumerate(node.factors) if k != vector_at]
    for k, (op, _) in enumerate(node.factors):
        if k == vector_at:
            continue
        value = values[k]
        if op == "/":
            value = 1 / value if isinstance(value, Fraction) else 1 / to_sympy(value)
        coefficient = value if coefficient is None else multiply(coefficient, value)
    assert coefficient is not None  # a product has two factors or more, one the vector
    decimal = None
    if len(scalars) == 1 and scalars[0][0] != "/":
        decimal = decimal_text(scalars[0][1])
    inner = expand(node.factors[vector_at][1], ev)
    if inner is None:
        return None
    return [
        Term(
            coefficient if t.coefficient is _ONE else multiply(coefficient, t.coefficient),
            t.vector,
            decimal if t.coefficient == 1 and not t.explicit else None,
            True,
        )
        for t in inner
    ]


def _expand_quotient(node: Frac, ev: Evaluator) -> list[Term] | None:
    """Return the terms of a vector numerator, each divided by the denominator."""
    inner = expand(node.num, ev)
    if inner is None:
        return None
    den = ev.value(node.den)
    if is_vector(den) or is_zero(den, node.den.pos + 1):
        return None
    factor = 1 / den if isinstance(den, Fraction) else 1 / to_sympy(den)
    return [Term(multiply(factor, t.coefficient), t.vector, None, True) for t in inner]


def sum_terms(terms: Sequence[Term]) -> tuple[Fraction, ...]:
    """Return sum_k c_k v_k of rational terms, exactly (in integers: exact.rational_sum)."""
    return rational_sum(
        [t.coefficient for t in terms],  # type: ignore[misc]
        [t.vector for t in terms],  # type: ignore[misc]
    )


def rational_terms(terms: Sequence[Term]) -> bool:
    """Return True when every coefficient and coordinate of the terms is a Fraction."""
    return all(
        type(t.coefficient) is Fraction and all(type(x) is Fraction for x in t.vector)
        for t in terms
    )
