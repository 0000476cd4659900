"""Where credit shows: the review result ("this also counted for 2 other reviews"), the
practice verdict, the queue and the review page, and the items without a catalogued name."""

import uuid
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from grading.kinds import MistakeCode, Status
from practice.models import Attempt, ProblemInstance
from practice.review import scheduling
from practice.review.codes import REVEALED
from practice.review.models import ReviewItem
from practice.review.services.recording import review_record_attempt
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.answers import right_answer

from .conftest import NOW, make_attempt, make_problem


def _item(copy, mistake: str, *, at=NOW) -> ReviewItem:
    with time_machine.travel(at, tick=False):
        review_record_attempt(
            attempt=make_attempt(
                make_problem(copy), mistake=MistakeCode(mistake) if mistake else None
            )
        )
    return ReviewItem.objects.filter(copy=copy).order_by("-pk").first()


@pytest.fixture
def signed_in(client, copy):
    client.force_login(copy.owner)
    return client


def test_a_right_review_says_which_other_reviews_it_counted_for(signed_in, copy):
    first = _item(copy, "omitted_term")
    _item(copy, "wrong_row")
    _item(copy, "unweighted_sum")
    at = first.due + timedelta(minutes=5)
    with time_machine.travel(at, tick=False):
        assert "3 reviews are due." in signed_in.get(reverse("review:queue", args=[copy.pk])).text
        signed_in.get(reverse("review:review", args=[copy.pk, first.pk]))
        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        response = signed_in.post(
            reverse("review:answer", args=[copy.pk, variant.pk]),
            {"text": right_answer(variant), "token": str(uuid.uuid4())},
        )
        result = signed_in.get(response["Location"]).text
        queue = signed_in.get(reverse("review:queue", args=[copy.pk])).text
    # Evidence, not a review: the two others moved by a share of their one-hour step, still due.
    assert "no longer due today" not in result
    assert "2 reviews are due." in queue


def test_a_right_practice_answer_says_which_reviews_it_counted_for(signed_in, copy):
    item = _item(copy, "omitted_term")
    problem = make_problem(copy)
    with time_machine.travel(item.due + timedelta(hours=1), tick=False):
        attempt = attempt_submit(copy=copy, problem=problem, text="[1/4, 3/2]", token=uuid.uuid4())
        assert attempt.status == Status.CORRECT
        page = signed_in.get(
            reverse("practice:attempt", kwargs={"copy_id": copy.pk, "attempt_id": attempt.pk})
        ).text
    assert "This answer also counted for 1 of your reviews:" in page
    assert "You left a term out of the sum — 4% of a review" in page


def test_a_wrong_practice_answer_shows_no_credit(signed_in, copy):
    _item(copy, "omitted_term")
    problem = make_problem(copy)
    attempt = attempt_submit(copy=copy, problem=problem, text="[0, 3/2]", token=uuid.uuid4())
    page = signed_in.get(
        reverse("practice:attempt", kwargs={"copy_id": copy.pk, "attempt_id": attempt.pk})
    ).text
    assert 'id="review-credit"' not in page


def test_an_unexplained_mistake_is_queued_with_its_answer_and_reason(signed_in, copy):
    item = _item(copy, "")
    with time_machine.travel(item.due, tick=False):
        queue = signed_in.get(reverse("review:queue", args=[copy.pk])).text
        page = signed_in.get(reverse("review:review", args=[copy.pk, item.pk])).text
    assert "a mistake in Weighted sum of rows that had no name" in queue
    assert "Remember the mistake: a mistake in Weighted sum of rows that had no name." in page
    assert item.source_attempt.text in page


def test_a_revealed_item_says_the_learner_asked_for_the_worked_solution(signed_in, copy):
    problem = make_problem(copy)
    ReviewItem.objects.create(
        copy=copy,
        kind=problem.kind,
        mistake=REVEALED,
        source_problem=problem,
        **scheduling.card_columns(scheduling.card_new(now=NOW)),
    )
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        queue = signed_in.get(reverse("review:queue", args=[copy.pk])).text
    assert "you asked for the worked solution of Weighted sum of rows" in queue


def test_a_review_answered_with_another_mistake_says_so(signed_in, copy):
    item = _item(copy, "omitted_term")
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
        attempt = make_attempt(variant, mistake=MistakeCode.WRONG_ROW)
        review_record_attempt(attempt=attempt)
        page = signed_in.get(reverse("review:result", args=[copy.pk, attempt.pk])).text
    assert "This was not the mistake under review but another one" in page
    assert "used the wrong row in a term" in page
    assert 'id="comes-back"' not in page
    assert reverse("review:answer", args=[copy.pk, variant.pk]) in page  # a retry is offered
    assert Attempt.objects.filter(problem=variant).count() == 1


def test_the_review_page_says_the_item_was_last_moved_by_credit(signed_in, copy):
    item = _item(copy, "omitted_term")
    with time_machine.travel(item.due + timedelta(hours=1), tick=False):
        attempt_submit(copy=copy, problem=make_problem(copy), text="[1/4, 3/2]", token=uuid.uuid4())
        page = signed_in.get(reverse("review:review", args=[copy.pk, item.pk])).text
    assert (
        "Last moved by credit: your right answer in practice in Weighted sum of rows counted as"
        " 4% of a review." in page
    )
