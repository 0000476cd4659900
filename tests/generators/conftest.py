"""Fixtures and helpers for the generator tests: the first four kinds' drawn problems
(`make_spec`) and answers typed as a learner would (`answer_text`)."""

import pytest

from tests.kinds.first_four import drawn_spec


@pytest.fixture
def make_spec():
    """Return a factory: ``make_spec(kind, **overrides)``, the drawn problems of the first four
    kinds (`tests/kinds/first_four.py`)."""
    return drawn_spec


def answer_text(vector, spec: dict | None = None) -> str:
    """Write an answer as a learner would type it: by the spec's answer shape when it is not
    a vector (``shape.typed``), else as below.

    Rational vectors as fractions (``[1/2, -3]``); vectors with ``exp`` over their common
    denominator (``[exp(1), 1]/(1 + exp(1))``), the short exact form the statement offers, or
    in decimals when even that needs more ``exp`` than the grader reads in one answer.
    """
    import re

    import sympy

    from grading.compare import to_sympy
    from grading.parse import MAX_IRRATIONAL_ATOMS
    from grading.shapes import Vector
    from grading.spec import load_problem

    if spec is not None:
        shape = load_problem(spec).shape
        if not isinstance(shape, Vector):
            return shape.typed(vector)
    vector = [to_sympy(x) for x in vector]  # a tuple answer's vector part holds Fractions
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
