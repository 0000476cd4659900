"""word_ids: ids of a sentence under a whole-word vocabulary, checked against Hugging Face
`tokenizers` (a WordLevel model with `<unk>`, built from the problem's vocabulary in memory)."""

import xml.etree.ElementTree as ET

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers

import grading
from grading.spec import SpecError
from practice.generators import generate
from practice.generators.word_ids import WordIdsGenerator

from .page_pieces import LEVELS, SEEDS, integer_forms

SVG = "{http://www.w3.org/2000/svg}"


def oracle(spec: dict) -> tuple[list[int], list[str]]:
    """Return the ids and tokens Hugging Face's WordLevel model gives the sentence."""
    vocab = {entry: i for i, entry in enumerate(spec["vocab"])}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    encoding = tokenizer.encode(spec["sentence"])
    return encoding.ids, [spec["sentence"][a:b] for a, b in encoding.offsets]


@pytest.mark.parametrize("level", LEVELS)
def test_right_ids_agree_with_hugging_face_word_level(level):
    for seed in range(SEEDS):
        spec = generate("word_ids", seed=seed, level=level)
        ids, _ = oracle(spec)
        assert list(grading.expected_answer(spec)) == ids, (seed, spec)
        assert 0 in ids


def spec_of(sentence: str, vocab: list[str]) -> dict:
    return {"kind": "word_ids", "sentence": sentence, "vocab": ["<unk>", *vocab]}


def test_each_mistake_reads_as_its_worked_example():
    spec = spec_of("The dog was running to Nakamura.", ["run", "the", "dog", ".", "was", "to"])
    assert grading.expected_answer(spec) == (0, 3, 5, 0, 6, 0, 4)
    cases = {
        "3 5 6 4": ("dropped_unknowns", (0, 3, 5)),
        "0 3 5 1 6 0 4": ("look_alike", (3,)),
        "0 1 2 3 4 5 6": ("ids_by_position", ()),
        "2 3 5 0 6 0 4": ("ignored_case", (0,)),
        "0 3 5 0 6 0": ("dropped_punctuation", (6,)),
    }
    for text, (code, terms) in cases.items():
        verdict = grading.grade(spec, text)
        assert verdict.diagnosis is not None, text
        assert (verdict.diagnosis.mistake, tuple(verdict.diagnosis.terms)) == (code, terms)


def test_look_alike_explanation_names_the_position_the_word_and_the_rule():
    spec = spec_of("The dog was running to Nakamura.", ["run", "the", "dog", ".", "was", "to"])
    explanation = grading.grade(spec, "0 3 5 1 6 0 4").explanation
    assert "position 4" in explanation  # *running*, the fourth token (counted from 1)
    assert "*running*" in explanation and "*run*" in explanation
    assert "[0, 3, 5, 0, 6, 0, 4]" in explanation


def test_case_explanation_says_the_capital_is_unlisted():
    spec = spec_of("The dog was running to Nakamura.", ["run", "the", "dog", ".", "was", "to"])
    explanation = grading.grade(spec, "2 3 5 0 6 0 4").explanation
    assert "position 1" in explanation and "*The*" in explanation and "unknown" in explanation


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        (spec_of("The dog.", ["dog"]) | {"vocab": ["dog", "<unk>"]}, "vocab[0]"),
        (spec_of("The dog.", ["dog", "dog"]), "vocab"),
        (spec_of("The dog's bone.", ["dog"]), "sentence"),
        (spec_of("", ["dog"]), "sentence"),
        (spec_of("The dog.", ["two words"]), "vocab[1]"),
        (spec_of("The dog.", ["dog."]), "vocab[1]"),
    ],
)
def test_malformed_specs_name_the_field(spec, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec)
    assert error.value.field == field


def test_fresh_picture_shows_the_vocabulary_not_the_ids():
    spec = generate("word_ids", seed=3, level=2)
    root = ET.fromstring(WordIdsGenerator().picture(spec))
    roles = {r.get("data-role") for r in root.iter(f"{SVG}rect")}
    assert roles == {"entry", "entry-id"}
    entries = [r.get("data-id") for r in root.iter(f"{SVG}rect") if r.get("data-role") == "entry"]
    assert entries == [str(i) for i in range(len(spec["vocab"]))]
    right = list(grading.expected_answer(spec))
    assert str(right) not in ET.tostring(root, encoding="unicode")


def test_answer_picture_marks_unknown_tokens_and_wrong_ids():
    spec = generate("word_ids", seed=3, level=2)
    ids, tokens = oracle(spec)
    wrong = tuple(i + 1 for i in ids)
    root = ET.fromstring(WordIdsGenerator().picture(spec, answer=wrong))
    rects = list(root.iter(f"{SVG}rect"))
    token_boxes = [r for r in rects if r.get("data-role") == "token"]
    assert [int(r.get("data-unknown")) for r in token_boxes] == [int(i == 0) for i in ids]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for token in tokens:
        assert token in texts
    answers = [r for r in rects if r.get("data-role") == "answer"]
    assert {r.get("data-style") for r in answers} == {"wrong"}


@pytest.mark.parametrize("level", LEVELS)
def test_every_explanation_names_a_position_and_gives_the_ids(level):
    for seed in range(10):
        spec = generate("word_ids", seed=seed, level=level)
        right = list(grading.expected_answer(spec))
        for listed, value in grading.mistaken_answers(spec):
            explanation = grading.grade(spec, integer_forms(value)[0]).explanation
            assert f"The ids are {right}." in explanation
            if listed.terms:
                assert f"position {listed.terms[0] + 1}" in explanation, explanation  # from 1
