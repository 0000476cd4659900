"""Spaced review in a real browser: a wrong answer comes back when due, is recalled, and a
fresh variant aimed at the mistake is answered right; the reminder's unsubscribe link works
without signing in."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from practice.labels import mistake_label
from practice.models import ProblemInstance
from practice.review.models import ReviewItem, ReviewSettings
from practice.review.services.digest import review_digest_send
from tests.answers import right_answer, wrong_answer

from .learner import PASSWORD, sign_up

pytestmark = pytest.mark.browser


def test_a_wrong_answer_comes_back_when_due_and_a_fresh_variant_is_answered_right(
    page, live_server, course
):
    start = timezone.now()
    with time_machine.travel(start, tick=True):
        sign_up(page, live_server, "ada")
        page.click("a[href*='/pages/first-page/']")
        page.wait_for_url(re.compile(r"/pages/first-page/$"))
        page.click("a[href*='/ideas/weighted-sum/weighted_sum/']")
        page.wait_for_url(re.compile(r"/problems/\d+/$"))
        problem_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
        problem = ProblemInstance.objects.get(pk=problem_id)
        diagnosis, wrong = wrong_answer(problem)
        page.fill("#id_text", wrong)
        page.click("button[name=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))
        assert "Not quite." in page.locator("#verdict").inner_text()

        # Not due yet: the queue says so and lists the mistake as coming back.
        page.goto(f"{live_server.url}/course/")
        page.click("#review-badge a")
        assert "Nothing is due" in page.locator("#review-count").inner_text()
        assert mistake_label(diagnosis.mistake) in page.locator(".review-upcoming").inner_text()

    item = ReviewItem.objects.get()
    assert item.mistake == str(diagnosis.mistake)
    # Move the clock to the moment FSRS said the mistake comes back.
    with time_machine.travel(item.due + timedelta(seconds=1), tick=True):
        page.goto(f"{live_server.url}/course/")
        assert "1 review due" in page.locator("#review-badge").inner_text()
        page.click("#review-badge a")
        queue = page.locator("#review-queue .review-queue__item")
        assert queue.count() == 1
        assert queue.get_attribute("data-mistake") == str(diagnosis.mistake)

        page.click("text=Start reviewing")
        page.wait_for_url(re.compile(r"/review/\d+/items/\d+/$"))
        # The recall is folded away until the learner opens it.
        recall = page.locator("#recall")
        assert recall.get_attribute("open") is None
        recall.locator("summary").click()
        assert recall.get_attribute("open") is not None
        assert wrong in recall.inner_text()

        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        assert variant.spec["generator"]["target"] == str(diagnosis.mistake)
        assert variant.pk != problem.pk
        page.fill("#id_text", right_answer(variant))
        page.click("#answer-form button[type=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))
        assert "Correct." in page.locator("#verdict").inner_text()
        comes_back = page.locator("#comes-back").inner_text()
        assert re.search(r"This mistake comes back in \d+ (hours?|days?)", comes_back), comes_back

    item.refresh_from_db()
    assert item.due > timezone.now() + timedelta(hours=1)


def test_the_reminder_unsubscribe_link_works_without_signing_in(browser, live_server, course):
    from django.contrib.auth import get_user_model

    from courses.services import copy_get_or_create
    from practice.services import attempt_submit, problem_open

    user = get_user_model().objects.create_user(
        username="grace", email="grace@example.org", password=PASSWORD
    )
    copy = copy_get_or_create(user=user, course_slug=course.course.slug)
    problem = problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    _diagnosis, wrong = wrong_answer(problem)
    attempt_submit(copy=copy, problem=problem, text=wrong, token="0" * 32)
    due = ReviewItem.objects.get().due
    assert review_digest_send(user_id=user.pk, now=due + timedelta(minutes=1))
    link = re.search(r"https?://\S+/review/unsubscribe/\S+/", mail.outbox[-1].body).group(0)
    path = link.split("://", 1)[1].split("/", 1)[1]

    context = browser.new_context()  # a stranger's browser: no session cookie
    page = context.new_page()
    page.goto(f"{live_server.url}/{path}")
    assert "Stop review reminder emails?" in page.locator("#unsubscribe").inner_text()
    page.click("#unsubscribe button[type=submit]")
    page.wait_for_selector("text=You will get no more review reminders.")
    context.close()
    assert ReviewSettings.objects.get(user=user).reminders is False
