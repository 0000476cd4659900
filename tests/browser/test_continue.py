"""Continue in a real browser: a fresh learner walks into the first idea; after a wrong answer
and an hour, Continue opens the review first; the daily goal is set from the dashboard; and
the same walk works without JavaScript."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from practice.models import ProblemInstance
from practice.review.models import ReviewItem
from tests.answers import right_answer, wrong_answer

from .learner import sign_up

pytestmark = pytest.mark.browser


def _continue(page) -> None:
    page.click("#continue-button")
    page.wait_for_load_state()


def _problem_on_page(page) -> ProblemInstance:
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    return ProblemInstance.objects.get(pk=int(re.search(r"/problems/(\d+)/$", page.url).group(1)))


def test_a_fresh_learner_continues_into_the_first_idea_and_on(page, live_server, course):
    sign_up(page, live_server, "ada")
    assert page.locator("main > :not(.messages)").first.get_attribute("id") == "continue"
    assert page.locator("#continue-why").inner_text() == "Next idea: One identifier selects one row"

    _continue(page)
    problem = _problem_on_page(page)
    assert (problem.page_slug, problem.idea_slug, problem.kind) == (
        "first-page",
        "one-row",
        "lookup",
    )

    page.fill("#id_text", right_answer(problem))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()
    after = page.locator("#continue-after")
    assert "Keep going: One identifier selects one row" in after.inner_text()

    page.click("#continue-next")
    fresh = _problem_on_page(page)
    assert fresh.pk != problem.pk
    assert (fresh.idea_slug, fresh.state) == ("one-row", "open")


def test_after_a_wrong_answer_and_an_hour_continue_opens_the_review_first(
    page, live_server, course
):
    start = timezone.now()
    with time_machine.travel(start, tick=True):
        sign_up(page, live_server, "grace")
        _continue(page)
        problem = _problem_on_page(page)
        page.fill("#id_text", wrong_answer(problem)[1])
        page.click("button[name=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))
        assert "Not quite." in page.locator("#verdict").inner_text()
        # Nothing due yet: Continue would lead back to this unfinished problem, so the page
        # offers the answer form instead; the dashboard says where Continue goes.
        assert page.locator("#continue-after").count() == 0
        page.goto(f"{live_server.url}/course/")
        assert page.locator("#continue-why").inner_text().startswith("Unfinished problem: ")

    item = ReviewItem.objects.get()
    assert item.due <= start + timedelta(hours=1, minutes=1)
    with time_machine.travel(start + timedelta(hours=1, minutes=1), tick=True):
        page.goto(f"{live_server.url}/course/")
        assert page.locator("#continue-why").inner_text() == "1 review due"
        _continue(page)
        page.wait_for_url(re.compile(rf"/review/\d+/items/{item.pk}/$"))
        # The item's history so far: the one wrong answer, back after an hour.
        assert "back after 1 hour" in page.locator("#review-history").text_content()


def test_the_daily_goal_is_set_and_shown_plainly(page, live_server, course):
    sign_up(page, live_server, "lin")
    page.click("#today-line a")
    page.fill("#id_amount", "0")
    page.select_option("#id_unit", "minutes")
    page.click("#goal-form button[type=submit]")
    assert (
        "Ensure this value is greater than or equal to 1."
        in page.locator("#goal-form").inner_text()
    )

    page.fill("#id_amount", "15")
    page.click("#goal-form button[type=submit]")
    page.wait_for_url(re.compile(r"/course/$"))
    line = page.locator("#today-line").inner_text()
    assert "Today: 0 of 15 minutes." in line
    assert "No practice yesterday or today yet." in line


def test_continue_works_without_javascript(browser, live_server, course):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        sign_up(page, live_server, "nojs")
        _continue(page)
        problem = _problem_on_page(page)
        assert problem.idea_slug == "one-row"
    finally:
        context.close()
