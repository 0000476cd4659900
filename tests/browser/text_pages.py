"""Walk one course page's problem kinds in a real browser: open, answer wrong, read the named
step, answer right, see it marked (used by the page tests of pages 2 and 3)."""

import re

import grading
from practice.labels import mistake_label
from practice.models import ProblemInstance
from tests.kinds.checks import shape_of, typed

from .learner import open_kind, sign_up

__all__ = ["answer_wrong_then_right", "open_kind", "preview_reads", "sign_up"]


def submit(page, text: str) -> object:
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    return page.locator("#verdict")


def answer_wrong_then_right(page, problem: ProblemInstance) -> None:
    """Answer with the first catalogued mistake, check the named step, then answer right."""
    spec = problem.spec
    shape = shape_of(spec)
    diagnosis, value = grading.mistaken_answers(spec)[0]
    expected = grading.grade(spec, typed(shape, value))

    verdict = submit(page, typed(shape, value))
    assert "Not quite." in verdict.inner_text()
    explanation = verdict.locator(".verdict__explanation").inner_text()
    # The explanation shown is the grader's: its opening words name what the learner did.
    opening = " ".join(re.split(r"[$`*(:,]", expected.explanation)[0].split()[:3])
    assert opening and opening in explanation, (opening, explanation)
    assert verdict.locator(".verdict__picture svg").count() == 1
    row = page.locator(".problem-attempts .attempt--incorrect")
    assert mistake_label(diagnosis.mistake) in row.first.inner_text()

    verdict = submit(page, typed(shape, grading.expected_answer(spec)))
    assert "Correct." in verdict.inner_text()


def preview_reads(page, text: str) -> str:
    """Type ``text`` and return what the live preview says it was read as."""
    page.locator("#id_text").fill("")
    page.locator("#id_text").press_sequentially(text, delay=10)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    return preview.inner_text()
