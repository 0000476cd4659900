"""The README's picture: a weighted-sum problem answered with a term left out, and the verdict
that names the term. The test drives the real page, so the words the README quotes are checked
on every run; with ``BASISLAB_WRITE_README_PICTURE=1`` it also writes the picture
(``docs/img/verdict.png``: the problem's title down to the end of its verdict) from the page it
has just checked."""

import os
import re
from pathlib import Path

import pytest

import grading
from grading.spec import load_problem
from tests.answers import typed

from .learner import open_kind, sign_up

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "img" / "verdict.png"
# The phrases of the verdict the README's caption quotes.
QUOTED = (
    "Not quite.",
    "Your answer leaves out the term for position",
    "left a term out of the sum",
)


def _term_left_out(problem) -> str:
    """Return the typed answer of the first term left out that the grader names as such."""
    shape = load_problem(problem.spec).shape
    right = grading.expected_answer(problem.spec)
    for diagnosis, value in grading.mistaken_answers(problem.spec):
        if diagnosis.mistake != "omitted_term" or shape.equal(value, right):
            continue
        text = typed(value, problem.spec)
        verdict = grading.grade(problem.spec, text)
        if verdict.diagnosis is not None and verdict.diagnosis.mistake == "omitted_term":
            return text
    raise AssertionError(f"no term can be left out diagnosably in {problem.spec}")


def test_the_readme_picture_shows_what_the_readme_says(browser, live_server, real_course):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/img/verdict.png)" in readme
    assert PICTURE.is_file() and PICTURE.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        sign_up(page, live_server, "ada")
        problem = open_kind(page, "the-same-word-twice", "layer-is-a-weighted-sum", "weighted_sum")
        page.fill("#id_text", _term_left_out(problem))
        page.click("button[name=submit]")
        page.wait_for_url(re.compile(r"/attempts/\d+/$"))
        shown = re.sub(r"\s+", " ", page.locator("main").inner_text())
        for phrase in QUOTED:
            assert phrase in shown, phrase
            assert phrase in readme, phrase
        if os.environ.get("BASISLAB_WRITE_README_PICTURE") == "1":
            top = page.locator("main h1").bounding_box()
            bottom = page.locator("#verdict").bounding_box()
            left = page.locator("main").bounding_box()
            clip = {
                "x": left["x"],
                "y": top["y"] - 8,
                "width": left["width"],
                "height": bottom["y"] + bottom["height"] - top["y"] + 16,
            }
            page.screenshot(path=str(PICTURE), clip=clip, full_page=True)
    finally:
        context.close()
