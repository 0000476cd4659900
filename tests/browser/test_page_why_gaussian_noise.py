"""*Why Gaussian Noise* in a real browser: each of its three kinds explains a wrong answer by
its named step and marks a right one; an answer with a square root is previewed as read."""

import pytest

from practice.models import Attempt

from .page_kinds import open_kind, preview_reads, sign_up, walk_kind

pytestmark = pytest.mark.browser

PAGE = "why-gaussian-noise"
KINDS = [
    ("steps-keep-the-spread", "noise_step"),
    ("noise-composes-in-closed-form", "closed_form_noise"),
    ("reverse-step-is-learnable", "predict_clean"),
]


@pytest.mark.parametrize(("idea", "kind"), KINDS)
def test_each_kind_explains_a_wrong_answer_and_marks_a_right_one(
    page, live_server, real_course, idea, kind
):
    walk_kind(page, live_server, PAGE, idea, kind)


def test_a_value_with_a_square_root_is_previewed_as_read(page, live_server, real_course):
    sign_up(page, live_server, "sam")
    open_kind(page, PAGE, "steps-keep-the-spread", "noise_step")

    read = preview_reads(page, "sqrt(3)/2 - 1; 13/4")

    assert "Your answer was read as" in read
    assert Attempt.objects.count() == 0
