"""The simulated learners answer every problem kind in its own answer shape: the right answer
is graded correct, the wrong one incorrect, the unreadable one invalid (a run once crashed its
learners on the first answer that was not a vector)."""

import random

import pytest

import grading
from grading.shapes import Vector
from grading.spec import load_problem
from practice.generators import GENERATORS, generate
from tests.load.answers import half_typed, typed_answers, unreadable

KINDS = sorted(grading.KINDS)


@pytest.mark.parametrize("name", KINDS)
def test_the_learners_answers_are_graded_as_meant_for_every_kind(name):
    rng = random.Random(name)
    wrong_seen = 0
    for level in GENERATORS[name].levels:
        for seed in range(3):
            spec = generate(name, seed=seed, level=level)

            right, wrong = typed_answers(spec, rng)

            assert grading.grade(spec, right).status == grading.Status.CORRECT, right
            assert grading.grade(spec, unreadable(right)).status == grading.Status.INVALID
            if wrong is not None:
                wrong_seen += 1
                assert grading.grade(spec, wrong).status == grading.Status.INCORRECT, wrong
                assert grading.grade(spec, unreadable(wrong)).status == grading.Status.INVALID
    assert wrong_seen  # every kind has a catalogued mistake that is wrong on some problem


def test_kinds_whose_answer_is_no_vector_are_among_them():
    shapes = {type(load_problem(generate(n, seed=1, level=1)).shape).__name__ for n in KINDS}

    assert len(shapes - {Vector.__name__}) >= 4, shapes


def test_a_scalar_answer_is_typed_as_a_number_not_a_vector():
    spec = generate("cosine_similarity", seed=1, level=1)

    right, _wrong = typed_answers(spec, random.Random(1))

    assert not right.startswith("[")
    assert grading.grade(spec, right).status == grading.Status.CORRECT


def test_a_half_typed_answer_is_the_first_half():
    assert half_typed("[1/2, 3]") == "[1/2"
    assert half_typed("") == ""
