"""*Why Gaussian Noise* in a real browser: an answer with a square root is previewed as read
while it is typed. Each kind's round trip (a wrong answer explained, a right one marked) is in
`tests/practice/test_page_kinds.py`."""

import pytest

from practice.models import Attempt

from .learner import open_kind, preview_reads, sign_up

pytestmark = pytest.mark.browser

PAGE = "why-gaussian-noise"


def test_a_value_with_a_square_root_is_previewed_as_read(page, live_server, real_course):
    sign_up(page, live_server, "sam")
    open_kind(page, PAGE, "steps-keep-the-spread", "noise_step")

    read = preview_reads(page, "sqrt(3)/2 - 1; 13/4")

    assert "Your answer was read as" in read
    assert Attempt.objects.count() == 0
