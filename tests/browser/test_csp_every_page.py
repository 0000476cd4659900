"""Every type of page, opened in Chromium, breaks no Content-Security-Policy rule.

A listener installed before any page script records each ``securitypolicyviolation``; the walk
covers the open pages, the account pages (sign-in, sign-up, reset, lockout, the CSRF failure
page, settings, email change, deletion), and a learner's pages on the real course (dashboard,
course page, a ``letters_in_pieces`` problem with its aligned table, its verdict, history, the
review queue, a review problem, review settings, password change). Any report fails the test,
naming the page.
"""

import re

import pytest
from django.utils import timezone

from practice.review.models import ReviewItem
from tests.answers import wrong_answer
from tests.browser.learner import PASSWORD, open_kind, sign_up

pytestmark = pytest.mark.browser

LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


class Watch:
    """Collect the violations of every page visited, by URL."""

    def __init__(self, page) -> None:
        self.page = page
        self.seen: dict[str, list[str]] = {}
        page.add_init_script(LISTEN)
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))

    def collect(self) -> None:
        self.page.wait_for_load_state("load")
        found = self.page.evaluate("window.__cspViolations || []")
        self.seen.setdefault(self.page.url, []).extend(found)

    def visit(self, url: str, status: int = 200) -> None:
        response = self.page.goto(url)
        assert response.status == status, (url, response.status)
        self.collect()

    def violations(self) -> dict[str, list[str]]:
        return {url: found for url, found in self.seen.items() if found}


def test_every_page_type_breaks_no_csp_rule(page, live_server, real_course):
    base = live_server.url
    watch = Watch(page)

    # Open pages, anonymous.
    for path in ("/", "/course/", "/course/counting-letters-and-digits/", "/answers/"):
        watch.visit(base + path)
    page.click("main a[href^='/answers/']")
    watch.collect()
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        watch.visit(base + path)
    watch.visit(base + "/no/such/page/", status=404)

    # The CSRF failure page: a form sent after its cookie is gone.
    watch.visit(base + "/accounts/login/")
    page.context.clear_cookies()
    page.fill("input[name=username]", "nobody")
    page.fill("input[name=password]", "whatever")
    page.click("main button[type=submit]")
    assert page.locator("#csrf-failure").count() == 1
    watch.collect()

    # A learner on the real course.
    sign_up(page, live_server, "ada")
    watch.collect()
    problem = open_kind(
        page, "counting-letters-and-digits", "pieces-hide-letters", "letters_in_pieces"
    )
    assert page.locator(".problem__statement table").count() >= 1
    assert page.locator(".problem__statement [class^='align-']").count() > 0
    watch.collect()
    text = wrong_answer(problem).text
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    watch.collect()
    copy_id = problem.copy_id
    for path in (
        f"/course/{copy_id}/history/",
        f"/review/{copy_id}/",
        "/review/settings/",
        "/accounts/password_change/",
        "/accounts/settings/",
        "/accounts/email/",
        "/accounts/delete/",
        "/course/counting-letters-and-digits/",
    ):
        watch.visit(base + path)
    watch.visit(f"{base}/course/{copy_id}/pages/counting-letters-and-digits/")
    # The wrong answer's review item, made due now: the queue links to its review problem.
    assert ReviewItem.objects.filter(copy_id=copy_id).update(due=timezone.now()) > 0
    watch.visit(f"{base}/review/{copy_id}/")
    review_links = page.locator("a[href*='/items/']")
    assert review_links.count() > 0
    review_links.first.click()
    page.wait_for_load_state("load")
    watch.collect()

    # Signed out: the lockout page after five wrong passwords.
    page.click("button:has-text('Sign out')")
    watch.collect()
    for _ in range(5):
        watch.visit(base + "/accounts/login/")
        page.fill("input[name=username]", "ada")
        page.fill("input[name=password]", "not-" + PASSWORD)
        page.click("main button[type=submit]")
        watch.collect()
    assert page.locator("#locked-out").count() == 1

    assert len(watch.seen) >= 20, sorted(watch.seen)
    assert watch.violations() == {}
    assert not [text for text in watch.console if "Content Security Policy" in text]
