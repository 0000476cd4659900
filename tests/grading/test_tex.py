from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from grading import vector_tex
from grading.exact import scale
from grading.kinds._sums import right_term
from grading.tex import ratio_tex, ratios_tex, scalar_tex, term_tex


def test_vector_tex_is_a_column_bmatrix_of_exact_values():
    assert vector_tex([Fraction(1, 2), 1, Fraction(-3, 4)]) == (
        "\\begin{bmatrix}\\frac{1}{2}\\\\1\\\\-\\frac{3}{4}\\end{bmatrix}"
    )


def test_vector_tex_accepts_sympy_values():
    assert vector_tex((sympy.Rational(1, 2), sympy.E)) == (
        "\\begin{bmatrix}\\frac{1}{2}\\\\e\\end{bmatrix}"
    )


def test_scalar_tex_of_integers_and_fractions():
    assert scalar_tex(Fraction(3)) == "3"
    assert scalar_tex(Fraction(-1, 3)) == "-\\frac{1}{3}"


def test_term_tex_wraps_a_sum_weight_in_parentheses():
    weight = sympy.E + 1
    assert term_tex(weight, (1, 0)).startswith("\\left(1 + e\\right)\\,")
    assert term_tex(Fraction(1, 2), (1, 0)) == (
        "\\frac{1}{2}\\,\\begin{bmatrix}1\\\\0\\end{bmatrix}"
    )


def _fraction_tex(value: Fraction) -> str:
    """Write a Fraction as scalar_tex did before its shortcuts (comparing the Fraction)."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


@given(st.integers(-(10**30), 10**30), st.integers(1, 10**30))
def test_fractions_and_ratios_are_written_as_the_fraction_is(numerator, denominator):
    value = Fraction(numerator, denominator)
    assert scalar_tex(value) == _fraction_tex(value)
    assert ratio_tex(numerator, denominator) == _fraction_tex(value)
    assert scalar_tex(numerator) == _fraction_tex(Fraction(numerator))


_TEX_FRACTIONS = st.fractions(max_denominator=40).filter(lambda x: abs(x) < 10**4)


@given(_TEX_FRACTIONS, st.lists(_TEX_FRACTIONS, min_size=1, max_size=8))
def test_a_right_term_writes_the_product_of_the_weight_and_the_row(weight, row):
    expected = f"${term_tex(weight, row)} = {vector_tex(scale(weight, row))}$"
    assert right_term(weight, tuple(row)) == expected
    symbolic = (sympy.sqrt(2), *row[1:])  # not all rational: the product through SymPy
    assert right_term(weight, symbolic) == (
        f"${term_tex(weight, symbolic)} = {vector_tex(scale(weight, symbolic))}$"
    )


@given(st.lists(st.tuples(st.integers(-(10**6), 10**6), st.integers(1, 10**6)), max_size=8))
def test_a_column_of_ratios_is_written_as_its_fractions_are(pairs):
    assert ratios_tex(pairs) == vector_tex([Fraction(n, d) for n, d in pairs])
