"""The natural logarithm in answers (grading/logs.py): identities judged equal and near misses
apart, each checked against mpmath at 60 digits (an oracle that shares no code with the
grader); bad arguments refused with a reason; every bound met before work runs."""

import random
import re
from fractions import Fraction

import mpmath
import pytest

from grading.compare import equal
from grading.errors import AnswerError
from grading.logs import MAX_LOG_ARGUMENTS
from grading.proof import TooComplex
from grading.shapes.scalar import ScalarShape

LOGS = ScalarShape(logs=True)
mpmath.mp.dps = 60


def _value(text: str):
    return LOGS.read(text).value


def _oracle(text: str) -> mpmath.mpf:
    """The typed answer's value computed by mpmath from the text (Python syntax for it)."""
    names = {"log": mpmath.log, "sqrt": mpmath.sqrt, "exp": mpmath.exp, "e": mpmath.e}
    names["mpf"] = mpmath.mpf
    python = re.sub(r"\d+", lambda m: f"mpf({m.group()})", text.replace("^", "**"))
    return eval(python, {"__builtins__": {}}, names)


def _same(a: str, b: str) -> bool:
    return abs(_oracle(a) - _oracle(b)) < mpmath.mpf(10) ** -50


IDENTITIES = [
    ("log(6)", "log(2)+log(3)"),
    ("log(8)", "3*log(2)"),
    ("log(2^100)", "100*log(2)"),
    ("log(sqrt(2))", "log(2)/2"),
    ("log(e^2)", "2"),
    ("-log(1/4)", "2*log(2)"),
    ("log(2/5)", "log(2)-log(5)"),
    ("log(12)-log(3)", "2*log(2)"),
    ("log(6)^2", "(log(2)+log(3))^2"),
    ("log(9/4)/2", "log(3/2)"),
]
NEAR_MISSES = [
    ("log(2)+log(3)+10^-30", "log(6)"),
    ("log(7)", "log(6)"),
    ("log(2)*log(3)", "log(6)"),
    ("log(8)", "2*log(2)"),
    ("log(10)", "log(2)+log(3)"),
    ("log(3/2)", "log(3)/log(2)"),
]


@pytest.mark.parametrize(("a", "b"), IDENTITIES)
def test_log_identities_are_equal_as_the_oracle_says(a, b):
    assert _same(a, b)
    assert equal(_value(a), _value(b))


@pytest.mark.parametrize(("a", "b"), NEAR_MISSES)
def test_near_misses_are_apart_as_the_oracle_says(a, b):
    assert not _same(a, b)
    assert not equal(_value(a), _value(b))


def test_random_products_and_powers_agree_with_the_oracle():
    rng = random.Random(20261208)
    for _ in range(300):
        x = Fraction(rng.randint(1, 60), rng.randint(1, 60))
        y = Fraction(rng.randint(1, 60), rng.randint(1, 60))
        k = rng.randint(-4, 6)
        left = rng.choice(
            [
                f"log({x.numerator}/{x.denominator}*{y.numerator}/{y.denominator})",
                f"log(({x.numerator}/{x.denominator})^({k}))",
                f"log({x.numerator}/{x.denominator})-log({y.numerator}/{y.denominator})",
            ]
        )
        right = rng.choice(
            [
                f"log({x.numerator}/{x.denominator})+log({y.numerator}/{y.denominator})",
                f"({k})*log({x.numerator}/{x.denominator})",
                f"log({(x / y).numerator}/{(x / y).denominator})",
                f"log({(x * y).numerator}/{(x * y).denominator})",
            ]
        )
        assert equal(_value(left), _value(right)) == _same(left, right), (left, right)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("log(0)", "logarithm of 0"),
        ("log(-2)", "negative"),
        ("log(1-3)", "negative"),
        ("log(log(2))", "positive rational argument"),
        ("log(pi)", "positive rational argument"),
        ("ln(2)", "written log"),
    ],
)
def test_an_argument_log_does_not_take_is_invalid_with_its_reason(text, words):
    with pytest.raises(AnswerError, match=words):
        _value(text)


def test_a_problem_that_needs_no_logarithm_refuses_log_with_the_reason():
    with pytest.raises(AnswerError, match="not accepted in this problem's answer"):
        ScalarShape().read("log(2)")
    assert "log" not in " ".join(" ".join(f.examples) for f in ScalarShape().formats())
    assert any("log" in f.phrase for f in LOGS.formats())


def test_too_many_different_logarithms_are_refused_before_any_work():
    primes = [p for p in range(2, 400) if all(p % d for d in range(2, p))]
    many = "+".join(f"log({p})" for p in primes[: MAX_LOG_ARGUMENTS + 1])
    with pytest.raises(TooComplex, match="different logarithms"):
        equal(_value(many), _value("1"))
    few = "+".join(f"log({p})" for p in primes[:MAX_LOG_ARGUMENTS])
    assert not equal(_value(few), _value("1"))
