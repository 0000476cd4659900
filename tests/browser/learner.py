"""A learner in the browser: sign up (or sign in), open a course page's problem of one kind and
type an answer the live preview reads (shared by every browser test that needs a learner: no
test fills the sign-up form itself)."""

import re
import uuid

from practice.models import ProblemInstance

PASSWORD = "violet-harbour-tangent-42"


def sign_up(page, live_server, username: str | None = None) -> None:
    """Sign a new learner up (a fresh name when none is given) and land on the course."""
    username = username or f"learner{uuid.uuid4().hex[:8]}"
    page.goto(f"{live_server.url}/accounts/signup/")
    fill_sign_up(page, username)
    page.wait_for_url(re.compile(r"/course/$"))


def fill_sign_up(page, username: str, *, email: str | None = None) -> None:
    """Fill in the sign-up form the page shows and create the account (with ``PASSWORD``); the
    caller waits for where it lands (the course, or the page a ``next`` address names)."""
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", email or f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Create account").click()


def sign_in(page, live_server, username: str) -> None:
    """Sign an existing learner (password ``PASSWORD``) in, from signed out, and land on the
    course."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/course/$"))


def open_kind(page, page_slug: str, idea_slug: str, kind: str) -> ProblemInstance:
    """Open the course page, then the idea's problem of that kind; return the stored problem."""
    page.click(f"a[href*='/pages/{page_slug}/']")
    page.wait_for_url(re.compile(rf"/pages/{page_slug}/$"))
    page.click(f"a[href*='/ideas/{idea_slug}/{kind}/']")
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    problem_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
    return ProblemInstance.objects.get(pk=problem_id)


def preview_reads(page, text: str) -> str:
    """Type ``text`` into the answer box (emptied first) as a learner does, key by key, and
    return what the live preview says it was read as."""
    page.locator("#id_text").fill("")
    page.locator("#id_text").press_sequentially(text, delay=10)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    return preview.inner_text()
