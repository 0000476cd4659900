"""Write TeX: exact values (scalars, vectors as bmatrix, weighted terms) and what was read
(a syntax tree, numbers as typed)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from math import gcd

import sympy

from .syntax import Call, Const, Frac, Group, Neg, Node, Num, Power, Product, Sum, Vec


def ratio_tex(numerator: int, denominator: int) -> str:
    """Return TeX for the rational numerator/denominator (denominator > 0), as `scalar_tex`
    writes the Fraction, without building one."""
    common = gcd(numerator, denominator)
    if common != 1:
        numerator //= common
        denominator //= common
    if denominator == 1:
        return str(numerator)
    sign = "-" if numerator < 0 else ""
    return f"{sign}\\frac{{{abs(numerator)}}}{{{denominator}}}"


def ratios_tex(pairs: Iterable[tuple[int, int]]) -> str:
    """Return the column `bmatrix` of rationals given as (numerator, denominator > 0) pairs,
    as `vector_tex` writes their Fractions."""
    return (
        "\\begin{bmatrix}"
        + "\\\\".join([ratio_tex(top, bottom) for top, bottom in pairs])
        + "\\end{bmatrix}"
    )


def scalar_tex(value: object) -> str:
    """Return TeX for one exact scalar (a Fraction, an int or a SymPy expression)."""
    if type(value) is Fraction:  # the commonest: no ABC check, no Fraction comparison
        numerator, denominator = value.numerator, value.denominator
        if denominator == 1:
            return str(numerator)
        sign = "-" if numerator < 0 else ""
        return f"{sign}\\frac{{{abs(numerator)}}}{{{denominator}}}"
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
    if type(weight) is not Fraction and isinstance(weight, sympy.Add):
        weight_tex = f"\\left({weight_tex}\\right)"
    return f"{weight_tex}\\,{vector_tex(row)}"


def _wrap(node: Node) -> str:
    text = tree_tex(node)
    if isinstance(node, (Sum, Neg)):
        return f"\\left({text}\\right)"
    return text


def tree_tex(node: Node) -> str:
    """Return TeX for a parsed answer (a syntax tree): what was read, numbers as typed."""
    if isinstance(node, Num):
        return node.text
    if isinstance(node, Const):
        return "\\pi" if node.name == "pi" else "e"
    if isinstance(node, Group):
        if node.bracket == "{":
            return (
                tree_tex(node.inner) if isinstance(node.inner, (Num, Const)) else _wrap(node.inner)
            )
        return f"\\left({tree_tex(node.inner)}\\right)"
    if isinstance(node, Neg):
        return "-" + _wrap(node.arg)
    if isinstance(node, Sum):
        parts = []
        for index, (sign, term) in enumerate(node.terms):
            text = _wrap(term) if isinstance(term, Sum) else tree_tex(term)
            if index == 0:
                parts.append(("-" if sign == -1 else "") + text)
            else:
                parts.append((" - " if sign == -1 else " + ") + text)
        return "".join(parts)
    if isinstance(node, Product):
        text = _wrap(node.factors[0][1])
        for op, factor in node.factors[1:]:
            if op == "/":
                inner = factor.inner if isinstance(factor, Group) else factor
                text = f"\\frac{{{text}}}{{{tree_tex(inner)}}}"
            elif isinstance(factor, (Num, Const)) and op == "*":
                text = f"{text} \\cdot {_wrap(factor)}"
            else:
                text = f"{text}\\,{_wrap(factor)}"
        return text
    if isinstance(node, Power):
        base = tree_tex(node.base)
        if not isinstance(node.base, (Num, Const, Group)) or "." in base:
            base = f"\\left({base}\\right)"
        return f"{base}^{{{tree_tex(node.exponent)}}}"
    if isinstance(node, Call):
        if node.fn == "exp":
            return f"e^{{{tree_tex(node.arg)}}}"
        return f"\\sqrt{{{tree_tex(node.arg)}}}"
    if isinstance(node, Frac):
        return f"\\frac{{{tree_tex(node.num)}}}{{{tree_tex(node.den)}}}"
    if isinstance(node, Vec):
        return "\\begin{bmatrix}" + "\\\\".join(tree_tex(x) for x in node.items) + "\\end{bmatrix}"
    return ""
