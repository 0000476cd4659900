"""Hostile text for the shapes that read words (piece sequences, choices): quotes, escapes,
HTML, bidi and zero-width characters, controls, 200 kB, NUL. Each is `invalid` with a reason,
or read safely: only whitelisted characters (letters, marks, numbers, punctuation, symbols,
the space), NFC, within the bounds; what was read renders as MathML with the text escaped."""

import unicodedata
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from courses.mathml import tex_to_mathml
from grading import Status, grade
from grading.parse import AnswerError
from grading.shapes import MAX_PIECE_CHARS, Choice, PieceSequence, TupleShape

PIECES = PieceSequence(12)
CHOICE = Choice(["static", "contextual"])

REFUSED = {
    "nul": "a\x00b",
    "nul alone": "\x00",
    "escape": "\x1b[31mred",
    "bell": "a\x07",
    "delete": "a\x7fb",
    "bidi override": "abc\u202edcba",
    "bidi isolate": "\u2066low\u2069 est",
    "right-to-left mark": "low\u200f est",
    "zero-width space": "lo\u200bw",
    "zero-width joiner": "lo\u200dw",
    "byte order mark": "\ufefflow",
    "soft hyphen": "lo\u00adw",
    "tag characters": "low\U000e0001\U000e0041",
    "line separator": "low\u2028est",
    "paragraph separator": "low\u2029est",
    "lone surrogate": "low\ud800",
    "private use": "low\ue000",
    "unassigned": "low\u0378",
    "200 kB": "a" * 200_000,
    "200 kB of pieces": "a " * 100_000,
    "too many pieces": " ".join("x" * 13),
    "a piece too long": "x" * (MAX_PIECE_CHARS + 1),
    "combining flood": "a" + "\u0301" * 100,
    "unclosed list": '["low", "est"',
    "unquoted list": "[low, est]",
    "nested list": '[["low"], "est"]',
    "json escape": '["lo\\u0077"]',
    "newline escape": '["lo\\nw"]',
    "trailing garbage": '["low"] x',
    "empty piece": "low||est",
    "only separators": " | | ",
    "empty": "",
    "spaces": "     ",
}
READ_SAFELY = {
    "html": ("<script>alert(1)</script>",),
    "html in a list": ('["<b>", "</b>"]',),
    "quotes": ("\"low\" 'est'",),
    "escaped quote": (r'["a\"b"]',),
    "backslashes": ("\\frac{1}{2} \\\\",),
    "tex specials": ("$x$ #1 %c &amp; ^ ~ {}",),
    "full-width": ("＜ｓｃｒｉｐｔ＞",),
    "emoji": ("🙂 👍🏽",),
    "combining": ("cafe\u0301",),
    "space marks": ("▁▁ _ ▁low",),
    "right-to-left letters": ("שלום مرحبا",),
    "pipes in quotes": ('["a|b", "c"]',),
    "semicolons": ("a;b c;d",),
    "mismatched quotes": ("[\"low', 'est\"]",),  # one double-quoted piece: low', 'est
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_hostile_pieces_are_refused_with_a_reason(text):
    with pytest.raises(AnswerError) as caught:
        PIECES.read(text)
    assert caught.value.message


@pytest.mark.parametrize("name", ["nul", "bidi override", "zero-width space", "line separator"])
def test_invisible_characters_are_named_by_code_point_and_column(name):
    with pytest.raises(AnswerError) as caught:
        PIECES.read(REFUSED[name])
    message = caught.value.message
    assert "U+" in message and "(at column" in message
    assert caught.value.bound == "character"


def test_a_200_kb_answer_is_refused_before_it_is_scanned():
    with pytest.raises(AnswerError) as caught:
        PIECES.read("\x00" * 200_000)
    assert caught.value.bound == "length"
    assert "200000 characters long" in caught.value.message


def _safe(pieces: tuple[str, ...]) -> None:
    assert 1 <= len(pieces) <= PIECES.max_pieces
    for piece in pieces:
        assert 1 <= len(piece) <= MAX_PIECE_CHARS
        assert unicodedata.is_normalized("NFC", piece)
        for char in piece:
            assert char == " " or unicodedata.category(char)[0] in "LMNPS", repr(char)


def _renders_escaped(tex: str) -> None:
    mathml = tex_to_mathml(tex)
    ET.fromstring(mathml)  # well-formed: no markup from the learner's text
    assert "<script" not in mathml and "<b>" not in mathml


@pytest.mark.parametrize(("text",), READ_SAFELY.values(), ids=READ_SAFELY.keys())
def test_odd_but_harmless_pieces_are_read_safely(text):
    reading = PIECES.read(text)
    _safe(reading.value)
    _renders_escaped(reading.tex)


def test_html_is_kept_as_text_and_escaped_when_shown():
    reading = PIECES.read("<script>alert(1)</script>")
    assert reading.value == ("<script>alert(1)</script>",)
    assert "&lt;script&gt;" in tex_to_mathml(reading.tex)


@pytest.mark.parametrize("text", [*REFUSED.values(), *(t for (t,) in READ_SAFELY.values())])
def test_choices_refuse_hostile_text_listing_the_options(text):
    with pytest.raises(AnswerError) as caught:
        CHOICE.read(text)
    assert caught.value.message


def test_a_tuple_of_text_shapes_stays_bounded():
    shape = TupleShape([PIECES, CHOICE], ["pieces", "kind"])
    for text in ("a;" * 100_000, '"' * 50_000 + ";static", "[" * 10_000 + "; static"):
        with pytest.raises(AnswerError):
            shape.read(text)


@pytest.mark.parametrize("text", [*REFUSED.values(), *(t for (t,) in READ_SAFELY.values())])
def test_grading_hostile_text_is_never_correct_and_never_raises(toy_kinds, text):
    for spec in ({"kind": "toy_pieces", "word": "lowest"}, {"kind": "toy_choice"}):
        verdict = grade(spec, text)
        assert verdict.status != Status.CORRECT
        if verdict.status == Status.INVALID:
            assert verdict.message and verdict.score == 0.0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_refused_with_a_reason_or_read_within_the_whitelist(text):
    try:
        reading = PIECES.read(text)
    except AnswerError as error:
        assert error.message
        return
    _safe(reading.value)
    _renders_escaped(reading.tex)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_an_option_or_refused(text):
    try:
        assert CHOICE.read(text).value in CHOICE.options
    except AnswerError as error:
        assert "static, contextual" in error.message or error.bound
