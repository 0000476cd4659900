"""*One Character at a Time* in a real browser: each of its three kinds is opened, answered
wrong (the named step is read) and right (marked correct), and the preview reads a tuple."""

import pytest

from .text_pages import answer_wrong_then_right, open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "one-character-at-a-time"
KINDS = (
    ("characters-never-unknown", "char_vs_word_unknowns"),
    ("passages-get-longer", "sequence_lengths"),
    ("attention-cost-grows-faster", "attention_cost"),
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


def test_the_preview_reads_the_three_numbers(page, live_server, real_course):
    sign_up(page, live_server)
    open_kind(page, PAGE, "passages-get-longer", "sequence_lengths")

    read = preview_reads(page, "27; 6; 9/2")
    assert "Your answer was read as" in read
    assert page.locator("#preview .preview--read math").count() == 1
    assert page.locator(".problem-attempts .attempt").count() == 0
