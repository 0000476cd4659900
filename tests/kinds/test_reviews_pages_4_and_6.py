"""Reviews for every mistake of pages 4 and 6: a diagnosed wrong answer creates a review item,
opening it draws a fresh variant aimed at that mistake, and the variant is answered and marked
(through the same services as the site, on the test database)."""

import uuid

import pytest

import grading
from grading.kinds import MISTAKES_BY_KIND, ProblemKind, Status
from practice.generators import generate
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.answers import typed
from tests.review.conftest import make_copy, make_problem

KINDS = (
    "cooccurrence_row",
    "cosine_similarity",
    "nearest_by_cosine",
    "greedy_steps",
    "greedy_loop",
    "repetition_penalty",
)
CASES = [(kind, str(code)) for kind in KINDS for code in MISTAKES_BY_KIND[ProblemKind(kind)]]


def _mistaken_text(spec: dict, mistake: str) -> str:
    value = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == mistake)
    return typed(value, spec)


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "mistake"), CASES)
def test_a_diagnosed_mistake_comes_back_as_a_fresh_targeted_variant(kind, mistake):
    copy = make_copy()
    source = make_problem(copy, kind=ProblemKind(kind), spec=generate(kind, seed=1, level=1))

    wrong = attempt_submit(
        copy=copy, problem=source, text=_mistaken_text(source.spec, mistake), token=uuid.uuid4()
    )
    assert wrong.verdict["diagnosis"]["mistake"] == mistake
    item = ReviewItem.objects.get(copy=copy, kind=kind, mistake=mistake)

    variant = review_open(copy=copy, item=item)
    assert variant.spec["generator"]["target"] == mistake
    assert grading.validate_spec(variant.spec) == variant.spec
    again = attempt_submit(
        copy=copy, problem=variant, text=_mistaken_text(variant.spec, mistake), token=uuid.uuid4()
    )
    assert again.verdict["diagnosis"]["mistake"] == mistake
    right = typed(grading.expected_answer(variant.spec), variant.spec)
    solved = attempt_submit(copy=copy, problem=variant, text=right, token=uuid.uuid4())
    assert solved.status == Status.CORRECT
