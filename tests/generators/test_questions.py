"""Question tests, as STACK runs them on deployed variants: every generated problem's own answer
grades correct, and every catalogued mistake applied to it grades as exactly that mistake.

30 seeds per kind and level (10 for content_weights, whose symbolic marking costs about 50 ms an
answer); ``QUESTION_SEEDS=500 pytest tests/generators/test_questions.py`` runs more.
"""

import os

import pytest

import grading
from grading.kinds import ProblemKind, Status
from practice.generators import GENERATORS, generate
from tests.answers import typed

SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
SYMBOLIC_SEEDS = int(os.environ.get("QUESTION_SEEDS", "10"))
# Kinds whose marking is symbolic (exp), so fewer seeds keep the suite quick.
SYMBOLIC_KINDS = {"content_weights"}
CASES = [(kind, level) for kind, generator in GENERATORS.items() for level in generator.levels]


def changes_nothing(spec: dict, diagnosis) -> bool:
    """Return True for a variant the generator says is no mistake on this problem (forgetting
    the weight of a term the two sentences of a contrast share changes nothing)."""
    return not GENERATORS[spec["kind"]].relevant(spec, diagnosis)


@pytest.mark.parametrize(("kind", "level"), CASES)
def test_own_answer_is_correct_and_every_mistake_is_diagnosed_exactly(kind, level):
    seeds = SYMBOLIC_SEEDS if kind in SYMBOLIC_KINDS else SEEDS
    for seed in range(seeds):
        spec = generate(kind, seed=seed, level=level)
        right = grading.expected_answer(spec)

        verdict = grading.grade(spec, typed(right, spec))
        assert verdict.status == Status.CORRECT, (seed, verdict)

        codes = set()
        for listed, _ in grading.mistaken_answers(spec):
            if changes_nothing(spec, listed):
                assert grading.apply_mistake(spec, listed) == right
                continue
            codes.add(listed.mistake)
            verdict = grading.grade(spec, typed(grading.apply_mistake(spec, listed), spec))
            assert verdict.status == Status.INCORRECT, (seed, listed, verdict)
            assert verdict.diagnosis is not None, (seed, listed, verdict.explanation)
            assert verdict.diagnosis.mistake == listed.mistake, (seed, listed, verdict)
            assert verdict.diagnosis.terms == listed.terms, (seed, listed, verdict)
        assert codes == set(grading.MISTAKES_BY_KIND[kind])


@pytest.mark.parametrize("level", GENERATORS[ProblemKind.WEIGHTED_SUM].levels)
def test_the_sum_written_out_term_by_term_is_correct(level):
    for seed in range(10):
        spec = generate(ProblemKind.WEIGHTED_SUM, seed=seed, level=level)
        written = " + ".join(
            f"{weight}*[{', '.join(row)}]"
            for weight, row in zip(spec["weights"], spec["rows"], strict=True)
        )
        assert grading.grade(spec, written).status == Status.CORRECT


@pytest.mark.parametrize("level", GENERATORS[ProblemKind.CONTENT_WEIGHTS].levels)
def test_content_weights_answers_in_decimals_are_diagnosed_too(level):
    for seed in range(10):
        spec = generate(ProblemKind.CONTENT_WEIGHTS, seed=seed, level=level)
        right = grading.expected_answer(spec)
        # "#": four significant figures always (1.99977 is typed 2.000, not the integer 2)
        decimals = "[" + ", ".join(f"{float(x):#.4g}" for x in right) + "]"
        assert grading.grade(spec, decimals).status == Status.CORRECT
        for listed, vector in grading.mistaken_answers(spec):
            typed = "[" + ", ".join(f"{float(x):#.4g}" for x in vector) + "]"
            verdict = grading.grade(spec, typed)
            assert verdict.diagnosis is not None, (seed, listed, verdict.explanation)
            assert verdict.diagnosis.mistake == listed.mistake


def test_a_vector_of_fractions_is_typed_as_a_learner_types_it():
    # a tuple answer's vector part holds Fractions (make bench's per-kind rows type them)
    from fractions import Fraction

    assert typed((Fraction(1, 2), Fraction(-3))) == "[1/2, -3]"
