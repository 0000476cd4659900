"""Drive one problem kind of a course page in the browser: open it, answer with a catalogued
mistake and read the named step, then answer right and see it marked correct."""

import re

import grading
from grading.spec import load_problem
from practice.models import Attempt, ProblemInstance
from tests.generators.conftest import answer_text

from .learner import open_kind, sign_up

__all__ = ["answer_wrong_then_right", "open_kind", "preview_reads", "sign_up", "walk_kind"]


def _plain(markdown: str) -> str:
    """Return the prose of an explanation: formulas and emphasis marks left out."""
    text = re.sub(r"\$[^$]*\$", " ", markdown).replace("*", "")
    return re.sub(r"\s+", " ", text).strip()


def wrong_answer(problem: ProblemInstance) -> tuple[str, str, str]:
    """Return (mistake code, typed text, a phrase of its explanation) for the first catalogued
    mistake the grader names on this problem."""
    shape = load_problem(problem.spec).shape
    right = grading.expected_answer(problem.spec)
    for diagnosis, value in grading.mistaken_answers(problem.spec):
        if shape.equal(value, right):
            continue
        text = answer_text(value, problem.spec)
        verdict = grading.grade(problem.spec, text)
        if verdict.diagnosis is not None and verdict.diagnosis.mistake == diagnosis.mistake:
            words = _plain(verdict.explanation).split(" ")
            return diagnosis.mistake, text, " ".join(words[:4])
    raise AssertionError(f"no diagnosable mistake for {problem.spec}")


def right_answer(problem: ProblemInstance) -> str:
    """Return the right answer as a learner types it."""
    return answer_text(grading.expected_answer(problem.spec), problem.spec)


def walk_kind(page, live_server, page_slug: str, idea_slug: str, kind: str) -> None:
    """Sign a learner up, open the idea's problem of that kind, answer it with a catalogued
    mistake (its reason shown) and then right; check the attempts stored: that mistake, then
    none."""
    sign_up(page, live_server, "pat")
    problem = open_kind(page, page_slug, idea_slug, kind)
    code = answer_wrong_then_right(page, problem)
    stored = Attempt.objects.filter(problem=problem).order_by("pk")
    assert list(stored.values_list("mistake", flat=True)) == [code, None]


def answer_wrong_then_right(page, problem: ProblemInstance) -> str:
    """Answer with a catalogued mistake, check the reason is shown, then answer right; return
    the mistake code."""
    assert page.locator(".problem__statement math").count() > 0
    assert page.locator(".problem__picture svg").count() == 1

    code, text, phrase = wrong_answer(problem)
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    verdict = page.locator("#verdict")
    assert "Not quite." in verdict.inner_text()
    explanation = re.sub(r"\s+", " ", verdict.locator(".verdict__explanation").inner_text())
    assert phrase in explanation, (phrase, explanation)
    assert verdict.locator(".verdict__picture svg").count() == 1

    page.fill("#id_text", right_answer(problem))
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    assert "Correct." in page.locator("#verdict").inner_text()
    return code


def preview_reads(page, text: str) -> str:
    """Type an answer and return the live preview's text once it has read it."""
    page.locator("#id_text").press_sequentially(text, delay=15)
    preview = page.locator("#preview .preview--read")
    preview.wait_for()
    return preview.inner_text()
