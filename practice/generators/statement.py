"""Problem statements: Markdown with ``$...$`` / ``$$...$$`` TeX, one function per kind.

The text is rendered to HTML with MathML by ``courses.mathml.render_markdown``; this module only
emits text, so it stays pure. Tokens come from specs (authors may write them), so they are
escaped for Markdown in prose and put inside TeX only when they are plain words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from grading.kinds import ProblemKind

ANSWER_FORMS = (
    "Answer with the vector, for example `[1/2, 1]`, or with the sum written out term by term, "
    "for example `1/2*[1, 0] + 1/2*[0, 2]`. Fractions are exact; a decimal counts when it rounds "
    "the exact value at the digits typed, with at least three significant figures."
)

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


def _positions(count: int) -> str:
    return f"positions 0 to {count - 1}"


def _lookup(spec: dict) -> str:
    tokens, position = spec["tokens"], spec["position"]
    lines = [
        "The embedding table $E$ has one row per vocabulary entry; an entry's id is its row "
        "number, counting from 0.",
        "",
    ]
    for index, (word, row) in enumerate(zip(spec["vocab"], spec["table"], strict=True)):
        lines.append(f"- id {index}, {md_word(word)}: $E[{index}] = {tex_vector(row)}$")
    lines += [
        "",
        f"The sentence is {md_sentence(tokens)} ({_positions(len(tokens))}).",
        "",
        f"**Compute** the starting row $\\mathbf{{x}}_{{{position}}}^{{(0)}}$ that the lookup "
        f"gives position {position}, {md_word(tokens[position])}:",
        "",
        f"$$\\mathbf{{x}}_{{{position}}}^{{(0)}} = E[\\mathrm{{id}}"
        f"({tex_token(tokens[position], f't_{{{position}}}')})]$$",
        "",
        "Answer with the vector, for example `[1, 0]`.",
    ]
    return "\n".join(lines)


def _mix_lines(
    position: int, tokens: Sequence[str], rows: Sequence[Sequence[str]], weights: Sequence[str]
) -> list[str]:
    lines = []
    for j, (token, row, weight) in enumerate(zip(tokens, rows, weights, strict=True)):
        self_note = " (the word itself)" if j == position else ""
        lines.append(
            f"- position {j}, {md_word(token)}{self_note}: "
            f"$\\mathbf{{x}}_{{{j}}} = {tex_vector(row)}$, "
            f"$w_{{{position},{j}}} = {tex_number(weight)}$"
        )
    return lines


def _weighted_sum(spec: dict) -> str:
    tokens, position = spec["tokens"], spec["position"]
    lines = [
        f"The sentence is {md_sentence(tokens)} ({_positions(len(tokens))}). One layer rebuilds "
        f"position {position}, {md_word(tokens[position])}, as a weighted sum of the rows at "
        "every position, itself included:",
        "",
        f"$$\\mathbf{{h}}_{{{position}}} = \\sum_j w_{{{position},j}}\\,\\mathbf{{x}}_j$$",
        "",
        *_mix_lines(position, tokens, spec["rows"], spec["weights"]),
        "",
        f"**Compute** $\\mathbf{{h}}_{{{position}}}$.",
        "",
        ANSWER_FORMS,
    ]
    return "\n".join(lines)


def _contrast(spec: dict) -> str:
    tokens_a, tokens_b, position = spec["tokens_a"], spec["tokens_b"], spec["position"]
    lines = [
        f"Sentence A is {md_sentence(tokens_a)}; sentence B is {md_sentence(tokens_b)}. In both, "
        f"position {position} is {md_word(tokens_a[position])}, and one layer mixes the rows "
        "with the same weights:",
        "",
        f"$$\\mathbf{{h}}_{{{position}}} = \\sum_j w_{{{position},j}}\\,\\mathbf{{x}}_j$$",
        "",
    ]
    for j, weight in enumerate(spec["weights"]):
        a, b = tokens_a[j], tokens_b[j]
        rows = (
            f"{md_word(a)} $\\mathbf{{x}}_{{{j}}} = {tex_vector(spec['rows_a'][j])}$ in both"
            if a == b and spec["rows_a"][j] == spec["rows_b"][j]
            else f"A: {md_word(a)} $\\mathbf{{x}}_{{{j}}}^{{A}} = {tex_vector(spec['rows_a'][j])}$,"
            f" B: {md_word(b)} $\\mathbf{{x}}_{{{j}}}^{{B}} = {tex_vector(spec['rows_b'][j])}$"
        )
        lines.append(f"- position {j}, $w_{{{position},{j}}} = {tex_number(weight)}$: {rows}")
    lines += [
        "",
        f"**Compute** the difference $\\mathbf{{h}}_{{{position}}}^{{B}} - "
        f"\\mathbf{{h}}_{{{position}}}^{{A}}$ that the change of neighbours makes.",
        "",
        ANSWER_FORMS,
    ]
    return "\n".join(lines)


def _content_weights(spec: dict) -> str:
    tokens, position = spec["tokens"], spec["position"]
    i = position
    lines = [
        f"The sentence is {md_sentence(tokens)} ({_positions(len(tokens))}), with these rows:",
        "",
    ]
    for j, (token, row) in enumerate(zip(tokens, spec["rows"], strict=True)):
        lines.append(
            f"- position {j}, {md_word(token)}: $\\mathbf{{x}}_{{{j}}} = {tex_vector(row)}$"
        )
    lines += [
        "",
        f"At position {i}, {md_word(tokens[i])}, the layer scores every position by its content, "
        "turns the scores into weights that sum to 1, and mixes the rows with them:",
        "",
        f"$$s_{{{i},j}} = \\mathbf{{x}}_{{{i}}} \\cdot \\mathbf{{x}}_j,\\quad "
        f"w_{{{i},j}} = \\frac{{e^{{s_{{{i},j}}}}}}{{\\sum_k e^{{s_{{{i},k}}}}}},\\quad "
        f"\\mathbf{{h}}_{{{i}}} = \\sum_j w_{{{i},j}}\\,\\mathbf{{x}}_j$$",
        "",
        f"**Compute** $\\mathbf{{h}}_{{{i}}}$, exactly (write $e^2$ as `exp(2)`) or in decimals "
        "with at least three significant figures.",
        "",
        "Answer with the vector, for example `[exp(1)/(1 + exp(1)), 0]`, or with the vector over "
        "a common denominator, for example `[exp(1), 1]/(1 + exp(1))`, or with the sum written "
        "out term by term.",
    ]
    return "\n".join(lines)


_STATEMENTS: dict[ProblemKind, Callable[[dict], str]] = {
    ProblemKind.LOOKUP: _lookup,
    ProblemKind.WEIGHTED_SUM: _weighted_sum,
    ProblemKind.CONTRAST: _contrast,
    ProblemKind.CONTENT_WEIGHTS: _content_weights,
}


def render_statement(spec: dict) -> str:
    """Return the problem statement as Markdown with TeX: the data, what to compute, how to
    answer. Raises ``ValueError`` for an unknown kind."""
    return _STATEMENTS[ProblemKind(spec["kind"])](spec)
