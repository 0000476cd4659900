"""The engine marks answers of every shape the same way: read by the kind's shape, compare,
search the kind's catalog, explain (toy kinds from toy_kinds.py)."""

from fractions import Fraction

import pytest
import sympy

from grading import (
    SpecError,
    Status,
    apply_mistake,
    expected_answer,
    grade,
    mistaken_answers,
    read,
)
from grading.errors import AnswerError
from grading.verdict import Diagnosis

BYTES = {"kind": "toy_bytes", "word": "héllo"}  # é is two bytes: 104 195 169 108 108 111
PIECES = {"kind": "toy_pieces", "word": "lowest"}
CHOICE = {"kind": "toy_choice"}
COSINE = {"kind": "toy_cosine", "a": [1, 2], "b": [3, 1]}  # 5 / (sqrt(5) sqrt(10))
PAIR = {"kind": "toy_pair", "word": "bank"}


def test_the_right_answer_is_correct_in_every_written_form(toy_kinds):
    for text in ("[104, 195, 169, 108, 108, 111]", "104 195 169 108 108 111"):
        assert grade(BYTES, text).status == Status.CORRECT
    for text in ("lo west", "lo|west", '["lo", "west"]'):
        assert grade(PIECES, text).status == Status.CORRECT
    assert grade(CHOICE, "Contextual").status == Status.CORRECT
    for text in ("1/sqrt(2)", "sqrt(2)/2", "5/(sqrt(5)*sqrt(10))"):
        assert grade(COSINE, text).status == Status.CORRECT
    assert grade(PAIR, "4; yes").status == Status.CORRECT


def test_a_catalogued_mistake_is_diagnosed_with_its_terms(toy_kinds):
    verdict = grade(BYTES, "104 233 108 108 111")
    assert verdict.status == Status.INCORRECT and verdict.score == 0.0
    assert verdict.diagnosis == Diagnosis("code_points")
    assert verdict.explanation == "You wrote the code points of *héllo*, not its bytes."
    dropped = grade(BYTES, "104 195 108 108 111")
    assert dropped.diagnosis == Diagnosis("dropped_byte", (2,))
    assert grade(PIECES, "low est").diagnosis == Diagnosis("cut_late")
    assert grade(PIECES, "lowest").diagnosis == Diagnosis("uncut")
    assert grade(COSINE, "5").diagnosis == Diagnosis("dot_only")
    assert grade(PAIR, "4; NO").diagnosis == Diagnosis("said_no")


def test_an_unexplained_answer_says_which_positions_differ_and_the_hint(toy_kinds):
    verdict = grade(BYTES, "104 195 169 108 108 112")
    assert verdict.diagnosis is None
    assert verdict.explanation == (
        "No common mistake explains this answer: position 6 (112) differs. "
        "Encode each character, then list the bytes in order."
    )
    pieces = grade(PIECES, "l owest").explanation
    assert "positions 1 ('l') and 2 ('owest') differ" in pieces
    pair = grade(PAIR, "5; yes").explanation
    assert (
        pair
        == "No common mistake explains this answer: in the first part (count), 5 is not the answer."
    )


def test_an_answer_several_mistakes_give_lists_them(toy_kinds):
    verdict = grade(CHOICE, "STATIC")
    assert verdict.diagnosis is None
    assert verdict.explanation == (
        "Your answer is what more than one common mistake gives, so the final answer alone "
        "cannot tell which happened: thought static; ignored layers."
    )


def test_scalar_decimals_follow_the_policy(toy_kinds):
    verdict = grade(COSINE, "0.707")
    assert verdict.status == Status.CORRECT
    assert "0.707 is accepted" in verdict.notes[0]
    coarse = grade(COSINE, "0.71")
    assert coarse.status == Status.INCORRECT
    assert "too coarsely" in coarse.explanation
    assert grade(COSINE, "0.708").status == Status.INCORRECT
    assert grade(COSINE, "5.00").diagnosis == Diagnosis("dot_only")


@pytest.mark.parametrize(
    ("spec", "text", "message"),
    [
        (BYTES, "104, x", "The character 'x' is not allowed"),
        (PIECES, "lo\u202ewest", "U+202E is not allowed"),
        (CHOICE, "dynamic", "is not one of the options: static, contextual"),
        (COSINE, "[1, 2]", "the answer is one number"),
        (PAIR, "4", "type 2 separated by ';'"),
    ],
)
def test_unreadable_answers_are_invalid_with_the_reason(toy_kinds, spec, text, message):
    verdict = grade(spec, text)
    assert verdict.status == Status.INVALID and verdict.score == 0.0
    assert message in verdict.message


def test_read_as_shows_the_shape_s_tex(toy_kinds):
    assert grade(PIECES, "lo▁west").interpreted == "\\text{lo▁west}"
    assert grade(BYTES, "1 2").interpreted == "\\left[1,\\ 2\\right]"
    assert grade(PAIR, "4;no").interpreted == "4;\\quad \\text{no}"


def test_public_api_works_for_every_shape(toy_kinds):
    assert expected_answer(BYTES) == (104, 195, 169, 108, 108, 111)
    assert expected_answer(COSINE) == sympy.sqrt(2) / 2
    codes = [d.mistake for d, _ in mistaken_answers(BYTES)]
    assert codes == ["code_points"] + ["dropped_byte"] * 6
    assert apply_mistake(PIECES, Diagnosis("uncut")) == ("lowest",)
    assert apply_mistake(COSINE, Diagnosis("dot_only")) == 5
    with pytest.raises(ValueError, match=r"outside 0\.\.5"):
        apply_mistake(BYTES, Diagnosis("dropped_byte", (9,)))
    with pytest.raises(ValueError, match="is not a toy_bytes mistake"):
        apply_mistake(BYTES, Diagnosis("uncut"))


def test_a_malformed_toy_spec_names_its_field(toy_kinds):
    with pytest.raises(SpecError) as caught:
        grade({"kind": "toy_pieces", "word": "abc"}, "a")
    assert caught.value.field == "word"


def test_non_text_answers_are_invalid(toy_kinds):
    assert grade(BYTES, None).status == Status.INVALID  # type: ignore[arg-type]
    assert grade(BYTES, Fraction(1)).status == Status.INVALID  # type: ignore[arg-type]


def test_read_gives_the_value_and_what_was_read_without_marking(toy_kinds):
    assert read(PIECES, "lo▁west") == (("lo west",), "\\text{lo▁west}")
    assert read(BYTES, "[1, 2]")[0] == (1, 2)
    with pytest.raises(AnswerError, match="is not one of the options"):
        read(CHOICE, "maybe")
    with pytest.raises(AnswerError, match="must be text"):
        read(CHOICE, None)  # type: ignore[arg-type]
