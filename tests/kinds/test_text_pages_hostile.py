"""Hostile answers to the kinds of pages 2 and 3: the engine's hostile corpus plus tuples,
numbers and piece sequences aimed at these shapes (look-alike spaces and digits, runaway parts,
broken lists, underscores for spaces). Each is read as ``invalid`` with a message, or at worst
marked ``incorrect``; none is ``correct``, and none raises."""

import pytest

import grading
from grading import Status
from practice.generators import generate
from tests.grading.test_hostile import CORPUS

SPECS = {
    "char_vs_word_unknowns": {
        "kind": "char_vs_word_unknowns",
        "vocab": ["by", "ducks", "fed", "the"],
        "tokens": ["Zofia", "fed", "teh", "ducks"],
        "table": "latin",
    },
    "sequence_lengths": {
        "kind": "sequence_lengths",
        "pieces": ["The", " bank", " approved", " the", " loan", "."],
    },
    "attention_cost": {"kind": "attention_cost", "short": 6, "long": 27, "mask": "causal"},
    "letters_in_pieces": {
        "kind": "letters_in_pieces",
        "vocab": ["les", "tle", "seven", "teen", " yell", " bott", " lit"],
        "ids": [2, 3, 6, 1, 5, 0],
        "letter": "e",
    },
    "digit_chunks": {"kind": "digit_chunks", "number": "1234567", "group": 3, "marked": 4},
    "whitespace_pieces": {
        "kind": "whitespace_pieces",
        "vocab": [" ", "  ", "    ", "return", " return", "user", " user", "_", "id"],
        "example": "    return user_id",
        "line": "     return user_id",
    },
}
AIMED = [
    "2;;0",
    "2; 0; 0",
    "2 ; 0 ;",
    ";" * 5000,
    "2; " * 4000,
    "27; 6; 9/0",
    "27; 6; 1e400",
    "27; 6; 4.5" + "0" * 5000,
    "27; 6; " + "9" * 400 + "/2",
    "２７; ６; 9/2",  # full-width digits
    "٢٧; 6; 9/2",  # Arabic-Indic digits
    "27\u200b; 6; 9/2",  # zero-width space
    "21; 378; 18" + "\x00",
    "21; 378; sqrt(-324)",
    "21; 378; exp(" * 200,
    "123 456 7; 500; 500",
    "1２3 456 7; 500",
    '["123", "456", "7"; 500',
    "123 456 7; -500",
    "123 456 7; 5e2",
    "seven teen ▁lit tle ▁bott les; 6" + " x" * 400,
    "seven teen \u2581\u2581\u2581 ; 6",
    "seven\u0301 teen ▁lit tle ▁bott les; 6",  # a combining accent
    "ѕeven teen ▁lit tle ▁bott les; 6",  # Cyrillic ѕ
    "    ▁return ▁user _ id",  # real spaces where the pieces need ▁
    "____ _return _user _ id",  # underscores are not spaces here
    "\u3000\u3000\u3000\u3000 \u3000return user _ id",  # ideographic spaces
    "▁▁▁▁ ▁return ▁user _ id\u202e",  # right-to-left override
    "|" * 3000,
    "▁" * 5000,
    '["    ", " return", " user", "_", "id"]]',
    '["    ", " return", " user", "_", "id",]',
    "['    ', ' return', ' user', '_', 'id'",
    "<svg onload=alert(1)>",
    "$\\text{27}$; 6; 9/2",
]


@pytest.mark.parametrize("kind", list(SPECS))
def test_hostile_answers_are_never_correct_and_never_raise(kind):
    spec = SPECS[kind]
    for text in CORPUS + AIMED:
        verdict = grading.grade(spec, text)
        assert verdict.status in (Status.INVALID, Status.INCORRECT), (kind, text[:60], verdict)
        if verdict.status == Status.INVALID:
            assert verdict.message, (kind, text[:60])


def test_other_spaces_between_pieces_read_as_spaces():
    spec = SPECS["digit_chunks"]

    assert grading.grade(spec, "123\u00a0456\u2009 7; 500").status == Status.CORRECT


HOSTILE_SPECS = {
    "char_vs_word_unknowns": {
        "kind": "char_vs_word_unknowns",
        "vocab": ["<script>", "*x*", "a$b$c"],
        "tokens": ["<script>", "*x*", "a$b$c", "`q`"],
        "table": "unicode",
    },
    "sequence_lengths": {
        "kind": "sequence_lengths",
        "pieces": ["<script>", " a$b$c", " `tick`", " *x*", " |"],
    },
    "digit_chunks": {
        "kind": "digit_chunks",
        "number": "1234567",
        "group": 3,
        "marked": 4,
        "context": "<script>alert(1)</script> $x$ {n} *bold* `code`",
    },
    "whitespace_pieces": {
        "kind": "whitespace_pieces",
        "vocab": [" ", "    ", "x", " x", "=", " =", " `", "`", "<b>", " <b>", "|", " |"],
        "example": "    x = ` <b> |",
        "line": "     x = ` <b> |",
    },
}


@pytest.mark.parametrize("kind", list(HOSTILE_SPECS))
def test_spec_text_is_shown_literally_in_statement_and_picture(kind):
    from courses.mathml import render_markdown
    from practice.generators import render_statement, render_svg

    spec = HOSTILE_SPECS[kind]
    grading.validate_spec(spec)
    html = render_markdown(render_statement(spec))

    assert "<script>" not in html and "<b>" not in html
    assert "tex-error" not in html
    assert "&lt;script&gt;" in html or "&lt;b&gt;" in html
    # The spec's dollars open no formula: only the statement's own are typeset, as many as in
    # a generated problem of the kind (these statements have a fixed number of formulas).
    clean = render_markdown(render_statement(generate(kind, seed=0, level=1)))
    assert html.count("<math") == clean.count("<math")
    svg = render_svg(spec, answer=grading.expected_answer(spec))
    assert "<script>" not in svg and "<b>" not in svg


def test_a_context_without_the_number_is_refused():
    spec = dict(HOSTILE_SPECS["digit_chunks"], context="no number here")

    with pytest.raises(grading.SpecError) as error:
        grading.validate_spec(spec)
    assert error.value.field == "context"
