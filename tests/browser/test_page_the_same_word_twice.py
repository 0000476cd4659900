"""*The Same Word Twice* in a real browser: every kind under its idea, a wrong answer explained
by its named step, a right answer marked correct, and a pair answer previewed as read."""

import pytest

from practice.models import Attempt

from .page_kinds import open_kind, preview_reads, sign_up, walk_kind

pytestmark = pytest.mark.browser

PAGE = "the-same-word-twice"
KINDS = [
    ("one-id-one-row", "lookup"),
    ("layer-is-a-weighted-sum", "weighted_sum"),
    ("different-neighbours-different-sums", "contrast"),
    ("no-second-row", "static_vs_contextual"),
    ("weights-from-content", "content_weights"),
    ("where-it-stops-being-true", "two_layers"),
]


@pytest.mark.parametrize(("idea", "kind"), KINDS)
def test_each_kind_explains_a_wrong_answer_and_marks_a_right_one(
    page, live_server, real_course, idea, kind
):
    walk_kind(page, live_server, PAGE, idea, kind)


def test_the_lookup_and_layer_pair_is_previewed_as_two_vectors(page, live_server, real_course):
    sign_up(page, live_server, "sam")
    open_kind(page, PAGE, "no-second-row", "static_vs_contextual")

    read = preview_reads(page, "[0, 0]; [1/2, -1]")

    assert "Your answer was read as" in read
    assert Attempt.objects.count() == 0
