"""Every catalogued mistake of every registered kind can be reviewed end to end: a wrong
answer with that mistake makes a review item, opening it draws a fresh variant aimed at the
mistake, and answering the variant with the same mistake is graded and marked as that mistake."""

import uuid

import pytest

import grading
from grading.kinds import KINDS, MistakeCode, ProblemKind, Status
from grading.spec import load_problem
from practice.generators import generate
from practice.review.models import ReviewItem
from practice.review.services.recording import review_record_attempt
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.answers import typed

from .conftest import make_attempt, make_problem

CASES = [(name, code) for name, kind in KINDS.items() for code in kind.codes]


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "code"), CASES)
def test_a_review_variant_is_aimed_at_the_mistake_and_marks_it_again(copy, kind, code):
    source = make_problem(
        copy, kind=ProblemKind(kind), spec=generate(kind, seed=3, level=1, target=code)
    )
    review_record_attempt(attempt=make_attempt(source, mistake=MistakeCode(code)))
    item = ReviewItem.objects.get(copy=copy, kind=kind, mistake=code)

    variant = review_open(copy=copy, item=item)

    assert variant.spec["generator"]["target"] == code
    assert variant.spec != source.spec
    shape = load_problem(variant.spec).shape
    right = grading.expected_answer(variant.spec)
    listed = [
        (d, v)
        for d, v in grading.mistaken_answers(variant.spec)
        if d.mistake == code and not shape.equal(v, right)
    ]
    assert listed, "the variant shows the mistake"
    diagnosis, value = listed[0]
    text = typed(value, variant.spec)
    attempt = attempt_submit(copy=copy, problem=variant, text=text, token=uuid.uuid4())

    assert attempt.status == Status.INCORRECT
    assert attempt.mistake == code
    assert attempt.verdict["diagnosis"]["terms"] == list(diagnosis.terms)
