"""*The Same Word Twice* in a real browser: a pair answer previewed as read while it is typed.
Each kind's round trip (a wrong answer explained, a right one marked) is in
`tests/practice/test_page_kinds.py`."""

import pytest

from practice.models import Attempt

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "the-same-word-twice"


def test_the_lookup_and_layer_pair_is_previewed_as_two_vectors(page, live_server, real_course):
    sign_up(page, live_server, "sam")
    open_kind(page, PAGE, "no-second-row", "static_vs_contextual")

    read = preview_reads(page, "[0, 0]; [1/2, -1]")

    assert "Your answer was read as" in read
    assert Attempt.objects.count() == 0
