"""LTI 1.3 end to end in Chromium: the tool in the platform's iframe.

An instructor deep-links an idea; a learner launches it, answers wrong then right; the platform
receives both scores; the instructor's class view shows the learner and the mistake.

Both sides run on loopback under the name ``localhost`` (different ports, one site), so the
session works in the iframe over plain HTTP; over HTTPS the launch cookies are
``SameSite=None; Secure`` (tests/lti/test_class.py).
"""

import re
from pathlib import Path

import pytest

import grading
from basislab.celery import app as celery_app
from lti.models import Deployment, LtiUser
from lti.models import Platform as PlatformRow
from practice.models import Attempt, ProblemInstance
from tests.answers import opening, right_answer, wrong_answer
from tests.lti.platform import INSTRUCTOR, Platform, new_hint

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def lti_platform(live_server, course):
    platform = Platform(host="localhost").start()
    platform.tool_launch_url = f"{live_server.url}/lti/launch/"
    platform.tool_login_url = f"{live_server.url}/lti/login/"
    platform.tool_jwks_url = f"{live_server.url}/lti/jwks/"
    row = PlatformRow.objects.create(
        name="Browser platform",
        issuer=platform.issuer,
        client_id=platform.client_id,
        auth_login_url=f"{platform.url}/auth",
        auth_token_url=f"{platform.url}/token",
        key_set_url=f"{platform.url}/jwks",
    )
    Deployment.objects.create(platform=row, deployment_id=platform.deployment_id)
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield platform
    celery_app.conf.task_always_eager = before
    platform.stop()


def answer_in_frame(frame, problem: ProblemInstance) -> str:
    """Answer with a catalogued mistake (its reason shown), then right; return the mistake."""
    diagnosis, text = wrong_answer(problem)
    phrase = opening(grading.grade(problem.spec, text).explanation)
    for typed, expected in ((text, "Not quite."), (right_answer(problem), "Correct.")):
        before = frame.url
        frame.fill("#id_text", typed)
        frame.click("button[name=submit]")
        frame.wait_for_url(lambda url, before=before: url != before and "/attempts/" in url)
        verdict = frame.locator("#verdict").inner_text()
        assert expected in verdict, verdict
        if expected == "Not quite.":
            assert phrase in re.sub(r"\s+", " ", verdict), (phrase, verdict)
    return diagnosis.mistake


def tool_frame(page):
    """Return the tool's frame inside the platform's course page."""
    page.wait_for_selector("iframe#tool")
    return page.frame_locator("iframe#tool"), page.frames[1]


def test_deep_link_launch_answer_and_scores_reach_the_platform(browser, live_server, lti_platform):
    platform = lti_platform
    instructor = browser.new_context(viewport={"width": 1280, "height": 900})
    teacher = instructor.new_page()

    # The instructor places the weighted-sum idea.
    hint = new_hint(platform, roles=(INSTRUCTOR,), message_type="LtiDeepLinkingRequest")
    teacher.goto(f"{platform.url}/course?user=t-1&message={hint}")
    frame_view, frame = tool_frame(teacher)
    frame_view.locator("#lti-deep-link").wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(SHOTS / "lti-deep-link-1280.png"), full_page=True)
    frame_view.locator("input[value='idea:first-page/weighted-sum']").check()
    frame_view.locator("#lti-deep-link button[type=submit]").click()
    frame_view.locator("#placed").wait_for()
    (item,) = platform.deep_link_items
    assert item["custom"] == {"page": "first-page", "idea": "weighted-sum"}
    assert item["lineItem"]["scoreMaximum"] == 1

    # A learner opens the placed link: the practice problem opens in the frame.
    learner_context = browser.new_context(viewport={"width": 1100, "height": 900})
    learner = learner_context.new_page()
    hint = new_hint(platform, custom=item["custom"], link_id="placed-1", name="Lin Learner")
    learner.goto(f"{platform.url}/course?user=s-1&message={hint}")
    learner.wait_for_selector("iframe#tool")
    frame = learner.frames[1]
    frame.wait_for_url(re.compile(r"/problems/\d+/$"))
    problem = ProblemInstance.objects.get(pk=int(re.search(r"/problems/(\d+)/$", frame.url)[1]))
    assert problem.copy.owner == LtiUser.objects.get(sub="s-1").user
    code = answer_in_frame(frame, problem)

    # The platform received one score per attempt: nothing, then one correct answer of five.
    assert [(s["userId"], s["scoreGiven"]) for s in platform.scores] == [("s-1", 0.0), ("s-1", 0.2)]
    assert Attempt.objects.filter(problem=problem).count() == 2

    # The instructor's class view shows the learner and the named mistake.
    hint = new_hint(platform, roles=(INSTRUCTOR,), custom=item["custom"], link_id="placed-1")
    teacher.goto(f"{platform.url}/course?user=t-1&message={hint}")
    frame_view, frame = tool_frame(teacher)
    frame_view.locator("#lti-class").wait_for()
    assert "Lin Learner" in frame_view.locator("#lti-progress").inner_text()
    assert frame_view.locator(f"#lti-mistakes tr[data-mistake='{code}']").count() == 1

    # The class view, at a desk and on a phone (looked at by hand; nothing wider than the phone).
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(SHOTS / "lti-class-in-platform-1280.png"), full_page=True)
    phone = instructor.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(frame.url)
    phone.locator("#lti-class").wait_for()
    phone.screenshot(path=str(SHOTS / "lti-class-390.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    instructor.close()
    learner_context.close()
