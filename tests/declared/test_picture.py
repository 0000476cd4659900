"""The picture of a declared kind with a vector answer (`practice/generators/draw/declared_bars`),
read back from its SVG: a fresh problem draws the given vector and an empty bar per entry (the
answer not given away); solved, the right values; answered, the learner's beside them, a value
far outside clipped to the panel but written in full; the description says what is drawn; a
scalar declared kind draws nothing; five entries fit a 312 px phone column."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command

import grading
from practice.generators import declared, generate, render_svg
from practice.generators.draw import svg
from practice.generators.draw.declared_bars import MIN_WIDTH, vector_picture, written

KIND = "temperature_softmax"
NS = "{http://www.w3.org/2000/svg}"


def roles(markup: str, role: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(markup).iter() if e.get("data-role") == role]


def texts(markup: str, role: str) -> list[str]:
    return ["".join(e.itertext()) for e in roles(markup, role)]


def desc(markup: str) -> str:
    return "".join(ET.fromstring(markup).find(f"{NS}desc").itertext())


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_fresh_picture_draws_the_scores_and_hides_the_answer(level):
    for seed in range(5):
        spec = generate(KIND, seed=seed, level=level)
        markup = render_svg(spec)
        z = [Fraction(x) for x in spec["params"]["z"]]
        bars = roles(markup, "given")
        assert [Fraction(b.get("data-value")) for b in bars] == z
        assert [int(b.get("data-entry")) for b in bars] == list(range(len(z)))
        assert texts(markup, "index")[: len(z)] == [
            f"z{str(k).translate(str.maketrans('0123456789', '₀₁₂₃₄₅₆₇₈₉'))} = {written(x)}"
            for k, x in enumerate(z)
        ]
        assert len(roles(markup, "unknown")) == len(z)
        # no right value, no learner's: nothing gives the answer away
        assert not roles(markup, "right") and not roles(markup, "right-value")
        assert not svg.draws_answer(markup)
        assert "left for you to work out" in desc(markup)


def test_a_solved_picture_draws_every_right_value():
    spec = generate(KIND, seed=3, level=2)
    markup = render_svg(spec, solution=True)
    right = [float(x) for x in grading.expected_answer(spec)]
    drawn = [float(b.get("data-value")) for b in roles(markup, "right")]
    assert drawn == pytest.approx(right, rel=1e-5)
    assert texts(markup, "right-value") == [written(x) for x in grading.expected_answer(spec)]
    assert not svg.draws_answer(markup) and not roles(markup, "unknown")
    assert all(written(x) in desc(markup) for x in grading.expected_answer(spec))


def test_an_answered_picture_draws_the_learners_values_beside_the_right_ones():
    spec = generate(KIND, seed=4, level=3)
    wrong = next(
        v for d, v in grading.mistaken_answers(spec) if d.mistake == "temperature_upside_down"
    )
    markup = render_svg(spec, answer=wrong)
    assert svg.draws_answer(markup)
    learner = [float(b.get("data-value")) for b in roles(markup, "answer")]
    assert learner == pytest.approx([float(x) for x in wrong], rel=1e-5)
    assert texts(markup, "answer-value") == [written(x) for x in wrong]
    assert len(roles(markup, "right")) == len(wrong)
    # each learner's bar stands beside the right one of its entry, to its right
    for right, mine in zip(roles(markup, "right"), roles(markup, "answer"), strict=True):
        assert right.get("data-entry") == mine.get("data-entry")
        assert float(right.get("x")) < float(mine.get("x"))
    assert "Yours:" in desc(markup) and "your answer" in " ".join(texts(markup, "legend"))


def test_a_learners_value_far_outside_is_clipped_to_the_panel_and_written_in_full():
    markup = vector_picture(
        "A test",
        [("z", (Fraction(1), Fraction(2)))],
        (Fraction(1, 3), Fraction(2, 3)),
        (Fraction(900), Fraction(1, 3)),
        True,
        key="clip",
    )
    far, near = roles(markup, "answer")
    assert far.get("data-clipped") == "true" and near.get("data-clipped") is None
    assert texts(markup, "answer-value") == ["900", "1/3"]
    # the clipped bar stays within the picture
    height = float(ET.fromstring(markup).get("height"))
    assert float(far.get("y")) >= 0 and float(far.get("y")) + float(far.get("height")) <= height


def test_an_answer_of_another_length_is_not_drawn():
    markup = vector_picture(
        "A test", [], (Fraction(1, 2), Fraction(1, 2)), (Fraction(1),), False, key="len"
    )
    assert not svg.draws_answer(markup) and roles(markup, "unknown")


def test_values_are_written_exactly_when_short_else_to_three_decimals():
    assert written(Fraction(-5, 4)) == "−5/4"
    assert written(Fraction(7)) == "7"
    assert written(Fraction(1, 997)) == "0.001"
    assert written(0.86681) == "0.867"
    assert written(0.00002) == "≈0"
    assert written(-12.5) == "−12.5"


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_picture_fits_a_phone_column_with_text_at_12_px(level):
    spec = generate(KIND, seed=0, level=level)
    wrong = grading.mistaken_answers(spec)[0][1]
    for markup in (render_svg(spec), render_svg(spec, answer=wrong)):
        root = ET.fromstring(markup)
        assert MIN_WIDTH <= float(root.get("width")) <= 312
        assert root.get("font-size") == "12"
        assert all(e.get("font-size") is None for e in root.iter(f"{NS}text"))


def test_a_scalar_declared_kind_draws_nothing():
    for kind in ("softmax_probability", "perplexity", "scaled_dot_score"):
        spec = generate(kind, seed=1, level=1)
        wrong = grading.mistaken_answers(spec)[0][1]
        assert render_svg(spec) is None and render_svg(spec, solution=True) is None
        assert render_svg(spec, answer=wrong) is None


def test_check_kind_draws_a_vector_kinds_pictures_and_refuses_a_broken_one(monkeypatch):
    call_command("check_kind", "how-text-becomes-numbers", KIND, seeds=3)
    monkeypatch.setattr(declared, "vector_picture", lambda *args, **kwargs: "<svg><g></svg>")
    with pytest.raises(CommandError) as caught:
        call_command("check_kind", "how-text-becomes-numbers", KIND, seeds=3)
    assert "temperature_softmax.yaml: shape: level 1, seed 0: the picture is no SVG" in str(
        caught.value
    )
