"""utf8_bytes: a word's UTF-8 bytes, checked against Python's own codecs (UTF-8 for the answer,
Windows-1252 for the legacy mistake)."""

import xml.etree.ElementTree as ET

import pytest

import grading
from grading.spec import SpecError
from practice.generators import generate
from practice.generators.utf8_bytes import Utf8BytesGenerator

from .page_pieces import LEVELS, SEEDS, integer_forms

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("level", LEVELS)
def test_right_bytes_and_legacy_codes_agree_with_python_codecs(level):
    for seed in range(SEEDS):
        spec = generate("utf8_bytes", seed=seed, level=level)
        word = spec["word"]
        assert grading.expected_answer(spec) == tuple(word.encode("utf-8"))
        assert bytes(grading.expected_answer(spec)).decode("utf-8") == word
        legacy = [v for d, v in grading.mistaken_answers(spec) if d.mistake == "legacy_codes"]
        assert legacy == [tuple(word.encode("cp1252"))]
        # Latin-1 lacks the character that makes the legacy code differ from the code point.
        with pytest.raises(UnicodeEncodeError):
            word.encode("latin-1")


def test_code_point_for_i_diaeresis_is_named_with_its_bytes():
    spec = {"kind": "utf8_bytes", "word": "naïve…"}
    assert grading.expected_answer(spec) == (110, 97, 195, 175, 118, 101, 226, 128, 166)
    verdict = grading.grade(spec, "110 97 239 118 101 226 128 166")
    assert verdict.diagnosis.mistake == "code_point"
    assert verdict.diagnosis.terms == (2, 3)
    assert "*ï* (U+00EF)" in verdict.explanation
    assert "195 175" in verdict.explanation and "239" in verdict.explanation


def test_cafe_code_point_and_latin_1_coincide_and_the_grader_says_so():
    # For é the code point and the Latin-1 byte are both 233: no problem generated has only
    # such characters, and the grader names no single mistake for it.
    spec = {"kind": "utf8_bytes", "word": "café"}
    verdict = grading.grade(spec, "99 97 102 233")
    assert verdict.status == "incorrect"
    assert verdict.diagnosis is None


def test_continuation_without_marker_names_the_byte():
    spec = {"kind": "utf8_bytes", "word": "€5"}
    assert grading.expected_answer(spec) == (226, 130, 172, 53)
    verdict = grading.grade(spec, "226 2 44 53")
    assert verdict.diagnosis.mistake == "continuation_without_marker"
    assert "The byte at position 2 (in *€*" in verdict.explanation and "130" in verdict.explanation


def test_lead_byte_only_and_legacy_codes_are_told_apart():
    spec = {"kind": "utf8_bytes", "word": "Saša"}
    assert grading.grade(spec, "83 97 197 97").diagnosis.mistake == "one_byte_per_character"
    assert grading.grade(spec, "83 97 154 97").diagnosis.mistake == "legacy_codes"
    assert grading.grade(spec, "83 97 353 97").diagnosis.mistake == "code_point"


@pytest.mark.parametrize("word", ["", "x" * 13, "e\u0301", "a\u200bb", 5])
def test_malformed_words_are_refused_naming_the_field(word):
    with pytest.raises(SpecError) as error:
        grading.validate_spec({"kind": "utf8_bytes", "word": word})
    assert error.value.field == "word"


def test_fresh_picture_shows_characters_and_code_points_not_bytes():
    spec = generate("utf8_bytes", seed=1, level=4)
    root = ET.fromstring(Utf8BytesGenerator().picture(spec))
    roles = {r.get("data-role") for r in root.iter(f"{SVG}rect")}
    assert roles == {"char", "code-point", "bits"}
    markup = ET.tostring(root, encoding="unicode")
    multi = [b for ch in spec["word"] if ord(ch) > 127 for b in ch.encode("utf-8")]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for byte in multi:
        assert str(byte) not in texts
    assert str(list(grading.expected_answer(spec))) not in markup


def test_answer_picture_puts_each_byte_under_its_character():
    spec = {"kind": "utf8_bytes", "word": "Zoë’s"}
    right = grading.expected_answer(spec)
    root = ET.fromstring(Utf8BytesGenerator().picture(spec, answer=(90, 111, 235, 146, 115)))
    bytes_ = [r for r in root.iter(f"{SVG}rect") if r.get("data-role") == "byte"]
    assert [int(r.get("data-char")) for r in bytes_] == [0, 1, 2, 2, 3, 3, 3, 4]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for byte in right:
        assert str(byte) in texts
    answers = [r for r in root.iter(f"{SVG}rect") if r.get("data-role") == "answer"]
    assert [r.get("data-style") for r in answers] == ["right", "right", "wrong", "wrong", "wrong"]


def test_hexadecimal_bytes_are_read_and_marked_like_decimal_ones():
    spec = {"kind": "utf8_bytes", "word": "Saša"}
    assert grading.grade(spec, "0x53 0x61 0xC5 0xA1 0x61").status == "correct"
    assert grading.grade(spec, "[83, 97, 0xc5, 0xa1, 97]").status == "correct"
    verdict = grading.grade(spec, "0x53 0x61 0xC5 0x61")
    assert verdict.diagnosis.mistake == "one_byte_per_character"
    assert verdict.interpreted == "\\left[83,\\ 97,\\ 197,\\ 97\\right]"


def test_hexadecimal_without_0x_is_refused_with_a_hint():
    verdict = grading.grade({"kind": "utf8_bytes", "word": "Saša"}, "53 61 C5 A1 61")
    assert verdict.status == "invalid"
    assert "0x" in verdict.message


@pytest.mark.parametrize("level", LEVELS)
def test_every_explanation_names_the_characters_concerned(level):
    for seed in range(10):
        spec = generate("utf8_bytes", seed=seed, level=level)
        word = spec["word"]
        for listed, value in grading.mistaken_answers(spec):
            explanation = grading.grade(spec, integer_forms(value)[0]).explanation
            chars = {word[k] for k in range(len(word)) if len(word[k].encode()) > 1}
            named = [ch for ch in chars if f"(U+{ord(ch):04X})" in explanation]
            assert named, (listed, explanation)
            assert str(list(grading.expected_answer(spec))) in explanation
