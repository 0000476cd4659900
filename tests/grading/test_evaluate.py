import math
from fractions import Fraction

import pytest
import sympy

from grading.errors import AnswerError
from grading.evaluate import Evaluator, Term, expand, is_zero, sum_terms
from grading.syntax import parse

F = Fraction


def evaluate(text: str):
    return Evaluator(math.inf).value(parse(text))


def test_values_stay_fractions_and_e_minus_e_is_rational_again():
    assert evaluate("1/2 + 1/3") == F(5, 6)
    assert type(evaluate("e - e + 1/2")) is F
    assert evaluate("sqrt(8)") == 2 * sympy.sqrt(2)


def test_expand_distributes_a_coefficient_and_keeps_signs():
    evaluator = Evaluator(math.inf)
    terms = expand(parse("-1/2*([1,0] - 2*[0,1])"), evaluator)
    assert [(t.coefficient, t.vector) for t in terms] == [
        (F(-1, 2), (F(1), F(0))),
        (F(1), (F(0), F(1))),
    ]
    assert sum_terms(terms) == (F(-1, 2), F(1))


@pytest.mark.parametrize("text", ["[1,0]*[0,1]", "1/[1,0]", "[1,0] + [1,0,0]", "1 + 2", "[1,0]/0"])
def test_expand_gives_up_where_the_evaluator_would_refuse(text):
    assert expand(parse(text), Evaluator(math.inf)) is None


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("2^5000", "power"),
        ("(3^1000)*(3^1000)*(3^1000)", "size"),
        ("exp(201)", "exp"),
        ("exp(1/1001)", "exp"),
        ("2^(1/13)", "power"),
        ("[" + ",".join(["1"] * 17) + "]", "size"),
    ],
)
def test_every_size_is_bounded_before_it_is_computed(text, bound):
    with pytest.raises(AnswerError) as caught:
        evaluate(text)
    assert caught.value.bound == bound


def test_the_clock_is_checked_between_nodes():
    with pytest.raises(AnswerError) as caught:
        Evaluator(-math.inf).value(parse("1 + 1"))
    assert caught.value.bound == "time"


def test_zero_is_exact_for_rationals_and_numeric_for_the_rest():
    assert is_zero(F(0)) and not is_zero(F(1, 10**20))
    assert is_zero(sympy.exp(1) - sympy.E)
    assert Term(F(1), (F(1),)).explicit is False
