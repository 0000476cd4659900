"""The text a learner types for an answer, for every test that answers: one helper, built on
the answer shapes (`grading/shapes/`).

`typed(value, of)` writes a right or mistaken answer value of any shape the way a learner
types it, and the shape reads it back as that value; `typed_forms(shape, value)` lists every
accepted way (the first is `typed`'s). On top of them: the right answer and the first
diagnosable catalogued mistake of a problem (`right_answer`, `wrong_answer`), the mistakes
whose answer differs from the right one (`wrong_values`), and the opening words of an
explanation's prose, to look for in a page (`opening`).

Pure: grading only (no Django); a problem is a spec or anything with a ``spec`` (a stored
`ProblemInstance`).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, NamedTuple

import sympy

import grading
from grading.compare import to_sympy
from grading.parse import MAX_IRRATIONAL_ATOMS
from grading.shapes import PieceSequence, ScalarShape, Shape, TupleShape, Vector
from grading.spec import load_problem
from grading.verdict import Diagnosis

__all__ = [
    "Mistaken",
    "opening",
    "right_answer",
    "shape_of",
    "typed",
    "typed_forms",
    "wrong_answer",
    "wrong_values",
]


def _spec(problem: Any) -> dict:
    return problem if isinstance(problem, dict) else problem.spec


def shape_of(problem: Any) -> Shape:
    """Return the answer shape of a problem (a spec or a stored problem)."""
    return load_problem(_spec(problem)).shape


def _vector(value: Any) -> str:
    """Write a vector: rational coordinates as fractions (``[1/2, -3]``); coordinates with
    ``exp`` over their common denominator (``[exp(1), 1]/(1 + exp(1))``), the short exact form
    the statements offer, or in decimals when even that needs more ``exp`` than the grader
    reads in one answer."""
    vector = [to_sympy(x) for x in value]  # a tuple answer's vector part holds Fractions
    if all(x.is_Rational for x in vector):
        return "[" + ", ".join(str(x) for x in vector) + "]"
    parts = [sympy.fraction(sympy.together(x)) for x in vector]
    denominators = {den for _, den in parts}
    if len(denominators) == 1:
        (den,) = denominators
        text = "[" + ", ".join(str(sympy.expand(num)) for num, _ in parts) + f"]/({den})"
    else:
        text = "[" + ", ".join(str(x) for x in vector) + "]"
    if len(re.findall(r"exp\(|\bE\b", text)) <= MAX_IRRATIONAL_ATOMS:
        return text
    return "[" + ", ".join(f"{float(x):.6g}" for x in vector) + "]"


def typed_forms(shape: Shape, value: Any) -> list[str]:
    """Return every accepted way of typing ``value`` in ``shape``: first the shape's own
    (`Shape.typed`; vectors as `_vector` writes them), then the other ways a learner types it
    (pieces with spaces or bars, a rational scalar in decimals or as a fraction over 1)."""
    if isinstance(shape, TupleShape):
        per_part = [typed_forms(part, v) for part, v in zip(shape.parts, value, strict=True)]
        width = max(len(forms) for forms in per_part)
        return [
            "; ".join(forms[min(k, len(forms) - 1)] for forms in per_part) for k in range(width)
        ]
    if isinstance(shape, Vector):
        return [_vector(value)]
    forms = [shape.typed(value)]
    if isinstance(shape, PieceSequence):
        forms.append(" ".join(piece.replace(" ", "▁") for piece in value))
        if not any("|" in piece for piece in value):
            forms.append(" | ".join(piece.replace(" ", "▁") for piece in value))
    elif isinstance(shape, ScalarShape) and to_sympy(value).is_Rational:
        exact = Fraction(str(to_sympy(value)))
        forms.append(f"{float(exact):.6g}" if exact.denominator != 1 else f"{exact.numerator}/1")
    return forms


def typed(value: Any, of: Shape | Any | None = None) -> str:
    """Return the text a learner types for an answer value, in the shape ``of`` (a shape, a
    spec or a stored problem; None: a vector)."""
    if of is None:
        shape: Shape = Vector(len(value))
    elif isinstance(of, Shape):
        shape = of
    else:
        shape = shape_of(of)
    return typed_forms(shape, value)[0]


def right_answer(problem: Any) -> str:
    """Return the problem's right answer as a learner types it."""
    spec = _spec(problem)
    return typed(grading.expected_answer(spec), spec)


def wrong_values(problem: Any) -> list[tuple[Diagnosis, Any]]:
    """Return (diagnosis, value) for every catalogued mistake whose answer on this problem
    differs from the right one (some coincide with it: forgetting a weight of 1)."""
    spec = _spec(problem)
    shape = shape_of(spec)
    right = grading.expected_answer(spec)
    return [
        (diagnosis, value)
        for diagnosis, value in grading.mistaken_answers(spec)
        if not shape.equal(value, right)
    ]


class Mistaken(NamedTuple):
    """A catalogued mistake's answer: the diagnosis the grader gives it and the typed text."""

    diagnosis: Diagnosis
    text: str


def wrong_answer(problem: Any) -> Mistaken:
    """Return the first catalogued mistake the grader names, as itself, on the problem."""
    spec = _spec(problem)
    for diagnosis, value in wrong_values(spec):
        text = typed(value, spec)
        verdict = grading.grade(spec, text)
        if verdict.diagnosis is not None and verdict.diagnosis.mistake == diagnosis.mistake:
            return Mistaken(verdict.diagnosis, text)
    raise AssertionError(f"no diagnosable mistake for {spec}")


def opening(explanation: str, words: int = 4) -> str:
    """Return up to ``words`` first words of an explanation's first run of prose (before or
    between its formulas, emphasis and code marks left out): words a page showing the
    explanation holds together."""
    runs = (re.sub(r"[*`]", "", run).split() for run in re.split(r"\$[^$]*\$", explanation))
    return " ".join(next((run for run in runs if run), [])[:words])
