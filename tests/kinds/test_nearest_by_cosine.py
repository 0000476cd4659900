"""``nearest_by_cosine``: the nearest word by cosine, with dot-product, distance and synonym
traps that each pick another word; NumPy as the oracle."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg
from tests.kinds.checks import arrow_ends

SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """*hot* [3, 1]: *cold* [6, 3] (cos 0.99), *water* [6, 8] (dot 26), *soup* [2, 2] (distance
    √2), *warm* [1, 2] (the synonym, cos 0.71)."""
    data = {
        "kind": "nearest_by_cosine",
        "query": "hot",
        "query_row": ["3", "1"],
        "candidates": ["water", "cold", "warm", "soup"],
        "rows": [["6", "8"], ["6", "3"], ["1", "2"], ["2", "2"]],
        "synonym": "warm",
    }
    data.update(overrides)
    return data


def numpy_nearest(problem: dict) -> tuple[str, str, str]:
    """Return the winners by cosine, dot product and distance, computed with NumPy."""
    q = np.array([int(x) for x in problem["query_row"]], dtype=float)
    rows = np.array([[int(x) for x in r] for r in problem["rows"]], dtype=float)
    cos = rows @ q / (np.linalg.norm(rows, axis=1) * np.linalg.norm(q))
    dots = rows @ q
    dist = np.linalg.norm(rows - q, axis=1)
    words = problem["candidates"]
    return words[int(np.argmax(cos))], words[int(np.argmax(dots))], words[int(np.argmin(dist))]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_numpy_and_every_rule_picks_its_own_word(level):
    for seed in range(40):
        problem = generate("nearest_by_cosine", seed=seed, level=level)
        by_cos, by_dot, by_distance = numpy_nearest(problem)
        assert grading.expected_answer(problem) == by_cos
        picks = {by_cos, by_dot, by_distance, problem["synonym"]}
        assert len(picks) == 4, problem
        # The near-antonym or sibling sits nearest: close is not synonymous.
        assert by_cos != problem["synonym"]


def test_the_cosine_winner_is_the_near_antonym_in_generated_problems():
    from practice.generators.words.embedding import NEIGHBOUR_SETS

    siblings = {s.query: s.sibling for s in NEIGHBOUR_SETS}
    for seed in range(20):
        problem = generate("nearest_by_cosine", seed=seed, level=2)
        assert grading.expected_answer(problem) == siblings[problem["query"]]


@pytest.mark.parametrize("typed", ["cold", "COLD", "  cold "])
def test_the_nearest_word_is_right_in_any_letter_case(typed):
    assert grading.grade(spec(), typed).status == Status.CORRECT


@pytest.mark.parametrize(
    ("typed", "mistake", "words"),
    [
        ("water", "ranked_by_dot", "largest dot product"),
        ("soup", "ranked_by_distance", "nearest to *hot*'s"),
        ("warm", "picked_synonym", "means nearly the same as *hot*"),
    ],
)
def test_each_wrong_rule_is_named(typed, mistake, words):
    verdict = grading.grade(spec(), typed)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis.mistake == mistake
    assert words in verdict.explanation
    assert "The nearest by cosine is *cold*" in verdict.explanation


def test_a_word_that_is_no_candidate_is_invalid_and_lists_the_options():
    verdict = grading.grade(spec(), "tree")

    assert verdict.status == Status.INVALID
    assert "water, cold, warm" in verdict.message


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"candidates": ["water", "water", "warm", "soup"]}, "candidates"),
        ({"candidates": ["hot", "cold", "warm", "soup"]}, "candidates"),
        ({"synonym": "lukewarm"}, "synonym"),
        ({"query_row": ["3", "1", "0"]}, "rows[0]"),
        ({"query_row": ["0", "0"]}, "query_row"),
        ({"rows": [["6", "2"], ["3", "1"], ["1", "2"], ["2", "2"]]}, "rows"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_lists_every_candidate_and_asks_for_the_cosine():
    text = render_statement(spec())

    assert r"- *cold*: $\begin{bmatrix}6\\3\end{bmatrix}$" in text
    assert "by cosine similarity" in text


def test_fresh_picture_draws_query_and_candidates_and_no_winner():
    root = ET.fromstring(render_svg(spec()))
    roles = [line.get("data-role") for line in root.iter(f"{SVG}line") if line.get("data-role")]

    assert sorted(roles) == ["candidate"] * 4 + ["query"]
    assert "cos" not in ET.tostring(root, encoding="unicode")


def test_after_a_wrong_pick_the_winner_and_the_pick_are_marked():
    root = ET.fromstring(render_svg(spec(), answer="water"))
    by_role = {
        line.get("data-role"): line.get("data-word")
        for line in root.iter(f"{SVG}line")
        if line.get("data-role") in ("right", "answer")
    }

    assert by_role == {"right": "cold", "answer": "water"}


@pytest.mark.parametrize("level", [3, 4])
def test_higher_dimensions_rank_the_candidates_after_answering(level):
    problem = generate("nearest_by_cosine", seed=5, level=level)
    fresh = ET.fromstring(render_svg(problem))
    assert {r.get("data-role") for r in fresh.iter(f"{SVG}rect")} == {"coordinate"}
    solved = ET.fromstring(render_svg(problem, solution=True))
    (right,) = [r for r in solved.iter(f"{SVG}rect") if r.get("data-role") == "right"]
    assert right.get("data-word") == grading.expected_answer(problem)


def test_arrows_picture_is_cropped_to_what_is_drawn():
    # Every row points right and a little up: a square panel would be half empty.
    flat = spec(query_row=["4", "1"], rows=[["6", "1"], ["5", "2"], ["2", "1"], ["3", "0"]])
    for markup in (render_svg(flat), render_svg(flat, answer="water")):
        width, height, ends = arrow_ends(markup)
        assert height < 0.6 * width
        assert all(0 <= x <= width and 0 <= y <= height for x, y in ends)


def test_ranking_has_a_key_for_its_colours():
    problem = generate("nearest_by_cosine", seed=5, level=3)
    right = grading.expected_answer(problem)
    other = next(w for w in problem["candidates"] if w != right)
    root = ET.fromstring(render_svg(problem, answer=other))
    texts = [t.text for t in root.iter(f"{SVG}text")]

    assert {"green: the nearest by cosine", "orange: your pick"} <= set(texts)
