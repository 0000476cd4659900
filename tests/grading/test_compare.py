from fractions import Fraction

import pytest
import sympy

from grading.compare import (
    Rounding,
    equal,
    rounding,
    significant_figures,
    vectors_equal,
)

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
