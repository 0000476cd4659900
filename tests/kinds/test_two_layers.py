"""two_layers: NumPy builds each layer as a banded mixing matrix and multiplies; the word two
places away reaches the answer only through layer 2, and a second sentence that agrees within
reach gives the same vector."""

from fractions import Fraction

import numpy as np
import pytest

import grading
from grading import SpecError, Status
from practice.generators import GENERATORS, generate

from .noise_helpers import by_role, floats, number, roles

KIND = "two_layers"
LEVELS = GENERATORS[KIND].levels
OFFSETS = {"previous": (-1, 0), "both": (-1, 0, 1)}
SPEC = {
    "kind": KIND,
    "tokens": ["the", "river", "bank"],
    "rows": [["1", "0"], ["0", "1"], ["2", "0"]],
    "position": 2,
    "window": "previous",
    "weights_1": ["1/4", "3/4"],
    "weights_2": ["1/3", "2/3"],
}


def _mixing(n, window, weights):
    matrix = np.zeros((n, n))
    for j in range(n):
        for offset, weight in zip(OFFSETS[window], weights, strict=True):
            if 0 <= j + offset < n:
                matrix[j, j + offset] = number(weight)
    return matrix


def _numpy_answer(spec, rows_field="rows"):
    rows = np.array([[number(x) for x in row] for row in spec[rows_field]])
    n = len(rows)
    first = _mixing(n, spec["window"], spec["weights_1"])
    second = _mixing(n, spec["window"], spec["weights_2"])
    return (second @ first @ rows)[spec["position"]], (first @ rows)[spec["position"]]


@pytest.mark.parametrize("level", LEVELS)
def test_answer_agrees_with_numpy_matrices(level):
    for seed in range(40):
        spec = generate(KIND, seed=seed, level=level)
        two, _ = _numpy_answer(spec)

        np.testing.assert_allclose(floats(grading.expected_answer(spec)), two, atol=1e-12)
        if "rows_b" in spec:
            np.testing.assert_allclose(_numpy_answer(spec, "rows_b")[0], two, atol=1e-12)


@pytest.mark.parametrize("level", LEVELS)
def test_a_word_two_places_away_arrives_only_through_layer_two(level):
    spec = generate(KIND, seed=1, level=level)
    i = spec["position"]
    moved = [list(row) for row in spec["rows"]]
    moved[i - 2] = [str(Fraction(x) + 5) for x in moved[i - 2]]
    changed = {k: v for k, v in spec.items() if k not in ("tokens_b", "rows_b")}
    changed["rows"] = moved

    two, one = _numpy_answer(spec)
    two_moved, one_moved = _numpy_answer(changed)
    np.testing.assert_allclose(one, one_moved)
    assert np.abs(two - two_moved).max() > 0
    np.testing.assert_allclose(floats(grading.expected_answer(changed)), two_moved, atol=1e-12)


def test_second_sentence_appears_and_agrees_within_reach():
    with_b = [generate(KIND, seed=s, level=2) for s in range(20)]
    assert any("tokens_b" in spec for spec in with_b)


def test_right_answer_as_a_vector_and_written_out():
    assert grading.grade(SPEC, "[13/12, 5/12]").status == Status.CORRECT
    verdict = grading.grade(SPEC, "1/3*[1/4, 3/4] + 2/3*[3/2, 1/4]")
    assert verdict.status == Status.CORRECT, verdict


@pytest.mark.parametrize(
    ("answer", "code", "terms"),
    [
        ("[4/3, 1/3]", "lookup_rows_in_layer_two", ()),
        ("[3/2, 1/4]", "one_layer_only", ()),
        ("[19/16, 3/8]", "reused_layer_one_weights", ()),
        ("[1, 1/6]", "left_out_in_layer_two", (1,)),
        ("[1, 5/12]", "left_out_in_layer_one", (1, 0)),
    ],
)
def test_each_mistake_in_a_final_vector_is_named(answer, code, terms):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code, verdict
    assert tuple(verdict.diagnosis.terms) == terms


@pytest.mark.parametrize(
    ("answer", "code", "terms", "words"),
    [
        (
            "1/3*[0, 1] + 2/3*[3/2, 1/4]",
            "lookup_rows_in_layer_two",
            (1,),
            "In layer 2, the term for position 1 (*river*) used",
        ),
        ("1/4*[1/4, 3/4] + 2/3*[3/2, 1/4]", "reused_layer_one_weights", (1,), "layer 1's weight"),
        ("2/3*[3/2, 1/4]", "left_out_in_layer_two", (1,), "is missing"),
        ("1/3*[0, 3/4] + 2/3*[3/2, 1/4]", "left_out_in_layer_one", (1, 0), "In layer 1"),
    ],
)
def test_a_written_out_sum_names_the_layer_and_the_term(answer, code, terms, words):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code, verdict
    assert tuple(verdict.diagnosis.terms) == terms
    assert words in verdict.explanation, verdict.explanation


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"window": "left"}, "window"),
        ({"position": 1}, "position"),
        ({"window": "both"}, "position"),
        ({"weights_2": ["1"]}, "weights_2"),
        ({"tokens_b": ["a", "river", "bank"], "rows_b": SPEC["rows"]}, "tokens_b"),
    ],
)
def test_a_malformed_spec_names_its_field(change, name):
    with pytest.raises(SpecError) as error:
        grading.validate_spec({**SPEC, **change})
    assert error.value.field == name


def test_fresh_picture_draws_who_mixes_whom_without_values():
    svg = GENERATORS[KIND].picture(SPEC)

    first = {(e.get("data-from"), e.get("data-to")) for e in by_role(svg, "mix-1")}
    second = {(e.get("data-from"), e.get("data-to")) for e in by_role(svg, "mix-2")}
    assert first == {("0", "1"), ("1", "1"), ("1", "2"), ("2", "2")}
    assert second == {("1", "2"), ("2", "2")}
    assert not {"value-1", "right", "answer"} & roles(svg)
    assert "13/12" not in svg


def test_answered_picture_shows_layer_one_outputs_and_both_answers():
    svg = GENERATORS[KIND].picture(SPEC, (Fraction(4, 3), Fraction(1, 3)))

    assert [e.get("data-value") for e in by_role(svg, "value-1")] == ["[1/4, 3/4]", "[3/2, 1/4]"]
    (right,) = by_role(svg, "right")
    assert right.get("data-value") == "[13/12, 5/12]"
    (mine,) = by_role(svg, "answer")
    assert mine.get("data-value") == "[4/3, 1/3]"
