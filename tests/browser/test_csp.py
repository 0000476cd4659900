"""The Content-Security-Policy holds in a real browser: no page of the learner's path needs an
inline script or style (progress bars, MathML, the generators' SVG pictures, htmx swaps)."""

import re

import pytest

from tests.answers import wrong_answer
from tests.browser.learner import sign_up
from tests.browser.test_practice import _open_weighted_sum_problem

pytestmark = pytest.mark.browser

# Records every violation the page reports, from its first script on.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


def test_the_learners_path_breaks_no_content_security_policy_rule(page, live_server, course):
    page.add_init_script(LISTEN)
    console = []
    page.on("console", lambda message: console.append(message.text))
    violations = []

    def collect() -> None:
        violations.extend(page.evaluate("window.__cspViolations"))

    response = page.goto(f"{live_server.url}/")
    assert "style-src 'self'" in response.headers["content-security-policy"]
    collect()
    sign_up(page, live_server, "ada")
    assert page.locator(".progress__bar").count() > 0  # the dashboard's bars
    collect()
    problem = _open_weighted_sum_problem(page)
    assert page.locator(".problem__picture svg").count() == 1
    assert page.locator(".problem__statement math").count() > 0
    page.locator("#id_text").press_sequentially("[1/2, 3/4]", delay=20)
    page.locator("#preview .preview--read").wait_for()  # an htmx swap
    collect()
    page.fill("#id_text", wrong_answer(problem)[1])
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert page.locator(".verdict__picture svg").count() == 1
    collect()

    assert violations == []
    assert not [text for text in console if "Content Security Policy" in text]

    # The listener does see a violation: an inline style set from script is refused.
    page.evaluate("document.body.setAttribute('style', 'outline: 1px solid red')")
    page.wait_for_timeout(200)
    collect()
    assert any(v.startswith("style-src") for v in violations)
