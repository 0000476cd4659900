"""``sequence_lengths``: a passage's positions as characters and as pieces, and the ratio."""

import os
from fractions import Fraction

import numpy as np
import pytest
from tokenizers import Regex, Tokenizer, pre_tokenizers
from tokenizers.models import WordPiece

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    boxes,
    parse_svg,
)

NAME = "sequence_lengths"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
PAGE_EXAMPLE = ["The", " bank", " approved", " the", " loan", "."]


def spec(pieces=None) -> dict:
    """Return the page's example: 27 characters, 6 pieces, ratio 9/2."""
    return {"kind": NAME, "pieces": list(PAGE_EXAMPLE) if pieces is None else pieces}


def test_hugging_face_counts_agree_with_the_right_answer():
    """The oracle: tokenizers' one-character Split counts the characters; a greedy WordPiece
    model over the shown pieces re-cuts the passage into the same pieces."""
    characters = pre_tokenizers.Split(Regex("."), behavior="isolated")
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            text = "".join(problem["pieces"])
            chars, count, ratio = grading.expected_answer(problem)
            assert len(characters.pre_tokenize_str(text)) == chars
            vocab = {p: k for k, p in enumerate(dict.fromkeys(problem["pieces"]))}
            vocab["[UNK]"] = len(vocab)
            model = WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="")
            assert Tokenizer(model).encode(text).tokens == problem["pieces"]
            assert count == len(problem["pieces"])
            assert float(ratio) == pytest.approx(np.float64(chars) / np.float64(count))


def test_the_page_example_is_27_characters_6_pieces_ratio_four_and_a_half():
    assert grading.expected_answer(spec()) == (27, 6, Fraction(9, 2))
    assert grading.grade(spec(), "27; 6; 4.5").status == Status.CORRECT


@pytest.mark.parametrize(
    ("text", "mistake", "named"),
    [
        ("23; 6; 23/6", "spaces_not_counted", "without its 4 spaces"),
        ("27; 5; 27/5", "counted_words", "the number of words"),
        ("27; 6; 2/9", "ratio_inverted", "upside down"),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, named):
    verdict = grading.grade(spec(), text)

    assert verdict.diagnosis.mistake == mistake
    assert named in verdict.explanation
    assert "\\frac{27}{6} = \\frac{9}{2} = 4.5" in verdict.explanation


@pytest.mark.parametrize(
    ("pieces", "field"),
    [
        ([], "pieces"),
        ("The bank", "pieces"),
        (["The", ""], "pieces[1]"),
        (["The", 3], "pieces[1]"),
        (["The", " bank\n"], "pieces[1]"),
        (["   ", " "], "pieces"),
        (["x"] * 41, "pieces"),
    ],
)
def test_a_malformed_spec_names_the_field(pieces, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(pieces))
    assert error.value.field == field


def test_the_statement_shows_the_pieces_and_says_spaces_count():
    text = render_statement(spec())

    assert "`The` `▁bank` `▁approved` `▁the` `▁loan` `.`" in text
    assert "spaces and punctuation alike" in text


def test_the_fresh_picture_draws_characters_and_pieces_without_counts():
    svg = render_svg(spec())
    root = parse_svg(svg)

    assert "".join(boxes(root, "char")) == "The▁bank▁approved▁the▁loan."
    assert boxes(root, "piece") == ["The", "▁bank", "▁approved", "▁the", "▁loan", "."]
    assert "27" not in root.find("{http://www.w3.org/2000/svg}desc").text


def test_after_an_answer_the_picture_gives_both_counts():
    root = parse_svg(render_svg(spec(), answer=(23, 6, Fraction(23, 6))))
    desc = root.find("{http://www.w3.org/2000/svg}desc").text

    assert "27 characters, 6 pieces" in desc
    assert "Your answer: 23 characters" in desc


def test_a_ratio_typed_as_a_decimal_is_marked_by_the_decimal_policy():
    assert grading.grade(spec(["He", " fed", " the", " ducks", "."]), "17; 5; 3.4").status == (
        Status.CORRECT
    )
    long = spec(["She", " crossed", " the", " old", " bridge", "."])  # 27 / 6 again
    inverted = grading.grade(long, "27; 6; 0.222")
    assert inverted.diagnosis.mistake == "ratio_inverted"
    odd = spec(["He", " crossed", " the", " old", " bridge", "."])  # 26 / 6 = 13/3
    assert grading.grade(odd, "26; 6; 4.333").status == Status.CORRECT
    assert grading.grade(odd, "26; 6; 4.3").status == Status.INCORRECT


# The verdict's column on a 390 px phone is 312 px wide (measured in Chromium).
PHONE_VERDICT_COLUMN = 312


def test_every_picture_fits_a_phones_verdict_column_and_shows_spaces_as_the_mark():
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            wrong = grading.mistaken_answers(problem)[0][1]
            for markup in (render_svg(problem), render_svg(problem, answer=wrong)):
                root = parse_svg(markup)
                assert float(root.get("width")) <= PHONE_VERDICT_COLUMN, (level, seed)
                chars = "".join(boxes(root, "char"))
                assert chars == "".join(problem["pieces"]).replace(" ", "▁")
                assert "_" not in chars


def test_the_learners_counts_are_drawn_as_the_learners():
    root = parse_svg(render_svg(spec(), answer=(23, 6, Fraction(23, 6))))
    mine = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    drawn = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("data-role")]

    assert "yours: 23 characters, 6 pieces" in mine
    assert [t.text for t in drawn if t.get("data-role") == "answer"] == [
        "yours: 23 characters, 6 pieces",
        "ratio 23/6",
    ]
