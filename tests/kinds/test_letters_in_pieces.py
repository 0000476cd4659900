"""``letters_in_pieces``: spell a phrase from its piece ids, then count one letter."""

import os
from collections import Counter

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    boxes,
    parse_svg,
)

NAME = "letters_in_pieces"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
VOCAB = ["les", "tle", "seven", "teen", " yell", " bott", " lit"]


def spec(**overrides) -> dict:
    """Return *seventeen little bottles* as ids: e occurs 2 + 2 + 0 + 1 + 0 + 1 = 6 times."""
    base = {"kind": NAME, "vocab": list(VOCAB), "ids": [2, 3, 6, 1, 5, 0], "letter": "e"}
    base.update(overrides)
    return base


def test_hugging_face_word_level_model_spells_the_same_pieces():
    """The oracle: a WordLevel model built from the table turns each id back into its piece
    (``id_to_token``); ``collections.Counter`` counts the letter in the joined text."""
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            vocab = {piece: k for k, piece in enumerate(problem["vocab"])}
            tokenizer = Tokenizer(WordLevel(vocab, unk_token=problem["vocab"][0]))
            pieces = tuple(tokenizer.id_to_token(i) for i in problem["ids"])
            count = Counter("".join(pieces))[problem["letter"]]
            assert grading.expected_answer(problem) == (pieces, count)


def test_the_example_spells_seventeen_little_bottles():
    pieces = ("seven", "teen", " lit", "tle", " bott", "les")
    assert grading.expected_answer(spec()) == (pieces, 6)
    assert grading.grade(spec(), "seven teen ▁lit tle ▁bott les; 6").status == Status.CORRECT
    assert grading.grade(spec(), "seven teen _lit tle _bott les; 6").status == Status.CORRECT


@pytest.mark.parametrize(
    ("text", "mistake", "terms", "named"),
    [
        ("seven teen ▁lit tle ▁bott les; 4", "counted_pieces", (1,), "number of pieces"),
        ("seven teen ▁lit tle ▁bott les; 2", "one_piece_only", (1, 1), "piece 2, `teen`"),
        ("seven teen ▁lit tle ▁bott les; 5", "missed_double", (1,), "*ee* in `teen`"),
        (
            "les tle seven teen ▁yell ▁bott; 7",
            "piece_by_position",
            (0,),
            "receives id 2, which is `seven`, not row 0, `les`",
        ),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, terms, named):
    verdict = grading.grade(spec(), text)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis.mistake == mistake
    assert tuple(verdict.diagnosis.terms) == terms
    assert named in verdict.explanation
    assert "2 (`seven`) + 2 (`teen`) + 0 (`▁lit`) + 1 (`tle`) + 0 (`▁bott`) + 1 (`les`) = 6" in (
        verdict.explanation
    )


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"vocab": []}, "vocab"),
        ({"vocab": [*VOCAB, "les"]}, "vocab"),
        ({"vocab": [*VOCAB[:6], "a1"]}, "vocab[6]"),
        ({"vocab": [*VOCAB[:6], "   "]}, "vocab[6]"),
        ({"ids": [2, 7]}, "ids[1]"),
        ({"ids": [2, "3"]}, "ids[1]"),
        ({"ids": []}, "ids"),
        ({"letter": "ee"}, "letter"),
        ({"letter": "3"}, "letter"),
    ],
)
def test_a_malformed_spec_names_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_the_statement_gives_the_ids_and_the_table_but_not_the_spelling():
    text = render_statement(spec())

    assert "$2$, $3$, $6$, $1$, $5$, $0$" in text
    assert "| 6 | `▁lit` |" in text
    assert "*e*" in text


def test_the_fresh_picture_shows_only_the_ids():
    root = parse_svg(render_svg(spec()))

    assert boxes(root, "id") == ["2", "3", "6", "1", "5", "0"]
    assert boxes(root, "right") == []
    assert "seven" not in "".join(root.itertext())


def test_after_a_wrong_answer_the_picture_spells_the_pieces_beside_the_learners():
    wrong = ("les", "tle", "seven", "teen", " yell", " bott")
    root = parse_svg(render_svg(spec(), answer=(wrong, 7)))

    assert boxes(root, "right") == ["seven", "teen", "▁lit", "tle", "▁bott", "les"]
    assert boxes(root, "answer") == ["les", "tle", "seven", "teen", "▁yell", "▁bott"]
    assert "2 + 2 + 0 + 1 + 0 + 1 = 6" in root.find("{http://www.w3.org/2000/svg}desc").text


def test_the_answer_help_names_one_mark_for_a_space_in_words():
    # ▁ and _ look alike in the help's font: "▁ or _" read as the same mark twice.
    help_text = grading.answer_help(spec())

    assert "leading space as an underscore" in help_text
    assert "▁ or _" not in help_text and "▁" not in help_text
    pieces = help_text.rsplit("such as ", 1)[1].split(";")[0]
    assert "_" in pieces  # the example types the space as the help says


def test_pictures_fit_a_phones_verdict_column_and_draw_a_wrong_count():
    # The verdict's column on a 390 px phone is 312 px wide: rows of boxes wrap.
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            for _, value in grading.mistaken_answers(problem):
                root = parse_svg(render_svg(problem, answer=value))
                assert float(root.get("width")) <= 312, (level, seed)
    root = parse_svg(render_svg(spec(), answer=(grading.expected_answer(spec())[0], 7)))
    mine = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("data-role")]
    assert "your count: 7" in mine
