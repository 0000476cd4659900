"""Review works for every mistake of the kinds of pages 2 and 3: a wrong answer, graded for real,
makes a review item for its mistake; opening it gives a fresh variant aimed at that mistake,
which is answered and marked."""

import uuid

import pytest

import grading
from grading.kinds import Status
from practice.generators import generate
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.answers import typed

from .conftest import make_problem

TEXT_KINDS = (
    "char_vs_word_unknowns",
    "sequence_lengths",
    "attention_cost",
    "letters_in_pieces",
    "digit_chunks",
    "whitespace_pieces",
)
CASES = [(kind, code) for kind in TEXT_KINDS for code in grading.kind(kind).codes]


@pytest.mark.parametrize(("kind", "code"), CASES)
def test_a_mistake_comes_back_as_a_fresh_variant_that_is_marked(copy, kind, code):
    spec = generate(kind, seed=3, level=2, target=code)
    problem = make_problem(copy, kind=grading.kinds.ProblemKind(kind), spec=spec)
    wrong = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == code)

    attempt = attempt_submit(
        copy=copy, problem=problem, text=typed(wrong, spec), token=uuid.uuid4()
    )
    assert attempt.verdict["diagnosis"]["mistake"] == code

    item = ReviewItem.objects.get(copy=copy, kind=kind, mistake=code)
    variant = review_open(copy=copy, item=item)
    assert variant.spec["generator"]["target"] == code
    assert variant.spec != spec
    right = typed(grading.expected_answer(variant.spec), variant.spec)
    answered = attempt_submit(copy=copy, problem=variant, text=right, token=uuid.uuid4())
    assert answered.verdict["status"] == Status.CORRECT
