"""Write TeX: exact values (scalars, vectors as bmatrix, weighted terms) and what was read
(a syntax tree, numbers as typed)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import gcd

import sympy
from sympy.printing.latex import LatexPrinter

from .compare import apart, float_bound
from .fraction_parts import num_den
from .tree import Call, Const, Frac, Group, Neg, Node, Num, Power, Product, Sum, Vec


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
    parts = []
    for top, bottom in pairs:  # ratio_tex, inline (a call per coordinate was half the time)
        common = gcd(top, bottom)
        if common != 1:
            top //= common
            bottom //= common
        if bottom == 1:
            parts.append(str(top))
        elif top < 0:
            parts.append(f"-\\frac{{{-top}}}{{{bottom}}}")
        else:
            parts.append(f"\\frac{{{top}}}{{{bottom}}}")
    return "\\begin{bmatrix}" + "\\\\".join(parts) + "\\end{bmatrix}"


def scalar_tex(value: object) -> str:
    """Return TeX for one exact scalar (a Fraction, an int or a SymPy expression)."""
    if type(value) is Fraction:  # the commonest: no ABC check, no Fraction comparison
        numerator, denominator = num_den(value)
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
    return _Printer().doprint(value)


# What the printer wrote for each part of the values printed lately (the denominator every
# coordinate of a softmax-weighted vector shares, the terms its sums share), so a part is
# printed once; cleared with `_sympy_tex` and whenever it holds MEMO_SIZE parts.
MEMO_SIZE = 4096
_memo: dict[sympy.Basic, str] = {}


def _clear_tex_caches() -> None:
    _sympy_tex_cached_clear()
    _memo.clear()


_sympy_tex_cached_clear = _sympy_tex.cache_clear
_sympy_tex.cache_clear = _clear_tex_caches  # type: ignore[method-assign]


_NUMBERS = (sympy.Number, sympy.NumberSymbol)


def _numbers_in_order(terms: Sequence[sympy.Expr]) -> list[sympy.Expr] | None:
    """Return the terms of a sum of real numbers in the order SymPy's printer gives them, or
    None when that order is not sure from floats (a term `compare.float_bound` does not bound,
    or two terms its bounds do not surely tell apart).

    `Expr.as_ordered_terms` orders a sum whose terms are all numbers by their values, from the
    least, after one special case (a positive number and a product with a negative
    coefficient keep that order: `1 - e^{2}`); it finds the values by SymPy's `evalf` of every
    factor, which is most of the cost of printing such a sum. The values here are doubles with
    error bounds: where every two neighbours are surely apart, their order is the same.
    """
    if len(terms) == 2:
        number, other = sorted(terms, key=lambda t: not isinstance(t, _NUMBERS))
        if isinstance(number, _NUMBERS) and other.is_Mul:
            factors = sorted(other.args, key=lambda t: not isinstance(t, _NUMBERS))
            if (
                len(factors) == 2
                and isinstance(factors[0], sympy.Number)
                and number.is_positive
                and factors[0].is_negative
            ):
                return [number, other]
    bounds = [float_bound(term) for term in terms]  # None past a double's range, too
    if None in bounds:
        return None
    order = sorted(range(len(terms)), key=lambda k: bounds[k][0])  # type: ignore[index]
    for a, b in itertools.pairwise(order):
        if not apart(bounds[a], bounds[b]):  # type: ignore[arg-type]
            return None
    return [terms[k] for k in order]


class _Printer(LatexPrinter):
    """SymPy's LaTeX printer, with sums of numbers put in its order from floats (see
    `_numbers_in_order`; every other expression, and every sum whose order is not sure from
    floats, is ordered by SymPy itself), and each part printed once (`_memo`). Its output is
    `sympy.latex`'s (tests compare them on every kind's values and on random sums)."""

    def _print(self, expr: object, **kwargs: object) -> str:
        # A part is printed the same wherever it stands (its parent adds any brackets), so
        # what was written for it is written again; printing with options is not kept.
        if kwargs or not isinstance(expr, sympy.Basic):
            return super()._print(expr, **kwargs)
        text = _memo.get(expr)
        if text is None:
            if len(_memo) >= MEMO_SIZE:
                _memo.clear()
            text = _memo[expr] = super()._print(expr)
        return text

    def _print_Mul(self, expr: sympy.Mul) -> str:
        # A sum over a sum, `Mul(a, Pow(b, -1))` with a and b sums: SymPy's printer writes
        # `\frac{a}{b}` (no number to keep apart, no sign to take out, `fraction` gives a and
        # b), so it is written so without building `-expr` and the fraction's parts.
        if len(expr.args) == 2:
            # An integer times e to a positive rational, `c e^{q}`: SymPy's printer writes the
            # integer, a space and the power (a minus sign apart), as here without building
            # `-expr` and the fraction's parts.
            c, power = expr.args
            if (
                c.is_Integer
                and isinstance(power, sympy.exp)
                and power.args[0].is_Rational
                and power.args[0].is_positive
            ):
                atom = self._print(power)
                if c == -1:
                    return f"- {atom}"
                return f"{c} {atom}" if c > 0 else f"- {-c} {atom}"
            top, bottom = expr.args
            if top.is_Pow:
                top, bottom = bottom, top
            if (
                top.is_Add
                and bottom.is_Pow
                and bottom.exp is sympy.S.NegativeOne
                and bottom.base.is_Add
            ):
                return f"\\frac{{{self._print(top)}}}{{{self._print(bottom.base)}}}"
        return super()._print_Mul(expr)

    def _as_ordered_terms(self, expr: sympy.Expr, order: str | None = None) -> list:
        if (order or self.order) is None and expr.is_Add:
            ordered = _numbers_in_order(expr.args)
            if ordered is not None:
                return ordered
        return super()._as_ordered_terms(expr, order=order)


def vector_tex(vector: Iterable[object]) -> str:
    """Return a vector as a TeX column `bmatrix`."""
    parts = []
    for x in vector:
        if type(x) is Fraction:  # scalar_tex's commonest case, inline
            top, bottom = num_den(x)
            if bottom == 1:
                parts.append(str(top))
            elif top < 0:
                parts.append(f"-\\frac{{{-top}}}{{{bottom}}}")
            else:
                parts.append(f"\\frac{{{top}}}{{{bottom}}}")
        else:
            parts.append(scalar_tex(x))
    return "\\begin{bmatrix}" + "\\\\".join(parts) + "\\end{bmatrix}"


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
        if node.fn == "log":
            return f"\\log\\left({tree_tex(node.arg)}\\right)"
        return f"\\sqrt{{{tree_tex(node.arg)}}}"
    if isinstance(node, Frac):
        return f"\\frac{{{tree_tex(node.num)}}}{{{tree_tex(node.den)}}}"
    if isinstance(node, Vec):
        return "\\begin{bmatrix}" + "\\\\".join(tree_tex(x) for x in node.items) + "\\end{bmatrix}"
    return ""
