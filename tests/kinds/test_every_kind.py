"""Checks every registered kind gets without writing a line: the registries agree, each kind's
words exist, and on generated problems each mistake's explanation and phrase can be written.
A kind's own tests live beside this file, `tests/kinds/test_<kind>.py`."""

import xml.etree.ElementTree as ET

import pytest
import sympy

import grading
from courses.mathml import render_markdown
from grading.explain import describe, explain
from grading.spec import load_problem
from grading.tex import _sympy_tex
from practice.generators import GENERATORS, generate, render_svg
from practice.labels import kind_label, mistake_label

KINDS = sorted(grading.KINDS)


def test_every_kind_has_a_generator_and_every_generator_a_kind():
    assert set(GENERATORS) == set(grading.KINDS)
    numbers = [g.number for g in GENERATORS.values()]
    assert len(set(numbers)) == len(numbers)


@pytest.mark.parametrize("name", KINDS)
def test_every_kind_and_mistake_has_its_words(name):
    kind = grading.kind(name)
    assert kind.label and kind_label(name) == kind.label
    for mistake in kind.mistakes:
        assert mistake.label and mistake.parts
        assert mistake_label(mistake.code, name) == mistake.label


@pytest.mark.parametrize("name", KINDS)
def test_every_variant_is_explained_and_described_on_generated_problems(name):
    generator = GENERATORS[name]
    for level in generator.levels:
        spec = generate(name, seed=level, level=level)
        loaded = load_problem(spec)
        assert grading.grade(
            spec, loaded.shape.typed(loaded.kind.right(loaded.problem))
        ).status == (grading.Status.CORRECT)
        for diagnosis, _ in grading.mistaken_answers(spec):
            text = explain(loaded, diagnosis)
            assert text and "None" not in text, (diagnosis, text)
            assert "tex-error" not in render_markdown(text), (diagnosis, text)
            assert describe(loaded, diagnosis)


@pytest.mark.parametrize("name", KINDS)
def test_a_fresh_picture_when_there_is_one_is_svg(name):
    spec = generate(name, seed=1, level=1)
    svg = render_svg(spec)
    if svg is not None:
        assert ET.fromstring(svg).tag.endswith("svg")


def _sympy_numbers(value):
    if isinstance(value, tuple):
        for part in value:
            yield from _sympy_numbers(part)
    elif isinstance(value, sympy.Basic) and not value.is_Rational:
        yield value


@pytest.mark.parametrize("name", KINDS)
def test_every_kinds_exact_values_are_printed_as_sympy_prints_them(name):
    """grading.tex orders sums from floats (faster); on every kind's right and mistaken
    answers and term weights, over seeds and levels, its TeX is sympy.latex's."""
    generator = GENERATORS[name]
    for level in generator.levels:
        for seed in range(12):
            spec = generate(name, seed=seed, level=level)
            loaded = load_problem(spec)
            values = [grading.expected_answer(spec)]
            values += [value for _, value in grading.mistaken_answers(spec)]
            table = loaded.kind.terms(loaded.problem)
            if table is not None:
                values.append(tuple(table.weights))
            for number in (x for v in values for x in _sympy_numbers(v)):
                assert _sympy_tex.__wrapped__(number) == sympy.latex(number), sympy.srepr(number)
