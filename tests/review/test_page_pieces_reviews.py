"""Reviews for the kinds of *Why Words Become Pieces*: for every kind and mistake, a wrong
answer that the grader explains creates a review item; opening it draws a fresh variant aimed at
that mistake, which is answered (the same mistake again, then the right answer) and marked."""

import uuid

import pytest

import grading
from practice.generators import generate
from practice.models import ProblemInstance
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.kinds.page_pieces import integer_forms, merge_forms, piece_forms

from .conftest import make_problem

FORMS = {
    "word_ids": integer_forms,
    "utf8_bytes": integer_forms,
    "bpe_train": merge_forms,
    "bpe_apply": piece_forms,
}
CASES = [(kind, code) for kind in FORMS for code in grading.kind(kind).codes]


def _typed(spec: dict, code: str) -> str:
    kind = spec["kind"]
    value = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == code)
    return FORMS[kind](value)[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "code"), CASES)
def test_each_mistake_comes_back_as_a_fresh_targeted_variant_that_is_marked(copy, kind, code):
    spec = generate(kind, seed=3, level=1)
    problem = make_problem(copy, kind=grading.kinds.ProblemKind(kind), spec=spec)
    attempt = attempt_submit(
        copy=copy, problem=problem, text=_typed(spec, code), token=uuid.uuid4()
    )
    assert attempt.mistake == code

    item = ReviewItem.objects.get(copy=copy, kind=kind, mistake=code)
    variant = review_open(copy=copy, item=item)
    assert variant.purpose == ProblemInstance.Purpose.REVIEW
    assert variant.spec["generator"]["target"] == code
    assert variant.spec != spec

    again = attempt_submit(
        copy=copy, problem=variant, text=_typed(variant.spec, code), token=uuid.uuid4()
    )
    assert (again.status, again.mistake) == ("incorrect", code)
    right = FORMS[kind](grading.expected_answer(variant.spec))[0]
    done = attempt_submit(copy=copy, problem=variant, text=right, token=uuid.uuid4())
    assert done.status == "correct"
