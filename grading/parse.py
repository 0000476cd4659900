"""Read learner text into exact values, safely: the facade over the three phases of reading.

Learner text never reaches `eval`, `sympify` or `parse_expr`. Reading has one module per phase:
`lexer` (a whitelist of characters, then tokens), `syntax` (a recursive-descent parser; its
grammar is written out in its docstring) and `evaluate` (exact values, every size bounded
before it is computed: `bounds`); `tex.tree_tex` shows what was read. Past a bound, or on
anything unreadable, `AnswerError` says what and where (1-based column).

Decimals are read exactly (`0.1` is 1/10) and remember their typed text, so marking can apply
the decimal policy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from .bounds import (
    MAX_BITS,
    MAX_CHARS,
    MAX_COORDINATES,
    MAX_DEPTH,
    MAX_EXP_ARGUMENT,
    MAX_EXP_DENOMINATOR,
    MAX_INTEGER_POWER,
    MAX_IRRATIONAL_ATOMS,
    MAX_NUMBER_DIGITS,
    MAX_ROOT_DENOMINATOR,
    MAX_SYMBOLIC_POWER,
    MAX_TOKENS,
    TIME_BUDGET_SECONDS,
)
from .clock import cpu_now
from .errors import AnswerError
from .evaluate import Evaluator, Value, is_vector
from .lexer import Token, tokenize
from .syntax import parse, parse_with_values
from .tex import tree_tex as to_tex
from .tree import Frac, Group, Neg, Node, Product, Sum, Vec
from .verdict import filled
from .written_terms import Term, decimal_text, expand, rational_terms, sum_terms

__all__ = [
    "MAX_BITS",
    "MAX_CHARS",
    "MAX_COORDINATES",
    "MAX_DEPTH",
    "MAX_EXP_ARGUMENT",
    "MAX_EXP_DENOMINATOR",
    "MAX_INTEGER_POWER",
    "MAX_IRRATIONAL_ATOMS",
    "MAX_NUMBER_DIGITS",
    "MAX_ROOT_DENOMINATOR",
    "MAX_SYMBOLIC_POWER",
    "MAX_TOKENS",
    "TIME_BUDGET_SECONDS",
    "AnswerError",
    "Node",
    "Reading",
    "Term",
    "Token",
    "Value",
    "parse",
    "read_answer",
    "to_tex",
    "tokenize",
]


@dataclass(frozen=True)
class Reading:
    """What was read from one answer: its value, its TeX, its typed decimals, its terms."""

    value: Value
    tex: str
    coordinate_decimals: tuple[str | None, ...] = ()
    terms: tuple[Term, ...] = ()
    written_out: bool = False
    symbolic: bool = False
    parts: tuple[Reading, ...] = ()  # a tuple answer: the reading of each part
    timings: dict[str, float] = field(default_factory=dict, compare=False)


# The commonest answer, a bracketed list of integers and ratios (`[1/2, -3, 0]`), read by two
# regular expressions into the Reading the grammar would give (a test compares the two on
# every shape of such text); anything else, and anything that would raise, takes the grammar.
_PLAIN_NUMBER = rf"-?[0-9]{{1,{MAX_NUMBER_DIGITS}}}(?:/[0-9]{{1,{MAX_NUMBER_DIGITS}}})?"
_PLAIN_VECTOR = re.compile(r" *\[ *{n}(?: *, *{n})* *\] *".replace("{n}", _PLAIN_NUMBER))
_PLAIN_ITEM = re.compile(r"(-?)([0-9]+)(?:/([0-9]+))?")
_PLAIN_TEXT = re.compile(r"-?[0-9]+(?:/[0-9]+)?")  # one item's whole text


def _plain_vector(text: str) -> Reading | None:
    """Return the Reading of a plain bracketed list of integers and ratios, else None."""
    if len(text) > 400 or _PLAIN_VECTOR.fullmatch(text) is None:
        return None
    read = _plain_items(text)
    if read is None or len(read[0]) < 2:
        return None
    values, tex = read
    return filled(  # Reading(value=values, tex=tex, coordinate_decimals=(None,) * len(values))
        Reading,
        {
            "value": values,
            "tex": tex,
            "coordinate_decimals": (None,) * len(values),
            "terms": (),
            "written_out": False,
            "symbolic": False,
            "parts": (),
            "timings": {},
        },
    )


# A sum written out as plain terms, `1/4*[2, -2] + 3/4*[3, 0] - [1, 1]`: a coefficient (an
# integer or ratio, then `*`) or none, times a plain vector. At most 200 characters, so at most
# 200 symbols (the bound is 400).
_PLAIN_TERM = r"(?:[0-9]{1,30}(?:/[0-9]{1,30})? *\* *)?\[ *{n}(?: *, *{n})* *\]".replace(
    "{n}", _PLAIN_NUMBER
)
_PLAIN_SUM = re.compile(rf" *{_PLAIN_TERM}(?: *[-+] *{_PLAIN_TERM})* *")
_SUM_TERM = re.compile(r"([-+]?) *(?:([0-9]+)(?:/([0-9]+))? *\* *)?\[([^\]]*)\]")


@lru_cache(maxsize=4096)
def _plain_item(text: str) -> tuple[Fraction, str] | None:
    """Return the value and TeX of one plain item (`-3`, `1/4`: text shared by every problem's
    answers, so cached), None when it divides by zero."""
    sign, top, bottom = _PLAIN_ITEM.fullmatch(text).groups()  # type: ignore[union-attr]
    if bottom:
        below = int(bottom)
        if not below:
            return None  # the grammar says "division by zero", and where
        value = Fraction(int(top), below)
        tex = f"\\frac{{{top}}}{{{bottom}}}"
    else:
        value = Fraction(int(top))
        tex = top
    return (-value, "-" + tex) if sign else (value, tex)


def _plain_items(inner: str) -> tuple[tuple[Fraction, ...], str] | None:
    """Return the values and TeX of a plain vector's items (None: one divides by zero, or
    there are too many)."""
    items = _PLAIN_TEXT.findall(inner)
    if len(items) > MAX_COORDINATES:
        return None
    read = list(map(_plain_item, items))
    if None in read:
        return None
    values = tuple([value for value, _ in read])  # type: ignore[misc]
    shown = "\\\\".join([tex for _, tex in read])  # type: ignore[misc]
    return values, "\\begin{bmatrix}" + shown + "\\end{bmatrix}"


def _plain_sum(text: str) -> Reading | None:
    """Return the Reading of a sum of plain terms, else None."""
    if len(text) > 200 or _PLAIN_SUM.fullmatch(text) is None:
        return None
    terms: list[Term] = []
    shown: list[str] = []
    for sign, top, bottom, inner in _SUM_TERM.findall(text):
        read = _plain_items(inner)
        if read is None or (terms and len(read[0]) != len(terms[0].vector)):
            return None
        vector, tex = read
        if top:
            if bottom:
                below = int(bottom)
                if not below:
                    return None
                coefficient = Fraction(int(top), below)
                tex = f"\\frac{{{top}}}{{{bottom}}}\\,{tex}"
            else:
                coefficient = Fraction(int(top))
                tex = f"{top}\\,{tex}"
        else:
            coefficient = Fraction(1)
        terms.append(Term(-coefficient if sign == "-" else coefficient, vector, None, bool(top)))
        shown.append({"": "", "+": " + ", "-": " - "}[sign] + tex)
    if len(terms) == 1 and not terms[0].explicit:
        return None  # a plain vector
    return Reading(
        value=sum_terms(terms),
        tex="".join(shown),
        terms=tuple(terms),
        written_out=True,
    )


def read_answer(text: str, *, budget: float = TIME_BUDGET_SECONDS, logs: bool = False) -> Reading:
    """Read learner text into a Reading, or raise AnswerError saying what and where; `log(x)`
    is read only with `logs` (a shape whose answers may need a logarithm)."""
    deadline = cpu_now() + budget
    plain = (_plain_vector(text) or _plain_sum(text)) if type(text) is str else None
    if plain is not None and cpu_now() <= deadline:
        return plain
    return read_tree(text, budget=deadline - cpu_now(), logs=logs)  # past it: the same error


def read_tree(text: str, *, budget: float = TIME_BUDGET_SECONDS, logs: bool = False) -> Reading:
    """Read learner text by the grammar (every form), or raise AnswerError."""
    deadline = cpu_now() + budget
    node, known = parse_with_values(text, logs=logs)
    evaluator = Evaluator(deadline, known)
    top = node.inner if isinstance(node, Group) else node
    value: Value | None = None
    expanded: list[Term] | None = None
    if isinstance(top, (Sum, Product, Neg, Frac)):
        # Perhaps a sum written out: expand it first; when its terms are rational, their sum
        # in integers is the value, without a Fraction for every product and partial sum.
        expanded = expand(node, evaluator)
        if expanded and rational_terms(expanded):
            value = sum_terms(expanded)
    if value is None:  # the terms (if any) are the same once the evaluator has run
        value = evaluator.value(node)
    decimals: tuple[str | None, ...] = ()
    if isinstance(top, Vec):
        decimals = tuple(decimal_text(item) for item in top.items)
    elif not is_vector(value) and decimal_text(top) is not None:
        decimals = (decimal_text(top),)  # one number typed as a decimal
    terms: tuple[Term, ...] = ()
    written_out = False
    if is_vector(value) and not isinstance(top, Vec):
        if expanded is None:
            expanded = expand(node, evaluator)
        if expanded:
            terms = tuple(expanded)
            written_out = len(terms) > 1 or terms[0].explicit
    return Reading(
        value=value,
        tex=to_tex(node),
        coordinate_decimals=decimals,
        terms=terms,
        written_out=written_out,
        symbolic=evaluator.irrational > 0,
    )
