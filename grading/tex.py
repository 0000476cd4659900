"""Write exact values as TeX: scalars, vectors (bmatrix) and weighted terms."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

import sympy


def scalar_tex(value: object) -> str:
    """Return TeX for one exact scalar (a Fraction, an int or a SymPy expression)."""
    if isinstance(value, int):
        value = Fraction(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        sign = "-" if value < 0 else ""
        return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
    return _sympy_tex(value)


@lru_cache(maxsize=4096)
def _sympy_tex(value: sympy.Expr) -> str:
    # Printing an exp expression costs milliseconds; problems repeat, so their values repeat.
    return sympy.latex(value)


def vector_tex(vector: Iterable[object]) -> str:
    """Return a vector as a TeX column `bmatrix`."""
    return "\\begin{bmatrix}" + "\\\\".join(scalar_tex(x) for x in vector) + "\\end{bmatrix}"


def term_tex(weight: object, row: Iterable[object]) -> str:
    """Return one weighted term `w x` as TeX, the weight wrapped when it is a sum."""
    weight_tex = scalar_tex(weight)
    if isinstance(weight, sympy.Expr) and isinstance(weight, sympy.Add):
        weight_tex = f"\\left({weight_tex}\\right)"
    return f"{weight_tex}\\,{vector_tex(row)}"
