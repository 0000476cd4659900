"""*Counting Letters, Digits and Code* in a real browser: each of its three kinds is opened,
answered wrong (the named step is read) and right (marked correct), and the preview shows how a
piece sequence was read, spaces marked."""

import pytest

from .text_pages import answer_wrong_then_right, open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "counting-letters-and-digits"
KINDS = (
    ("pieces-hide-letters", "letters_in_pieces"),
    ("digits-lose-place-value", "digit_chunks"),
    ("code-depends-on-exact-characters", "whitespace_pieces"),
)


def test_each_kind_is_answered_wrong_then_right(page, live_server, real_course):
    sign_up(page, live_server)
    for idea, kind in KINDS:
        page.goto(f"{live_server.url}/course/")
        problem = open_kind(page, PAGE, idea, kind)
        assert problem.kind == kind
        assert page.locator(".problem__statement math").count() > 0
        assert page.locator(".problem__picture svg").count() == 1
        answer_wrong_then_right(page, problem)


def test_the_preview_shows_each_piece_with_its_spaces(page, live_server, real_course):
    sign_up(page, live_server)
    open_kind(page, PAGE, "code-depends-on-exact-characters", "whitespace_pieces")

    read = preview_reads(page, "▁▁▁▁ ▁return ▁user _ id")
    assert "Your answer was read as" in read
    assert "▁return" in read and "_" in read
    assert page.locator(".problem-attempts .attempt").count() == 0


def test_the_preview_reads_pieces_and_a_number(page, live_server, real_course):
    sign_up(page, live_server)
    open_kind(page, PAGE, "digits-lose-place-value", "digit_chunks")

    read = preview_reads(page, "123 456 7; 500")
    assert "Your answer was read as" in read
    assert "456" in read and "500" in read
