"""``repetition_penalty``: probabilities after the penalty, exact with ``exp``; NumPy softmax as
the oracle; every rule mistake named with the piece it concerns."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg

SVG = "{http://www.w3.org/2000/svg}"
RIGHT = "[exp(3/4), exp(-1), 1, exp(1)]/(exp(3/4) + exp(-1) + 1 + exp(1)); dog"


def spec(**overrides) -> dict:
    """*the cat sat the cat sat*: *cat* 3 and *sat* -1 are seen, *mat* 0 and *dog* 2 are not;
    θ = 2, T = 2. Penalised: 3/2, -2, 0, 2; over T: 3/4, -1, 0, 1; the top moves to *dog*."""
    data = {
        "kind": "repetition_penalty",
        "pieces": ["cat", "sat", "mat", "dog"],
        "scores": ["3", "-1", "0", "2"],
        "text": ["the", "cat", "sat", "the", "cat", "sat"],
        "penalty": "2",
        "temperature": "2",
    }
    data.update(overrides)
    return data


def numpy_answer(problem: dict) -> tuple[np.ndarray, str]:
    z = np.array([float(Fraction(x)) for x in problem["scores"]])
    seen = np.array([p in problem["text"] for p in problem["pieces"]])
    theta, t = float(Fraction(problem["penalty"])), float(Fraction(problem["temperature"]))
    z = np.where(seen & (z > 0), z / theta, np.where(seen & (z < 0), z * theta, z))
    e = np.exp(z / t - np.max(z / t))
    p = e / e.sum()
    return p, problem["pieces"][int(np.argmax(p))]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_numpy_softmax(level):
    for seed in range(25):
        problem = generate("repetition_penalty", seed=seed, level=level)
        probabilities, top = grading.expected_answer(problem)
        oracle, oracle_top = numpy_answer(problem)
        assert [float(x) for x in probabilities] == pytest.approx(list(oracle), abs=1e-12)
        assert top == oracle_top
        # The penalty moves the top away from a piece the text already repeats.
        before = problem["pieces"][int(np.argmax([float(Fraction(z)) for z in problem["scores"]]))]
        assert before in problem["text"] and before != top


def test_the_exact_answer_and_rounded_decimals_are_right():
    assert grading.grade(spec(), RIGHT).status == Status.CORRECT
    probabilities, _ = numpy_answer(spec())
    decimals = "[" + ", ".join(f"{p:.4f}" for p in probabilities) + "]; DOG"
    assert grading.grade(spec(), decimals).status == Status.CORRECT


def test_the_right_probabilities_with_the_old_top_piece_are_not_right():
    verdict = grading.grade(spec(), RIGHT.replace("dog", "cat"))

    assert verdict.status == Status.INCORRECT
    assert "second part" in verdict.explanation


@pytest.mark.parametrize(
    ("mistake", "terms", "words"),
    [
        ("penalised_every_piece", (3,), "You penalised *dog* too"),
        ("multiplied_positive", (0,), "(for *cat*, $3 / 2 = \\frac{3}{2}$). You multiplied it"),
        ("divided_negative", (1,), "(for *sat*, $-1 \\cdot 2 = -2$)"),
        ("multiplied_temperature", (), "You multiplied the penalised scores by the temperature"),
        ("skipped_penalty", (0, 1), "without the penalty: *cat* and *sat*"),
    ],
)
def test_each_mistake_typed_in_decimals_is_named_with_its_piece(mistake, terms, words):
    (value,) = [v for d, v in grading.mistaken_answers(spec()) if d.mistake == mistake]
    typed = "[" + ", ".join(f"{float(p):.5f}" for p in value[0]) + f"]; {value[1]}"
    verdict = grading.grade(spec(), typed)

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == (mistake, terms)
    assert words in verdict.explanation
    assert "the new top piece is *dog*" in verdict.explanation


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"scores": ["3", "-1", "0"]}, "scores"),
        ({"scores": ["3", "-1", "0", "x"]}, "scores[3]"),
        ({"scores": ["300", "-1", "0", "2"]}, "scores[0]"),
        ({"penalty": "1"}, "penalty"),
        ({"temperature": "0"}, "temperature"),
        ({"scores": ["3", "-1", "0", "3/2"]}, "scores"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_states_the_penalty_rule_the_temperature_and_the_seen_pieces():
    text = render_statement(spec())

    assert "- *cat*: $z = 3$ (already in the text)" in text
    assert "- *dog*: $z = 2$\n" in text
    assert "a positive score is divided by $\\theta$, a negative score is multiplied" in text
    assert "**temperature** $T = 2$" in text


def test_fresh_picture_shows_the_scores_and_marks_the_seen_pieces_only():
    root = ET.fromstring(render_svg(spec()))
    bars = {r.get("data-piece"): r.get("data-seen") for r in root.iter(f"{SVG}rect")}

    assert bars == {"cat": "yes", "sat": "yes", "mat": "no", "dog": "no"}
    assert "probability" not in ET.tostring(root, encoding="unicode")


def test_after_an_answer_the_bars_before_and_after_and_the_learners_are_drawn():
    probabilities, _ = numpy_answer(spec())
    learner = (tuple(Fraction(1, 4) for _ in range(4)), "cat")
    root = ET.fromstring(render_svg(spec(), answer=learner))
    after = {
        r.get("data-piece"): float(r.get("data-probability"))
        for r in root.iter(f"{SVG}rect")
        if r.get("data-role") == "after"
    }
    mine = [r for r in root.iter(f"{SVG}rect") if r.get("data-role") == "answer"]

    assert list(after.values()) == pytest.approx(list(probabilities), abs=1e-6)
    assert len(mine) == 4
    assert "after it, dog" in root.find(f"{SVG}desc").text


def test_decimals_that_round_too_coarsely_are_said_to_be_so():
    verdict = grading.grade(spec(), "[0.34, 0.059, 0.16, 0.44]; dog")

    assert verdict.status == Status.INCORRECT
    assert "too coarsely" in verdict.explanation


def test_right_decimals_with_a_wrong_top_piece_are_not_right():
    probabilities, _ = numpy_answer(spec())
    typed = "[" + ", ".join(f"{p:.4f}" for p in probabilities) + "]; mat"

    assert grading.grade(spec(), typed).status == Status.INCORRECT
