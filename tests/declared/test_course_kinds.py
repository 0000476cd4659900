"""The kinds the course carries only as files (`kinds/softmax_probability.yaml`,
`kinds/perplexity.yaml`, `kinds/temperature_softmax.yaml`, `kinds/cross_entropy.yaml`): NumPy
computes each right answer and each derived mistake's answer from the parameters over many
seeds, independently of the engine;
every mistake typed is diagnosed as itself; every level draws what the file says of it; each
passes check_kind and stands under the idea its page teaches it with."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from django.core.management import call_command

import grading
from courses.loader import read_course
from grading.declared import course_kind_files, read_kind_file
from grading.spec import load_problem
from practice.generators import generate, render_statement

from .kinds import EXAMPLE

COURSE = EXAMPLE.parents[1]
SEEDS = 60
LEVELS = [1, 2, 3, 4]


def kind_path(name: str):
    return COURSE / "kinds" / f"{name}.yaml"


def floats(value) -> np.ndarray:
    """Return a scalar or a vector as a NumPy array of floats."""
    return np.array([float(x) for x in value] if isinstance(value, tuple) else [float(value)])


def catalogue(spec: dict) -> dict[tuple[str, tuple[int, ...]], np.ndarray]:
    """Return the engine's mistaken answers of a spec, as floats by (code, terms)."""
    return {(d.mistake, tuple(d.terms)): floats(v) for d, v in grading.mistaken_answers(spec)}


def assert_same(found: dict, expected: dict, spec: dict) -> None:
    assert set(found) == set(expected), (spec["params"], set(found) ^ set(expected))
    for key, value in expected.items():
        assert np.allclose(found[key], value, rtol=1e-12, atol=1e-12), (key, spec)


def softmax_oracle(params: dict) -> tuple[float, dict]:
    """The probability of entry i of softmax(z), and each mistake's, computed with NumPy."""
    z = np.array([int(x) for x in params["z"]], dtype=float)
    i, n = int(params["i"]), int(params["n"])
    e = np.exp(z)
    total = e.sum()
    mistakes = {("omitted_self_term", (i,)): e[i] / (total - e[i])}
    for k in range(n):
        if k != i:
            mistakes[("omitted_term", (k,))] = e[i] / (total - e[k])
    mistakes[("product_for_sum", (0,))] = e[i] / np.prod(e)
    mistakes[("mean_for_sum", (0,))] = e[i] / (total / n)
    mistakes[("forgot_normalisation", (0,))] = e[i]
    mistakes[("stopped_at_step", (0,))] = total
    return e[i] / total, mistakes


def perplexity_oracle(params: dict) -> tuple[float, dict]:
    """exp of the mean cross-entropy of the log-probabilities l, and each mistake's."""
    ell = np.array([float(Fraction(x)) for x in params["l"]])
    n = int(params["n"])
    total = ell.sum()
    mistakes = {("omitted_term", (k,)): math.exp(-(total - ell[k]) / n) for k in range(n)}
    mistakes[("flipped_sign", (0,))] = math.exp(total / n)
    mistakes[("product_for_sum", (0,))] = math.exp(-np.prod(ell) / n)
    mistakes[("mean_for_sum", (0,))] = math.exp(-(total / n) / n)
    mistakes[("forgot_normalisation", (0,))] = math.exp(-total)
    mistakes[("stopped_at_step", (0,))] = -total / n
    return math.exp(-total / n), mistakes


def cross_entropy_oracle(params: dict) -> tuple[float, dict]:
    """-log p_c with NumPy's natural log, and each mistake's: the sign kept, another
    candidate's probability, the logarithm to base 2 or 10."""
    p = np.array([float(Fraction(x)) for x in params["p"]])
    c = int(params["c"])
    mistakes = {("flipped_sign", (0,)): np.log(p[c])}
    for m in range(len(p)):
        if m != c:
            mistakes[("wrong_entry", (0, m))] = -np.log(p[m])
    mistakes[("used_log_base_2", ())] = -np.log2(p[c])
    mistakes[("used_log_base_10", ())] = -np.log10(p[c])
    return -np.log(p[c]), mistakes


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def temperature_oracle(params: dict) -> tuple[np.ndarray, dict]:
    """softmax(z / T), and each mistake's: the exponentials undivided, the temperature left
    out, the scores multiplied by it."""
    z = np.array([int(x) for x in params["z"]], dtype=float)
    temperature = float(Fraction(params["T"]))
    mistakes = {
        ("forgot_normalisation", (0,)): np.exp(z / temperature),
        ("forgot_normalisation", (1,)): softmax(z),
        ("temperature_upside_down", ()): softmax(z * temperature),
    }
    return softmax(z / temperature), mistakes


ORACLES = {
    "cross_entropy": cross_entropy_oracle,
    "softmax_probability": softmax_oracle,
    "perplexity": perplexity_oracle,
    "temperature_softmax": temperature_oracle,
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(ORACLES))
def test_the_right_answer_and_every_mistake_are_what_numpy_computes(name, level):
    for seed in range(SEEDS):
        spec = generate(name, seed=seed, level=level)
        right, expected = ORACLES[name](spec["params"])
        assert np.allclose(floats(grading.expected_answer(spec)), right, rtol=1e-12), spec
        assert_same(catalogue(spec), expected, spec)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(ORACLES))
def test_every_derived_mistake_typed_is_diagnosed_as_itself(name, level):
    seen = set()
    for seed in range(SEEDS // 2):
        spec = generate(name, seed=seed, level=level)
        shape = load_problem(spec).shape
        right = grading.expected_answer(spec)
        assert grading.grade(spec, shape.typed(right)).status == grading.Status.CORRECT
        assert grading.grade(spec, decimal_form(right)).status == grading.Status.CORRECT
        for listed, value in grading.mistaken_answers(spec):
            verdict = grading.grade(spec, shape.typed(value))
            assert verdict.status == grading.Status.INCORRECT, (listed, spec)
            got = verdict.diagnosis
            assert (got.mistake, tuple(got.terms)) == (listed.mistake, tuple(listed.terms))
            assert verdict.explanation
            seen.add(listed.mistake)
    # every mistake of the catalogue came up, none only in theory
    assert seen == set(grading.kind(name).codes)


def decimal_form(value) -> str:
    """Return a value typed as decimals (six figures), a vector in brackets."""
    if isinstance(value, tuple):
        return "[" + ", ".join(f"{float(x):.6f}" for x in value) + "]"
    return f"{float(value):.6g}"


def level_ranges(name: str, parameter: str, level: int):
    return read_kind_file(kind_path(name)).parameter(parameter).levels[level]


@pytest.mark.parametrize("level", LEVELS)
def test_a_cross_entropy_problem_of_each_level_is_drawn_as_its_file_says(level):
    (num_low, num_high), (den_low, den_high) = level_ranges("cross_entropy", "p", level)
    for seed in range(SEEDS):
        params = generate("cross_entropy", seed=seed, level=level)["params"]
        p = [Fraction(x) for x in params["p"]]
        n, c = int(params["n"]), int(params["c"])
        assert n == len(p) == 3 and 0 <= c < n
        # entries k/d with d the level's denominator (in lowest terms d divides it)
        assert all(den_high % x.denominator == 0 and x > 0 for x in p)
        assert all(num_low <= x * den_low <= num_high for x in p)
        assert sum(p) == 1 and len(set(p)) == n  # the constraints
        # a cross-entropy is never negative: positive, as no probability here is 1
        assert float(grading.expected_answer(generate("cross_entropy", seed=seed, level=level))) > 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_softmax_problem_of_each_level_is_drawn_as_its_file_says(level):
    n_low, n_high = level_ranges("softmax_probability", "n", level)
    z_low, z_high = level_ranges("softmax_probability", "z", level)
    for seed in range(SEEDS):
        params = generate("softmax_probability", seed=seed, level=level)["params"]
        z = [int(x) for x in params["z"]]
        i, n = int(params["i"]), int(params["n"])
        assert n_low <= n <= n_high and len(z) == n
        assert all(z_low <= x <= z_high for x in z)
        assert 0 <= i < n
        assert len(set(z)) == n  # the constraint: scores differ
        e = np.exp(np.array(z, dtype=float))
        assert e[i] / e.sum() >= 1 / 5  # the constraint: the entry asked about is not negligible


@pytest.mark.parametrize("level", LEVELS)
def test_a_perplexity_problem_of_each_level_is_drawn_as_its_file_says(level):
    (n_low, n_high) = level_ranges("perplexity", "n", level)
    (num_low, num_high), (den_low, den_high) = level_ranges("perplexity", "l", level)
    for seed in range(SEEDS):
        params = generate("perplexity", seed=seed, level=level)["params"]
        ell = [Fraction(x) for x in params["l"]]
        assert n_low <= int(params["n"]) <= n_high and len(ell) == int(params["n"])
        assert len(set(ell)) == len(ell)
        # every log-probability is negative (a probability below one) and on the level's grid
        assert all(x < 0 for x in ell)
        assert all(
            any(
                num_low <= x * d <= num_high and (x * d).denominator == 1
                for d in range(den_low, den_high + 1)
            )
            for x in ell
        )
        # the perplexity is never below one
        assert float(grading.expected_answer(generate("perplexity", seed=seed, level=level))) > 1


@pytest.mark.parametrize("level", LEVELS)
def test_a_temperature_problem_of_each_level_is_drawn_as_its_file_says(level):
    (n_low, n_high) = level_ranges("temperature_softmax", "n", level)
    z_low, z_high = level_ranges("temperature_softmax", "z", level)
    options = level_ranges("temperature_softmax", "T", level)
    seen = set()
    for seed in range(SEEDS):
        params = generate("temperature_softmax", seed=seed, level=level)["params"]
        z = [int(x) for x in params["z"]]
        assert n_low <= len(z) <= n_high and len(z) == int(params["n"])
        assert all(z_low <= x <= z_high for x in z) and len(set(z)) == len(z)
        assert Fraction(params["T"]) in options
        seen.add(Fraction(params["T"]))
        right = floats(
            grading.expected_answer(generate("temperature_softmax", seed=seed, level=level))
        )
        assert math.isclose(right.sum(), 1, rel_tol=1e-12) and (right > 0).all()
    assert seen == set(options)  # every temperature of the level comes up


def test_the_levels_grow():
    """A higher level has at least as many entries as the one below it, and the last level more
    than the first (cross_entropy: always 3 candidates, with finer probabilities: the
    denominator grows)."""
    for name in sorted(ORACLES):
        if name == "cross_entropy":
            sizes = [level_ranges(name, "p", level)[1][1] for level in LEVELS]
            assert level_ranges(name, "n", 1) == level_ranges(name, "n", 4) == (3, 3)
        else:
            sizes = [level_ranges(name, "n", level)[1] for level in LEVELS]
        assert sizes == sorted(sizes) and sizes[-1] > sizes[0], name


def test_every_course_kind_file_is_one_of_these_or_the_example():
    """A kind file added to the course needs its oracle here (or a test file of its own)."""
    assert {path.stem for path in course_kind_files()} == {*ORACLES, EXAMPLE.stem}


@pytest.mark.parametrize("name", sorted(path.stem for path in course_kind_files()))
def test_every_course_kind_file_passes_its_check(name, capsys):
    """The check an author runs, on every kind file of the repository's course (the CI run)."""
    call_command("check_kind", "how-text-becomes-numbers", name, seeds=25)
    out = capsys.readouterr().out
    tests = len(read_kind_file(kind_path(name)).tests)
    assert "4 levels x 25 seeds" in out and f"{tests} question tests passed" in out
    assert grading.kind(name).source.path == str(kind_path(name))


IDEAS = {
    "cross_entropy": "context-feeds-back",
    "softmax_probability": "context-feeds-back",
    "perplexity": "context-feeds-back",
    "temperature_softmax": "sampling-and-penalties",
}


def test_the_course_kinds_are_listed_under_the_ideas_their_page_teaches_them_with():
    source = read_course(COURSE)
    page = next(p for p in source.pages if p.slug == "the-repetition-loop")
    kinds = {kind: idea.slug for idea in page.ideas for kind in idea.problem_kinds}
    assert {kind: kinds.get(kind) for kind in ORACLES} == IDEAS
    body = (COURSE / "pages" / "the-repetition-loop.md").read_text(encoding="utf-8")
    # the page teaches what each kind asks before its idea's marker
    first = body[: body.index("::: idea context-feeds-back")]
    assert "**cross-entropy**" in first and "**perplexity**" in first
    assert "\\frac{e^2}{e^2 + e^0 + e^1}" in first
    last = body[body.index("::: idea greedy-cannot-leave") : body.index("::: idea sampling-and")]
    assert "\\operatorname{softmax}(\\mathbf{z} / T)" in last and "$T = 1/2$" in last


@pytest.mark.parametrize("name", ["softmax_probability", "perplexity"])
def test_a_kind_with_exponentials_shows_how_to_type_one_and_the_example_reads(name):
    for seed in range(10):
        spec = generate(name, seed=seed, level=2)
        statement = render_statement(spec)
        example = re.search(r"an exponential as `exp\(\.\.\.\)`, for example `([^`]+)`", statement)
        assert example, statement
        verdict = grading.grade(spec, example.group(1))
        assert verdict.status == grading.Status.INCORRECT  # it reads, and gives nothing away
    assert "sqrt" not in render_statement(generate(name, seed=0, level=1))
