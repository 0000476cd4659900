"""Problem statements: the pieces every kind's statement shares (escaping, TeX numbers and
vectors, the answer forms of vectors). Each kind's own statement is its generator's
``statement`` method, in ``practice/generators/<kind>.py``; Markdown with ``$...$`` /
``$$...$$`` TeX.

The text is rendered to HTML with MathML by ``courses.mathml.render_markdown``; this module only
emits text, so it stays pure. Tokens come from specs (authors may write them), so they are
escaped for Markdown in prose and put inside TeX only when they are plain words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from grading.answer_help import safe_example

ANSWER_FORMS = (
    "Answer with the vector, for example `[1/2, 1]`, or with the sum written out term by term, "
    "for example `1/2*[1, 0] + 1/2*[0, 2]`. Fractions are exact; a decimal counts when it rounds "
    "the exact value at the digits typed, with at least three significant figures."
)

# Shown in place of an example when every candidate would give something away.
NO_EXAMPLE = "…"

# Other vectors and sums for the format examples, tried in order when the usual one is the
# problem's answer or a catalogued mistake's (see `format_example`).
VECTOR_EXAMPLES = ("[1/2, 1]", "[-7/3, 5/4]", "[9/7, -2/9]", "[-11/6, 13/5]")
SUM_EXAMPLES = (
    "1/2*[1, 0] + 1/2*[0, 2]",
    "1/3*[1, 0] + 2/3*[0, 1]",
    "5/7*[-2, 3] + 2/7*[4, -1]",
    "3/8*[7, -5] + 5/8*[-3, 9]",
)


def format_example(spec: dict, candidates: Sequence[str]) -> str:
    """Return the first candidate format example that gives nothing away on `spec`.

    When every candidate is the answer or a catalogued mistake's answer, return `NO_EXAMPLE`
    (an ellipsis: a page never fails over its example). The candidates are chosen so that this
    does not happen: tests/generators/test_format_examples.py checks it over many seeds."""
    example = safe_example(spec, candidates)
    return NO_EXAMPLE if example is None else example


def answer_forms(spec: dict) -> str:
    """Return `ANSWER_FORMS` with examples that give nothing away on `spec`."""
    vector = format_example(spec, VECTOR_EXAMPLES)
    written = format_example(spec, SUM_EXAMPLES)
    return ANSWER_FORMS.replace(VECTOR_EXAMPLES[0], vector, 1).replace(SUM_EXAMPLES[0], written, 1)


# Python-Markdown's backslash escapes (with the tables extension's "|"); "<", "&" and "$" have
# none, so they become character references (the "$" must not open a formula).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()>#+\-.!|])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", "$": "&#36;"}
# latex2mathml reads no escapes inside \text{...}: only plain words go there.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9 '-]{1,40}")


def _md_escape(token: str) -> str:
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", str(token))
    return "".join(_ENTITIES.get(ch, ch) for ch in escaped)


def md_word(token: str) -> str:
    """Return a token as emphasised Markdown, its special characters escaped."""
    return "*" + _md_escape(token) + "*"


def md_sentence(tokens: Sequence[str]) -> str:
    """Return tokens as one emphasised Markdown sentence, each escaped."""
    return "*" + " ".join(_md_escape(t) for t in tokens) + "*"


def tex_token(token: str, fallback: str) -> str:
    """Return a plain word as ``\\text{word}``, anything else as the TeX ``fallback``."""
    token = str(token)
    return r"\text{" + token + "}" if _PLAIN_WORD.fullmatch(token) else fallback


def tex_number(value: str | int | Fraction) -> str:
    """Write an exact rational in TeX: ``3``, ``-\\frac{1}{4}``."""
    number = Fraction(str(value))
    if number.denominator == 1:
        return str(number.numerator)
    sign = "-" if number < 0 else ""
    return rf"{sign}\frac{{{abs(number.numerator)}}}{{{number.denominator}}}"


def tex_vector(values: Sequence[str | int | Fraction]) -> str:
    """Write a column vector as a ``bmatrix``."""
    return r"\begin{bmatrix}" + r"\\".join(tex_number(v) for v in values) + r"\end{bmatrix}"


def positions(count: int) -> str:
    """Return "positions 0 to n-1" for a sentence of `count` words."""
    return f"positions 0 to {count - 1}"


def row_lines(tokens: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Return one Markdown line per position: its word and its row."""
    return [
        f"- position {j}, {md_word(token)}: $\\mathbf{{x}}_{{{j}}} = {tex_vector(row)}$"
        for j, (token, row) in enumerate(zip(tokens, rows, strict=True))
    ]


def mix_lines(
    position: int, tokens: Sequence[str], rows: Sequence[Sequence[str]], weights: Sequence[str]
) -> list[str]:
    """Return one Markdown line per position: its word, its row and its weight."""
    lines = []
    for j, (token, row, weight) in enumerate(zip(tokens, rows, weights, strict=True)):
        self_note = " (the word itself)" if j == position else ""
        lines.append(
            f"- position {j}, {md_word(token)}{self_note}: "
            f"$\\mathbf{{x}}_{{{j}}} = {tex_vector(row)}$, "
            f"$w_{{{position},{j}}} = {tex_number(weight)}$"
        )
    return lines
