import pytest

from grading.bounds import MAX_DEPTH
from grading.errors import AnswerError
from grading.syntax import parse, parse_with_values
from grading.tree import Call, Group, Neg, Power, Product, Sum, Vec


def test_grammar_precedence_sum_of_products_of_powers():
    tree = parse("1 + 2*3^2")
    assert isinstance(tree, Sum)
    (_, _), (_, second) = tree.terms
    assert isinstance(second, Product) and isinstance(second.factors[1][1], Power)


def test_power_is_right_associative_and_binds_tighter_than_a_sign():
    tree = parse("-2^3^2")
    assert isinstance(tree, Neg)
    power = tree.arg
    assert isinstance(power, Power) and isinstance(power.exponent, Power)


def test_implicit_multiplication_is_a_product_factor():
    tree = parse("2(1/4)")
    assert isinstance(tree, Product)
    assert tree.factors[1][0] == "" and isinstance(tree.factors[1][1], Group)


def test_brackets_make_vectors_or_groups():
    assert isinstance(parse("[5]"), Vec)  # square brackets are always a vector
    assert isinstance(parse("(5)"), Group)
    assert isinstance(parse("(5, 6)"), Vec)
    assert isinstance(parse("1, 2"), Vec)
    assert isinstance(parse("exp(1)"), Call)


def test_whitespace_splits_coordinates_only_in_a_list():
    assert len(parse("[1 -1]").items) == 2
    assert isinstance(parse("1 -1"), Vec)
    assert not isinstance(parse("(1 - 1)").inner, Vec)


def test_plain_ratios_are_read_by_the_shortcut_with_their_values():
    tree, values = parse_with_values("[-1/2, 3/4]")
    assert [values[id(item)] for item in tree.items] == [-0.5, 0.75]


def test_matrices_are_read_as_one_row_or_one_column():
    assert len(parse("\\begin{bmatrix}1\\\\2\\\\3\\end{bmatrix}").items) == 3
    assert len(parse("\\begin{pmatrix}1&2\\end{pmatrix}").items) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the answer is empty"),
        ("   ", "the answer is empty"),
        ("[1, 2", "is never closed"),
        ("(1, 2]", "does not match"),
        ("1, 2)", "has no matching opening bracket"),
        ("1 +", "the answer ends where"),
        ("[1, , 2]", "expected a number or a vector"),
        ("exp(1 2)", "the number '2' follows without an operator"),
        ("\\sqrt[3]{2}", "only square roots"),
        ("\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}", "several rows and columns"),
        ("\\begin{bmatrix}1\\end{pmatrix}", "does not match"),
        ("\\begin{bmatrix}1", "has no \\end"),
        ("\\begin{bmatrix}\\end{bmatrix}", "the matrix is empty"),
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "nested more than 40 deep"),
        ("-" * (MAX_DEPTH + 1) + "1", "nested more than 40 deep"),
    ],
)
def test_unparsable_text_says_what_and_where(text, message):
    with pytest.raises(AnswerError) as caught:
        parse(text)
    assert message in caught.value.message
