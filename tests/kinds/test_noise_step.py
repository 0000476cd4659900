"""noise_step: NumPy computes the step and its variance independently; a sampled spread of many
seeded draws confirms the variance formula (and rejects the catalogued wrong ones)."""

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grading
from grading import SpecError, Status
from practice.generators import GENERATORS, generate

KIND = "noise_step"
LEVELS = GENERATORS[KIND].levels
SVG = "{http://www.w3.org/2000/svg}"


def _floats(value):
    return (
        np.array([float(x) for x in value], dtype=float)
        if isinstance(value, tuple)
        else float(value)
    )


def _numbers(field):
    return (
        np.array([float(eval_fraction(x)) for x in field])
        if isinstance(field, list)
        else float(eval_fraction(field))
    )


def eval_fraction(text: str) -> float:
    numerator, _, denominator = text.partition("/")
    return int(numerator) / int(denominator or 1)


@pytest.mark.parametrize("level", LEVELS)
def test_value_and_variance_agree_with_numpy(level):
    for seed in range(40):
        spec = generate(KIND, seed=seed, level=level)
        beta = eval_fraction(spec["beta"])
        x_prev, eps = _numbers(spec["x_prev"]), _numbers(spec["eps"])
        v = eval_fraction(spec["variance"])

        value, variance = grading.expected_answer(spec)

        np.testing.assert_allclose(
            _floats(value), np.sqrt(1 - beta) * x_prev + np.sqrt(beta) * eps, rtol=1e-12, atol=1e-12
        )
        assert float(variance) == pytest.approx((1 - beta) * v + beta, rel=1e-12)


def _sampled_variance(beta: float, v: float, *, seed: int, draws: int) -> float:
    rng = np.random.default_rng(seed)
    x_prev = rng.normal(0.0, math.sqrt(v), draws)
    eps = rng.normal(0.0, 1.0, draws)
    return float(np.var(np.sqrt(1 - beta) * x_prev + np.sqrt(beta) * eps, ddof=1))


@pytest.mark.parametrize("level", LEVELS)
def test_variance_formula_matches_the_spread_of_many_draws(level):
    draws = 200_000
    for seed in range(5):
        spec = generate(KIND, seed=seed, level=level)
        beta, v = eval_fraction(spec["beta"]), eval_fraction(spec["variance"])
        _, variance = grading.expected_answer(spec)
        sampled = _sampled_variance(beta, v, seed=seed, draws=draws)
        # the sample variance of a Gaussian has standard error sigma^2 sqrt(2 / (n - 1))
        tolerance = 5 * float(variance) * math.sqrt(2 / (draws - 1))

        assert abs(sampled - float(variance)) < tolerance
        # every wrong variance far enough from the right one for the sample to tell is rejected
        for diagnosis, (_, wrong) in grading.mistaken_answers(spec):
            if 1 in diagnosis.terms and abs(float(wrong) - float(variance)) > 2 * tolerance:
                assert abs(sampled - float(wrong)) > tolerance, diagnosis


def test_a_variance_of_one_stays_one_in_the_sample():
    sampled = _sampled_variance(9 / 25, 1.0, seed=3, draws=200_000)
    assert sampled == pytest.approx(1.0, abs=5 * math.sqrt(2 / 199_999))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"beta": "1"}, "beta"),
        ({"beta": "0"}, "beta"),
        ({"beta": "one half"}, "beta"),
        ({"variance": "-1"}, "variance"),
        ({"eps": ["1", "2"]}, "eps"),
        ({"x_prev": ["1"] * 9, "eps": ["1"] * 9}, "x_prev"),
        ({"x_prev": None}, "x_prev"),
    ],
)
def test_a_malformed_spec_names_its_field(change, field):
    spec = {"kind": KIND, "beta": "9/25", "x_prev": "2", "eps": "-1", "variance": "4", **change}
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec)
    assert error.value.field == field


SPEC = {"kind": KIND, "beta": "9/25", "x_prev": "2", "eps": "-1", "variance": "4"}


def test_right_answer_is_rational_at_level_one_sized_numbers():
    assert grading.grade(SPEC, "1; 73/25").status == Status.CORRECT
    assert grading.grade(SPEC, "4/5*2 + 3/5*(-1); 16/25*4 + 9/25").status == Status.CORRECT


@pytest.mark.parametrize(
    ("answer", "code", "words"),
    [
        ("1; 19/5", "unsquared_variance", "In the variance"),
        ("7/5; 73/25", "noise_without_shrinking", "In the value"),
        ("7/5; 109/25", "noise_without_shrinking", "In both parts"),
        ("1; 52/25", "swapped_beta", "exchanged"),
        ("23/25; 73/25", "unrooted_coefficients", "without the square roots"),
        ("1; 64/25", "noise_variance_left_out", "left out the variance"),
    ],
)
def test_each_mistake_is_named_with_the_part_it_went_wrong_in(answer, code, words):
    verdict = grading.grade(SPEC, answer)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code
    assert words in verdict.explanation


def test_a_genuine_square_root_is_confirmed_exactly():
    spec = {**SPEC, "beta": "1/4"}
    assert grading.grade(spec, "sqrt(3) - 1/2; 13/4").status == Status.CORRECT
    assert grading.grade(spec, "1.232; 3.25").status == Status.CORRECT
    assert grading.grade(spec, "sqrt(3) - 1/3; 13/4").status == Status.INCORRECT


def _svg(spec, answer=None):
    return ET.fromstring(GENERATORS[KIND].picture(spec, answer))


def test_fresh_picture_hides_the_band_after_the_step():
    root = _svg(SPEC)
    roles = {e.get("data-role") for e in root.iter() if e.get("data-role")}

    assert root.get("role") == "img" and root.find(f"{SVG}title").text
    assert "band-before" in roles and "band-unknown" in roles
    assert "band-after" not in roles and "value-after" not in roles
    assert "73/25" not in ET.tostring(root, encoding="unicode")


def test_answered_picture_draws_the_right_band_and_the_learners_dashed():
    root = _svg(SPEC, grading.kind(KIND).shape(grading.kind(KIND).load(SPEC)).read("1; 4").value)
    bands = {e.get("data-role"): e for e in root.iter(f"{SVG}rect")}

    assert float(bands["band-after"].get("data-sd")) == pytest.approx(math.sqrt(73 / 25), rel=1e-5)
    assert float(bands["band-answer"].get("data-sd")) == pytest.approx(2.0)
    assert bands["band-answer"].get("stroke-dasharray")


def test_a_decimal_part_does_not_excuse_a_wrong_exact_part():
    spec = {**SPEC, "x_prev": ["2", "0"], "eps": ["-1", "1"]}
    # right: [1, 3/5]; 73/25
    assert grading.grade(spec, "[1, 0.6]; 73/25").status == Status.CORRECT
    assert grading.grade(spec, "[1, 3/5]; 2.92").status == Status.CORRECT
    wrong = grading.grade(spec, "[1, 1]; 2.92")
    assert wrong.status == Status.INCORRECT


def test_the_picture_says_what_a_bands_width_means_and_names_each_variance():
    root = _svg(SPEC, grading.kind(KIND).shape(grading.kind(KIND).load(SPEC)).read("1; 4").value)
    texts = {}
    for element in root.iter(f"{SVG}text"):
        texts.setdefault(element.get("data-role"), []).append("".join(element.itertext()))

    key = " ".join(texts["key"])
    assert "one standard deviation" in key and "√variance" in key
    assert "step t−1: variance 4, xₜ₋₁ as dots" in texts[None]
    assert "step t: variance 73/25, xₜ as dots" in texts[None]
    assert "your answer: variance 4" in texts[None]
    ticks = texts["tick"]
    assert "0" in ticks and any(t.startswith("−") for t in ticks)
    assert not any("-" in t for t in ticks)
    assert float(root.get("width")) <= 320  # a phone's column inside the verdict
