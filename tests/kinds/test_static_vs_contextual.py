"""static_vs_contextual: NumPy looks the rows up by id and mixes both sentences independently;
the lookup difference is zero on every problem, the layer difference is not."""

import numpy as np
import pytest

import grading
from grading import SpecError, Status
from practice.generators import GENERATORS, generate

from .noise_helpers import by_role, floats, number, roles

KIND = "static_vs_contextual"
LEVELS = GENERATORS[KIND].levels
SPEC = {
    "kind": KIND,
    "vocab": ["the", "river", "bank", "savings", "dog"],
    "table": [["1", "1"], ["0", "1"], ["1", "0"], ["0", "2"], ["2", "2"]],
    "tokens_a": ["the", "river", "bank"],
    "tokens_b": ["the", "savings", "bank"],
    "position": 2,
    "weights": ["1/4", "1/4", "1/2"],
}


def _numpy_answer(spec):
    table = np.array([[number(x) for x in row] for row in spec["table"]])
    weights = np.array([number(w) for w in spec["weights"]])
    ids_a = [spec["vocab"].index(t) for t in spec["tokens_a"]]
    ids_b = [spec["vocab"].index(t) for t in spec["tokens_b"]]
    i = spec["position"]
    lookup = table[ids_b[i]] - table[ids_a[i]]
    layer = weights @ table[ids_b] - weights @ table[ids_a]
    return lookup, layer


@pytest.mark.parametrize("level", LEVELS)
def test_both_differences_agree_with_numpy(level):
    for seed in range(40):
        spec = generate(KIND, seed=seed, level=level)
        lookup, layer = _numpy_answer(spec)
        got_lookup, got_layer = grading.expected_answer(spec)

        np.testing.assert_array_equal(floats(got_lookup), lookup)
        assert not lookup.any()
        np.testing.assert_allclose(floats(got_layer), layer, rtol=1e-12, atol=1e-12)
        assert layer.any()


def test_right_answer_is_correct():
    assert grading.grade(SPEC, "[0, 0]; [0, 1/4]").status == Status.CORRECT
    assert grading.grade(SPEC, "[0, 0]; [0, 0.25]").status == Status.CORRECT


@pytest.mark.parametrize(
    ("answer", "code", "terms", "words"),
    [
        ("[0, 1/4]; [0, 1/4]", "second_row", (), "second row"),
        ("[0, 1]; [0, 1/4]", "neighbour_row", (1,), "position 1 (*river* in A, *savings* in B)"),
        ("[0, 0]; [0, -1/4]", "difference_reversed", (), "sign flipped"),
        ("[0, 0]; [0, 1]", "weight_left_out", (1,), "without its weight"),
    ],
)
def test_each_mistake_is_named(answer, code, terms, words):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code, verdict
    assert tuple(verdict.diagnosis.terms) == terms
    assert words in verdict.explanation


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"tokens_b": ["the", "savings", "dog"]}, "tokens_b"),
        ({"tokens_b": ["the", "money", "bank"]}, "tokens_b[1]"),
        ({"tokens_b": ["the", "bank"]}, "tokens_b"),
        ({"weights": ["1/2", "1/2"]}, "weights"),
        ({"vocab": ["the", "river", "bank", "savings", "the"]}, "vocab"),
        ({"position": 3}, "position"),
    ],
)
def test_a_malformed_spec_names_its_field(change, name):
    with pytest.raises(SpecError) as error:
        grading.validate_spec({**SPEC, **change})
    assert error.value.field == name


def test_fresh_picture_points_both_words_at_one_row_and_holds_no_answer():
    svg = GENERATORS[KIND].picture(SPEC)

    (shared,) = by_role(svg, "shared-row")
    assert shared.get("data-value") == "[1, 0]"
    assert {e.get("data-side") for e in by_role(svg, "lookup")} == {"A", "B"}
    assert [e.get("data-index") for e in by_role(svg, "changed")] == ["1", "1"]
    assert not {"right", "sum", "answer"} & roles(svg)


def test_answered_picture_shows_the_sums_differences_and_the_learners():
    svg = GENERATORS[KIND].picture(SPEC, ((0, 0.25), (0, 0.25)))

    assert [e.get("data-value") for e in by_role(svg, "right")] == ["[0, 0]", "[0, 1/4]"]
    assert len(by_role(svg, "sum")) == 2 and len(by_role(svg, "answer")) == 1
