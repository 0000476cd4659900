"""A plain resource link (placed in the platform without deep linking) in Chromium, inside the
platform's iframe, at a desk (1280 px) and on a phone (390 px): a learner who opens it before it
is set up gets the course's first page with a note; the instructor's launch opens the link's
setup page (axe-core finds nothing, nothing wider than the frame), they choose an idea; the
learner's next launch opens its practice, they answer, and the platform receives the score."""

import re

import pytest

from lti.models import LtiUser, ResourceLink
from practice.models import ProblemInstance
from tests.answers import right_answer
from tests.lti.platform import INSTRUCTOR, new_hint

from .test_lti import SHOTS, lti_platform  # noqa: F401  (the platform fixture)
from .test_today_accessibility import violations

pytestmark = pytest.mark.browser

NOTE = "Your instructor has not chosen what this link shows yet"


def open_in_platform(context, platform, *, user: str, width: int, **message):
    """Open the platform's course page as ``user`` with the tool's frame ``width`` wide; return
    the page and the tool's frame (the caller waits for where the launch lands)."""
    page = context.new_page()
    page.goto(f"{platform.url}/course?user={user}&message={new_hint(platform, **message)}")
    page.wait_for_selector("iframe#tool")
    page.evaluate(f"document.getElementById('tool').width = {min(width, 1000)}")
    return page, page.frames[1]


def fits(frame, width: int) -> None:
    scroll = frame.evaluate("document.documentElement.scrollWidth")
    assert scroll <= min(width, 1000), (width, scroll)


@pytest.mark.parametrize("width", [1280, 390])
def test_instructor_chooses_what_a_plain_link_shows_then_a_learner_is_scored(
    browser,
    live_server,
    lti_platform,  # noqa: F811 (the fixture imported above)
    width,
):
    platform = lti_platform
    link_id = f"plain-{width}"
    student = browser.new_context(viewport={"width": width, "height": 900})
    teacher = browser.new_context(viewport={"width": width, "height": 900})

    # A learner first: the course's first page, with the note, in the frame.
    _, frame = open_in_platform(student, platform, user="s-1", width=width, link_id=link_id)
    frame.wait_for_selector(".messages")
    assert NOTE in frame.locator(".messages").inner_text()
    assert "/pages/first-page/" in frame.url
    assert violations(frame) == [], width
    fits(frame, width)

    # The instructor's launch of the link opens its setup page, without the site's navigation.
    page, frame = open_in_platform(
        teacher, platform, user="t-1", width=width, link_id=link_id, roles=(INSTRUCTOR,)
    )
    frame.wait_for_selector("#lti-link-setup")
    assert frame.locator("#lti-framed-header").count() == 1
    assert frame.locator("text=Sign out").count() == 0
    assert frame.locator("input[type=radio]:checked").count() == 0
    assert violations(frame) == [], width
    fits(frame, width)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"lti-link-setup-{width}.png"), full_page=True)
    frame.locator("input[value='idea:first-page/weighted-sum']").check()
    frame.locator("#lti-link-setup button[type=submit]").click()
    frame.wait_for_selector("#lti-class")
    assert "now shows Idea:" in frame.locator(".messages").inner_text()
    link = ResourceLink.objects.get(resource_link_id=link_id)
    assert (link.target, link.idea_slug) == ("idea", "weighted-sum")

    # The learner's next launch opens the idea's practice; their answer reaches the gradebook.
    _, frame = open_in_platform(student, platform, user="s-1", width=width, link_id=link_id)
    frame.wait_for_url(re.compile(r"/problems/\d+/$"))
    problem = ProblemInstance.objects.get(pk=int(re.search(r"/problems/(\d+)/$", frame.url)[1]))
    assert problem.copy.owner == LtiUser.objects.get(sub="s-1").user
    before = frame.url
    frame.fill("#id_text", right_answer(problem))
    frame.click("button[name=submit]")
    frame.wait_for_url(lambda url: url != before and "/attempts/" in url)
    assert "Correct." in frame.locator("#verdict").inner_text()
    assert [(s["userId"], s["scoreGiven"]) for s in platform.scores] == [("s-1", 0.2)]
    student.close()
    teacher.close()
