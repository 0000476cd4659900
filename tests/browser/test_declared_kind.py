"""The course folder's declared kind (`kinds/scaled_dot_score.yaml`) in a real browser, at a
desk and on a phone: it opens with typeset math, a wrong answer of a derived mistake is
explained with the step it went wrong at, a right one is marked correct; the staff preview
lists every derived mistake with its explanation. axe-core finds nothing, nothing is wider
than the phone."""

import re

import pytest
from django.urls import reverse

import grading
from tests.answers import typed

from .learner import open_kind, sign_in, sign_up
from .test_today_accessibility import violations

pytestmark = pytest.mark.browser

KIND = "scaled_dot_score"


def _fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (width, scroll)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_declared_kind_explains_a_derived_mistake_and_marks_a_right_answer(
    browser, live_server, real_course, width
):
    session = browser.new_context(viewport={"width": width, "height": 900})
    page = session.new_page()
    sign_up(page, live_server, f"author-kind-{width}")
    problem = open_kind(page, "the-same-word-twice", "weights-from-content", KIND)
    assert page.locator(".problem__statement math").count() > 0
    statement = page.locator(".problem__statement").inner_text()
    assert "\\sqrt" not in statement and "sqrt(d)" not in statement  # typeset, not typed
    assert violations(page) == [], width
    _fits(page, width)

    spec = problem.spec
    wrong = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == "forgot_sqrt")
    page.fill("#id_text", typed(wrong, spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    verdict = page.locator("#verdict")
    assert "Not quite." in verdict.inner_text()
    explanation = verdict.locator(".verdict__explanation").inner_text()
    assert "not by" in explanation  # the author's words for the derived mistake
    assert violations(page) == [], width
    _fits(page, width)

    page.fill("#id_text", typed(grading.expected_answer(spec), spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()
    session.close()


def test_the_staff_preview_lists_the_derived_mistakes_on_a_phone(
    browser, live_server, real_course, make_user
):
    author = make_user(username="author")
    author.is_staff = True
    author.save(update_fields=["is_staff"])
    session = browser.new_context(viewport={"width": 390, "height": 900})
    page = session.new_page()
    sign_in(page, live_server, "author")
    url = reverse("practice:kind_preview", kwargs={"kind": KIND})
    page.goto(f"{live_server.url}{url}?seed=3&level=2")
    text = page.locator("main").inner_text()
    for label in ("divided by d instead of its square root", "without the scaling"):
        assert label in text
    assert page.locator("main math").count() > 0
    assert "Declared in how-text-becomes-numbers/kinds/scaled_dot_score.yaml." in text
    assert violations(page) == []
    _fits(page, 390)
    # A narrower phone too: what fits only by a few pixels breaks with another font.
    page.set_viewport_size({"width": 340, "height": 900})
    _fits(page, 340)
    session.close()
