"""The two opt-in rules for an addition (`left_out_addend`, `subtracted_addend`,
grading/declared/derive.py): what they list is what NumPy computes from the parameters, each is
graded as itself with words naming the part, and a file that does not name them keeps its
catalogue."""

from __future__ import annotations

from fractions import Fraction

import pytest

import grading
from grading.declared import read_kind_file
from grading.spec import load_problem
from practice.generators import generate
from practice.kind_check import check_kind_file, registered

from .kinds import write

ADDITION_DEMO = """\
kind: addition_demo
label: A sum of squares plus a bias
version: 1
levels: [1, 2]
parameters:
  n: {type: integer, levels: {1: [3, 3], 2: [4, 4]}}
  x: {type: vector, length: n, entries: integer, levels: {1: [1, 4], 2: [-3, 5]}}
  b:
    type: rational
    levels:
      1: {numerator: [1, 9], denominator: [2, 3]}
      2: {numerator: [-9, 9], denominator: [2, 4]}
constraints:
  - b != 0
statement: |
  With $x = {{x}}$ and $b = {{b}}$, compute $y = \\sum_j x_j^2 + b$.
answer: Sum(x[j]^2, (j, 0, n - 1)) + b
shape: scalar
"""
RULES = "rules: [left_out_addend, subtracted_addend]\n"
SEEDS = 30


def oracle(params: dict) -> dict[tuple[str, tuple[int, ...]], Fraction]:
    """The two rules' answers, computed from the parameters alone."""
    x = [int(v) for v in params["x"]]
    b = Fraction(params["b"])
    squares = sum(v * v for v in x)
    return {
        ("left_out_addend", (0, 0)): Fraction(squares),  # the left side alone: b left out
        ("left_out_addend", (0, 1)): b,  # the right side alone: the sum left out
        ("subtracted_addend", (0,)): squares - b,
    }


@pytest.fixture
def demo(tmp_path):
    with registered(read_kind_file(write(tmp_path, ADDITION_DEMO + RULES, "addition_demo"))):
        yield


@pytest.mark.parametrize("level", [1, 2])
def test_the_addition_rules_list_what_numpy_computes_and_grade_as_themselves(demo, level):
    for seed in range(SEEDS):
        spec = generate("addition_demo", seed=seed, level=level)
        found = {
            (d.mistake, tuple(d.terms)): v
            for d, v in grading.mistaken_answers(spec)
            if d.mistake in ("left_out_addend", "subtracted_addend")
        }
        assert found == oracle(spec["params"]), spec
        shape = load_problem(spec).shape
        for (code, terms), value in found.items():
            verdict = grading.grade(spec, shape.typed(value))
            assert verdict.status == grading.Status.INCORRECT
            assert (verdict.diagnosis.mistake, tuple(verdict.diagnosis.terms)) == (code, terms)


def test_the_words_name_the_part_left_out_and_its_value(demo):
    spec = generate("addition_demo", seed=3, level=1)
    b = Fraction(spec["params"]["b"])
    shape = load_problem(spec).shape
    words = grading.grade(spec, shape.typed(b)).explanation
    squares = sum(int(v) ** 2 for v in spec["params"]["x"])
    assert "alone where the sum" in words and f"= {squares}" in words
    minus = grading.grade(spec, shape.typed(squares - b)).explanation
    assert minus.startswith("You subtracted $b = ") and "adds it" in minus


def test_a_file_that_does_not_name_them_keeps_its_catalogue(tmp_path):
    with registered(read_kind_file(write(tmp_path, ADDITION_DEMO, "addition_demo"))) as kind:
        assert not {"left_out_addend", "subtracted_addend"} & set(kind.codes)


def test_a_kind_with_the_addition_rules_passes_the_authors_check(tmp_path):
    report = check_kind_file(write(tmp_path, ADDITION_DEMO + RULES, "addition_demo"), seeds=10)
    assert {"left_out_addend", "subtracted_addend"} <= set(report.mistakes)
