import functools
import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.errors import AnswerError
from grading.evaluate import Evaluator, is_zero
from grading.syntax import parse
from grading.written_terms import Term, expand, sum_terms

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


# A sum of numbers with an irrational one is built with one Add; it must be the very
# expression adding them one by one gives (what "read as" and the pictures print).

_term = st.one_of(
    st.fractions(min_value=-20, max_value=20, max_denominator=12).map(
        lambda q: sympy.Rational(q.numerator, q.denominator)
    ),
    st.fractions(min_value=-9, max_value=9, max_denominator=6).map(
        lambda q: sympy.exp(sympy.Rational(q.numerator, q.denominator))
    ),
    st.integers(2, 12).map(sympy.sqrt),
    st.sampled_from([sympy.E, sympy.pi, -sympy.E, 2 * sympy.pi]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), _term, _term), min_size=2, max_size=6))
def test_one_add_is_the_expression_adding_one_by_one_gives(parts):
    terms = [c * a * b + a / (b + 2) for c, a, b in parts]
    folded = functools.reduce(lambda x, y: x + y, terms)
    assert sympy.Add(*terms) == folded
    assert sympy.srepr(sympy.Add(*terms)) == sympy.srepr(folded)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["+", "-"]),
            st.sampled_from(
                [
                    "exp(2)",
                    "2*exp(-1/2)",
                    "e",
                    "sqrt(3)",
                    "1/3",
                    "pi/4",
                    "(1 + e)",
                    "exp(1/3)/(2 + e)",
                    "7",
                ]
            ),
        ),
        min_size=2,
        max_size=7,
    )
)
def test_a_sum_read_is_the_sum_of_its_terms_added_one_by_one(parts):
    text = "".join(sign + term for sign, term in parts)
    values = [evaluate(term) for _, term in parts]
    folded = functools.reduce(
        lambda x, y: x + y,
        [
            sympy.sympify(v) if sign == "+" else -sympy.sympify(v)
            for (sign, _), v in zip(parts, values, strict=True)
        ],
    )
    read = evaluate(text)
    read = sympy.Rational(read.numerator, read.denominator) if isinstance(read, F) else read
    assert sympy.srepr(read) == sympy.srepr(folded)


def test_a_tiny_irrational_divisor_is_proven_nonzero_not_taken_for_zero():
    # 10^-65: far inside the old 1e-25 "zero", proven nonzero by interval arithmetic
    tiny = sympy.exp(-150) + sympy.exp(-146)
    assert not is_zero(tiny)
    assert not is_zero(sympy.exp(-600) * sympy.sqrt(2))


def test_an_irrational_divisor_that_cannot_be_told_from_zero_is_refused_truly():
    # sqrt(2) + sqrt(3) - sqrt(5 + 2 sqrt(6)) is 0, but SymPy keeps the nested root
    hidden_zero = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
    with pytest.raises(AnswerError) as caught:
        is_zero(hidden_zero, 7)
    assert "could not be told apart from zero" in caught.value.message
    assert "(at column 7)" in caught.value.message
    assert caught.value.bound == "zero"


def test_the_right_answer_scaled_by_exp_minus_150_is_not_a_division_by_zero():
    import re

    import grading
    from practice.generators import generate
    from tests.answers import typed

    spec = generate("repetition_penalty", seed=1, level=2)
    text = typed(grading.expected_answer(spec), spec)
    scaled = re.sub(r"exp\(([^()]*)\)", lambda m: f"exp({m.group(1)} - 150)", text)
    scaled = re.sub(r"(?<=[\[(+ ])1(?=[ /)\]])", "exp(-150)", scaled)
    verdict = grading.grade(spec, scaled)
    assert "division by zero" not in verdict.message
    assert verdict.status == grading.Status.CORRECT or "too complex" in verdict.message
