"""The preview and the answer picture read an answer by the problem's shape, exactly as the
grader does: piece sequences, merges in parts and hexadecimal bytes included."""

import pytest

import grading
from practice.answers import answer_reading, answer_value

from .test_page_pieces_hostile import SPECS

CASES = [
    ("bpe_apply", "low|est"),
    ("bpe_apply", '["low", "e", "st"]'),
    ("bpe_apply", "low e st"),
    ("bpe_apply", "low \u200b est"),
    ("bpe_train", "e s; es t; l o; lo w"),
    ("bpe_train", "e s; es t"),
    ("bpe_train", "e s t; es t; l o; lo w"),
    ("utf8_bytes", "0x53 0x61 0xC5 0xA1 0x61"),
    ("utf8_bytes", "83 97 C5"),
    ("word_ids", "[4, 0, 7]"),
    ("word_ids", "4 0 seven"),
]


@pytest.mark.parametrize(("kind", "text"), CASES)
def test_preview_reads_as_the_grader_does(kind, text):
    spec = SPECS[kind]
    verdict = grading.grade(spec, text)
    reading = answer_reading(text, spec)
    if verdict.status == grading.Status.INVALID:
        assert not reading.readable
        assert reading.message == verdict.message
    else:
        assert reading.readable
        assert reading.tex == verdict.interpreted


def test_the_answer_drawn_is_the_value_the_shape_reads():
    assert answer_value("low|est", SPECS["bpe_apply"]) == ("low", "est")
    assert answer_value("e s; es t; l o; lo w", SPECS["bpe_train"]) == (
        ("e", "s"),
        ("es", "t"),
        ("l", "o"),
        ("lo", "w"),
    )
    assert answer_value("0xC5 161", SPECS["utf8_bytes"]) == (197, 161)
    assert answer_value("e s; es t", SPECS["bpe_train"]) is None
