"""*The Repetition Loop* in a real browser: the preview reads a piece sequence as it is typed.
Each kind's round trip (a wrong answer explained with its step, a right one marked) is in
`tests/practice/test_page_kinds.py`."""

import pytest

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "the-repetition-loop"


def test_the_preview_reads_a_piece_sequence_while_typing(page, live_server, real_course):
    sign_up(page, live_server, "shannon")
    problem = open_kind(page, PAGE, "context-feeds-back", "greedy_steps")
    pieces = problem.spec["pieces"][:2]

    read = preview_reads(page, " ".join(pieces))

    assert "Your answer was read as" in read
    assert all(piece in read for piece in pieces)
