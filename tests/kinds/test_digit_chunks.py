"""``digit_chunks``: a number's digit pieces (from the left) and one digit's worth."""

import os

import pytest
from tokenizers import Regex, pre_tokenizers

import grading
from grading import SpecError
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement, render_svg

from .checks import (
    boxes,
    parse_svg,
)

NAME = "digit_chunks"
SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))


def spec(**overrides) -> dict:
    """Return 1234567 with its 5th digit marked: pieces 123 456 7; the 5 is worth 500."""
    base = {"kind": NAME, "number": "1234567", "group": 3, "marked": 4}
    base.update(overrides)
    return base


def test_hugging_face_split_pre_tokenizer_agrees_with_the_pieces():
    """The oracle: tokenizers' Split on ``\\d{1,3}`` (isolated) cuts digit runs from the left."""
    split = pre_tokenizers.Split(Regex(r"\d{1,3}"), behavior="isolated")
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            pieces, worth = grading.expected_answer(problem)
            assert tuple(p for p, _ in split.pre_tokenize_str(problem["number"])) == pieces
            number, marked = problem["number"], problem["marked"]
            # The worth from integer arithmetic: the number minus itself with that digit zeroed.
            zeroed = number[:marked] + "0" + number[marked + 1 :]
            assert worth == int(number) - int(zeroed)


def test_the_right_answer_of_the_page_example():
    assert grading.expected_answer(spec()) == (("123", "456", "7"), 500)
    assert grading.grade(spec(), "123 456 7; 500").status == Status.CORRECT


@pytest.mark.parametrize(
    ("text", "mistake", "named"),
    [
        ("1 234 567; 500", "grouped_from_right", "from the right"),
        ("1 2 3 4 5 6 7; 500", "one_digit_per_piece", "one piece per digit"),
        ("123 456 7; 50", "place_within_piece", "`456`"),
        ("123 456 7; 5000", "place_off_by_one", "counts the 5 itself"),
    ],
)
def test_each_mistake_names_what_went_wrong(text, mistake, named):
    verdict = grading.grade(spec(), text)

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis.mistake == mistake
    assert named in verdict.explanation


def test_the_within_piece_explanation_gives_both_place_values():
    verdict = grading.grade(spec(), "123 456 7; 50")

    assert "5 \\times 10^{1} = 50" in verdict.explanation
    assert "5 \\times 10^{2} = 500" in verdict.explanation
    assert "2 digits follow" in verdict.explanation


def test_pieces_that_do_not_spell_the_number_get_the_hint():
    verdict = grading.grade(spec(), "12 345 67; 500")

    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is None


def test_a_malformed_answer_is_invalid_and_says_where():
    verdict = grading.grade(spec(), "123 456 7")

    assert verdict.status == Status.INVALID
    assert "2" in verdict.message


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"number": "12a4"}, "number"),
        ({"number": "0123"}, "number"),
        ({"number": "1"}, "number"),
        ({"number": "1" * 16}, "number"),
        ({"group": 5}, "group"),
        ({"group": True}, "group"),
        ({"marked": 7}, "marked"),
        ({"marked": -1}, "marked"),
        ({"marked": "4"}, "marked"),
    ],
)
def test_a_malformed_spec_names_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_the_statement_states_the_rule_and_marks_the_digit():
    text = render_statement({**spec(), "context": "Her order number is {n}."})

    assert "**counting from the left**" in text
    assert "only the last piece may be shorter" in text
    assert "*Her order number is 1234567\\.*" in text
    assert "**5th digit from the left** is a $5$" in text


def test_the_fresh_picture_shows_the_digits_but_not_the_pieces():
    root = parse_svg(render_svg(spec()))

    assert boxes(root, "digit") == list("1234567")
    assert boxes(root, "right") == []
    marked = [r for r in root.iter() if r.get("data-role") == "digit" and r.get("fill") != "none"]
    assert [r.get("data-index") for r in marked] == ["4"]


def test_after_a_wrong_answer_the_picture_shows_both_cuts():
    root = parse_svg(render_svg(spec(), answer=(("1", "234", "567"), 500)))

    assert boxes(root, "right") == ["123", "456", "7"]
    assert boxes(root, "answer") == ["1", "234", "567"]


def test_pieces_in_the_statement_and_the_help_are_set_apart_by_bars():
    # "1 965" or "12 345" reads as one number; "1 | 965" does not.
    for level in GENERATORS[NAME].levels:
        problem = generate(NAME, seed=0, level=level)
        example = render_statement(problem).rsplit("for example `", 1)[1].split("`")[0]
        pieces, _ = example.split(";")
        assert " | " in pieces, example
        help_example = grading.answer_help(problem).rsplit("such as ", 1)[1]
        assert " | " in help_example.split(";")[0], help_example


def test_pictures_are_as_wide_as_their_digits_within_a_phones_verdict_column():
    for level in GENERATORS[NAME].levels:
        for seed in range(SEEDS):
            problem = generate(NAME, seed=seed, level=level)
            wrong = grading.mistaken_answers(problem)[0][1]
            for markup in (render_svg(problem), render_svg(problem, answer=wrong)):
                width = float(parse_svg(markup).get("width"))
                assert width <= 312, (level, seed)
                assert width <= max(180, 32 + 28 * len(problem["number"])), (level, seed)
