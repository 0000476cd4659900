"""A learner in the browser: sign up, then open a course page's problem of one kind (shared by
the page, practice, review and CSP tests)."""

import re
import uuid

from practice.models import ProblemInstance

PASSWORD = "violet-harbour-tangent-42"


def sign_up(page, live_server, username: str | None = None) -> None:
    """Sign a new learner up (a fresh name when none is given) and land on the course."""
    username = username or f"learner{uuid.uuid4().hex[:8]}"
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/course/$"))


def open_kind(page, page_slug: str, idea_slug: str, kind: str) -> ProblemInstance:
    """Open the course page, then the idea's problem of that kind; return the stored problem."""
    page.click(f"a[href*='/pages/{page_slug}/']")
    page.wait_for_url(re.compile(rf"/pages/{page_slug}/$"))
    page.click(f"a[href*='/ideas/{idea_slug}/{kind}/']")
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    problem_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
    return ProblemInstance.objects.get(pk=problem_id)
