"""``greedy_steps``: k steps of greedy decoding; NumPy as the oracle; the step is named."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """Prompt *sat the*; greedy writes *cat sat on* (the→cat 9, cat→sat 8, sat→on 7)."""
    data = {
        "kind": "greedy_steps",
        "pieces": ["the", "cat", "sat", "on"],
        "scores": [
            ["0", "9", "5", "2"],
            ["3", "1", "8", "6"],
            ["2", "4", "1", "7"],
            ["8", "3", "6", "0"],
        ],
        "prompt": ["sat", "the"],
        "steps": 3,
    }
    data.update(overrides)
    return data


def numpy_greedy(problem: dict) -> list[str]:
    pieces = problem["pieces"]
    table = np.array([[int(x) for x in row] for row in problem["scores"]])
    last = pieces.index(problem["prompt"][-1])
    out = []
    for _ in range(problem["steps"]):
        last = int(np.argmax(table[last]))
        out.append(pieces[last])
    return out


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_numpy(level):
    for seed in range(40):
        problem = generate("greedy_steps", seed=seed, level=level)
        assert list(grading.expected_answer(problem)) == numpy_greedy(problem)
        assert len(problem["pieces"]) == {1: 3, 2: 4, 3: 5, 4: 6}[level]


@pytest.mark.parametrize("typed", ["cat sat on", "cat|sat|on", '["cat", "sat", "on"]'])
def test_every_typed_form_of_the_pieces_is_right(typed):
    assert grading.grade(spec(), typed).status == Status.CORRECT


def test_not_feeding_the_new_piece_back_names_the_step_and_the_context():
    verdict = grading.grade(spec(), "cat cat cat")

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == ("no_feedback", (1,))
    assert verdict.explanation.startswith(
        "Step 2: you kept using *the*, the prompt's last piece; the piece written at step 1, "
        "*cat*, is now the context."
    )
    assert "highest score is *sat* ($8$)" in verdict.explanation


@pytest.mark.parametrize(
    ("typed", "mistake", "words"),
    [
        ("sat cat on", "second_best", "Step 1: you wrote *sat*, the second-highest score"),
        ("the the the", "lowest_score", "Step 1: you wrote *the*, the lowest score"),
    ],
)
def test_taking_another_rank_is_named_at_its_first_step(typed, mistake, words):
    verdict = grading.grade(spec(), typed)

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == (mistake, (0,))
    assert verdict.explanation.startswith(words)
    assert "The right pieces are *cat sat on*" in verdict.explanation


def test_an_unexplained_answer_says_which_position_differs():
    verdict = grading.grade(spec(), "cat sat sat")

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is None
    assert "position 3 ('sat') differs" in verdict.explanation


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"pieces": ["the", "the", "sat", "on"]}, "pieces"),
        ({"pieces": ["the", "a cat", "sat", "on"]}, "pieces[1]"),
        ({"scores": [["0", "9", "9", "2"], *spec()["scores"][1:]]}, "scores[0]"),
        ({"scores": spec()["scores"][:3]}, "scores"),
        ({"prompt": ["dog"]}, "prompt[0]"),
        ({"steps": 0}, "steps"),
        ({"steps": 99}, "steps"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_has_the_table_the_rule_and_the_task():
    text = render_statement(spec())

    assert "| *the* | 0 | 9 | 5 | 2 |" in text
    assert r"\operatorname*{argmax}" in text
    assert "**Write the 3 pieces**" in text


def test_fresh_picture_is_the_chain_of_steps_without_their_pieces():
    root = ET.fromstring(render_svg(spec()))
    boxes = [(r.get("data-role"), r.get("data-piece")) for r in root.iter(f"{SVG}rect")]

    assert boxes == [("prompt", None), ("step", "?"), ("step", "?"), ("step", "?")]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "the top piece of row ‘the’" in texts  # the prompt's last piece is the row read


def test_after_an_answer_the_chain_names_each_row_read_and_the_learners_pieces_beside_it():
    root = ET.fromstring(render_svg(spec(), answer=("cat", "cat", "cat")))
    path = [r.get("data-piece") for r in root.iter(f"{SVG}rect") if r.get("data-role") == "path"]
    mine = [
        (r.get("data-piece"), r.get("stroke-dasharray"))
        for r in root.iter(f"{SVG}rect")
        if r.get("data-role") == "answer"
    ]
    texts = [t.text for t in root.iter(f"{SVG}text")]

    assert path == ["cat", "sat", "on"]
    assert [t for t in texts if t.startswith("row ")] == [
        "row ‘the’, top 9",
        "row ‘cat’, top 8",
        "row ‘sat’, top 7",
    ]
    assert mine == [("cat", None), ("cat", "5 3"), ("cat", "5 3")]
    # The learner's step 2 read the row of their own step 1, cat: cat scores 1 there.
    notes = [t.text for t in root.iter(f"{SVG}text") if t.get("data-role") == "answer-note"]
    assert notes[:2] == ["1 in row ‘cat’;", "its top: ‘sat’ 8"]
    assert "Your pieces, cat cat cat" in root.find(f"{SVG}desc").text


def test_the_chain_fits_a_phones_verdict_column():
    # The verdict's column on a 390 px phone is 312 px wide (measured in Chromium).
    for level in (1, 2, 3, 4):
        for seed in range(10):
            problem = generate("greedy_steps", seed=seed, level=level)
            for _, value in grading.mistaken_answers(problem):
                root = ET.fromstring(render_svg(problem, answer=value))
                assert float(root.get("width")) <= 312, (level, seed, value)
