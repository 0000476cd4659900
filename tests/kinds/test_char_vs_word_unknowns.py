"""``char_vs_word_unknowns``: unknown positions under a word vocabulary and a character table."""

import os
import string

import pytest
from tokenizers import Regex, Tokenizer, pre_tokenizers
from tokenizers.models import WordLevel

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    boxes,
    parse_svg,
)

NAME = "char_vs_word_unknowns"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))


def spec(**overrides) -> dict:
    """Return *Zofia fed teh ducks*: 2 unknown words (Zofia, teh), no unknown character."""
    base = {
        "kind": NAME,
        "vocab": ["by", "ducks", "fed", "the", "river"],
        "tokens": ["Zofia", "fed", "teh", "ducks"],
        "table": "latin",
    }
    base.update(overrides)
    return base


def _unknowns(vocab: list[str], text: str, split) -> int:
    """Count [UNK] ids from a Hugging Face WordLevel tokenizer over ``vocab``."""
    ids = {word: k for k, word in enumerate(vocab)}
    ids["[UNK]"] = len(ids)
    tokenizer = Tokenizer(WordLevel(ids, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = split
    return tokenizer.encode(text).ids.count(ids["[UNK]"])


def test_hugging_face_word_level_tokenizers_count_the_same_unknowns():
    """The oracle: a WordLevel model split at spaces (words) and one split per character, the
    space kept as a character of its own."""
    words = pre_tokenizers.WhitespaceSplit()
    characters = pre_tokenizers.Split(Regex("."), behavior="isolated")
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            text = " ".join(problem["tokens"])
            table = (
                list(string.ascii_letters + " ")
                if problem["table"] == "latin"
                else sorted(set(text))
            )
            expected = (
                _unknowns(problem["vocab"], text, words),
                _unknowns(table, text, characters),
            )
            assert grading.expected_answer(problem) == expected


def test_characters_leave_nothing_unknown_until_the_table_lacks_a_letter():
    assert grading.expected_answer(spec()) == (2, 0)
    assert grading.expected_answer(spec(tokens=["Zoë", "fed", "the", "ducks"])) == (1, 1)
    assert grading.expected_answer(
        spec(tokens=["Zoë", "fed", "the", "ducks"], table="unicode")
    ) == (1, 0)


@pytest.mark.parametrize(
    ("text", "mistake", "named"),
    [
        ("2; 8", "name_letters_unknown", "*Zofia* and *teh*"),
        ("2; 3", "counted_spaces", "the 3 spaces"),
        ("4; 0", "gave_word_count", "the number of words"),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, named):
    verdict = grading.grade(spec(), text)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis.mistake == mistake
    assert named in verdict.explanation


def test_the_accented_letter_is_named_when_the_table_lacks_it():
    verdict = grading.grade(spec(tokens=["Zoë", "fed", "the", "ducks"]), "1; 3")

    assert verdict.diagnosis.mistake == "name_letters_unknown"
    assert "only `ë` is missing from the table, so 1" in verdict.explanation


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"vocab": []}, "vocab"),
        ({"vocab": ["the", "the"]}, "vocab"),
        ({"vocab": ["the", "two words"]}, "vocab[1]"),
        ({"tokens": "Zofia fed"}, "tokens"),
        ({"tokens": ["Zofia", ""]}, "tokens[1]"),
        ({"tokens": ["x" * 31]}, "tokens[0]"),
        ({"table": "ascii"}, "table"),
    ],
)
def test_a_malformed_spec_names_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_the_statement_lists_the_vocabulary_and_says_what_a_position_is():
    text = render_statement(spec())

    assert "*Zofia fed teh ducks*" in text
    assert "*by*, *ducks*, *fed*, *the*, *river*" in text
    assert "spaces included" in text
    assert "26 capitals" in text


def test_the_fresh_picture_aligns_words_and_characters_without_marking_unknowns():
    root = parse_svg(render_svg(spec()))

    assert boxes(root, "word") == ["Zofia", "fed", "teh", "ducks"]
    assert "".join(boxes(root, "char")) == "Zofia▁fed▁teh▁ducks"
    assert boxes(root, "unknown-word") == []


def test_after_an_answer_the_picture_marks_the_unknowns():
    root = parse_svg(render_svg(spec(tokens=["Zoë", "fed", "teh"]), answer=(1, 0)))

    assert boxes(root, "unknown-word") == ["Zoë", "teh"]
    assert boxes(root, "unknown-char") == ["ë"]
