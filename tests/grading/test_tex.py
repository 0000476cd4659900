from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from grading import vector_tex
from grading.exact import scale
from grading.kinds._sums import right_term
from grading.tex import (
    _numbers_in_order,
    _sympy_tex,
    ratio_tex,
    ratios_tex,
    scalar_tex,
    term_tex,
)


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
    # and a vector of Fractions as each coordinate is written alone
    column = [_fraction_tex(Fraction(n, d)) for n, d in pairs]
    assert vector_tex([Fraction(n, d) for n, d in pairs]) == (
        "\\begin{bmatrix}" + "\\\\".join(column) + "\\end{bmatrix}"
    )


# ---------------------------------------------------------------- the faster printer
# grading.tex prints SymPy values with SymPy's own LaTeX printer, ordering sums of numbers from
# floats instead of SymPy's evalf of every factor. Its output must be sympy.latex's, always.

E, PI = sympy.E, sympy.pi


def _printed_as_sympy_does(value: sympy.Expr) -> None:
    assert _sympy_tex.__wrapped__(value) == sympy.latex(value), sympy.srepr(value)


def test_the_printer_keeps_sympys_special_case_and_its_order_of_terms():
    for value in (
        1 - E,
        E - 2 * sympy.exp(3),
        -1 + sympy.sqrt(2),
        sympy.Rational(1, 2) - sympy.exp(sympy.Rational(-1, 3)),
        sympy.exp(-2) - 4 * sympy.exp(4),
        (-2 * sympy.exp(8) - sympy.exp(2) - 1) / (1 + sympy.exp(2) + 2 * sympy.exp(8)),
        -sympy.exp(5) / (sympy.exp(-2) + sympy.exp(5)),
        PI + sympy.exp(sympy.Rational(7, 6)) - 3 * sympy.sqrt(3),
        sympy.sqrt(2) * sympy.exp(1) + sympy.sqrt(3),
    ):
        _printed_as_sympy_does(value)


def test_terms_too_close_for_floats_are_ordered_by_sympy():
    # exp(1/2) and a ratio agreeing with it to 12 digits: the float order is not trusted
    close = sympy.Rational(int(sympy.floor(sympy.exp(sympy.Rational(1, 2)) * 10**12)), 10**12)
    value = sympy.exp(sympy.Rational(1, 2)) + close
    assert _numbers_in_order(value.args) is None
    _printed_as_sympy_does(value)


def test_sums_past_a_doubles_range_are_ordered_by_sympy():
    huge = sympy.exp(800) * sympy.exp(sympy.Rational(1, 3))  # e^(2401/3): no double holds it
    for value in (huge + 1, huge - sympy.exp(200) ** 2, sympy.Rational(10**400, 3) + E):
        _printed_as_sympy_does(value)


def test_sums_with_symbols_are_left_to_sympy_and_numbers_with_sums_inside_are_not():
    x = sympy.Symbol("x")
    assert _numbers_in_order((x, sympy.Integer(2))) is None
    _printed_as_sympy_does(x**2 + 3 * x - E)
    # a quotient of sums is a number SymPy orders by value too: bounded, then ordered so
    inverse = 1 / (1 + E)
    assert _numbers_in_order((sympy.Integer(2), inverse)) == [inverse, sympy.Integer(2)]
    _printed_as_sympy_does(inverse + 2)
    _printed_as_sympy_does(sympy.exp(3) / (1 + E) - 2 * sympy.sqrt(2) / (E + sympy.pi) + 5)


_exponents = st.fractions(min_value=-60, max_value=60, max_denominator=60)
_coefficients = st.fractions(min_value=-9, max_value=9, max_denominator=7)


@st.composite
def _numbers(draw) -> sympy.Expr:
    """A sum of terms c, c e^q, c sqrt(r), c e, c pi (what grading's values are made of)."""
    terms = []
    for _ in range(draw(st.integers(1, 6))):
        c = draw(_coefficients)
        factor = draw(
            st.sampled_from(["1", "exp", "sqrt", "e", "pi"]),
        )
        coefficient = sympy.Rational(c.numerator, c.denominator)
        if factor == "exp":
            q = draw(_exponents)
            terms.append(coefficient * sympy.exp(sympy.Rational(q.numerator, q.denominator)))
        elif factor == "sqrt":
            terms.append(coefficient * sympy.sqrt(draw(st.integers(2, 30))))
        elif factor == "e":
            terms.append(coefficient * E)
        elif factor == "pi":
            terms.append(coefficient * PI)
        else:
            terms.append(coefficient)
    return sympy.Add(*terms)


@settings(max_examples=400, deadline=None)
@given(_numbers(), _numbers())
def test_the_printer_prints_sums_and_quotients_as_sympy_does(top, bottom):
    _printed_as_sympy_does(top)
    if bottom != 0:
        _printed_as_sympy_does(top / bottom)
