"""A declared kind with a vector answer (`kinds/temperature_softmax.yaml`) draws its picture in a
real browser, at a desk and on a phone: the fresh problem shows the scores' bars and an empty bar
per entry; a wrong answer's verdict draws the learner's bars beside the right ones under a
caption that says so; the staff preview draws it solved. The pictures' text shows at 11 px or
more, nothing is wider than the screen, axe-core finds nothing."""

import re

import pytest
from django.urls import reverse

import grading
from tests.answers import typed

from .learner import open_kind, sign_in, sign_up
from .test_today_accessibility import SMALLEST_PICTURE_TEXT, violations

pytestmark = pytest.mark.browser

KIND = "temperature_softmax"
PAGE, IDEA = "the-repetition-loop", "sampling-and-penalties"


def _fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, width
    # the picture itself fits the screen too, not only scrolls in its frame
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('svg[role=img]')]"
        ".map((s) => s.getBoundingClientRect().right))"
    )
    assert right <= width, (width, right)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_declared_vector_kind_draws_its_answer_beside_the_right_one(
    browser, live_server, real_course, width
):
    session = browser.new_context(viewport={"width": width, "height": 900})
    page = session.new_page()
    sign_up(page, live_server, f"bars-{width}")
    problem = open_kind(page, PAGE, IDEA, KIND)
    spec = problem.spec
    picture = page.locator(".problem__picture svg")
    assert picture.count() == 1
    n = len(spec["params"]["z"])
    assert picture.locator("[data-role=given]").count() == n
    assert picture.locator("[data-role=unknown]").count() == n
    assert picture.locator("[data-role=right]").count() == 0  # the answer is not given away
    assert min(page.evaluate(SMALLEST_PICTURE_TEXT)) >= 11
    assert violations(page) == [], width
    _fits(page, width)

    wrong = next(
        v for d, v in grading.mistaken_answers(spec) if d.mistake == "temperature_upside_down"
    )
    page.fill("#id_text", typed(wrong, spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    figure = page.locator(".verdict__picture")
    assert figure.locator("figcaption").inner_text() == "Your answer drawn beside the right one."
    assert figure.locator("[data-role=answer]").count() == n
    assert figure.locator("[data-role=right]").count() == n
    assert "temperature" in page.locator(".verdict__explanation").inner_text()
    assert min(page.evaluate(SMALLEST_PICTURE_TEXT)) >= 11
    assert violations(page) == [], width
    _fits(page, width)
    session.close()


@pytest.mark.parametrize(
    ("idea", "kind"),
    [
        ("context-feeds-back", "softmax_probability"),
        ("context-feeds-back", "perplexity"),
        ("context-feeds-back", "cross_entropy"),
        (IDEA, KIND),
    ],
)
def test_each_course_kind_file_opens_on_a_phone_typeset_and_readable(
    browser, live_server, real_course, idea, kind
):
    session = browser.new_context(viewport={"width": 390, "height": 900})
    page = session.new_page()
    sign_up(page, live_server, f"phone-{kind.replace('_', '-')}")
    problem = open_kind(page, PAGE, idea, kind)
    assert page.locator(".problem__statement math").count() > 0
    assert "\\frac" not in page.locator(".problem__statement").inner_text()
    assert violations(page) == [], kind
    _fits(page, 390)
    page.fill("#id_text", typed(grading.expected_answer(problem.spec), problem.spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()
    session.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_cross_entropy_is_typed_with_log_and_the_kept_sign_is_explained(
    browser, live_server, real_course, width
):
    session = browser.new_context(viewport={"width": width, "height": 900})
    page = session.new_page()
    sign_up(page, live_server, f"log-typer-{width}")
    problem = open_kind(page, PAGE, "context-feeds-back", "cross_entropy")
    help_text = page.locator("#answer-help").inner_text()
    assert "natural logarithm" in help_text, help_text
    right = grading.expected_answer(problem.spec)
    # the sign kept: log of the probability itself, typed with log
    page.fill("#id_text", f"-({typed(right, problem.spec)})")
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    verdict = page.locator("#verdict").inner_text()
    assert "Correct." not in verdict and "minus sign" in verdict, verdict
    assert violations(page) == [], width
    _fits(page, width)
    session.close()


def test_the_page_teaching_the_course_kinds_reads_on_a_phone(browser, live_server, real_course):
    session = browser.new_context(viewport={"width": 390, "height": 900})
    page = session.new_page()
    sign_up(page, live_server, "phone-page-reader")
    page.click(f"a[href*='/pages/{PAGE}/']")
    page.wait_for_url(re.compile(rf"/pages/{PAGE}/$"))
    text = page.locator("main").inner_text()
    assert "cross-entropy" in text and "perplexity" in text
    for kind in ("softmax_probability", "perplexity", "cross_entropy", KIND):
        assert page.locator(f"a[href*='/{kind}/']").count() == 1, kind
    assert violations(page) == []
    _fits(page, 390)
    session.close()


def test_the_staff_preview_draws_a_vector_kind_solved_on_a_phone(
    browser, live_server, real_course, make_user
):
    author = make_user(username="bars-author")
    author.is_staff = True
    author.save(update_fields=["is_staff"])
    session = browser.new_context(viewport={"width": 390, "height": 900})
    page = session.new_page()
    sign_in(page, live_server, "bars-author")
    url = reverse("practice:kind_preview", kwargs={"kind": KIND})
    page.goto(f"{live_server.url}{url}?seed=4&level=4")
    figure = page.locator("#right-answer figure")
    assert figure.locator("[data-role=right]").count() == 4  # level 4: four scores
    assert "drawn solved" in figure.locator("figcaption").inner_text()
    assert min(page.evaluate(SMALLEST_PICTURE_TEXT)) >= 11
    # The worked solution's exact vector is wider than a phone: it scrolls in the steps' one
    # focusable region, and axe finds nothing.
    assert violations(page) == []
    _fits(page, 390)
    session.close()
