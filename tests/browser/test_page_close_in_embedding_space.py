"""*Close in Embedding Space* in a real browser: the preview reads a choice as it is typed.
Each kind's round trip (a wrong answer explained with its step, a right one marked) is in
`tests/practice/test_page_kinds.py`."""

import pytest

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "close-in-embedding-space"


def test_the_preview_reads_a_choice_while_typing(page, live_server, real_course):
    sign_up(page, live_server, "noether")
    problem = open_kind(page, PAGE, "close-is-not-synonym", "nearest_by_cosine")
    option = problem.spec["candidates"][0]

    read = preview_reads(page, option.upper())

    assert "Your answer was read as" in read
    assert option in read
    assert page.locator(".problem-attempts .attempt").count() == 0
