"""`cosine_similarity`: the cosine of the angle between two words' rows, exact with `sqrt`.

Spec fields: `words` (two distinct words) and `rows` (their rows: two nonzero integer rows of
the same length, entries within ±MAX_ENTRY). The answer is one number,
`cos θ = u·v / (‖u‖ ‖v‖)`, exact (`7/sqrt(65)`, `7*sqrt(65)/65`) or a decimal per the policy.

Mistakes: the dot product alone; divided by one length only (terms [k]: the row whose length
was used); divided by the squared lengths; the Euclidean distance between the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from ..shapes import ScalarShape, Shape
from ..spec import MAX_DIM, SpecError, list_field, number, strings
from ..tex import scalar_tex, vector_tex
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Step, Variant, register, variant

MAX_ENTRY = 12

Scalar = Fraction | sympy.Expr


@dataclass(frozen=True)
class CosineProblem:
    words: tuple[str, str]
    u: tuple[int, ...]
    v: tuple[int, ...]

    @property
    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (self.u, self.v)

    @property
    def dot(self) -> int:
        return sum(a * b for a, b in zip(self.u, self.v, strict=True))

    def squared_length(self, k: int) -> int:
        """Return ‖row k‖² (k = 0 for u, 1 for v)."""
        return sum(a * a for a in self.rows[k])


def exact(expr: sympy.Expr | int | Fraction) -> Scalar:
    """Return a rational value as a Fraction, anything else as the SymPy expression."""
    if isinstance(expr, int | Fraction):
        return Fraction(expr)
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    return expr


def integer_row(value: Any, field: str) -> tuple[int, ...]:
    """Read one nonzero row of 1 to MAX_DIM whole numbers within ±MAX_ENTRY."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DIM:
        raise SpecError(field, f"must be a list of 1 to {MAX_DIM} numbers")
    row = []
    for j, item in enumerate(value):
        x = number(item, f"{field}[{j}]")
        if x.denominator != 1 or abs(x) > MAX_ENTRY:
            raise SpecError(f"{field}[{j}]", f"must be a whole number within ±{MAX_ENTRY}, is {x}")
        row.append(int(x))
    if not any(row):
        raise SpecError(field, "must not be the zero row (it has no direction)")
    return tuple(row)


def integer_rows(data: dict[str, Any], field: str, count: int) -> tuple[tuple[int, ...], ...]:
    """Read `count` nonzero integer rows of one length (see `integer_row`)."""
    items = list_field(data, field, low=count, high=count)
    out = [integer_row(item, f"{field}[{k}]") for k, item in enumerate(items)]
    for k, row in enumerate(out):
        if len(row) != len(out[0]):
            raise SpecError(
                f"{field}[{k}]", f"has {len(row)} coordinates; {field}[0] has {len(out[0])}"
            )
    return tuple(out)


def length_tex(squared: int) -> str:
    """Return ‖x‖ in TeX from ‖x‖²: `3` when it is a square, else `\\sqrt{13}`."""
    return scalar_tex(exact(sympy.sqrt(squared)))


def cosine(u: tuple[int, ...], v: tuple[int, ...]) -> Scalar:
    """Return u·v / (‖u‖ ‖v‖), exactly."""
    dot = sum(a * b for a, b in zip(u, v, strict=True))
    return exact(sympy.Integer(dot) / sympy.sqrt(sum(a * a for a in u) * sum(b * b for b in v)))


def euclidean(u: tuple[int, ...], v: tuple[int, ...]) -> Scalar:
    """Return ‖u − v‖, exactly."""
    return exact(sympy.sqrt(sum((a - b) ** 2 for a, b in zip(u, v, strict=True))))


def _symbol(p: CosineProblem, k: int) -> str:
    return ("\\mathbf{u}", "\\mathbf{v}")[k]


def _right_sentence(p: CosineProblem) -> str:
    nu, nv = p.squared_length(0), p.squared_length(1)
    return (
        f"The right value is $\\cos\\theta = \\dfrac{{{p.dot}}}{{{length_tex(nu)} \\cdot "
        f"{length_tex(nv)}}} = {scalar_tex(cosine(p.u, p.v))}$."
    )


def _dot_explain(p: CosineProblem, d: Diagnosis) -> str:
    return (
        f"You gave the dot product $\\mathbf{{u}} \\cdot \\mathbf{{v}} = {p.dot}$ and stopped "
        "there. The dot product grows with the rows' lengths; the cosine divides it by both "
        f"lengths, $\\lVert\\mathbf{{u}}\\rVert = {length_tex(p.squared_length(0))}$ and "
        f"$\\lVert\\mathbf{{v}}\\rVert = {length_tex(p.squared_length(1))}$, so that only the "
        f"angle is left. {_right_sentence(p)}"
    )


def _one_norm_variants(p: CosineProblem) -> list[Variant]:
    return [variant("one_length", (k,)) for k in (0, 1)]


def _one_norm_apply(p: CosineProblem, d: Any) -> Scalar:
    (k,) = d.terms
    return exact(sympy.Integer(p.dot) / sympy.sqrt(p.squared_length(k)))


def _one_norm_explain(p: CosineProblem, d: Diagnosis) -> str:
    (k,) = d.terms
    other = 1 - k
    return (
        f"You divided the dot product ${p.dot}$ by the length of ${_symbol(p, k)}$ "
        f"(*{p.words[k]}*, ${length_tex(p.squared_length(k))}$) only. Divide by the length of "
        f"${_symbol(p, other)}$ (*{p.words[other]}*, ${length_tex(p.squared_length(other))}$) "
        f"as well. {_right_sentence(p)}"
    )


def _squared_apply(p: CosineProblem, d: Any) -> Scalar:
    return Fraction(p.dot, p.squared_length(0) * p.squared_length(1))


def _squared_explain(p: CosineProblem, d: Diagnosis) -> str:
    nu, nv = p.squared_length(0), p.squared_length(1)
    return (
        f"You divided by the squared lengths, ${nu} \\cdot {nv} = {nu * nv}$. The sums of "
        "squares are the squared lengths; the lengths are their square roots, "
        f"$\\lVert\\mathbf{{u}}\\rVert = {length_tex(nu)}$ and "
        f"$\\lVert\\mathbf{{v}}\\rVert = {length_tex(nv)}$. {_right_sentence(p)}"
    )


def _distance_apply(p: CosineProblem, d: Any) -> Scalar:
    return euclidean(p.u, p.v)


def _distance_explain(p: CosineProblem, d: Diagnosis) -> str:
    return (
        "You gave the Euclidean distance between the rows' tips, "
        f"$\\lVert\\mathbf{{u}} - \\mathbf{{v}}\\rVert = {scalar_tex(euclidean(p.u, p.v))}$. "
        "Distance depends on how long the rows are; cosine similarity compares only their "
        f"directions, through the dot product divided by both lengths. {_right_sentence(p)}"
    )


@register
class CosineSimilarity(Kind):
    name = "cosine_similarity"
    label = "Cosine similarity of two rows"
    mistakes = (
        MistakeDef(
            code="dot_product",
            number=1,
            label="gave the dot product",
            explain=_dot_explain,
            apply=lambda p, d: Fraction(p.dot),
        ),
        MistakeDef(
            code="one_length",
            number=2,
            label="divided by one row's length only",
            parts="[k]: the row whose length was used (0 for u, 1 for v)",
            variants=_one_norm_variants,
            apply=_one_norm_apply,
            explain=_one_norm_explain,
        ),
        MistakeDef(
            code="squared_lengths",
            number=3,
            label="divided by the squared lengths",
            explain=_squared_explain,
            apply=_squared_apply,
        ),
        MistakeDef(
            code="euclidean_distance",
            number=4,
            label="gave the Euclidean distance",
            explain=_distance_explain,
            apply=_distance_apply,
        ),
    )

    def load(self, spec: dict[str, Any]) -> CosineProblem:
        words = strings(spec, "words", low=2, high=2)
        if words[0] == words[1]:
            raise SpecError("words", "must be two different words")
        u, v = integer_rows(spec, "rows", 2)
        return CosineProblem((words[0], words[1]), u, v)

    def normal(self, problem: CosineProblem) -> dict[str, Any]:
        return {
            "words": list(problem.words),
            "rows": [[str(x) for x in row] for row in problem.rows],
        }

    def shape(self, problem: CosineProblem) -> Shape:
        return ScalarShape()

    def right(self, problem: CosineProblem) -> Scalar:
        return cosine(problem.u, problem.v)

    def size(self, problem: CosineProblem) -> int:
        return 2

    def steps(self, problem: CosineProblem) -> tuple[Step, ...]:
        u, v = problem.u, problem.v
        first, second = problem.words
        products = " + ".join(f"({a})({b})" for a, b in zip(u, v, strict=True))
        dot = sum(a * b for a, b in zip(u, v, strict=True))
        nu, nv = sum(a * a for a in u), sum(b * b for b in v)

        def length(row: tuple[int, ...], squared: int, name: str) -> str:
            squares = " + ".join(f"{a}^2" for a in row)
            return f"$\\lVert {name} \\rVert = \\sqrt{{{squares}}} = \\sqrt{{{squared}}}" + (
                f" = {length_tex(squared)}$" if sympy.sqrt(squared).is_Integer else "$"
            )

        value = exact(sympy.Integer(dot) / (sympy.sqrt(nu) * sympy.sqrt(nv)))
        U, V = "\\mathbf{u}", "\\mathbf{v}"
        about = "" if isinstance(value, Fraction) else f" \\approx {float(value):.3f}"
        return (
            Step(
                f"Dot product of *{first}* and *{second}*: $\\mathbf{{u}}\\cdot\\mathbf{{v}} "
                f"= {vector_tex(u)}\\cdot{vector_tex(v)} = {products} = {dot}$."
            ),
            Step(f"Lengths: {length(u, nu, U)} and {length(v, nv, V)}."),
            Step(
                "Divide the dot product by both lengths: $\\cos\\theta = \\dfrac{"
                f"{dot}}}{{{length_tex(nu)} \\cdot {length_tex(nv)}}} = {scalar_tex(value)}"
                f"{about}$.",
                value,
            ),
        )

    def hint(self, problem: CosineProblem) -> str:
        return (
            "Compute the dot product $\\mathbf{u} \\cdot \\mathbf{v}$ (multiply coordinate by "
            "coordinate and add), then each row's length (the square root of the sum of its "
            "squares), and divide the dot product by the product of the two lengths. The rows "
            f"are $\\mathbf{{u}} = {vector_tex(problem.u)}$ and "
            f"$\\mathbf{{v}} = {vector_tex(problem.v)}$."
        )
