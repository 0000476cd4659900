"""*The Repetition Loop* in a real browser: each kind opens, a wrong answer is explained with
the step it went wrong at, a right one is marked correct, and the preview reads a piece
sequence as it is typed."""

import pytest

from .test_page_close_in_embedding_space import answer_wrong_then_right, open_kind, sign_up

pytestmark = pytest.mark.browser

PAGE = "the-repetition-loop"
KINDS = [
    ("context-feeds-back", "greedy_steps", "no_feedback", "the prompt's last piece"),
    ("greedy-cannot-leave", "greedy_loop", "first_repeated_piece", "repeats the piece written"),
    ("sampling-and-penalties", "repetition_penalty", "skipped_penalty", "without the penalty"),
]


@pytest.mark.parametrize(("idea", "kind", "mistake", "words"), KINDS)
def test_each_kind_opens_explains_a_wrong_answer_and_marks_a_right_one(
    page, live_server, real_course, idea, kind, mistake, words
):
    sign_up(page, live_server, f"learner-{kind.replace('_', '-')}")
    problem = open_kind(page, PAGE, idea, kind)

    assert page.locator(".problem__statement math").count() > 0
    assert page.locator(".problem__picture svg").count() == 1
    answer_wrong_then_right(page, problem, mistake, words)


def test_the_preview_reads_a_piece_sequence_while_typing(page, live_server, real_course):
    sign_up(page, live_server, "shannon")
    problem = open_kind(page, PAGE, "context-feeds-back", "greedy_steps")
    pieces = problem.spec["pieces"][:2]

    page.locator("#id_text").press_sequentially(" ".join(pieces), delay=20)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    assert "Your answer was read as" in preview.inner_text()
    assert all(piece in preview.inner_text() for piece in pieces)
