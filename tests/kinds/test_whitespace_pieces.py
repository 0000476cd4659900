"""``whitespace_pieces``: a code line's pieces by longest match after a one-space re-indent."""

import os

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordPiece

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    SVG,
    boxes,
    parse_svg,
)

NAME = "whitespace_pieces"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
VOCAB = [" ", "  ", "    ", "return", " return", "user", " user", "_", "id", " if"]


def spec(**overrides) -> dict:
    """Return ``return user_id`` indented by 4 spaces (the example) and by 5 (the line)."""
    base = {
        "kind": NAME,
        "vocab": list(VOCAB),
        "example": "    return user_id",
        "line": "     return user_id",
    }
    base.update(overrides)
    return base


def test_hugging_face_wordpiece_does_the_same_longest_match():
    """The oracle: WordPiece with no continuing prefix and no pre-tokenizer is greedy longest
    match over the whole line, as the rule states."""
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            vocab = {piece: k for k, piece in enumerate(problem["vocab"])}
            vocab["[UNK]"] = len(vocab)
            model = WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="")
            tokens = Tokenizer(model).encode(problem["line"]).tokens
            assert tuple(tokens) == grading.expected_answer(problem)


def test_one_more_space_attaches_to_the_word():
    assert grading.expected_answer(spec()) == ("    ", " return", " user", "_", "id")
    assert grading.expected_answer(spec(line="   return user_id")) == (
        "  ",
        " return",
        " user",
        "_",
        "id",
    )


@pytest.mark.parametrize(
    "text",
    [
        "▁▁▁▁ ▁return ▁user _ id",
        "▁▁▁▁|▁return|▁user|_|id",
        '["    ", " return", " user", "_", "id"]',
    ],
)
def test_the_underscore_is_a_character_and_only_the_block_marks_a_space(text):
    assert grading.grade(spec(), text).status == Status.CORRECT


def test_an_underscore_typed_for_a_space_is_not_read_as_one():
    verdict = grading.grade(spec(), "____ _return _user _ id")

    assert verdict.status == Status.INCORRECT


@pytest.mark.parametrize(
    ("text", "mistake", "named"),
    [
        ("return ▁user _ id", "dropped_whitespace", "leave out the indentation"),
        ("▁ ▁ ▁ ▁ ▁ return ▁user _ id", "space_per_piece", "a piece of its own"),
        ("▁▁▁▁▁ return▁ user _ id", "space_on_previous_piece", "end of the piece before it"),
        ("▁▁▁▁▁ return ▁user _ id", "edited_example_pieces", "one space longer"),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, named):
    verdict = grading.grade(spec(), text)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis.mistake == mistake
    assert named in verdict.explanation
    assert "`▁▁▁▁`₄ `▁return` `▁user` `_` `id`" in verdict.explanation  # the run counted


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"vocab": []}, "vocab"),
        ({"vocab": [*VOCAB, " "]}, "vocab"),
        ({"vocab": [*VOCAB, "a\tb"]}, "vocab[10]"),
        ({"vocab": [p for p in VOCAB if p != "_"]}, "example"),
        ({"line": "     return user"}, "line"),
        ({"line": "     return user_id\n"}, "line"),
        ({"example": ""}, "example"),
    ],
)
def test_a_malformed_spec_names_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_the_statement_shows_the_example_cut_and_the_new_line():
    text = render_statement(spec())

    assert "**longest**" in text
    assert "`▁▁▁▁return▁user_id` (indented by $4$ spaces) is cut into" in text
    assert "`▁▁▁▁`₄ `return` `▁user` `_` `id`" in text  # a run of spaces with its count
    assert "`▁▁▁▁▁▁▁▁`₈" in text or "`▁▁▁▁`₄," in text  # the vocabulary's runs are counted too
    assert "indented by $5$ spaces, `▁▁▁▁▁return▁user_id`" in text


def test_the_fresh_picture_does_not_cut_the_new_line():
    root = parse_svg(render_svg(spec()))

    assert boxes(root, "piece") == ["▁▁▁▁", "return", "▁user", "_", "id"]
    # The run's four spaces are drawn as separate marks with their count beside them.
    (run,) = [t for t in root.iter(f"{SVG}text") if (t.text or "").startswith("▁▁")]
    assert run.text == "▁▁▁▁₄" and float(run.get("letter-spacing")) > 0
    assert "".join(boxes(root, "char")) == "▁▁▁▁▁return▁user_id"
    assert boxes(root, "right") == [] and boxes(root, "changed") == []


def test_after_a_wrong_answer_the_picture_marks_the_changed_pieces():
    root = parse_svg(render_svg(spec(), answer=("     ", "return", " user", "_", "id")))

    assert boxes(root, "right") == ["▁▁▁▁", "▁user", "_", "id"]
    assert boxes(root, "changed") == ["▁return"]
    assert boxes(root, "answer") == ["▁▁▁▁▁", "return", "▁user", "_", "id"]
