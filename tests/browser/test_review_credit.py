"""Implicit credit in a real browser: a review item is due, the learner answers a fresh practice
problem of the same kind right at the first try, and the page says what share of a review that
answer was worth. An untargeted problem with one of the kind's several mistakes is weak
evidence (docs/review.md, "What a right answer proves"): the item moves by a small share of its
interval and the review is still due."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from practice.models import ProblemInstance
from practice.review.models import ReviewItem, ReviewLog
from tests.answers import right_answer, wrong_answer

from .learner import sign_up

pytestmark = pytest.mark.browser


def test_a_right_practice_answer_is_evidence_and_the_review_stays_due(page, live_server, course):
    start = timezone.now()
    with time_machine.travel(start, tick=True):
        sign_up(page, live_server, "grace")
        page.click("a[href*='/pages/first-page/']")
        page.wait_for_url(re.compile(r"/pages/first-page/$"))
        page.click("a[href*='/ideas/weighted-sum/weighted_sum/']")
        page.wait_for_url(re.compile(r"/problems/\d+/$"))
        problem_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
        _diagnosis, wrong = wrong_answer(ProblemInstance.objects.get(pk=problem_id))
        page.fill("#id_text", wrong)
        page.click("button[name=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))

    item = ReviewItem.objects.get()
    # Late enough that even the largest share (half the item's interval) leaves it due.
    late = item.due + (item.due - item.last_review) / 2 + timedelta(minutes=1)
    with time_machine.travel(late, tick=True):
        page.goto(f"{live_server.url}/course/")
        assert "1 review due" in page.locator("#review-badge").inner_text()
        # Not the review: a fresh practice problem of the same kind, right at the first try.
        page.goto(f"{live_server.url}/course/{item.copy_id}/problems/{problem_id}/")
        page.click("text=New variant")
        page.wait_for_url(re.compile(r"/problems/\d+/$"))
        fresh = ProblemInstance.objects.get(pk=int(re.search(r"/(\d+)/$", page.url).group(1)))
        assert fresh.pk != problem_id and fresh.purpose == ProblemInstance.Purpose.PRACTICE
        page.fill("#id_text", right_answer(fresh))
        page.click("button[name=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))
        assert "Correct." in page.locator("#verdict").inner_text()
        credit = page.locator("#review-credit").inner_text()
        assert "This answer also counted for 1 of your reviews" in credit
        assert "no longer due today" not in credit
        share = re.search(r"(\d+)% of a review", credit)
        assert share and 0 < int(share.group(1)) <= 50

        page.click("#review-credit a")
        page.wait_for_url(re.compile(r"/review/\d+/$"))
        assert "1 review is due" in page.locator("#review-count").inner_text()
        assert page.locator(f"#review-queue [data-mistake='{item.mistake}']").count() == 1

    log = ReviewLog.objects.get(item=item, origin=ReviewLog.Origin.IMPLICIT)
    assert log.attempt.problem_id == fresh.pk
    assert 0 < log.credit <= 0.5
    moved = ReviewItem.objects.get(pk=item.pk)
    assert moved.due > item.due and moved.reps == item.reps
