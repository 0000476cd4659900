"""Targeted variants: ``generate(..., target=MISTAKE)`` gives a problem where MISTAKE shows."""

from fractions import Fraction

import pytest

import grading
from grading.kinds import MistakeCode, ProblemKind, Status
from practice.generators import GENERATORS, generate
from tests.answers import typed

# How far a targeted mistake's clearest answer is from the right one, at least (lookup rows are
# integers: 2 apart; other answers that are not numbers: different, 1).
CLEAR_GAP = {"lookup": 2}
TARGETS = [(kind, code) for kind, generator in GENERATORS.items() for code in generator.mistakes]
SEEDS = range(4)


def biggest_gap(a, b) -> float:
    """Return how far apart two answers are: the largest coordinate difference of numbers, and
    for other answers 1 when they differ (0 when equal)."""
    if not isinstance(a, tuple):
        a, b = (a,), (b,)
    try:
        return max(abs(float(x) - float(y)) for x, y in zip(a, b, strict=True))
    except (TypeError, ValueError):
        return 0.0 if a == b else 1.0


@pytest.mark.parametrize(("kind", "target"), TARGETS)
def test_targeted_problem_shows_its_mistake_clearly_and_grades_it(kind, target):
    for level in GENERATORS[kind].levels:
        for seed in SEEDS:
            spec = generate(kind, seed=seed, level=level, target=target)
            assert spec["generator"]["target"] == target
            right = grading.expected_answer(spec)
            variants = [(d, v) for d, v in grading.mistaken_answers(spec) if d.mistake == target]
            gaps = [biggest_gap(v, right) for _, v in variants]
            clear = CLEAR_GAP.get(kind, getattr(GENERATORS[kind], "clear_gap", 0.5))
            assert max(gaps) >= clear, (seed, level)
            # The clearest variant, typed as a final vector, is diagnosed as the target.
            clearest = variants[gaps.index(max(gaps))][0]
            verdict = grading.grade(spec, typed(grading.apply_mistake(spec, clearest), spec))
            assert verdict.status == Status.INCORRECT
            assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == (
                target,
                clearest.terms,
            )


def weights_of(spec):
    return [Fraction(w) for w in spec["weights"]]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_omitted_term_target_has_a_heavy_self_weight(level):
    for seed in SEEDS:
        spec = generate(ProblemKind.WEIGHTED_SUM, seed=seed, level=level, target="omitted_term")
        i = spec["position"]
        assert weights_of(spec)[i] >= Fraction(1, 2)
        without_self = grading.apply_mistake(
            spec, grading.Diagnosis(MistakeCode.OMITTED_TERM, (i,))
        )
        assert biggest_gap(without_self, grading.expected_answer(spec)) >= 0.5


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_wrong_row_target_has_rows_that_differ_visibly(level):
    for seed in SEEDS:
        rows = generate(ProblemKind.WEIGHTED_SUM, seed=seed, level=level, target="wrong_row")[
            "rows"
        ]
        values = [[Fraction(x) for x in row] for row in rows]
        for a in range(len(values)):
            for b in range(a + 1, len(values)):
                assert sum(abs(x - y) for x, y in zip(values[a], values[b], strict=True)) >= 2


@pytest.mark.parametrize("target", ["plain_average", "wrong_weight"])
def test_weight_targets_have_uneven_weights(target):
    for level in (1, 2, 3, 4):
        weights = weights_of(generate(ProblemKind.WEIGHTED_SUM, seed=5, level=level, target=target))
        assert max(weights) >= 3 * min(weights)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_forgot_weight_target_puts_a_small_weight_on_the_changed_neighbours(level):
    for seed in SEEDS:
        spec = generate(ProblemKind.CONTRAST, seed=seed, level=level, target="forgot_weight")
        changed = [
            k
            for k, (a, b) in enumerate(zip(spec["tokens_a"], spec["tokens_b"], strict=True))
            if a != b
        ]
        assert all(weights_of(spec)[k] <= Fraction(1, 3) for k in changed)


def test_answered_one_side_target_has_a_heavy_self_weight():
    for level in (1, 2, 3, 4):
        spec = generate(ProblemKind.CONTRAST, seed=2, level=level, target="answered_one_side")
        assert weights_of(spec)[spec["position"]] >= Fraction(1, 2)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_omitted_self_score_target_has_the_largest_self_score(level):
    for seed in SEEDS:
        spec = generate(
            ProblemKind.CONTENT_WEIGHTS, seed=seed, level=level, target="omitted_self_score"
        )
        rows = [[int(x) for x in row] for row in spec["rows"]]
        own = rows[spec["position"]]
        scores = [sum(a * b for a, b in zip(own, row, strict=True)) for row in rows]
        self_score = scores.pop(spec["position"])
        assert self_score > max(scores)


def test_targeted_and_plain_problems_differ_for_the_same_seed():
    plain = generate(ProblemKind.WEIGHTED_SUM, seed=9, level=2)
    targeted = generate(ProblemKind.WEIGHTED_SUM, seed=9, level=2, target="swapped_weights")

    assert {k: v for k, v in plain.items() if k != "generator"} != {
        k: v for k, v in targeted.items() if k != "generator"
    }
    assert targeted == generate(ProblemKind.WEIGHTED_SUM, seed=9, level=2, target="swapped_weights")
