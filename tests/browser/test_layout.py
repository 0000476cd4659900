"""Every kind's problem and verdict reads well in a real browser: at 1280 px no picture's text
shows below 11 px or above 24 px (font size times the element's scale on screen), and at 390 px
no page is wider than the phone, a long username in the header included.

The kinds come from the authored course (every idea's kinds), so a kind added later is checked
too. Each kind is opened fresh, then answered with a catalogued mistake (the verdict draws the
learner's answer), then answered right.
"""

import re

import pytest

from courses.models import CourseCopy, Idea
from practice.models import ProblemInstance
from practice.services import problem_open
from tests.answers import right_answer, wrong_answer
from tests.browser.learner import sign_up

pytestmark = pytest.mark.browser

SMALLEST, LARGEST = 11.0, 24.0
# A name as long as the sign-up form allows many characters of: the header must cope.
LONG_NAME = "newcomer19202-with-a-very-long-name-indeed-0123456789"

# The rendered size of every visible SVG text in the pictures: font size x screen scale.
TEXT_SIZES = """
() => Array.from(
    document.querySelectorAll(".problem__picture svg text, .verdict__picture svg text"))
  .filter((t) => t.textContent.trim() && t.getBBox().width > 0)
  .map((t) => {
    const m = t.getScreenCTM();
    const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    const size = parseFloat(getComputedStyle(t).fontSize);
    return [t.textContent.trim(), Math.round(size * scale * 100) / 100];
  })
"""
PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"
WIDE = """
() => Array.from(document.querySelectorAll("body *"))
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .slice(0, 5).map((e) => e.tagName + "." + e.className)
"""


def _kinds(copy: CourseCopy) -> list[tuple[str, str, str]]:
    """Return (page slug, idea slug, kind) for the first idea listing each kind."""
    seen: dict[str, tuple[str, str, str]] = {}
    ideas = Idea.objects.filter(page__version_id=copy.version_id).select_related("page")
    for idea in ideas.order_by("page__order", "order"):
        for kind in idea.problem_kinds or []:
            seen.setdefault(kind, (idea.page.slug, idea.slug, kind))
    return list(seen.values())


def _submit(page, text: str) -> None:
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))


def _every_kind(page, live_server, check) -> list[str]:
    """Open every kind's problem, its verdict on a catalogued mistake and on the right answer,
    calling ``check(label)`` on each; return the kinds visited."""
    copy = CourseCopy.objects.get(owner__username=LONG_NAME)
    visited = []
    for page_slug, idea_slug, kind in _kinds(copy):
        problem: ProblemInstance = problem_open(
            copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind
        )
        page.goto(f"{live_server.url}/course/{copy.pk}/problems/{problem.pk}/")
        check(f"{kind} problem")
        _submit(page, wrong_answer(problem)[1])
        check(f"{kind} verdict (wrong)")
        _submit(page, right_answer(problem))
        check(f"{kind} verdict (right)")
        visited.append(kind)
    return visited


def test_picture_text_is_between_11_and_24_px_at_1280(page, live_server, real_course):
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_up(page, live_server, LONG_NAME)
    bad: list[str] = []
    measured = [0]

    def check(label: str) -> None:
        sizes = page.evaluate(TEXT_SIZES)
        measured[0] += len(sizes)
        bad.extend(
            f"{label}: {text!r} at {size} px"
            for text, size in sizes
            if not SMALLEST <= size <= LARGEST
        )

    visited = _every_kind(page, live_server, check)
    assert len(visited) >= 25
    assert measured[0] > 25 * 3  # pictures were there to measure
    assert bad == [], "\n".join(bad[:40])


def test_no_page_is_wider_than_a_390_px_phone(page, live_server, real_course):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, live_server, LONG_NAME)
    wide: list[str] = []

    def check(label: str) -> None:
        width, viewport = page.evaluate(PAGE_WIDTH)
        if width > viewport:
            wide.append(f"{label}: {width} px > {viewport} px {page.evaluate(WIDE)}")

    check("course")
    visited = _every_kind(page, live_server, check)
    assert len(visited) >= 25
    assert wide == [], "\n".join(wide)
