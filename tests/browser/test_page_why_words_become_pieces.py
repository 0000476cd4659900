"""*Why Words Become Pieces* in a real browser: each of its four kinds opened from the page,
answered wrong (the explanation names the step), then right (marked correct); the live preview
shows how a piece sequence and a list of merges were read."""

import re

import pytest

import grading
from practice.labels import mistake_label
from practice.models import ProblemInstance
from tests.kinds.page_pieces import integer_forms, merge_forms, piece_forms

from .learner import open_kind, sign_up

pytestmark = pytest.mark.browser

PAGE = "why-words-become-pieces"
# kind: (idea, how an answer is typed, what the explanation of a mistake names)
KINDS = {
    "word_ids": ("whole-words-run-out", integer_forms, r"position \d+|positions \(0, 1"),
    "utf8_bytes": ("pieces-spell-any-word", integer_forms, r"U\+[0-9A-F]{4}"),
    "bpe_train": ("merges-follow-frequency", merge_forms, r"Merge \d"),
    "bpe_apply": ("merges-follow-frequency", piece_forms, r"merge \d+ \("),
}


def _open(page, kind: str) -> ProblemInstance:
    return open_kind(page, PAGE, KINDS[kind][0], kind)


def _submit(page, text: str) -> str:
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    return page.locator("#verdict").inner_text()


@pytest.mark.parametrize("kind", list(KINDS))
def test_open_answer_wrong_read_the_step_then_answer_right(page, live_server, real_course, kind):
    sign_up(page, live_server, f"learner-{kind.replace('_', '-')}")
    problem = _open(page, kind)
    assert page.locator(".problem__statement").inner_text().strip()
    assert page.locator(".problem__picture svg").count() == 1

    _, forms, named = KINDS[kind]
    diagnosis, value = grading.mistaken_answers(problem.spec)[0]
    verdict = _submit(page, forms(value)[0])
    assert "Not quite." in verdict
    explanation = page.locator("#verdict .verdict__explanation").inner_text()
    assert re.search(named, explanation), explanation
    # The wrong answer is drawn beside the right one.
    assert page.locator("#verdict .verdict__picture svg").count() == 1
    # The attempt is listed under the problem with the mistake's label.
    row = page.locator(".problem-attempts .attempt--incorrect")
    assert mistake_label(diagnosis.mistake, kind) in row.inner_text()

    verdict = _submit(page, forms(grading.expected_answer(problem.spec))[0])
    assert "Correct." in verdict


@pytest.mark.parametrize(
    ("kind", "typed", "shown"),
    [
        ("bpe_apply", "low|est", ["low", "est"]),
        ("bpe_train", "e s; es t", ["e", "s", "es", "t"]),
        ("utf8_bytes", "0xC5 161", ["197", "161"]),
    ],
)
def test_preview_shows_how_the_pieces_were_read(page, live_server, real_course, kind, typed, shown):
    sign_up(page, live_server, f"previewer-{kind.replace('_', '-')}")
    _open(page, kind)
    page.locator("#id_text").press_sequentially(typed, delay=20)
    preview = page.locator("#preview .preview--read, #preview .preview--invalid").first
    preview.wait_for()
    text = preview.inner_text()
    if kind == "bpe_train":
        # Two merges where the problem asks for more: the preview says how many to type.
        assert "part" in text
    else:
        assert "Your answer was read as" in text
        for piece in shown:
            assert piece in text
    assert page.locator(".problem-attempts .attempt").count() == 0


# For each position: the centre x of the token's, the id's and the learner's id's text as the
# browser lays them out, and whether each text stays inside its box.
COLUMNS = """
() => {
  const svg = document.querySelector("#verdict .verdict__picture svg");
  const out = {};
  for (const rect of svg.querySelectorAll("rect[data-position]")) {
    const text = rect.nextElementSibling;
    const r = rect.getBBox(), t = text.getBBox();
    const key = rect.dataset.position;
    out[key] = out[key] || {};
    out[key][rect.dataset.role] = {
      centre: t.x + t.width / 2,
      inside: t.x >= r.x - 0.5 && t.x + t.width <= r.x + r.width + 0.5,
    };
  }
  return out;
}
"""


def test_word_ids_ids_line_up_under_their_tokens(page, live_server, real_course):
    sign_up(page, live_server, "learner-columns")
    problem = _open(page, "word_ids")
    right = grading.expected_answer(problem.spec)
    wrong = next(
        (v for _, v in grading.mistaken_answers(problem.spec) if len(v) == len(right)),
        (right[0] + 1, *right[1:]),
    )
    _submit(page, integer_forms(wrong)[0])

    columns = page.evaluate(COLUMNS)
    assert len(columns) == len(right)
    for position, boxes in columns.items():
        assert set(boxes) == {"token", "id", "answer"}, position
        centres = [box["centre"] for box in boxes.values()]
        assert max(centres) - min(centres) < 1, (position, boxes)
        assert all(box["inside"] for box in boxes.values()), (position, boxes)
