"""``cosine_similarity``: exact cosine with ``sqrt``, NumPy as the oracle, every mistake named."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg
from tests.kinds.checks import arrow_ends

SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """*tea* [1, 2] and *coffee* [4, 1]: u·v = 6, ‖u‖ = √5, ‖v‖ = √17, cos = 6/√85."""
    data = {
        "kind": "cosine_similarity",
        "words": ["tea", "coffee"],
        "rows": [["1", "2"], ["4", "1"]],
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_numpy(level):
    for seed in range(40):
        problem = generate("cosine_similarity", seed=seed, level=level)
        u, v = (np.array([int(x) for x in row], dtype=float) for row in problem["rows"])
        oracle = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
        assert float(grading.expected_answer(problem)) == pytest.approx(oracle, abs=1e-12)
        assert len(u) == {1: 2, 2: 2, 3: 3, 4: 4}[level]


@pytest.mark.parametrize("typed", ["6/sqrt(85)", "6*sqrt(85)/85", "6/(sqrt(5)*sqrt(17))", "0.651"])
def test_every_exact_form_and_a_rounded_decimal_is_right(typed):
    assert grading.grade(spec(), typed).status == Status.CORRECT


def test_two_significant_figures_are_not_enough():
    assert grading.grade(spec(), "0.65").status == Status.INCORRECT


@pytest.mark.parametrize(
    ("typed", "mistake", "terms", "words"),
    [
        ("6", "dot_product", (), "dot product"),
        ("6/sqrt(5)", "one_length", (0,), "length of $\\mathbf{u}$ (*tea*"),
        ("6/sqrt(17)", "one_length", (1,), "length of $\\mathbf{v}$ (*coffee*"),
        ("6/85", "squared_lengths", (), "squared lengths, $5 \\cdot 17 = 85$"),
        ("sqrt(10)", "euclidean_distance", (), "Euclidean distance"),
    ],
)
def test_each_mistake_is_named_with_its_quantity(typed, mistake, terms, words):
    verdict = grading.grade(spec(), typed)

    assert verdict.status == Status.INCORRECT
    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == (mistake, terms)
    assert words in verdict.explanation
    assert "\\frac{6 \\sqrt{85}}{85}" in verdict.explanation  # what it should have been


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"words": ["tea", "tea"]}, "words"),
        ({"rows": [["1", "2"]]}, "rows"),
        ({"rows": [["1", "2"], ["4", "1", "0"]]}, "rows[1]"),
        ({"rows": [["1/2", "2"], ["4", "1"]]}, "rows[0][0]"),
        ({"rows": [["0", "0"], ["4", "1"]]}, "rows[0]"),
        ({"rows": [["99", "2"], ["4", "1"]]}, "rows[0][0]"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_gives_both_rows_and_the_formula():
    text = render_statement(spec())

    assert r"\mathbf{u} = \begin{bmatrix}1\\2\end{bmatrix}" in text
    assert r"\lVert\mathbf{u}\rVert\,\lVert\mathbf{v}\rVert" in text
    assert "`sqrt(...)`" in text


def test_fresh_picture_draws_both_arrows_and_the_angle_without_its_cosine():
    root = ET.fromstring(render_svg(spec()))

    rows = [line for line in root.iter(f"{SVG}line") if line.get("data-role") == "row"]
    assert [(r.get("data-x"), r.get("data-y")) for r in rows] == [("1", "2"), ("4", "1")]
    assert any(p.get("class") == "angle" for p in root.iter(f"{SVG}path"))
    text = ET.tostring(root, encoding="unicode")
    assert "0.65" not in text and "sqrt" not in text and "cos θ =" not in text


def test_picture_after_an_answer_shows_the_cosine_and_the_learners_angle():
    root = ET.fromstring(render_svg(spec(), answer=Fraction(1, 2)))

    (mine,) = [line for line in root.iter(f"{SVG}line") if line.get("data-role") == "answer"]
    assert mine.get("data-cos") == "0.5"
    assert "0.6508" in root.find(f"{SVG}desc").text


def test_an_answer_that_is_no_cosine_is_said_to_be_so():
    root = ET.fromstring(render_svg(spec(), answer=6))

    assert not [line for line in root.iter(f"{SVG}line") if line.get("data-role") == "answer"]
    assert "between -1 and 1" in root.find(f"{SVG}desc").text


@pytest.mark.parametrize("level", [3, 4])
def test_higher_dimensions_are_drawn_as_bars_then_in_their_plane(level):
    problem = generate("cosine_similarity", seed=3, level=level)
    fresh = ET.fromstring(render_svg(problem))
    bars = [r for r in fresh.iter(f"{SVG}rect") if r.get("data-role") == "coordinate"]
    assert len(bars) == 2 * level
    solved = ET.fromstring(render_svg(problem, solution=True))
    assert "plane the two rows span" in solved.find(f"{SVG}title").text


def test_arrows_of_flat_rows_are_cropped_to_what_is_drawn():
    # Both rows point nearly along the x axis: the square panel they are fitted into was
    # mostly empty above and below them.
    flat = spec(rows=[["4", "1"], ["5", "1"]])
    for markup in (render_svg(flat), render_svg(flat, solution=True)):
        width, height, ends = arrow_ends(markup)
        assert height < 0.6 * width
        assert all(0 <= x <= width and 0 <= y <= height for x, y in ends)
        tops = min(y for _, y in ends)
        assert tops < 40  # the highest arrow end is near the top edge, not below empty space


def test_a_value_no_cosine_has_is_written_in_the_picture_as_the_learners():
    markup = render_svg(spec(), answer=6)
    root = ET.fromstring(markup)
    mine = [t.text for t in root.iter(f"{SVG}text") if t.get("data-role") == "answer"]

    assert mine == ["your 6 is not a cosine (they lie in [−1, 1])"]
