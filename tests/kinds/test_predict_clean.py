"""predict_clean: NumPy inverts the forward formula independently; with many seeded draws, the
spread of the estimate's error is the prediction error's spread times (1 - abar) / abar."""

import math

import numpy as np
import pytest

import grading
from grading import SpecError, Status
from practice.generators import GENERATORS, generate

from .noise_helpers import by_role, field, floats, number, roles

KIND = "predict_clean"
LEVELS = GENERATORS[KIND].levels
SPEC = {"kind": KIND, "t": 10, "alpha_bar": "16/25", "beta": "49/625", "x_t": "1", "eps_hat": "-1"}


@pytest.mark.parametrize("level", LEVELS)
def test_estimate_agrees_with_numpy(level):
    for seed in range(40):
        spec = generate(KIND, seed=seed, level=level)
        abar = number(spec["alpha_bar"])
        expected = (field(spec["x_t"]) - np.sqrt(1 - abar) * field(spec["eps_hat"])) / np.sqrt(abar)

        np.testing.assert_allclose(
            floats(grading.expected_answer(spec)), expected, rtol=1e-12, atol=1e-12
        )


@pytest.mark.parametrize("level", LEVELS)
def test_a_perfect_prediction_recovers_x0_and_an_imperfect_one_spreads_as_predicted(level):
    draws = 200_000
    sigma = 0.3
    for seed in range(4):
        spec = generate(KIND, seed=seed, level=level)
        abar = number(spec["alpha_bar"])
        rng = np.random.default_rng(seed)
        x0 = rng.normal(size=draws)
        eps = rng.normal(size=draws)
        x_t = math.sqrt(abar) * x0 + math.sqrt(1 - abar) * eps
        error = sigma * rng.normal(size=draws)
        estimate = (x_t - math.sqrt(1 - abar) * (eps + error)) / math.sqrt(abar)
        promised = (1 - abar) / abar * sigma**2

        np.testing.assert_allclose(
            (x_t - math.sqrt(1 - abar) * eps) / math.sqrt(abar), x0, rtol=1e-9, atol=1e-9
        )
        spread = float(np.var(estimate - x0, ddof=1))
        assert abs(spread - promised) < 5 * promised * math.sqrt(2 / (draws - 1))
        # without the rescale the spread would be (1 - abar) sigma^2: rejected
        assert abs(spread - (1 - abar) * sigma**2) > 5 * promised * math.sqrt(2 / (draws - 1))


def test_right_answer_in_its_forms():
    assert grading.grade(SPEC, "2").status == Status.CORRECT
    assert grading.grade(SPEC, "(1 - 3/5*(-1))/(4/5)").status == Status.CORRECT
    spec = {**SPEC, "alpha_bar": "3/4", "beta": "1/10"}
    assert grading.grade(spec, "(1 + 1/2)*2/sqrt(3)").status == Status.CORRECT
    assert grading.grade(spec, "sqrt(3)").status == Status.CORRECT
    assert grading.grade(spec, "1.732").status == Status.CORRECT


@pytest.mark.parametrize(
    ("answer", "code", "words"),
    [
        ("8/5", "no_rescale", "divide by"),
        ("1/2", "added_noise", "instead of taking it away"),
        ("4/3", "beta_for_alpha_bar", "this step's"),
        ("17/8", "no_square_roots", "without square roots"),
        ("32/25", "multiplied_by_root", "instead of dividing"),
    ],
)
def test_each_mistake_is_named(answer, code, words):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code
    assert words in verdict.explanation


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"t": 0}, "t"),
        ({"t": "3"}, "t"),
        ({"alpha_bar": "1"}, "alpha_bar"),
        ({"beta": "1/2"}, "beta"),
        ({"eps_hat": ["1"]}, "eps_hat"),
    ],
)
def test_a_malformed_spec_names_its_field(change, name):
    with pytest.raises(SpecError) as error:
        grading.validate_spec({**SPEC, **change})
    assert error.value.field == name


def test_fresh_picture_shows_x_t_and_the_prediction_only():
    svg = GENERATORS[KIND].picture(SPEC)

    assert {"x-t", "eps-hat"} <= roles(svg)
    assert not {"x0-hat", "removed-noise"} & roles(svg)


def test_answered_picture_shows_the_removed_noise_and_both_estimates():
    svg = GENERATORS[KIND].picture(SPEC, 8 / 5)

    assert [e.get("data-value") for e in by_role(svg, "removed-noise")] == ["-3/5"]
    assert [e.get("data-value") for e in by_role(svg, "x0-hat")] == ["2"]
    assert [float(e.get("data-value")) for e in by_role(svg, "answer")] == [1.6]


def test_the_literal_beta_reading_that_keeps_the_root_of_abar_is_named():
    # (1 - sqrt(1 - 49/625) * (-1)) / (4/5) = (1 + 24/25) * 5/4 = 49/20
    verdict = grading.grade(SPEC, "49/20")

    assert verdict.diagnosis.mistake == "beta_for_alpha_bar"
    assert verdict.diagnosis.detail == {"reading": "literal"}
    assert "In the noise term" in verdict.explanation
    assert "still dividing by" in verdict.explanation


@pytest.mark.parametrize("level", LEVELS)
def test_both_beta_readings_are_diagnosed_against_numpy(level):
    for seed in range(30):
        spec = generate(KIND, seed=seed, level=level)
        abar, beta = number(spec["alpha_bar"]), number(spec["beta"])
        x, eps = field(spec["x_t"]), field(spec["eps_hat"])
        readings = {
            "literal": (x - np.sqrt(1 - beta) * eps) / np.sqrt(abar),
            None: (x - np.sqrt(beta) * eps) / np.sqrt(1 - beta),
        }
        found = {
            d.detail.get("reading"): floats(value)
            for d, value in grading.mistaken_answers(spec)
            if d.mistake == "beta_for_alpha_bar"
        }
        assert set(found) == set(readings)
        for reading, oracle in readings.items():
            np.testing.assert_allclose(found[reading], oracle, rtol=1e-12, atol=1e-12)
            typed = ", ".join(f"{v:.6g}" for v in np.atleast_1d(oracle))
            verdict = grading.grade(spec, f"[{typed}]" if np.ndim(oracle) else typed)
            assert verdict.diagnosis.mistake == "beta_for_alpha_bar", (seed, reading)
            assert verdict.diagnosis.detail.get("reading") == reading


def _texts(svg: str) -> list[str]:
    return ["".join(e.itertext()) for e in by_role(svg, "label")]


def test_every_mark_of_the_answered_picture_is_labelled_with_its_value():
    svg = GENERATORS[KIND].picture(SPEC, -1)  # right: x̂₀ = 2; the noise removed is -3/5

    assert _texts(svg) == ["xₜ = 1", "√(1 − ᾱ) ε̂ = −3/5", "x̂₀ = 2", "yours: −1"]
    ticks = ["".join(e.itertext()) for e in by_role(svg, "tick")]
    assert ticks == ["−1", "0", "1", "2"]  # the scale reaches the learner's −1, a true minus


def test_the_number_line_spans_the_values_drawn_not_a_symmetric_range():
    svg = GENERATORS[KIND].picture(SPEC, solution=True)  # 0, x_t = 1, 8/5 and x̂₀ = 2
    ticks = [float("".join(e.itertext()).replace("−", "-")) for e in by_role(svg, "tick")]

    assert min(ticks) == 0 and max(ticks) == 2


def test_a_learner_value_far_off_sits_at_the_lines_end_and_says_so():
    svg = GENERATORS[KIND].picture(SPEC, 1000)

    assert "yours: 1000 (off the line)" in _texts(svg)
    (mine,) = by_role(svg, "answer")
    assert float(mine.get("data-value")) == 1000
