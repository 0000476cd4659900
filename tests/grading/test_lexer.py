import pytest

from grading.bounds import MAX_CHARS, MAX_NUMBER_DIGITS, MAX_TOKENS
from grading.errors import AnswerError
from grading.lexer import tokenize


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)][:-1]  # without EOF


def test_numbers_names_operators_and_brackets_become_tokens():
    assert kinds("[1/2, exp(0.5)]") == [
        ("LP", "["),
        ("NUM", "1"),
        ("OP", "/"),
        ("NUM", "2"),
        ("COMMA", ","),
        ("NAME", "exp"),
        ("LP", "("),
        ("NUM", "0.5"),
        ("RP", ")"),
        ("RP", "]"),
    ]


def test_other_keyboards_symbols_fold_one_for_one():
    # minus sign, en dash, multiplication sign, middle dot, division sign, no-break space
    assert kinds("\u22121\u20132\u00d73\u00b74\u00f75\u00a06") == kinds("-1-2*3*4/5 6")
    assert [t.pos for t in tokenize("\u22121 \u00f7 2")][:3] == [0, 1, 3]


def test_double_star_is_a_power_and_latex_commands_are_a_closed_list():
    assert kinds("2**3") == [("NUM", "2"), ("OP", "^"), ("NUM", "3")]
    assert kinds("\\frac{1}{2}")[0] == ("FRAC", "frac")
    assert kinds("\\cdot") == [("OP", "*")]
    assert kinds("\\left(1\\right)") == [("LP", "("), ("NUM", "1"), ("RP", ")")]


def test_space_before_a_token_is_remembered():
    tokens = tokenize("[1 -1]")
    assert [t.space for t in tokens[:4]] == [False, False, True, False]


@pytest.mark.parametrize(
    ("text", "message", "bound"),
    [
        ("x" * (MAX_CHARS + 1), "at most 2000 are read", "length"),
        ("1!", "factorials are not accepted", "character"),
        ("x=1", "type only the answer", "character"),
        ("a_1", "subscripts are not accepted", "character"),
        ("'1'", "quotes are not accepted", "character"),
        ("50%", "percentages are not accepted", "character"),
        ("\u200b1", "U+200B is not allowed", "character"),
        ("1" * (MAX_NUMBER_DIGITS + 1), "more than 30 digits", "digits"),
        ("+".join(["1"] * (MAX_TOKENS + 1)), "more than 400 symbols", "tokens"),
        ("2e3", "scientific notation", ""),
        ("foo", "unknown name 'foo'", ""),
        ("\\def", "\\def is not supported", ""),
        ("\\begin{array}", "read only for bmatrix or pmatrix", ""),
        (". 5", "cannot start a number", ""),
    ],
)
def test_refused_text_says_what_where_and_which_bound(text, message, bound):
    with pytest.raises(AnswerError) as caught:
        tokenize(text)
    assert message in caught.value.message
    assert caught.value.bound == bound
