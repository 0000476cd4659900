"""*One Character at a Time* in a real browser: the preview reads a tuple as it is typed and
typesets it. Each kind's round trip (a wrong answer explained with its step, a right one
marked) is in `tests/practice/test_page_kinds.py`."""

import pytest

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "one-character-at-a-time"


def test_the_preview_reads_the_three_numbers(page, live_server, real_course):
    sign_up(page, live_server)
    open_kind(page, PAGE, "passages-get-longer", "sequence_lengths")

    read = preview_reads(page, "27; 6; 9/2")
    assert "Your answer was read as" in read
    assert page.locator("#preview .preview--read math").count() == 1
    assert page.locator(".problem-attempts .attempt").count() == 0
