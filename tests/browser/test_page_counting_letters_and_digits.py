"""*Counting Letters, Digits and Code* in a real browser: the preview shows how a piece
sequence was read, spaces marked, and reads pieces and a number. Each kind's round trip (a
wrong answer explained with its step, a right one marked) is in
`tests/practice/test_page_kinds.py`."""

import pytest

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "counting-letters-and-digits"


def test_the_preview_shows_pieces_with_their_spaces_and_a_number(page, live_server, real_course):
    sign_up(page, live_server)
    open_kind(page, PAGE, "code-depends-on-exact-characters", "whitespace_pieces")

    read = preview_reads(page, "▁▁▁▁ ▁return ▁user _ id")
    assert "Your answer was read as" in read
    assert "▁return" in read and "_" in read
    assert page.locator(".problem-attempts .attempt").count() == 0

    page.goto(f"{live_server.url}/course/")
    open_kind(page, PAGE, "digits-lose-place-value", "digit_chunks")

    read = preview_reads(page, "123 456 7; 500")
    assert "Your answer was read as" in read
    assert "456" in read and "500" in read
