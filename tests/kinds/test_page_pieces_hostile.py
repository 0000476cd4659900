"""Hostile answers to the kinds of *Why Words Become Pieces*: the engine's hostile corpus plus
piece-sequence and byte-sequence specific ones. Each is read as `invalid` with a message, or at
worst marked `incorrect`; none is `correct`, none raises."""

import pytest

import grading
from grading import Status
from practice.generators import generate
from tests.grading.test_hostile import CORPUS

SPECS = {
    "word_ids": generate("word_ids", seed=0, level=2),
    "utf8_bytes": {"kind": "utf8_bytes", "word": "Saša"},
    "bpe_train": {
        "kind": "bpe_train",
        "words": [["low", 5], ["lower", 2], ["newest", 6], ["widest", 3]],
        "merges": 4,
    },
    "bpe_apply": {
        "kind": "bpe_apply",
        "word": "lowest",
        "merges": [["s", "t"], ["e", "s"], ["l", "o"], ["lo", "w"], ["es", "t"]],
    },
}
PIECES = [
    "low\u200best",  # zero-width space inside a piece
    "low\u200dest",  # zero-width joiner
    "\u202elow est",  # right-to-left override
    "l\u0307ow e st",  # a combining dot
    "ｌｏｗ e st",  # full-width letters
    "lоw e st",  # Cyrillic о
    "low e st\x00",
    "low e st" + " st" * 5000,
    "|" * 5000,
    "low || e || st",
    '["low", "e", "st"',
    '["low", "e", "st",]',
    "['low', \"e\", 'st']]",
    '["low\\", "e"]',
    "[" + ", ".join(['"a"'] * 3000) + "]",
    ";" * 3000,
    "e s; " * 3000,
    "e s;; es t; l o; lo w",
    '["e", "s"]; ["es", "t"]; ["l", "o"]; ["lo", "w"]; ["x"]',
    "<script>alert(1)</script>",
    "low est" * 2000,
    "0x",
    "0x" + "F" * 40,
    "0xC5 0xA1 0x",
    "0b1010",
    "0o17",
    "1_000",
    "-0x53 97 197 161 97",
    "83 97 197 161 97 " * 200,
    "[83, 97, 197, 161, 97",
    "(((83)))",
    "83,,97",
    "٨٣ 97 197 161 97",  # Arabic-Indic digits
    "𝟖𝟑 97 197 161 97",  # mathematical bold digits
]


@pytest.mark.parametrize("kind", list(SPECS))
def test_hostile_answers_are_never_correct_and_never_raise(kind):
    spec = SPECS[kind]
    for text in CORPUS + PIECES:
        verdict = grading.grade(spec, text)
        assert verdict.status != Status.CORRECT, (kind, text[:80])
        if verdict.status == Status.INVALID:
            assert verdict.message, (kind, text[:80])
            assert verdict.score == 0.0


def test_invisible_and_look_alike_characters_never_pass_for_the_pieces():
    spec = SPECS["bpe_apply"]
    assert grading.grade(spec, "low e st").status == Status.CORRECT
    for text in ("low\u200b e st", "lоw e st", "ｌｏｗ e st", "\u202elow e st"):
        assert grading.grade(spec, text).status != Status.CORRECT, text


def test_tabs_newlines_and_no_break_spaces_separate_like_spaces():
    verdict = grading.grade(SPECS["bpe_train"], "e\ts;\nes\tt;\rl o;\u00a0lo w ")
    assert verdict.status == Status.CORRECT
