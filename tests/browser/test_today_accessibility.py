"""axe-core (WCAG 2.x A and AA rules) finds nothing on the pages today's practice adds to or
changes: the dashboard with Continue, the goal and the pictures (fresh, and after months of
history), the goal form with an error, a verdict with Continue, and a review item's page and
result with the item's history."""

import re
from datetime import timedelta

import pytest
import time_machine
from axe_playwright_python.sync_playwright import Axe

from courses.models import CourseCopy
from practice.models import ProblemInstance
from practice.review.models import ReviewItem, ReviewSettings
from tests.answers import right_answer
from tests.practice.test_today_pictures import DAYS, START, _months_of_history

from .learner import sign_in, sign_up
from .test_csp import LISTEN

pytestmark = pytest.mark.browser

AXE = Axe()
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}

# The rendered size of every text in a picture: its font size times the picture's scale.
SMALLEST_PICTURE_TEXT = """
[...document.querySelectorAll("svg[role=img]")].flatMap((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll("text")].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
})
"""


def violations(page) -> list[tuple[str, list]]:
    """Return axe's WCAG A/AA violations on the page: (rule, the elements it names)."""
    found = AXE.run(page, options=WCAG).response["violations"]
    return [(v["id"], [node["target"] for node in v["nodes"]]) for v in found]


def test_a_fresh_learners_pages_have_no_wcag_violations(page, live_server, course):
    sign_up(page, live_server, "ada")
    assert page.locator("#continue").count() == 1
    assert violations(page) == []

    page.click("#today-line a")
    page.fill("#id_amount", "500")
    page.click("#goal-form button[type=submit]")
    assert page.locator(".field__error").count() == 1
    assert violations(page) == []

    page.goto(f"{live_server.url}/course/")
    page.click("#continue-button")
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    problem = ProblemInstance.objects.get()
    page.fill("#id_text", right_answer(problem))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert page.locator("#continue-after").count() == 1
    assert violations(page) == []

    # The check does see a violation: a picture without a text alternative.
    page.evaluate("document.querySelector('#continue-after').append(document.createElement('img'))")
    assert [rule for rule, _nodes in violations(page)] == ["image-alt"]


def test_months_of_history_leave_no_wcag_or_csp_violations(page, live_server, course):
    sign_up(page, live_server, "hist")
    copy = CourseCopy.objects.get(owner__username="hist")
    ReviewSettings.objects.create(user=copy.owner, time_zone="Europe/Paris")
    _months_of_history(copy)
    item = ReviewItem.objects.get(copy=copy)
    page.add_init_script(LISTEN)  # records every Content-Security-Policy violation

    with time_machine.travel(START + timedelta(days=DAYS), tick=True):
        page.context.clear_cookies()
        sign_in(page, live_server, "hist")
        assert page.locator("#forecast svg").count() == 1
        page.locator("#mistakes-by-week summary").click()  # the table, shown
        assert violations(page) == []

        page.goto(f"{live_server.url}/review/{copy.pk}/items/{item.pk}/")
        assert page.locator("#review-history svg").count() == 1
        page.locator("#review-history summary").click()
        assert violations(page) == []

        # On a 390 px phone nothing is wider than the screen and no picture text is under 11 px.
        page.set_viewport_size({"width": 390, "height": 800})
        for url in ("/course/", f"/review/{copy.pk}/items/{item.pk}/"):
            page.goto(f"{live_server.url}{url}")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert min(page.evaluate(SMALLEST_PICTURE_TEXT)) >= 11
            assert page.evaluate("window.__cspViolations") == []
