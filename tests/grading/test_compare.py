from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.compare import (
    apart,
    approx,
    close,
    equal,
    float_bound,
    floats_apart,
    vectors_equal,
)
from grading.rounding import Rounding, rounding, significant_figures

E = sympy.E


def test_rationals_compare_exactly():
    assert equal(Fraction(1, 2), sympy.Rational(1, 2))
    assert not equal(Fraction(1, 3), Fraction(333, 1000))


def test_exp_expressions_equal_in_another_form_are_equal():
    assert equal(E / (E + 1), 1 / (1 + sympy.exp(-1)))
    assert equal((E**2 - 1) / (E - 1), E + 1)
    assert equal(sympy.exp(sympy.Rational(1, 2)) ** 2, E)


def test_exp_expressions_differing_beyond_thirty_digits_are_not_equal():
    # exp(1) and its 40-digit rational approximation agree to 30 digits, yet differ.
    approximation = sympy.Rational(str(sympy.N(E, 40)))
    assert not equal(E, approximation)


def test_sqrt_forms_are_confirmed():
    assert equal(sympy.sqrt(2) * sympy.sqrt(8), Fraction(4))
    assert equal((sympy.sqrt(2) + sympy.sqrt(3)) ** 2, 5 + 2 * sympy.sqrt(6))


def test_vectors_compare_by_length_and_coordinates():
    assert vectors_equal((Fraction(1), Fraction(2)), (Fraction(1), Fraction(2)))
    assert not vectors_equal((Fraction(1),), (Fraction(1), Fraction(2)))
    assert vectors_equal((E / (E + 1),), (1 - 1 / (E + 1),))


@pytest.mark.parametrize(
    ("text", "exact", "expected"),
    [
        ("0.5", Fraction(1, 2), Rounding.EXACT),
        ("0.500", Fraction(1, 2), Rounding.EXACT),
        ("0.333", Fraction(1, 3), Rounding.ROUNDED),
        ("0.667", Fraction(2, 3), Rounding.ROUNDED),
        ("0.666", Fraction(2, 3), Rounding.WRONG),
        ("0.33", Fraction(1, 3), Rounding.TOO_FEW_DIGITS),
        ("0.3", Fraction(1, 3), Rounding.TOO_FEW_DIGITS),
        ("0.334", Fraction(1, 3), Rounding.WRONG),
        ("1.33", Fraction(4, 3), Rounding.ROUNDED),
        ("-0.333", Fraction(-1, 3), Rounding.ROUNDED),
        ("0.731", E / (E + 1), Rounding.ROUNDED),
        ("0.73", E / (E + 1), Rounding.TOO_FEW_DIGITS),
        ("0.732", E / (E + 1), Rounding.WRONG),
        ("0.000333", Fraction(1, 3000), Rounding.ROUNDED),
    ],
)
def test_typed_decimals_are_classified_by_the_decimal_policy(text, exact, expected):
    assert rounding(text, Fraction(text), exact) == expected


@pytest.mark.parametrize(
    ("text", "figures"), [("0.333", 3), ("0.0330", 3), ("12.5", 3), ("-0.5", 1), ("0.0", 0)]
)
def test_significant_figures_count_from_the_first_nonzero_digit(text, figures):
    assert significant_figures(text) == figures


# ---------------------------------------------------------------- the float filter
# float_bound gives a float and a bound on its error; `apart` decides only "surely different".
# Checked against mpmath at 60 digits: the bound always holds, and "apart" is never said of two
# values a 30-digit test calls equal.


@st.composite
def _exact_numbers(draw) -> sympy.Expr:
    """Sums, products, quotients and powers of what grading's values are made of."""

    def atom():
        kind = draw(st.sampled_from(["rational", "exp", "sqrt", "root", "e", "pi"]))
        if kind == "rational":
            q = draw(st.fractions(min_value=-50, max_value=50, max_denominator=60))
            return sympy.Rational(q.numerator, q.denominator)
        if kind == "exp":
            q = draw(st.fractions(min_value=-60, max_value=60, max_denominator=60))
            return sympy.exp(sympy.Rational(q.numerator, q.denominator))
        if kind == "sqrt":
            return sympy.sqrt(draw(st.integers(2, 50)))
        if kind == "root":
            return sympy.Rational(draw(st.integers(2, 30)), draw(st.integers(1, 7))) ** (
                sympy.Rational(1, draw(st.integers(2, 7)))
            )
        return E if kind == "e" else sympy.pi

    def term():
        return sympy.Mul(*[atom() for _ in range(draw(st.integers(1, 3)))])

    top = sympy.Add(*[term() for _ in range(draw(st.integers(1, 5)))])
    shape = draw(st.sampled_from(["sum", "quotient", "power"]))
    if shape == "quotient":
        bottom = sympy.Add(*[term() for _ in range(draw(st.integers(1, 4)))])
        return top if bottom == 0 else top / bottom
    if shape == "power" and top != 0:
        return top ** draw(st.integers(-3, 3))
    return top


def _true(value) -> mpmath.mpf:
    with mpmath.workdps(60):
        return mpmath.mpf(str(sympy.N(value, 60)))


@settings(max_examples=500, deadline=None)
@given(_exact_numbers())
def test_float_bound_holds_the_exact_value(value):
    found = float_bound(value)
    if found is None:
        return
    x, error = found
    assert error >= 0
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(x) - _true(value)) <= error, (sympy.srepr(value), x, error)


@settings(max_examples=300, deadline=None)
@given(_exact_numbers(), _exact_numbers())
def test_apart_is_never_said_of_values_a_thirty_digit_test_calls_close(a, b):
    bound_a, bound_b = float_bound(a), float_bound(b)
    if bound_a is None or bound_b is None or not apart(bound_a, bound_b):
        return
    assert not close(approx(a), approx(b))
    assert not equal(a, b)


def test_near_misses_are_never_apart_and_go_on_to_the_exact_tests():
    value = sympy.exp(sympy.Rational(1, 3)) / (1 + E)
    for offset in (sympy.Rational(1, 10**13), sympy.Rational(1, 10**40), sympy.Integer(0)):
        assert not floats_apart(value, value + offset)
    assert not floats_apart(Fraction(1, 3), Fraction(1, 3))
    assert floats_apart(value, value + sympy.Rational(1, 10**6))
    # a value built of what float_bound does not know has no bound: nothing is decided
    assert float_bound(sympy.atan(3)) is None
    assert not floats_apart(sympy.atan(3), Fraction(1))
    # a log of a rational has one, and it holds against mpmath at 50 digits
    for x in (sympy.Rational(3, 8), sympy.Integer(2) ** 1000, sympy.Rational(1, 3**500)):
        y, e = float_bound(sympy.log(x))
        assert abs(mpmath.mpf(y) - mpmath.log(mpmath.mpf(int(x.p)) / int(x.q))) <= e


def test_apart_with_a_tolerance_is_a_half_unit_test_of_a_typed_decimal():
    third = float_bound(Fraction(1, 3))
    assert not apart(float_bound(Fraction("0.333")), third, 0.0005)  # rounds 1/3
    assert apart(float_bound(Fraction("0.334")), third, 0.0005)  # does not
    assert not apart(float_bound(Fraction("0.3")), float_bound(E / 8), 0.05)  # 0.3398 rounds
    assert apart(float_bound(Fraction("0.2")), float_bound(E / 8), 0.05)


def test_bounds_too_wide_to_trust_and_overflows_give_no_bound():
    assert float_bound(sympy.exp(sympy.Integer(800))) is None  # past a double's range
    assert float_bound(Fraction(10**400, 3)) is None
    huge_power = (E - sympy.Rational(2718281828459045, 10**15)) ** -50
    assert float_bound(huge_power) is None  # the base's error is too large relative to it
