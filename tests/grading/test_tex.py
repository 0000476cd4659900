from fractions import Fraction

import sympy

from grading import vector_tex
from grading.tex import scalar_tex, term_tex


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
