"""Factories for specs with known numbers, so pictures and statements can be checked by hand."""

import pytest


def weighted_sum_spec(**overrides) -> dict:
    """Return *the river bank* at *bank*: h = 1/4 [0, 1] + 1/4 [0, 2] + 1/2 [1, 0] = [1/2, 3/4]."""
    spec = {
        "kind": "weighted_sum",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows": [["0", "1"], ["0", "2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def contrast_spec(**overrides) -> dict:
    spec = {
        "kind": "contrast",
        "tokens_a": ["the", "river", "bank"],
        "tokens_b": ["the", "savings", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows_a": [["0", "1"], ["0", "2"], ["1", "0"]],
        "rows_b": [["0", "1"], ["2", "-2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def lookup_spec(**overrides) -> dict:
    spec = {
        "kind": "lookup",
        "vocab": ["river", "bank", "the", "money"],
        "table": [["0", "1"], ["1", "0"], ["1", "1"], ["2", "0"]],
        "tokens": ["the", "river", "bank"],
        "position": 2,
    }
    spec.update(overrides)
    return spec


def content_weights_spec(**overrides) -> dict:
    spec = {
        "kind": "content_weights",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "rows": [["0", "1"], ["1", "1"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


@pytest.fixture
def make_spec():
    """Return a factory: ``make_spec(kind, **overrides)``."""
    factories = {
        "weighted_sum": weighted_sum_spec,
        "contrast": contrast_spec,
        "lookup": lookup_spec,
        "content_weights": content_weights_spec,
    }
    return lambda kind, **overrides: factories[str(kind)](**overrides)


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
