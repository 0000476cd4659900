from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from courses.mathml import tex_to_mathml
from grading.compare import approx, as_fraction
from grading.parse import AnswerError
from grading.shapes import (
    MAX_PIECES,
    MAX_SEQUENCE_CHARS,
    Choice,
    IntegerSequence,
    IntegerShape,
    PieceSequence,
    ScalarShape,
    TupleShape,
    Vector,
    listed,
    ordinal,
    text_tex,
)
from grading.shapes.differences import describe_offset, told_offset
from grading.tex import scalar_tex
from tests.grading.test_compare import _exact_numbers

F = Fraction


def refused(shape, text: str) -> str:
    with pytest.raises(AnswerError) as caught:
        shape.read(text)
    return caught.value.message


# ---------------------------------------------------------------- vector


def test_vector_reads_the_formats_of_today():
    shape = Vector(2)
    assert shape.read("[1/2, 1]").value == (F(1, 2), F(1))
    assert shape.read("(0.5, 1)").coordinate_decimals == ("0.5", None)
    reading = shape.read("1/2*[1,0] + 1/2*[0,2]")
    assert reading.written_out and reading.value == (F(1, 2), F(1))


def test_vector_of_another_length_is_refused_with_what_was_read():
    with pytest.raises(AnswerError) as caught:
        Vector(2).read("[1, 2, 3]")
    assert "has 3 coordinates; this problem's vectors have 2" in caught.value.message
    assert "bmatrix" in caught.value.tex


def test_vector_refuses_a_single_number():
    assert "a single number was read" in refused(Vector(3), "5")


def test_vector_key_is_exact_and_none_for_irrational_values():
    shape = Vector(2)
    assert shape.key((F(1, 2), F(1))) == (F(1, 2), F(1))
    assert shape.key((sympy.sqrt(2), F(1))) is None


def test_vector_differences_name_the_coordinates_off():
    shape = Vector(3)
    answer, expected = (F(1), F(2), F(3)), (F(1), F(5, 2), F(4))
    assert shape.differences(answer, expected) == (1, 2)
    text = shape.describe_differences(answer, expected)
    assert "the second coordinate is off by $-\\frac{1}{2}$" in text
    assert "the third coordinate is off by $-1$" in text
    assert "first" not in text


def test_vector_decimal_policy_in_matches():
    shape = Vector(2)
    assert shape.matches(shape.read("[0.333, 1]"), (F(1, 3), F(1)))
    assert not shape.matches(shape.read("[0.334, 1]"), (F(1, 3), F(1)))


# ---------------------------------------------------------------- scalar


@pytest.mark.parametrize(
    ("text", "value"),
    [("3/5", F(3, 5)), ("-2", F(-2)), ("2/sqrt(13)", 2 / sympy.sqrt(13)), ("exp(1)", sympy.E)],
)
def test_scalar_reads_one_exact_number(text, value):
    assert ScalarShape().equal(ScalarShape().read(text).value, value)


def test_scalar_keeps_a_typed_decimal_for_the_policy():
    shape = ScalarShape()
    reading = shape.read("0.555")
    assert reading.value == F(555, 1000)
    assert reading.coordinate_decimals == ("0.555",)
    assert shape.matches(reading, 2 / sympy.sqrt(13))  # 0.5547...
    assert not shape.matches(shape.read("0.554"), 2 / sympy.sqrt(13))  # truncated, not rounded


def test_scalar_refuses_a_vector():
    assert "the answer is one number" in refused(ScalarShape(), "[1, 2]")


def test_scalar_key_tex_and_differences():
    shape = ScalarShape()
    assert shape.key(F(1, 2)) == F(1, 2)
    assert shape.key(sympy.sqrt(2)) is None
    assert shape.tex(F(-3, 4)) == "-\\frac{3}{4}"
    assert shape.differences(F(1), F(2)) == (0,)
    assert shape.differences(F(1), F(1)) == ()
    assert shape.describe_differences(F(1), F(3, 2)) == "it is off by $-\\frac{1}{2}$"


# ---------------------------------------------------------------- integers


@pytest.mark.parametrize(("text", "value"), [("7", 7), ("-3", -3), (" +12 ", 12), ("\u22125", -5)])
def test_integer_reads_a_whole_number(text, value):
    reading = IntegerShape().read(text)
    assert reading.value == value and reading.tex == str(value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7.0", "the character '.' is not allowed"),
        ("seven", "the character 's' is not allowed"),
        ("", "the answer is empty"),
        ("   ", "the answer is empty"),
        ("1" * 31, "more than 30 digits"),
        ("3 4", "'3 4' is not a whole number"),
        ("--3", "'--3' is not a whole number"),
        ("x" * (MAX_SEQUENCE_CHARS + 1), "at most 2000 are read"),
        ("\x00", "U+0000 is not allowed"),
        ("\uff13", "is not allowed"),  # a full-width digit
    ],
)
def test_integer_refuses_with_a_reason(text, message):
    assert message in refused(IntegerShape(), text)


@pytest.mark.parametrize("text", ["[4, 0, 7]", "4 0 7", "4, 0, 7", "(4,0,7)", " [ 4 ,0 , 7 ] "])
def test_integer_sequence_reads_every_written_form(text):
    assert IntegerSequence(5).read(text).value == (4, 0, 7)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[4, 0, 7", "the bracket '[' is not closed"),
        ("4, 0]", "the bracket ']' is out of place"),
        ("[[4], 0]", "brackets inside the sequence are not read"),
        ("4,,7", "an entry is missing around a comma"),
        (", 4", "an entry is missing around a comma"),
        ("4, 7,", "an entry is missing around a comma"),
        ("1 2 3 4 5 6", "more than 5 numbers"),
        ("[]", "the answer has 0 numbers"),
        ("4 x 7", "the character 'x' is not allowed"),
        ("4 -+7", "'-+7' is not a whole number"),
    ],
)
def test_integer_sequence_refuses_with_a_reason(text, message):
    assert message in refused(IntegerSequence(5), text)


def test_integer_sequence_differences_point_at_positions():
    shape = IntegerSequence(8)
    assert shape.differences((4, 1, 7), (4, 0, 7)) == (1,)
    assert shape.differences((4, 0), (4, 0, 7)) == (2,)
    text = shape.describe_differences((4, 1, 7, 9), (4, 0, 7))
    assert "your answer has 4 numbers, the answer has 3" in text
    assert "position 2 (1) differs" in text  # counted from 1, as learners are told
    assert shape.tex((4, 0, 7)) == "\\left[4,\\ 0,\\ 7\\right]"


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize(
    "text", ["low est", "low|est", " low | est ", '["low", "est"]', "['low', 'est']", "low\test"]
)
def test_piece_sequence_reads_every_written_form(text):
    assert PieceSequence(5).read(text).value == ("low", "est")


def test_pieces_in_brackets_without_quotes_or_commas_are_plain_pieces():
    assert PieceSequence(5).read("[UNK] low").value == ("[UNK]", "low")
    assert PieceSequence(5).read("[CLS]").value == ("[CLS]",)
    assert PieceSequence(5).read("[a]|[b]").value == ("[a]", "[b]")


def test_space_marks_type_a_space_inside_a_piece():
    shape = PieceSequence(5)
    assert shape.read("▁the cat").value == (" the", "cat")
    assert shape.read("new_york|city").value == ("new york", "city")
    assert shape.read('["▁a", " b"]').value == (" a", " b")


def test_a_kind_can_turn_the_underscore_off():
    shape = PieceSequence(5, space_marks=("▁",))
    assert shape.read("snake_case ▁x").value == ("snake_case", " x")


def test_pieces_are_normalised_to_nfc():
    decomposed = "cafe\u0301"
    (piece,) = PieceSequence(3).read(decomposed).value
    assert piece == "caf\u00e9" and len(piece) == 4


def test_quoted_pieces_keep_escaped_quotes_and_backslashes():
    assert PieceSequence(3).read(r'["a\"b", "c\\d"]').value == ('a"b', "c\\d")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the answer is empty"),
        ("a||b", "piece 1 is empty"),
        ("|a", "piece 0 is empty"),
        ('["a", "b"', "the list is not closed with ]"),
        ("[a, b]", "inside [ ] each piece is quoted"),
        ('["a" "b"]', "inside [ ] each piece is quoted"),
        ('["a",]', "a piece is missing after the last comma"),
        (r'["a\n"]', "inside [ ] each piece is quoted"),
        ("a " * 6, "has 6 pieces; at most 5 are read"),
        ("x" * 41, "piece 0 has 41 characters; at most 40 are read"),
    ],
)
def test_piece_sequence_refuses_with_a_reason(text, message):
    assert message in refused(PieceSequence(5), text)


def test_piece_sequence_bounds_its_own_size():
    with pytest.raises(ValueError, match="at most"):
        PieceSequence(MAX_PIECES + 1)


def test_piece_tex_shows_spaces_as_marks_and_renders():
    shape = PieceSequence(5)
    tex = shape.tex((" the", "c{a}t"))
    assert tex == "\\text{▁the}\\;|\\;\\text{c}\\{\\text{a}\\}\\text{t}"
    assert "<mtext>▁the</mtext>" in tex_to_mathml(tex)


def test_piece_differences_point_at_positions():
    shape = PieceSequence(5)
    assert shape.differences(("a", "b"), ("a", "c", "d")) == (1, 2)
    text = shape.describe_differences(("lo", "w"), ("low",))
    assert "your answer has 2 pieces, the answer has 1" in text
    assert "position 1 ('lo') differs" in text  # counted from 1


def test_text_tex_escapes_every_tex_character():
    tex = text_tex("\\{}$#%&^~_")
    assert "\\text" not in tex  # no plain run: every character is a math escape
    tex_to_mathml(tex)  # renders


# ---------------------------------------------------------------- choice


def test_choice_reads_case_insensitively_and_gives_the_option_as_listed():
    shape = Choice(["Static", "contextual"])
    assert shape.read("STATIC").value == "Static"
    assert shape.read("  Contextual ").value == "contextual"
    assert shape.tex("Static") == "\\text{Static}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dynamic", "'dynamic' is not one of the options: static, contextual"),
        ("", "the answer is empty; it must be one of the options: static, contextual"),
        ("stat\u200bic", "U+200B is not allowed"),
        ("x" * 201, "at most 200 are read"),
    ],
)
def test_choice_refuses_anything_else_listing_the_options(text, message):
    assert message in refused(Choice(["static", "contextual"]), text)


def test_choice_needs_options_that_differ_beyond_letter_case():
    with pytest.raises(ValueError):
        Choice([])
    with pytest.raises(ValueError, match="letter case"):
        Choice(["Yes", "yes"])


# ---------------------------------------------------------------- tuple


def pair() -> TupleShape:
    return TupleShape([IntegerShape(), Choice(["yes", "no"])], ["count", "same"])


def test_tuple_reads_parts_separated_by_semicolons():
    reading = pair().read("3; YES")
    assert reading.value == (3, "yes")
    assert reading.tex == "3;\\quad \\text{yes}"
    assert len(reading.parts) == 2


def test_tuple_split_ignores_semicolons_inside_quotes_and_brackets():
    shape = TupleShape([PieceSequence(4), IntegerSequence(4)], ["pieces", "ids"])
    assert shape.read('["a;b", "c"]; [1, 2]').value == (("a;b", "c"), (1, 2))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3", "the answer has 1 part; type 2 separated by ';'"),
        ("3; yes; no", "the answer has 3 parts"),
        ("3; maybe", "in the second part (same): 'maybe' is not one of the options"),
        ("x; yes", "in the first part (count): the character 'x' is not allowed"),
        (" 3;  7x", "in the second part (same): '7x' is not one of the options"),
    ],
)
def test_tuple_refuses_naming_the_part(text, message):
    assert message in refused(pair(), text)


def test_tuple_error_columns_point_into_the_whole_text():
    shape = TupleShape([IntegerShape(), IntegerShape()], ["a", "b"])
    assert refused(shape, "1; x").endswith("(at column 4)")
    assert refused(shape, "x; 1").endswith("(at column 1)")


def test_tuple_key_equal_and_differences_by_part():
    shape = TupleShape([ScalarShape(), IntegerSequence(3)], ["ratio", "ids"])
    assert shape.key((F(1, 2), (1, 2))) == (F(1, 2), (1, 2))
    assert shape.key((sympy.sqrt(2), (1,))) is None
    assert shape.equal((F(1, 2), (1, 2)), (F(2, 4), (1, 2)))
    assert shape.differences((F(1), (1, 2)), (F(1), (1, 3))) == (1,)
    text = shape.describe_differences((F(1), (1, 2)), (F(1), (1, 3)))
    assert text == "in the second part (ids), position 2 (2) differs"


def test_tuple_matches_applies_each_part_s_decimal_policy():
    shape = TupleShape([ScalarShape(), IntegerShape()], ["ratio", "n"])
    assert shape.matches(shape.read("0.333; 2"), (F(1, 3), 2))
    assert not shape.matches(shape.read("0.333; 3"), (F(1, 3), 2))


def test_tuple_needs_two_to_eight_named_parts():
    with pytest.raises(ValueError):
        TupleShape([IntegerShape()], ["a"])
    with pytest.raises(ValueError):
        TupleShape([IntegerShape(), IntegerShape()], ["a"])


def test_ordinal_and_listed_words():
    assert [ordinal(k) for k in (0, 1, 8)] == ["first", "second", "number 9"]
    assert listed([]) == "" and listed(["a"]) == "a"
    assert listed(["a", "b", "c"]) == "a, b and c"


@pytest.mark.parametrize(
    ("shape", "value"),
    [
        (Vector(2), (F(1, 2), F(-3))),
        (Vector(2), (sympy.exp(1) / (1 + sympy.E), sympy.sqrt(2))),
        (ScalarShape(), 2 / sympy.sqrt(13)),
        (ScalarShape(), F(-7, 3)),
        (IntegerShape(), -12),
        (IntegerSequence(4), (4, 0, 255)),
        (PieceSequence(4), (" the", 'a"b', "c\\d", "x|y")),
        (Choice(["Static", "contextual"]), "Static"),
        (pair(), (3, "no")),
    ],
)
def test_typed_text_reads_back_as_the_value(shape, value):
    assert shape.equal(shape.read(shape.typed(value)).value, value)


@settings(max_examples=400, deadline=None)
@given(_exact_numbers(), _exact_numbers(), st.integers(0, 14))
def test_an_offset_told_from_floats_is_written_as_the_forty_digit_one(a, b, closeness):
    # b is a, or a moved by 10^-closeness, or unrelated: offsets near every threshold
    for want in (b, a + sympy.Rational(1, 10**closeness), a + sympy.Rational(3, 10**closeness)):
        told = told_offset(a, want)
        if told is None:
            continue
        off = float(approx(a) - approx(want))
        assert told == ("" if abs(off) < 1e-12 else f"{off:+.4g}"), (a, want)


@given(
    st.fractions(max_denominator=10**6).filter(lambda x: abs(x) < 10**9),
    st.fractions(max_denominator=10**6).filter(lambda x: abs(x) < 10**9),
    st.integers(0, 9),
)
def test_an_offset_of_fractions_is_written_as_the_fraction_of_the_difference(got, want, index):
    # the integer path says what subtracting the Fractions says
    diff = got - want
    expected = None
    if diff != 0:
        sign = "+" if diff > 0 else ""
        expected = f"the {ordinal(index)} coordinate is off by ${sign}{scalar_tex(diff)}$"
    assert describe_offset(index, "coordinate", got, want) == expected


def _forty_digit_offset(index: int, got, want) -> str | None:
    """The offset as written before the float filter: from the 40-digit difference."""
    off = float(approx(got) - approx(want))
    if abs(off) < 1e-12:
        return None
    if not abs(off) < 1e12:
        return f"the {ordinal(index)} coordinate is far too {'large' if off > 0 else 'small'}"
    return f"the {ordinal(index)} coordinate is off by about ${off:+.4g}$"


@settings(max_examples=300, deadline=None)
@given(_exact_numbers(), st.integers(0, 14))
def test_an_irrational_offset_is_written_as_the_forty_digit_one(value, closeness):
    # the same value in another form (no offset at all), moved by 10^-closeness, or by 1/2
    other = (value + 1) * (value - 1) / (value - 1) - 1 if value != 1 else value
    for want in (other, value + sympy.Rational(1, 10**closeness), value + sympy.E / 2):
        if as_fraction(value) is not None and as_fraction(want) is not None:
            continue  # two rationals: the exact offset, tested above
        assert describe_offset(0, "coordinate", value, want) == _forty_digit_offset(0, value, want)


def test_a_coordinate_equal_in_another_form_has_no_offset():
    right = (-2 * sympy.exp(12) - sympy.exp(6) - 2) / (2 + sympy.exp(6) + sympy.exp(12))
    typed = (-2 * sympy.exp(12) - sympy.exp(6) - 2) * (2 + sympy.exp(6) + sympy.exp(12)) ** -1
    other = right + sympy.exp(1) - sympy.E  # the same value, built another way
    for got in (typed, other):
        assert describe_offset(0, "coordinate", got, right) is None


def test_an_offset_past_a_doubles_range_is_written_from_forty_digits():
    huge = sympy.exp(200) ** 4  # e^800, past what a double holds
    assert told_offset(huge, -huge) is None
    assert describe_offset(0, "coordinate", huge + 1, huge) == _forty_digit_offset(
        0, huge + 1, huge
    )


def test_a_choice_ignores_letter_case_but_folds_no_compatibility_characters():
    shape = Choice(["sell", "filled", "glass"])
    assert shape.read("SELL").value == "sell"
    assert shape.read(" Glass ").value == "glass"
    for look_alike in ("ſell", "ﬁlled", "glaß", "GLAẞ"):
        with pytest.raises(AnswerError) as caught:
            shape.read(look_alike)
        assert "is not one of the options" in caught.value.message


def test_an_absurdly_large_offset_is_told_as_far_too_large_not_as_inf():
    huge = sympy.exp(800)  # past a double: the difference reads as +inf in floats
    assert describe_offset(0, "coordinate", huge, sympy.sqrt(2)) == (
        "the first coordinate is far too large"
    )
    assert (
        describe_offset(1, "coordinate", -huge, sympy.sqrt(2))
        == "the second coordinate is far too small"
    )
    assert "inf" not in describe_offset(0, "coordinate", sympy.exp(40), sympy.sqrt(2))
