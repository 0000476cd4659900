"""No ASCII math in what a learner reads as words: kind titles, mistake labels (shown in attempt
lists, history, the review queue and the stats), the help under the answer box and the pictures'
titles, texts and captions write ᾱ, √, xₜ, not ``abar``, ``sqrt(``, ``x_t`` or ``*``.

Every kind of the registries is checked (a kind added later too); pictures over several seeds,
every level, fresh, with each catalogued mistake's answer drawn, and solved.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import grading
from grading.kinds import KINDS
from grading.spec import load_problem
from practice.generators import GENERATORS, generate, render_svg
from practice.generators.declared import DeclaredGenerator
from practice.generators.draw.svg import math_text

ASCII_MATH = re.compile(r"sqrt\(|abar|_t\b|\*")
NS = "{http://www.w3.org/2000/svg}"
READ = {f"{NS}title", f"{NS}text"}  # what is shown or read out as a picture's words


def test_the_pattern_finds_each_kind_of_ascii_math():
    for written in ["did not divide by sqrt(abar_t)", "cos θ = 2*x", "used abar", "x_t"]:
        assert ASCII_MATH.search(written), written
    assert not ASCII_MATH.search("did not divide by √ᾱₜ; cos θ = 2√5/5; xₜ")


def test_expressions_are_written_as_a_reader_writes_them():
    assert math_text("2*sqrt(5)/5") == "2√5/5"
    assert math_text("-sqrt(2)/3") == "−√2/3"
    assert math_text("sqrt(1 - a)") == "√(1 − a)"
    assert math_text("3/4") == "3/4"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kind_titles_and_mistake_labels_have_no_ascii_math(kind):
    found = KINDS[kind]
    assert not ASCII_MATH.search(found.label), found.label
    for mistake in found.mistakes:
        assert not ASCII_MATH.search(mistake.label), (mistake.code, mistake.label)


def _levels(kind: str) -> list[int]:
    levels = []
    for level in range(1, 8):
        try:
            generate(kind, seed=0, level=level)
        except ValueError:
            continue
        levels.append(level)
    return levels


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_picture_words_have_no_ascii_math(kind):
    checked = 0
    for level in _levels(kind):
        for seed in range(4):
            spec = generate(kind, seed=seed, level=level)
            answers = [v for _, v in grading.mistaken_answers(spec)]
            drawings = [render_svg(spec), render_svg(spec, solution=True)]
            drawings += [render_svg(spec, answer=value) for value in answers]
            for markup in filter(None, drawings):
                for element in ET.fromstring(markup).iter():
                    if element.tag in READ:
                        words = "".join(element.itertext())
                        checked += 1
                        assert not ASCII_MATH.search(words), (seed, level, words)
    generator = GENERATORS[kind]
    if isinstance(generator, DeclaredGenerator) and generator.source.shape == "scalar":
        assert checked == 0  # a declared kind draws only a vector answer (docs/authoring.md)
    else:
        assert checked > 0  # every built-in kind, and a declared vector kind, draws words


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_answer_help_words_have_no_ascii_math(kind):
    # The help's words name the answer's parts; only its examples, which show what to type
    # (`2/sqrt(13)`, `1/2*[1, 0]`), may hold sqrt( or *.
    for level in _levels(kind):
        for seed in range(3):
            spec = generate(kind, seed=seed, level=level)
            loaded = load_problem(spec)
            shown = grading.answer_help(spec)
            for way in loaded.kind.answer_formats(loaded.problem):
                assert way.phrase in shown, (seed, level, way.phrase)
                assert not ASCII_MATH.search(way.phrase), (seed, level, way.phrase)
