"""``cooccurrence_row``: co-occurrence counts in a window; an independent count over NumPy
arrays as the oracle; every mistake names a word, its distance and its sentence."""

import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """Window 2 around *cocoa*: *of* twice in sentence 2 (once for each *cocoa*), *cup* and
    *and* once; the two *cocoa* of a sentence are too far apart to count: [0, 2, 1, 1]."""
    data = {
        "kind": "cooccurrence_row",
        "sentences": [
            ["hot", "cocoa", "is", "better", "than", "cold", "cocoa"],
            ["a", "cup", "of", "cocoa", "and", "a", "cup", "of", "hot", "cocoa"],
        ],
        "word": "cocoa",
        "context": ["cocoa", "of", "cup", "and"],
        "window": 2,
    }
    data.update(overrides)
    return data


def oracle_counts(problem: dict) -> list[int]:
    """Count with array slices: the window's left and right slices around each occurrence."""
    k, word = problem["window"], problem["word"]
    tally: Counter[str] = Counter()
    for tokens in problem["sentences"]:
        array = np.array(tokens, dtype=object)
        for i in np.flatnonzero(array == word):
            tally.update(array[max(0, i - k) : i].tolist())
            tally.update(array[i + 1 : i + k + 1].tolist())
    return [tally[w] for w in problem["context"]]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_an_independent_count(level):
    for seed in range(40):
        problem = generate("cooccurrence_row", seed=seed, level=level)
        assert list(grading.expected_answer(problem)) == oracle_counts(problem)
        assert problem["word"] in problem["context"]
        assert len(problem["sentences"]) == {1: 2, 2: 3, 3: 3, 4: 4}[level]


@pytest.mark.parametrize("typed", ["[0, 2, 1, 1]", "0 2 1 1", "0, 2, 1, 1"])
def test_the_counts_are_right_in_every_typed_form(typed):
    assert grading.grade(spec(), typed).status == Status.CORRECT


@pytest.mark.parametrize(
    ("typed", "mistake", "terms", "words"),
    [
        ("0 2 3 1", "window_too_wide", (), "*cup* 3 words after the first *cocoa*"),
        ("0 1 0 1", "window_too_narrow", (), "*cup* 2 words before the first *cocoa*"),
        ("4 2 1 1", "counted_word_itself", (), "as its own neighbour (4 times"),
        ("0 2 1 0", "one_side_only", (0,), "only the words before each *cocoa*"),
        ("0 0 0 1", "one_side_only", (1,), "only the words after each *cocoa*"),
        ("0 1 1 1", "once_per_sentence", (), "In sentence 2, *of* is in a window of *cocoa* 2"),
    ],
)
def test_each_mistake_names_the_word_and_where_it_is(typed, mistake, terms, words):
    verdict = grading.grade(spec(), typed)

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == (mistake, terms)
    assert words in verdict.explanation
    assert "The right counts are *cocoa* 0, *of* 2, *cup* 1, *and* 1." in verdict.explanation


def test_a_count_of_the_wrong_length_is_invalid():
    verdict = grading.grade(spec(), "0 2 1")

    assert verdict.status == Status.INVALID


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"sentences": []}, "sentences"),
        ({"sentences": [["hot", ""]]}, "sentences[0][1]"),
        ({"word": "tea"}, "word"),
        ({"context": ["of", "of"]}, "context"),
        ({"window": 0}, "window"),
        ({"window": True}, "window"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_states_the_window_the_sides_and_the_self_rule():
    text = render_statement(spec())

    assert "1. *hot cocoa is better than cold cocoa*" in text
    assert r"$1 \le |j - i| \le 2$" in text
    assert "An occurrence is not its own context" in text


def test_fresh_picture_bands_each_window_without_counting():
    root = ET.fromstring(render_svg(spec()))
    windows = [
        (r.get("data-sentence"), r.get("data-from"), r.get("data-to"))
        for r in root.iter(f"{SVG}rect")
        if r.get("data-role") == "window"
    ]

    assert windows == [("0", "0", "3"), ("0", "4", "6"), ("1", "1", "5"), ("1", "7", "9")]
    assert not [t for t in root.iter(f"{SVG}text") if t.get("data-role") == "counted"]


def test_solution_picture_ticks_every_counted_word():
    root = ET.fromstring(render_svg(spec(), answer=(0, 1, 1, 1)))
    ticks = {
        (t.get("data-sentence"), t.get("data-position")): t.get("data-times")
        for t in root.iter(f"{SVG}text")
        if t.get("data-role") == "counted"
    }

    assert ticks == {("1", "1"): "1", ("1", "2"): "1", ("1", "4"): "1", ("1", "7"): "1"}


def test_after_a_wrong_answer_its_counts_stand_under_the_right_ones():
    root = ET.fromstring(render_svg(spec(), answer=(0, 1, 1, 1)))
    right = [t.text for t in root.iter(f"{SVG}text") if t.get("data-role") == "right-count"]
    mine = [
        (t.text, t.get("data-differs"))
        for t in root.iter(f"{SVG}text")
        if t.get("data-role") == "answer-count"
    ]

    assert right == ["0", "2", "1", "1"]
    assert mine == [("0", "no"), ("1", "yes"), ("1", "no"), ("1", "no")]
