"""Show me how in a real browser, without JavaScript: open a problem, ask for the worked
solution, see the steps and the final value, the problem closed, and a new variant."""

import re

import pytest

from grading.solution import solution
from practice.models import ProblemInstance, Reveal
from practice.review.codes import REVEALED
from practice.review.models import ReviewItem
from tests.answers import wrong_answer

from .learner import open_kind, sign_up
from .test_today_accessibility import violations

pytestmark = pytest.mark.browser


@pytest.fixture
def page_without_js(browser):
    """A fresh context with JavaScript off: the reveal is a plain form post."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def test_show_me_how_reveals_the_steps_closes_the_problem_and_offers_a_new_variant(
    page_without_js, live_server, course
):
    page = page_without_js
    sign_up(page, live_server, "ruth")
    problem = open_kind(page, "first-page", "weighted-sum", "weighted_sum")
    worked = solution(problem.spec)
    assert page.locator("#solution").count() == 0

    page.click("button:has-text('Show me how')")
    page.wait_for_url(re.compile(r"/problems/\d+/\?show=solution#solution$"))

    steps = page.locator("#solution .problem__steps li")
    assert steps.count() == len(worked.steps)
    assert page.locator("#solution .problem__steps math").count() >= len(worked.steps) - 1
    # The final value, as it would be typed, and the picture drawn solved.
    assert page.locator("#solution .problem__typed code").inner_text() == worked.typed
    assert page.locator("#solution figure svg").count() == 1
    # The problem is closed as revealed: no answer form, a note that says why.
    assert page.locator("#problem").get_attribute("data-state") == "revealed"
    assert page.locator("#id_text").count() == 0
    assert "without credit" in page.locator(".problem__closed").inner_text()
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED
    assert ReviewItem.objects.filter(kind="weighted_sum", mistake=REVEALED).count() == 1

    # Reloading shows the same solution and records nothing more.
    page.reload()
    assert page.locator("#solution .problem__steps li").count() == len(worked.steps)
    assert Reveal.objects.count() == 1

    page.click("button:has-text('New variant')")
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    fresh_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
    assert fresh_id != problem.pk
    assert page.locator("#id_text").count() == 1
    assert page.locator("#solution").count() == 0


def test_show_me_how_after_a_wrong_answer_is_the_same(page_without_js, live_server, course):
    page = page_without_js
    sign_up(page, live_server, "lise")
    problem = open_kind(page, "first-page", "weighted-sum", "weighted_sum")
    _, wrong = wrong_answer(problem)
    page.fill("#id_text", wrong)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))

    page.click("button:has-text('Show me how')")
    page.wait_for_url(re.compile(r"\?show=solution#solution$"))
    assert page.locator("#solution .problem__steps li").count() == len(solution(problem.spec).steps)
    assert page.locator("#problem").get_attribute("data-state") == "revealed"
    # The wrong answer stays in the list of attempts.
    assert page.locator(".problem-attempts .attempt--incorrect").count() == 1


@pytest.mark.parametrize(
    ("idea", "kind"),
    [("weights-from-content", "content_weights"), ("where-it-stops-being-true", "two_layers")],
)
def test_wide_worked_steps_scroll_in_one_focusable_region_on_a_phone(
    browser, live_server, real_course, idea, kind
):
    """These kinds' statements, pictures and steps carry exact vectors wider than a phone: each
    scrolls inside its own frame, which a keyboard can reach (axe's scrollable-region-focusable:
    the steps are one focusable region, a frame that overflows takes a tab stop while it does),
    and the page itself never scrolls sideways."""
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    sign_up(page, live_server)
    problem = open_kind(page, "the-same-word-twice", idea, kind)
    page.click("button:has-text('Show me how')")
    page.wait_for_url(re.compile(r"\?show=solution#solution$"))
    region = page.locator("#solution .problem__steps")
    assert region.get_attribute("role") == "region"
    assert region.get_attribute("tabindex") == "0"
    assert region.get_attribute("aria-labelledby") == "solution-heading"
    assert region.locator("li").count() == len(solution(problem.spec).steps)
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # something here is really wider than the phone and scrolls in its frame
    assert page.locator("[data-scroll-frame]").count() >= 1
    context.close()
