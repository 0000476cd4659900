"""closed_form_noise: NumPy computes abar_t and x_t independently; simulating the steps one by
one with many seeded draws gives the spread the closed form promises."""

import math

import numpy as np
import pytest

import grading
from grading import SpecError, Status
from practice.generators import GENERATORS, generate

from .noise_helpers import by_role, field, floats, number, roles

KIND = "closed_form_noise"
LEVELS = GENERATORS[KIND].levels
SPEC = {"kind": KIND, "betas": ["9/25", "11/36", "19/100"], "x0": "2", "eps": "-1"}


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_bar_and_x_t_agree_with_numpy(level):
    for seed in range(40):
        spec = generate(KIND, seed=seed, level=level)
        betas = np.array([number(b) for b in spec["betas"]])
        abar = np.prod(1 - betas)

        got_abar, got_x = grading.expected_answer(spec)

        assert float(got_abar) == pytest.approx(abar, rel=1e-12)
        np.testing.assert_allclose(
            floats(got_x),
            np.sqrt(abar) * field(spec["x0"]) + np.sqrt(1 - abar) * field(spec["eps"]),
            rtol=1e-12,
            atol=1e-12,
        )


@pytest.mark.parametrize("level", LEVELS)
def test_running_the_steps_one_by_one_gives_the_closed_forms_spread(level):
    draws = 200_000
    for seed in range(4):
        spec = generate(KIND, seed=seed, level=level)
        betas = [number(b) for b in spec["betas"]]
        x0 = field(spec["x0"])
        x0 = float(np.atleast_1d(x0)[0])
        rng = np.random.default_rng(seed)
        x = np.full(draws, x0)
        for beta in betas:
            x = np.sqrt(1 - beta) * x + np.sqrt(beta) * rng.normal(size=draws)
        abar = float(grading.expected_answer(spec)[0])
        spread = 1 - abar

        assert abs(x.mean() - math.sqrt(abar) * x0) < 5 * math.sqrt(spread / draws)
        assert abs(x.var(ddof=1) - spread) < 5 * spread * math.sqrt(2 / (draws - 1))
        # summing the betas predicts another spread, which the sample rejects
        summed = sum(betas)
        assert abs(x.var(ddof=1) - summed) > 5 * spread * math.sqrt(2 / (draws - 1))


def test_right_answer_in_exact_and_decimal_forms():
    assert grading.grade(SPEC, "9/25; 2/5").status == Status.CORRECT
    assert grading.grade(SPEC, "0.36; 0.4").status == Status.CORRECT
    assert grading.grade(SPEC, "4/5*5/6*9/10*3/5; 3/5*2 + 4/5*(-1)").status == Status.CORRECT


@pytest.mark.parametrize(
    ("answer", "code", "terms", "words"),
    [
        ("13/90; 2*sqrt(13/90) - sqrt(77/90)", "summed_betas", (), "added the"),
        ("81/100; 9/5 - sqrt(19)/10", "last_step_only", (), "only the last step"),
        ("9/25; 2/25", "unrooted_alpha_bar", (), "without square roots"),
        ("9/16; 3/2 - sqrt(7)/4", "forgot_step", (0,), "leave out step 1"),
        ("9/25; 4/5", "noise_scale_one_minus_root", (), "not the coefficients"),
    ],
)
def test_each_mistake_is_named_with_its_step(answer, code, terms, words):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT, verdict
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code, verdict
    assert tuple(verdict.diagnosis.terms) == terms
    assert words in verdict.explanation


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"betas": ["1/2"]}, "betas"),
        ({"betas": ["1/2", "1/2", "1/4"]}, "betas"),
        ({"betas": ["1/2", "0"]}, "betas[1]"),
        ({"betas": "1/2"}, "betas"),
        ({"eps": ["1", "1"]}, "eps"),
        ({"x0": "x"}, "x0"),
    ],
)
def test_a_malformed_spec_names_its_field(change, name):
    with pytest.raises(SpecError) as error:
        grading.validate_spec({**SPEC, **change})
    assert error.value.field == name


def test_fresh_picture_shows_the_factors_but_not_the_product():
    svg = GENERATORS[KIND].picture(SPEC)

    assert [e.get("data-value") for e in by_role(svg, "factor")] == ["16/25", "25/36", "81/100"]
    assert "alpha-bar" not in roles(svg) and "alpha-bar-unknown" in roles(svg)
    assert "9/25" not in svg


def test_answered_picture_shows_alpha_bar_shrinking_and_the_learners_beside_it():
    svg = GENERATORS[KIND].picture(SPEC, (0.5, 0.0))
    running = [e.get("data-value") for e in by_role(svg, "alpha-bar")]

    assert running == ["16/25", "4/9", "9/25"]
    (mine,) = by_role(svg, "answer-alpha-bar")
    assert float(mine.get("data-value")) == 0.5


def test_each_bar_is_named_and_the_product_is_written_under_them_not_floating():
    svg = GENERATORS[KIND].picture(SPEC, (0.5, 0.0))
    texts = ["".join(e.itertext()) for e in by_role(svg, "total")]
    placed = ["".join(e.itertext()) for e in by_role(svg, "value")]

    assert texts == ["ᾱ₃ = 9/25 after all 3 steps", "your ᾱ₃: 0.5"]
    assert placed == ["16/25", "25/36", "81/100"]  # only the factors sit above their bars
    assert all(name in svg for name in ("ᾱ₁", "ᾱ₂", "1−β₃"))
    assert "alpha-bar-path" not in roles(svg)


def test_the_fresh_picture_leaves_the_product_as_a_question_under_the_bars():
    svg = GENERATORS[KIND].picture(SPEC)

    (total,) = ["".join(e.itertext()) for e in by_role(svg, "total")]
    assert total.startswith("ᾱ₃ = ?")
