from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from grading import parse
from grading.parse import AnswerError, read_answer

F = Fraction


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[1/2, 1]", (F(1, 2), F(1))),
        ("(0.5, 1)", (F(1, 2), F(1))),
        ("1/2, 1", (F(1, 2), F(1))),
        ("[0.5 1]", (F(1, 2), F(1))),
        ("[1 -1]", (F(1), F(-1))),
        ("[1 - 1, 2]", (F(0), F(2))),
        ("−1, 2", (F(-1), F(2))),
        ("  [ 1 / 2 ,1 ]  ", (F(1, 2), F(1))),
        ("[1;2]", (F(1), F(2))),
        ("1/2 [1, 0] + 1/2 [0, 2]", (F(1, 2), F(1))),
        ("0.5*[1,0]+0.5*[0,2]", (F(1, 2), F(1))),
        ("0.5×[1,0] + 0.5·[0,2]", (F(1, 2), F(1))),
        ("\\frac{1}{2}, 1", (F(1, 2), F(1))),
        ("\\begin{bmatrix}1\\\\0\\end{bmatrix}", (F(1), F(0))),
        ("\\begin{pmatrix}1 & 0\\end{pmatrix}", (F(1), F(0))),
        ("\\begin{bmatrix}\\frac{1}{2}\\\\1\\\\\\end{bmatrix}", (F(1, 2), F(1))),
        ("\\frac{1}{2}\\begin{bmatrix}1\\\\0\\end{bmatrix}+\\frac12", None),
        ("\\left(\\frac{1}{2}, 1\\right)", (F(1, 2), F(1))),
        ("\\frac{1}{2} \\cdot [1,0] + \\tfrac{1}{2}\\times[0,2]", (F(1, 2), F(1))),
        ("2^-1, 2**2", (F(1, 2), F(4))),
        ("-2^2, (-2)^2", (F(-4), F(4))),
        ("[.25, 3.]", (F(1, 4), F(3))),
        ("[1,2]/2", (F(1, 2), F(1))),
        ("1/2*([1,0]+[0,2])", (F(1, 2), F(1))),
        ("2(1/4), (1)(1)", (F(1, 2), F(1))),
    ],
)
def test_people_formats_are_read_exactly(text, value):
    if value is None:
        with pytest.raises(AnswerError):
            read_answer(text)
        return
    assert read_answer(text).value == value


def test_decimals_are_exact_and_remember_their_text():
    reading = read_answer("[0.1, -0.50, 1/3]")
    assert reading.value == (F(1, 10), F(-1, 2), F(1, 3))
    assert reading.coordinate_decimals == ("0.1", "-0.50", None)


def test_exp_sqrt_pi_and_e_build_sympy_values():
    reading = read_answer("[exp(1)/(e+1), sqrt(4) + pi - pi]")
    assert reading.value[0] == sympy.E / (sympy.E + 1)
    assert reading.value[1] == 2
    assert reading.symbolic


def test_e_to_a_power_is_exp():
    assert read_answer("[e^2, e^{1/2}]").value == (sympy.exp(2), sympy.exp(sympy.Rational(1, 2)))


def test_written_out_sum_keeps_the_learners_terms():
    reading = read_answer("0.5*[1,0] - 1/4 [0,2] + [1, 1]")
    assert reading.written_out
    assert [(t.coefficient, t.vector, t.decimal) for t in reading.terms] == [
        (F(1, 2), (F(1), F(0)), "0.5"),
        (F(-1, 4), (F(0), F(2)), None),
        (F(1), (F(1), F(1)), None),
    ]


def test_a_coefficient_distributes_over_a_bracketed_sum():
    reading = read_answer("1/3*([1,1] + [2,0] - [0,3])")
    assert [t.coefficient for t in reading.terms] == [F(1, 3), F(1, 3), F(-1, 3)]


def test_a_bare_vector_is_not_a_written_out_sum():
    assert not read_answer("[1/2, 1]").written_out
    assert read_answer("2*[1/4, 1/2]").written_out


def test_interpreted_tex_shows_what_was_read():
    assert read_answer("[1/2, 0.5]").tex == ("\\begin{bmatrix}\\frac{1}{2}\\\\0.5\\end{bmatrix}")
    assert read_answer("1/2 [1, 0]").tex == ("\\frac{1}{2}\\,\\begin{bmatrix}1\\\\0\\end{bmatrix}")


@pytest.mark.parametrize(
    ("text", "words", "column"),
    [
        ("[1/2, 1", "never closed", None),
        ("(1/2, 1]", "does not match", 8),
        ("[1/2, 1]]", "no matching opening", 9),
        ("[1, x]", "unknown name 'x'", 5),
        ("[1/0, 1]", "division by zero", 4),
        ("[1, 1/(2-2)]", "division by zero", 7),
        ("[2e3, 1]", "scientific notation", 3),
        ("[1, 2]!", "factorials", 7),
        ("[1, 2] = h", "not an equation", 8),
        ("[1,,2]", "expected", 4),
        ("[1 2 3", "never closed", None),
        ("\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}", "several rows and columns", 1),
        ("\\foo{1}", "\\foo", 1),
        ("[1,0]*[0,1]", "two vectors", 7),
        ("[1,0] + 1", "a number is added to a vector", 9),
        ("[sqrt(-2), 1]", "complex numbers", 2),
        ("[exp(2 3), 1]", "without an operator", 8),
        ("", "empty", None),
    ],
)
def test_unreadable_text_says_what_and_where(text, words, column):
    with pytest.raises(AnswerError) as caught:
        read_answer(text)
    if words:
        assert words in caught.value.message
    assert caught.value.column == column


def test_non_text_is_an_answer_error():
    with pytest.raises(AnswerError):
        read_answer(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("use", ["e^{1}", "e^1", "exp(1)", "e^(1)"])
def test_e_to_a_power_counts_once_against_the_exp_limit(use):
    # 64 uses are read, whichever way e^1 is written; the 65th is refused
    reading = read_answer("[" + "+".join([use] * 64) + ", 1]")
    assert reading.value[0] == 64 * sympy.E
    with pytest.raises(AnswerError) as caught:
        read_answer("[" + "+".join([use] * 65) + ", 1]")
    assert caught.value.bound == "size"
    assert "more than 64 times" in caught.value.message


def test_e_alone_and_pi_count_once_each():
    read_answer("[" + "+".join(["e"] * 32 + ["pi"] * 32) + ", 1]")
    with pytest.raises(AnswerError):
        read_answer("[" + "+".join(["e"] * 33 + ["pi"] * 32) + ", 1]")


_NUMBERS = st.one_of(
    st.from_regex(r"-?[0-9]{1,31}", fullmatch=True),
    st.from_regex(r"-?[0-9]{1,31}/[0-9]{1,31}", fullmatch=True),
    st.sampled_from(["0", "-0", "1/0", "-3/0", "007", "0/5", "- 1", "1 /2", "0.5", "1e3"]),
)


@settings(max_examples=400, deadline=None)
@given(
    items=st.lists(_NUMBERS, min_size=0, max_size=18),
    brackets=st.sampled_from(["[]", "()", "[)", "{}", ""]),
    comma=st.sampled_from([",", ", ", " , ", " ,", ";", " "]),
    pad=st.sampled_from(["", " ", "  ", "\t"]),
)
def test_the_plain_vector_shortcut_reads_as_the_grammar_does(items, brackets, comma, pad):
    # given a bracketed list of integers and ratios, or something close to one
    text = pad + brackets[:1] + pad + comma.join(items) + pad + brackets[1:] + pad
    # then the shortcut, when it takes the text, gives exactly the grammar's Reading
    shortcut = parse._plain_vector(text)
    try:
        grammar = parse.read_tree(text)
    except AnswerError as error:
        assert shortcut is None, error.message  # what the grammar refuses, it never reads
        return
    if shortcut is not None:
        assert shortcut == grammar
        assert [type(x) for x in shortcut.value] == [type(x) for x in grammar.value]
    assert read_answer(text) == grammar


def test_the_plain_vector_shortcut_takes_the_common_answers():
    for text in ["[1/2, 1]", "[-3/4,2, -1]", " [ 1 , 2 ] ", "[007, 1/10]"]:
        assert parse._plain_vector(text) == parse.read_tree(text)
    for text in [
        "[5]",
        "[1/0, 2]",
        "[0.5, 1]",
        "[1 2]",
        "[1, 2,]",
        "[1]*2",
        "[-1/2, +1]",
        "(1, -2)",
    ]:
        assert parse._plain_vector(text) is None


_VECTORS = st.lists(_NUMBERS, min_size=1, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]")
_COEFFICIENTS = st.sampled_from(
    ["", "1*", "2*", "1/4*", "3/4 * ", "0*", "1/0*", "007*", "0.5*", "1/2 "]
)


@settings(max_examples=400, deadline=None)
@given(
    terms=st.lists(st.tuples(_COEFFICIENTS, _VECTORS), min_size=1, max_size=6),
    signs=st.lists(st.sampled_from([" + ", " - ", "+", "-", " * ", ""]), min_size=6, max_size=6),
    lead=st.sampled_from(["", "-", " ", "+"]),
)
def test_the_plain_sum_shortcut_reads_as_the_grammar_does(terms, signs, lead):
    # given a sum of terms written out, or something close to one
    text = lead + "".join(
        (signs[k] if k else "") + coefficient + vector
        for k, (coefficient, vector) in enumerate(terms)
    )
    # then the shortcut, when it takes the text, gives exactly the grammar's Reading
    shortcut = parse._plain_sum(text)
    try:
        grammar = parse.read_tree(text)
    except AnswerError as error:
        assert shortcut is None, error.message
        return
    if shortcut is not None:
        assert shortcut == grammar
        assert [type(t.coefficient) for t in shortcut.terms] == [
            type(t.coefficient) for t in grammar.terms
        ]
    assert read_answer(text) == grammar


def test_the_plain_sum_shortcut_takes_the_common_sums():
    for text in ["1/4*[2, -2, -1] + 3/4*[3, 0, 1]", "5/6*[-3, 2]", "2*[1,2]+[0,1]", "[1,2]-[3,4]"]:
        assert parse._plain_sum(text) == parse.read_tree(text)
    for text in ["[1, 2]", "1/2 [1, 0]", "0.5*[1, 0]", "1/0*[1, 2]", "[1, 2] + [1]", "-[1, 2]"]:
        assert parse._plain_sum(text) is None
