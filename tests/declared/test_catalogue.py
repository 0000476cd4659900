"""The derived catalogue checked against an independent oracle: NumPy computes the right answer
and each mistake's answer directly from the parameters, over many seeds, and the engine must
list exactly those mistakes with exactly those values (and grade each as itself)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import grading
from grading.declared import read_kind_file
from practice.generators import generate
from practice.kind_check import check_kind_file, registered

from .kinds import EXAMPLE, RULES_DEMO, write

SEEDS = 60


def catalogue(spec: dict) -> dict[tuple[str, tuple[int, ...]], float]:
    """Return the engine's mistaken answers of a spec, as floats by (code, terms)."""
    return {(d.mistake, tuple(d.terms)): float(v) for d, v in grading.mistaken_answers(spec)}


def assert_same(found: dict, expected: dict, spec: dict) -> None:
    assert set(found) == set(expected), (spec["params"], set(found) ^ set(expected))
    for key, value in expected.items():
        assert math.isclose(found[key], value, rel_tol=1e-12, abs_tol=1e-12), (key, spec)


def scaled_dot_oracle(params: dict) -> tuple[float, dict]:
    q = np.array([int(x) for x in params["q"]])
    k = np.array([int(x) for x in params["k"]])
    d = int(params["d"])
    products = q * k
    dot = float(products.sum())
    root = math.sqrt(d)
    mistakes = {("omitted_term", (j,)): (dot - products[j]) / root for j in range(d)}
    mistakes[("product_for_sum", (0,))] = float(np.prod(products)) / root
    mistakes[("mean_for_sum", (0,))] = dot / d / root
    mistakes[("forgot_sqrt", (0,))] = dot / d
    mistakes[("forgot_normalisation", (0,))] = dot
    return dot / root, mistakes


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_example_kinds_catalogue_is_what_numpy_computes(level):
    for seed in range(SEEDS):
        spec = generate("scaled_dot_score", seed=seed, level=level)
        right, expected = scaled_dot_oracle(spec["params"])
        assert math.isclose(float(grading.expected_answer(spec)), right, rel_tol=1e-12)
        assert_same(catalogue(spec), expected, spec)


def squares(high: int) -> int:
    return int((np.arange(1, high + 1) ** 2).sum())


def rules_oracle(params: dict) -> tuple[int, dict]:
    x = np.array([int(v) for v in params["x"]], dtype=object)
    n, i, a, b = (int(params[name]) for name in ("n", "i", "a", "b"))
    m = x[i] * x.sum()
    r = squares(a)
    u = m - r
    top = b**a
    mistakes = {("omitted_self_term", (i,)): m - x[i] * x[i] - r + top}
    for k in range(n):
        if k != i:
            mistakes[("omitted_term", (k,))] = m - x[i] * x[k] - r + top
    mistakes.update(
        {
            ("flipped_sign", (1,)): m + r + top,
            ("product_for_sum", (0,)): x[i] ** n * np.prod(x) - r + top,
            ("product_for_sum", (1,)): math.factorial(a) ** 2 * -1 + m + top,
            ("mean_for_sum", (0,)): Fraction(int(m), n) - r + top,
            ("mean_for_sum", (1,)): m - Fraction(r, a) + top,
            ("swapped_power", (0,)): m - int((2 ** np.arange(1, a + 1, dtype=object)).sum()) + top,
            ("swapped_power", (1,)): m - r + a**b,
            ("swapped_parameters", (3, 4)): m - squares(b) + a**b,
            ("off_by_one", (0, 1)): m - squares(a + 1) + top,
            ("off_by_one", (0, 0)): m - squares(a - 1) + top,
            # step u with m's result carried where r's belongs is m - m (the same as r - r,
            # listed first): the catalogue keeps one of two variants that always agree
            ("carried_wrong_step", (2, 0, 1)): top,
            ("carried_wrong_step", (3, 2, 0)): m + top,
            ("carried_wrong_step", (3, 2, 1)): r + top,
            ("stopped_at_step", (0,)): m,
            ("stopped_at_step", (1,)): r,
            ("stopped_at_step", (2,)): u,
        }
    )
    return u + top, {key: float(value) for key, value in mistakes.items()}


@pytest.fixture
def rules_demo(tmp_path):
    source = read_kind_file(write(tmp_path, RULES_DEMO))
    with registered(source) as kind:
        yield kind


@pytest.mark.parametrize("level", [1, 2])
def test_every_rule_is_derived_as_numpy_computes_it(rules_demo, level):
    assert ("carried_wrong_step", (2, 1, 0)) in rules_demo.dropped
    for seed in range(SEEDS):
        spec = generate("rules_demo", seed=seed, level=level)
        right, expected = rules_oracle(spec["params"])
        assert float(grading.expected_answer(spec)) == right
        assert_same(catalogue(spec), expected, spec)


def test_every_derived_mistake_is_graded_as_itself_over_many_seeds(tmp_path):
    # check_kind_file grades every listed mistake's answer on every seed and level and
    # requires its own code and terms back (and the right answer correct, exact and decimal)
    report = check_kind_file(write(tmp_path, RULES_DEMO), seeds=25)
    _, expected = rules_oracle(generate_params(tmp_path))
    assert set(report.mistakes) == {code for code, _ in expected}
    assert report.answers_graded >= 25 * 2 * (len(expected) + 2)


def generate_params(tmp_path) -> dict:
    source = read_kind_file(write(tmp_path / "again", RULES_DEMO))
    with registered(source):
        return generate("rules_demo", seed=0, level=1)["params"]


def test_a_derived_explanation_names_the_term_and_its_value(rules_demo):
    spec = generate("rules_demo", seed=4, level=1)
    i = int(spec["params"]["i"])
    x = [int(v) for v in spec["params"]["x"]]
    (value,) = [v for d, v in grading.mistaken_answers(spec) if d.mistake == "omitted_self_term"]
    verdict = grading.grade(spec, str(value))
    assert verdict.diagnosis.mistake == "omitted_self_term"
    assert f"j = {i}$" in verdict.explanation
    assert f"= {x[i] * x[i]}$" in verdict.explanation  # the term's value, x_i times x_i
    assert "In step 1" in verdict.explanation


def test_a_targeted_variant_shows_its_mistake(rules_demo):
    for code in rules_demo.codes:
        spec = generate("rules_demo", seed=2, level=2, target=code)
        assert spec["generator"]["target"] == code
        right = grading.expected_answer(spec)
        values = [v for d, v in grading.mistaken_answers(spec) if d.mistake == code]
        assert values and all(v != right for v in values)


def test_the_same_seed_gives_the_same_spec(rules_demo):
    assert generate("rules_demo", seed=11, level=2) == generate("rules_demo", seed=11, level=2)
    assert generate("rules_demo", seed=11, level=2) != generate("rules_demo", seed=12, level=2)


def test_the_example_file_is_registered_beside_the_built_in_kinds():
    assert read_kind_file(EXAMPLE).name in grading.KINDS
    assert "weighted_sum" in grading.KINDS
