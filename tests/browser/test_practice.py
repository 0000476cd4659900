"""The practice flow in a real browser: sign up, open a problem, preview, answer, see why."""

import re

import pytest

from practice.labels import mistake_label
from practice.models import ProblemInstance
from tests.answers import right_answer, wrong_answer

from .learner import open_kind, sign_up

pytestmark = pytest.mark.browser


def _open_weighted_sum_problem(page) -> ProblemInstance:
    return open_kind(page, "first-page", "weighted-sum", "weighted_sum")


def test_sign_up_open_a_problem_answer_wrong_see_why_then_right(page, live_server, course):
    sign_up(page, live_server, "ada")
    problem = _open_weighted_sum_problem(page)

    # The statement is typeset and the picture is drawn.
    assert page.locator(".problem__statement math").count() > 0
    assert page.locator(".problem__picture svg").count() == 1

    diagnosis, wrong = wrong_answer(problem)
    page.fill("#id_text", wrong)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    verdict = page.locator("#verdict")
    assert "Not quite." in verdict.inner_text()
    assert verdict.locator(".verdict__explanation").inner_text().strip()
    # The wrong answer is drawn beside the right one.
    assert verdict.locator(".verdict__picture svg").count() == 1
    # The attempt is listed under the problem with its reason.
    row = page.locator(".problem-attempts .attempt--incorrect")
    assert row.count() == 1
    assert mistake_label(diagnosis.mistake) in row.inner_text()

    page.fill("#id_text", right_answer(problem))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()
    assert page.locator(".problem-attempts .attempt").count() == 2


def test_preview_shows_how_the_answer_was_read_while_typing(page, live_server, course):
    sign_up(page, live_server, "grace")
    _open_weighted_sum_problem(page)
    page.locator("#id_text").press_sequentially("[1/2, 3/4]", delay=20)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    assert "Your answer was read as" in preview.inner_text()
    assert preview.locator("math").count() == 1
    # Nothing was recorded by previewing.
    assert page.locator(".problem-attempts .attempt").count() == 0

    page.locator("#id_text").fill("[1/2, ")
    page.locator("#id_text").dispatch_event("input")
    page.locator("#preview .preview--invalid").wait_for()


def test_preview_past_the_rate_limit_says_so_politely(page, live_server, course, settings):
    settings.PRACTICE_PREVIEW_RATE = "2/m"
    sign_up(page, live_server, "hedy")
    _open_weighted_sum_problem(page)
    for text in ("[1]", "[1, 2]", "[1, 2, 3]"):
        with page.expect_response(lambda r: "/preview/" in r.url) as answer:
            page.locator("#id_text").fill(text)
            page.locator("#id_text").dispatch_event("input")
        last = answer.value
    assert last.status == 429
    limited = page.locator("#preview .preview--limited")
    limited.wait_for()
    assert "Wait a few seconds" in limited.inner_text()


def test_preview_button_works_with_javascript_off(browser, live_server, course):
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        sign_up(page, live_server, "alan")
        _open_weighted_sum_problem(page)
        page.fill("#id_text", "[1/2, 3/4]")
        page.click("button[name=preview]")
        page.wait_for_url(re.compile(r"/preview/$"))
        assert "Your answer was read as" in page.locator("#preview").inner_text()
        assert page.locator("#id_text").input_value() == "[1/2, 3/4]"
        assert page.locator(".problem-attempts .attempt").count() == 0
    finally:
        context.close()
