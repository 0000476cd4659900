"""Checks every registered kind gets without writing a line: the registries agree, each kind's
words exist, and on generated problems each mistake's explanation and phrase can be written.
A kind's own tests live beside this file, `tests/kinds/test_<kind>.py`."""

import xml.etree.ElementTree as ET

import mpmath
import pytest
import sympy

import grading
from courses.mathml import render_markdown
from courses.presenters import kind_label
from grading.explain import describe, explain
from grading.marking import index_matches
from grading.mistakes import EstimatedIndex, MistakeIndex, apply, mistake_index
from grading.spec import load_problem
from grading.tex import _sympy_tex
from practice.generators import GENERATORS, generate, render_svg
from practice.labels import mistake_label

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


ESTIMATED = [n for n in KINDS if any(m.estimate for m in grading.kind(n).mistakes)]


@pytest.mark.parametrize("name", ESTIMATED)
def test_every_estimate_holds_the_exact_value_of_its_mistake(name):
    """A mistake's `estimate` (bounded floats, no SymPy) must hold what `apply` gives exactly,
    checked with mpmath at 60 digits on every variant over seeds and levels."""
    generator = GENERATORS[name]
    checked = 0
    for level in generator.levels:
        for seed in range(15):
            loaded = load_problem(generate(name, seed=seed, level=level))
            for mistake in loaded.kind.mistakes:
                for variant in mistake.variants_of(loaded.problem):
                    bounds = mistake.estimate(loaded.problem, variant)
                    exact = apply(loaded, variant)
                    for (x, error), value in zip(bounds, exact, strict=True):
                        with mpmath.workdps(60):
                            true = mpmath.mpf(str(sympy.N(value, 60)))
                            assert abs(mpmath.mpf(x) - true) <= error, (variant, value, x, error)
                        checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", ESTIMATED)
def test_estimates_find_what_applying_every_mistake_finds(name):
    """The index that applies a variant only when its estimate cannot tell it apart finds the
    same mistakes, in the same order, as the index of every variant applied; on the right
    answer, every mistaken one, the right one plus 1/7, and each typed in decimals."""
    generator = GENERATORS[name]
    for level in generator.levels:
        for seed in range(8):
            spec = generate(name, seed=seed, level=level)
            loaded = load_problem(spec)
            right = grading.expected_answer(spec)
            answers = [right] + [value for _, value in grading.mistaken_answers(spec)]
            answers.append(tuple(x + sympy.Rational(1, 7) for x in right))
            texts = [loaded.shape.typed(a) for a in answers]
            texts += ["[" + ", ".join(f"{float(x):.6f}" for x in a) + "]" for a in answers]
            estimated = mistake_index(loaded)
            assert isinstance(estimated, EstimatedIndex)
            applied = MistakeIndex(loaded, {}, 0, keyed=False)  # every variant applied
            indexes = (estimated, applied)
            for text in texts:
                reading = loaded.shape.read(text)
                found = [index_matches(index, loaded.shape, reading) for index in indexes]
                assert found[0] == found[1], text
