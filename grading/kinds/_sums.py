"""Words and TeX shared by the kinds whose answer is a weighted sum of rows (weighted_sum,
contrast, content_weights): how a term and a row are named, and a term's right form.

A module whose name starts with `_` is not a kind; the registry skips it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..compare import Scalar
from ..exact import add, combine, is_rational, scale
from ..fraction_parts import num_den
from ..tex import ratios_tex, scalar_tex, term_tex, vector_tex
from .base import Step

SELF_POINT = (
    "The sum $\\mathbf{{h}}_i = \\sum_j w_{{ij}}\\,\\mathbf{{x}}_j$ includes $j = i$: the word's "
    "own row is one of the terms, with weight ${w}$."
)


def term_name(tokens: Sequence[str], k: int) -> str:
    """Return 'the term for position 2, *river*' (without the token when there are none)."""
    if tokens:
        return f"the term for position {k}, *{tokens[k]}*"
    return f"the term for position {k}"


def row_name(tokens: Sequence[str], r: int) -> str:
    """Return 'the row at position 2, *river*'."""
    if tokens:
        return f"the row at position {r}, *{tokens[r]}*"
    return f"the row at position {r}"


def right_term(weight: Scalar, row: Sequence[Scalar]) -> str:
    """Return `$w x = product$` for one term, in TeX."""
    if type(weight) is Fraction and is_rational(row):  # the product's TeX from integers
        top, bottom = num_den(weight)
        product = ratios_tex([(top * n, bottom * d) for n, d in map(num_den, row)])
    else:
        product = vector_tex(scale(weight, row))
    return f"${term_tex(weight, row)} = {product}$"


def sum_tex(weights: Sequence[Scalar], rows: Sequence[Sequence[Scalar]]) -> str:
    """Return `w_0 x_0 + w_1 x_1 + ... = total` in TeX."""
    parts = " + ".join(term_tex(w, x) for w, x in zip(weights, rows, strict=True))
    return f"{parts} = {vector_tex(combine(weights, rows))}"


def vector_total(vectors: Sequence[Sequence[Scalar]]) -> tuple[Scalar, ...]:
    """Return the coordinate-wise sum of vectors of one length."""
    total = tuple(vectors[0])
    for vector in vectors[1:]:
        total = tuple(add(a, b) for a, b in zip(total, vector, strict=True))
    return total


def weighted_sum_steps(
    tokens: Sequence[str],
    position: int,
    weights: Sequence[Scalar],
    rows: Sequence[Sequence[Scalar]],
    *,
    name: str | None = None,
) -> tuple[Step, ...]:
    """Return the worked steps of `h_i = sum_j w_ij x_j`: each term, then the sum of the terms
    (the last step's value)."""
    name = name or f"\\mathbf{{h}}_{{{position}}}"
    where = f"position {position}, *{tokens[position]}*" if tokens else f"position {position}"
    listed = ", ".join(f"$w_{{{position},{j}}} = {scalar_tex(w)}$" for j, w in enumerate(weights))
    steps = [Step(f"At {where}, the weights over the positions $j$ are {listed}.")]
    products = []
    for j, (w, row) in enumerate(zip(weights, rows, strict=True)):
        product = scale(w, row)
        products.append(product)
        word = f" (*{tokens[j]}*)" if tokens else ""
        steps.append(Step(f"Term {j}{word}: " + right_term(w, row), product))
    total = vector_total(products)
    added = " + ".join(vector_tex(v) for v in products)
    steps.append(Step(f"Add the terms: ${name} = {added} = {vector_tex(total)}$.", total))
    return tuple(steps)
