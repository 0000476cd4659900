"""*Why Words Become Pieces* in a real browser: the live preview shows how a piece sequence,
a list of merges and a list of bytes were read while they are typed, and the ids of a wrong
answer's picture line up under their tokens. Each kind's round trip (a wrong answer explained
with its step, a right one marked) is in `tests/practice/test_page_kinds.py`."""

import re

import pytest

import grading
from practice.models import ProblemInstance
from tests.answers import typed

from .learner import open_kind, sign_up

pytestmark = pytest.mark.browser

PAGE = "why-words-become-pieces"
IDEAS = {
    "word_ids": "whole-words-run-out",
    "utf8_bytes": "pieces-spell-any-word",
    "bpe_train": "merges-follow-frequency",
    "bpe_apply": "merges-follow-frequency",
}
# (kind, what is typed, what the preview shows of it)
PREVIEWS = [
    ("bpe_apply", "low|est", ["low", "est"]),
    ("bpe_train", "e s; es t", ["e", "s", "es", "t"]),
    ("utf8_bytes", "0xC5 161", ["197", "161"]),
]


def _open(page, kind: str) -> ProblemInstance:
    return open_kind(page, PAGE, IDEAS[kind], kind)


def _submit(page, text: str) -> str:
    page.fill("#id_text", text)
    page.click("button[name=submit]")
    page.wait_for_url(re.compile(r"/attempts/\d+/$"))
    return page.locator("#verdict").inner_text()


def test_preview_shows_how_the_pieces_were_read(page, live_server, real_course):
    sign_up(page, live_server, "previewer")
    for kind, text, shown in PREVIEWS:
        page.goto(f"{live_server.url}/course/")
        _open(page, kind)
        page.locator("#id_text").press_sequentially(text, delay=20)
        preview = page.locator("#preview .preview--read, #preview .preview--invalid").first
        preview.wait_for()
        read = preview.inner_text()
        if kind == "bpe_train":
            # Two merges where the problem asks for more: the preview says how many to type.
            assert "part" in read, read
        else:
            assert "Your answer was read as" in read, (kind, read)
            for piece in shown:
                assert piece in read, (kind, piece, read)
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
    _submit(page, typed(wrong, problem.spec))

    columns = page.evaluate(COLUMNS)
    assert len(columns) == len(right)
    for position, boxes in columns.items():
        assert set(boxes) == {"token", "id", "answer"}, position
        centres = [box["centre"] for box in boxes.values()]
        assert max(centres) - min(centres) < 1, (position, boxes)
        assert all(box["inside"] for box in boxes.values()), (position, boxes)
