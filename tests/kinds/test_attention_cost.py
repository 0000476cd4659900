"""``attention_cost``: attention's score entries at two lengths under a mask, and the ratio."""

import os
from fractions import Fraction

import numpy as np
import pytest

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    parse_svg,
)

NAME = "attention_cost"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """Return the page's example, causal: 21 and 378 scores, 18 times as many."""
    base = {"kind": NAME, "short": 6, "long": 27, "mask": "causal"}
    base.update(overrides)
    return base


def _numpy_scores(n: int, mask: str) -> int:
    """Count the computed scores in NumPy's attention mask: all ones, or the lower triangle."""
    grid = np.ones((n, n), dtype=bool)
    return int(np.count_nonzero(grid if mask == "full" else np.tril(grid)))


def test_numpy_masks_agree_with_the_right_answer():
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            a, b, ratio = grading.expected_answer(problem)
            assert a == _numpy_scores(problem["short"], problem["mask"])
            assert b == _numpy_scores(problem["long"], problem["mask"])
            assert float(ratio) == pytest.approx(b / a)


def test_the_page_example_full_and_causal():
    assert grading.expected_answer(spec(mask="full")) == (36, 729, Fraction(81, 4))
    assert grading.expected_answer(spec()) == (21, 378, Fraction(18))
    assert grading.grade(spec(mask="full"), "36; 729; 20.25").status == Status.CORRECT


@pytest.mark.parametrize(
    ("text", "mistake", "named"),
    [
        ("21; 378; 9/2", "scaled_linearly", "ratio of the lengths"),
        ("15; 351; 117/5", "left_out_self_pairs", "minus the 6 self pairs"),
        ("36; 729; 81/4", "other_mask", "those of the full mask"),
        ("21; 378; 1/18", "ratio_inverted", "upside down"),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, named):
    verdict = grading.grade(spec(), text)

    assert verdict.diagnosis.mistake == mistake
    assert named in verdict.explanation
    assert "18" in verdict.explanation


def test_leaving_out_self_pairs_under_a_full_mask_is_n_times_n_minus_one():
    verdict = grading.grade(spec(mask="full"), "30; 702; 117/5")

    assert verdict.diagnosis.mistake == "left_out_self_pairs"
    assert "6^2 = 36" in verdict.explanation


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"short": 1}, "short"),
        ({"short": "6"}, "short"),
        ({"long": 6}, "long"),
        ({"long": 500}, "long"),
        ({"long": True}, "long"),
        ({"mask": "sliding"}, "mask"),
    ],
)
def test_a_malformed_spec_names_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_the_statement_states_the_mask_rule():
    assert "itself included" in render_statement(spec(mask="full"))
    assert "none with later ones" in render_statement(spec())


def test_the_picture_draws_both_grids_to_one_scale():
    root = parse_svg(render_svg(spec()))
    grids = [g for g in root.iter(f"{SVG}g") if g.get("data-role") == "grid"]

    assert [(g.get("data-n"), g.get("data-mask")) for g in grids] == [
        ("6", "causal"),
        ("27", "causal"),
    ]
    assert grids[0].get("data-cell") == grids[1].get("data-cell")
    sides = [float(g.find(f"{SVG}rect").get("width")) for g in grids]
    assert sides[1] / sides[0] == pytest.approx(27 / 6)
    assert "378" not in svg_text(root)


def test_after_an_answer_the_picture_gives_the_counts():
    root = parse_svg(render_svg(spec(), answer=(36, 729, Fraction(81, 4))))

    assert "21 and 378 scores" in svg_text(root)
    assert "Your answer: 36 and 729 scores" in svg_text(root)


def svg_text(root) -> str:
    return " ".join(t for t in root.itertext())
