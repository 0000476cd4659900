"""A corpus of hostile answers: each is read as `invalid` (never run, never a crash, never a hang)
with a message, or at worst marked `incorrect`; none is ever `correct`."""

import pytest

from grading import Status, grade
from grading.parse import AnswerError, read_answer

from .conftest import content_spec, seed_weighted_sum

CODE = [
    "__import__('os').getpid()",
    "__import__('os').system('true')",
    "().__class__.__bases__[0].__subclasses__()",
    "Integer.__new__.__globals__['__builtins__']",
    "eval('1')",
    "exec('import os')",
    "open('/etc/passwd').read()",
    "__ｉｍｐｏｒｔ__('os')",  # full-width letters fold to ASCII in Python identifiers
    "lambda: 0",
    "[1,0] if 1 else 0",
    "[x for x in range(9)]",
    "globals()",
    "getattr(1, 'real')",
    "1 .real",
    "import os",
]
BOMBS = [
    "9**9**9",
    "9^9^9",
    "2**10**10",
    "((9**9)**9999)**9999",
    "factorial(10**9)",
    "10**9!",
    "1e999999999",
    "[1e999999999, 1]",
    "Float('1e999999')",
    "[1]*10**9",
    "[1,0]*10**9",
    "sin(7**exp(exp(exp(10*E)))+1)",
    "exp(exp(exp(10)))",
    "[exp(1000), 1]",
    "[e^(10^10), 1]",
    "[e^e^e^e, 1]",
    "[10^4000, 1]",
    "[10^400*10^400*10^400*10^400*10^400*10^400*10^400*10^400*10^400*10^400*10^400, 1]",
    "[" + "9" * 31 + ", 1]",
    "[0." + "9" * 40 + ", 1]",
    "[2^(1/99), 1]",
    "[(e+1)^13, 1]",
    "[" + "*".join(["(e+1)"] * 30) + ", 1]",
    "[" + "+".join(["sqrt(2)"] * 30) + ", 1]",
    # near misses (tests/grading/test_near_miss.py has the full corpus): a value that agrees
    # with the right one to 60 digits or more, then an expansion that would run for seconds
    "[1/2 + (2^(1/2)+3^(1/3)+5^(1/4)+7^(1/5)+11^(1/6)+13^(1/7))^12*(1/10)^60, 1]",
    "[1/2*(sqrt(2)+1)*(sqrt(2)-1) + (2^(1/2)+3^(1/3)+5^(1/4)+7^(1/5)+11^(1/6)+13^(1/7)+17^(1/8))"
    "^12*(1/10)^1000, 1]",
    "(1/2 + (exp(1/2)+exp(1/3)+exp(1/5)+exp(1/7))^12*(1/10)^60)*[1,0] + 1/2*[0,2]",
]
SIZES = [
    "x" * 200_000,
    "1" * 200_000,
    "[" + "1," * 100_000 + "1]",
    "(" * 5000 + "1" + ")" * 5000,
    "[" * 5000 + "1" + "]" * 5000,
    "1+" * 50_000 + "1",
    "-" * 10_000 + "1",
    "[" + " ".join(["1"] * 17) + "]",
    "\\frac{" * 300 + "1" + "}{2}" * 300,
]
ODD = [
    "\x00",
    "[1,\x00 2]",
    "[1, 2]\x00",
    "\u202e[1,0]",
    "oo",
    "[oo, 1]",
    "nan",
    "[nan, nan]",
    "zoo",
    "[zoo, 1]",
    "1+2j",
    "[1+2j, 1]",
    "[1+2*I, 1]",
    "[I, 1]",
    "[sqrt(-1), 1]",
    "[(-1)^(1/2), 1]",
    "Integer(1)",
    "[Rational(1,2), 1]",
    "Matrix([1,2])",
    "ImmutableMatrix([1, 2])",
    "[Symbol('x'), 1]",
    "[E.__class__, 1]",
    "[S.Half, 1]",
    "[1/0, 1]",
    "[1, 1/(1-1)]",
    "[1/(e-e), 1]",
    "[(e-e)^-1, 1]",
    "[(sqrt(2)-sqrt(2))^-2, 1]",
    "[(e^2/e - e)^(-1), 1]",
    "[1, (pi-pi)^(1/2)]",
    "\\frac{1}{0}, 1",
    "[1,0]*[0,1]",
    "[1,0]^2",
    "2^[1,0]",
    "[[1,0],[0,1]]",
    "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}",
    "[2e3, 1]",
    "[1e-5, 1]",
    "[1,0]; rm -rf /",
    "`ls`",
    "$(ls)",
    "[1,0] # comment",
    "'[1, 0]'",
]
LATEX = [
    "\\def\\a{\\a}\\a",
    "\\newcommand\\x{\\x}\\x",
    "\\newcommand{\\x}{\\x \\x}\\x",
    "\\input{/etc/passwd}",
    "\\include{x}",
    "\\catcode`\\^=7",
    "\\expandafter\\a\\a",
    "\\begin{bmatrix}" * 100 + "1" + "\\end{bmatrix}" * 100,
    "\\begin{bmatrix}1\\\\2",
    "\\begin{bmatrix}1\\\\2\\end{pmatrix}",
    "\\frac{1}",
    "\\sqrt[3]{2}, 1",
    "\\left( 1, 2",
    "\\text{1, 2}",
    "\\mathrm{e}^{1}, 1",
]
CORPUS = CODE + BOMBS + SIZES + ODD + LATEX


@pytest.mark.parametrize("text", CORPUS, ids=[f"hostile{k}" for k in range(len(CORPUS))])
def test_hostile_answer_is_never_correct_and_never_raises(text):
    for spec in (seed_weighted_sum(), content_spec()):
        verdict = grade(spec, text)
        assert verdict.status != Status.CORRECT
        if verdict.status == Status.INVALID:
            assert verdict.message
            assert verdict.score == 0.0


@pytest.mark.parametrize("text", CODE)
def test_code_is_rejected_before_anything_runs(text):
    with pytest.raises(AnswerError):
        read_answer(text)


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("x" * 200_000, "length"),
        ("(" * 5000 + "1" + ")" * 5000, "length"),
        ("(" * 100 + "1" + ")" * 100, "depth"),
        ("-" * 100 + "1", "depth"),
        ("9^9^9", "power"),
        ("((9**9)**9999)**9999", "power"),
        ("[" + "9" * 31 + ", 1]", "digits"),
        ("[e^(10^10), 1]", "exp"),
        ("[1, 2]\x00", "character"),
        ("+".join(["1"] * 401), "tokens"),
    ],
)
def test_each_bound_says_which_bound(text, bound):
    with pytest.raises(AnswerError) as caught:
        read_answer(text)
    assert caught.value.bound == bound
    assert caught.value.message


def test_nul_byte_message_points_at_its_column():
    verdict = grade(seed_weighted_sum(), "[1,\x00 2]")
    assert verdict.status == Status.INVALID
    assert "U+0000" in verdict.message
    assert "column 4" in verdict.message


def test_reading_past_its_time_budget_is_invalid_naming_the_bound():
    with pytest.raises(AnswerError) as caught:
        read_answer("[1/2, 1]", budget=-1.0)
    assert caught.value.bound == "time"
    assert "took longer" in caught.value.message


def test_a_near_miss_past_a_confirmation_bound_is_invalid_and_logged(caplog):
    text = (
        "[1/2*(sqrt(2)+1)*(sqrt(2)-1) + (2^(1/2)+3^(1/3)+5^(1/4)+7^(1/5)+11^(1/6)+13^(1/7))"
        "^12*(1/10)^1000, 1]"
    )
    with caplog.at_level("WARNING", logger="grading.marking"):
        verdict = grade(seed_weighted_sum(), text)
    assert verdict.status == Status.INVALID
    assert verdict.score == 0.0
    assert "too complex to confirm" in verdict.message
    assert any("not confirmed: expansion" in record.getMessage() for record in caplog.records)


def test_marking_past_its_time_budget_is_an_invalid_verdict(monkeypatch):
    import grading.marking

    monkeypatch.setattr(grading.marking, "TIME_BUDGET_SECONDS", -1.0)
    verdict = grade(seed_weighted_sum(), "[1, 2]")  # wrong, so the mistake catalog is searched
    assert verdict.status == Status.INVALID
    assert "took longer" in verdict.message
