"""*Close in Embedding Space* in a real browser: each kind opens with typeset math and a
picture, a wrong answer is explained with the step it went wrong at, a right one is marked
correct, and the preview reads a choice as it is typed."""

import re

import pytest

import grading
from practice.models import ProblemInstance
from tests.generators.conftest import answer_text

from .learner import open_kind, sign_up

__all__ = ["answer_wrong_then_right", "open_kind", "sign_up"]

pytestmark = pytest.mark.browser

PAGE = "close-in-embedding-space"
# (idea, kind, a mistake to make, words its explanation shows)
KINDS = [
    ("similar-company-similar-rows", "cooccurrence_row", "window_too_wide", "You counted words"),
    ("closeness-is-cosine", "cosine_similarity", "dot_product", "You gave the dot product"),
    ("close-is-not-synonym", "nearest_by_cosine", "ranked_by_dot", "largest dot product"),
]


def answer_wrong_then_right(page, problem: ProblemInstance, mistake: str, words: str) -> None:
    spec = problem.spec
    wrong = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == mistake)
    page.fill("#id_text", answer_text(wrong, spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    verdict = page.locator("#verdict")
    assert "Not quite." in verdict.inner_text()
    assert words in verdict.locator(".verdict__explanation").inner_text()
    assert verdict.locator(".verdict__picture svg").count() == 1

    page.fill("#id_text", answer_text(grading.expected_answer(spec), spec))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()


@pytest.mark.parametrize(("idea", "kind", "mistake", "words"), KINDS)
def test_each_kind_opens_explains_a_wrong_answer_and_marks_a_right_one(
    page, live_server, real_course, idea, kind, mistake, words
):
    sign_up(page, live_server, f"learner-{kind.replace('_', '-')}")
    problem = open_kind(page, PAGE, idea, kind)

    assert page.locator(".problem__statement math").count() > 0
    assert page.locator(".problem__picture svg").count() == 1
    answer_wrong_then_right(page, problem, mistake, words)


def test_the_preview_reads_a_choice_while_typing(page, live_server, real_course):
    sign_up(page, live_server, "noether")
    problem = open_kind(page, PAGE, "close-is-not-synonym", "nearest_by_cosine")
    option = problem.spec["candidates"][0]

    page.locator("#id_text").press_sequentially(option.upper(), delay=20)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    assert "Your answer was read as" in preview.inner_text()
    assert option in preview.inner_text()
    assert page.locator(".problem-attempts .attempt").count() == 0
