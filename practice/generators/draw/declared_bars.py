"""The picture of a declared kind whose answer is a vector: bars with their values, entry by entry.

One panel per vector parameter of the problem (grey bars of the given numbers), then the answer's
panel: before an answer, one dashed empty bar per entry with a question mark (the numbers are the
learner's to find, so none is drawn); solved, a green bar per entry with its value written under
it; answered, the learner's bars dashed beside the right ones, their values on a second line.
Each panel has its own scale and a line at zero; bars may go below it. A value is written exactly
when it is a short fraction, else to three decimals. A learner's number far outside the right
answer's range is drawn to the panel's edge (``data-clipped``), its value still written in full.

Columns are 56 px wide, so up to five entries fit a 312 px phone column with the text at 12 px;
longer vectors (up to 8) get narrower columns and a wider picture, which scrolls in its frame on
a phone. Scalar declared kinds draw nothing: their parameters are numbers the statement shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from . import svg

FONT = 12
LEFT = 14
COLUMN, NARROW = 56, 44  # a column's width, up to five entries and above
BARS = 72  # a panel's bar area, in pixels
TITLE, INDEX, LINE = 16, 16, 16  # a panel's title line, its index line, each value line
GAP = 14  # between panels
MIN_WIDTH = 268  # room for the longest title and legend line
TEXT = "#374151"


def written(value: Any) -> str:
    """Write a number for a bar's label: a short fraction exactly, else three decimals (a tiny
    nonzero number as ≈0); minus signs as −."""
    if isinstance(value, int | Fraction) or getattr(value, "is_Rational", False):
        exact = Fraction(int(value.p), int(value.q)) if hasattr(value, "p") else Fraction(value)
        if exact.denominator <= 12 and abs(exact.numerator) < 1000:
            return svg.math_text(exact)
    number = svg.finite(value)
    if number is None:
        return "?"
    if abs(number) >= 1000:
        return svg.math_text(f"{number:.3g}")
    text = f"{number:.3f}".rstrip("0").rstrip(".")
    if text in ("0", "-0") and number != 0:
        return "≈0"
    return svg.math_text(text)


class _Panel:
    """One row of bars on its own scale: the place of its entries and its zero line."""

    def __init__(self, top: float, values: Sequence[float], column: float) -> None:
        low, high = min(0.0, *values), max(0.0, *values)
        if high - low < 1e-12:
            high = low + 1
        self.top, self.column = top, column
        self.bars_top = top + TITLE
        self.y = svg.Axis(low, high, self.bars_top + BARS, self.bars_top)

    def x(self, k: int) -> float:
        """Return the centre of entry k's column."""
        return LEFT + self.column * (k + 0.5)

    def bottom(self) -> float:
        """Return the bottom of the bar area."""
        return self.bars_top + BARS

    def bar(self, x: float, width: float, value: float, **extra: Any) -> str:
        """Return a bar from zero to ``value`` centred at x."""
        top, bottom = sorted((self.y(0), self.y(value)))
        return svg.rect(x - width / 2, top, width, max(bottom - top, 1), **extra)


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _frame(panel: _Panel, names: Sequence[str], title: str, width: float) -> list[str]:
    """Return a panel's title, its zero line and each column's name under the bars."""
    out = [
        svg.text(LEFT, panel.top + 12, title, fill=TEXT, data_role="panel-title"),
        svg.line(LEFT, panel.y(0), width - LEFT, panel.y(0), stroke="#9ca3af"),
    ]
    for k, name in enumerate(names):
        out.append(
            svg.text(
                panel.x(k),
                panel.bottom() + INDEX - 3,
                name,
                text_anchor="middle",
                fill=TEXT,
                data_role="index",
            )
        )
    return out


def _entries(count: int, column: float) -> list[str]:
    """Return the answer's column names: "entry k", or k alone in a narrow column."""
    return [f"entry {k}" if column >= COLUMN else str(k) for k in range(count)]


def _given(name: str, values: Sequence[Any], top: float, column: float, width: float):
    """Return a given vector's panel (grey bars, values under them) and its height."""
    floats = [svg.finite(v) or 0.0 for v in values]
    panel = _Panel(top, floats, column)
    names = [f"{name}{str(k).translate(_SUB)} = {written(v)}" for k, v in enumerate(values)]
    body = _frame(panel, names, f"{name}, given", width)
    for k, (value, number) in enumerate(zip(values, floats, strict=True)):
        body.append(
            panel.bar(
                panel.x(k),
                24,
                number,
                fill=svg.COLOURS["given"],
                fill_opacity="0.5",
                data_role="given",
                data_entry=k,
                data_value=str(value),
            )
        )
    return body, TITLE + BARS + INDEX


def _answer(
    right: Sequence[Any],
    given: Sequence[Any] | None,
    solved: bool,
    top: float,
    column: float,
    width: float,
):
    """Return the answer's panel and its height: unknown bars, or the right ones and the
    learner's."""
    n = len(right)
    rights = [svg.finite(v) or 0.0 for v in right]
    if not solved:
        panel = _Panel(top, [0.0, 1.0], column)
        body = _frame(panel, _entries(n, column), "answer, for you to work out", width)
        for k in range(n):
            body.append(
                svg.rect(
                    panel.x(k) - 12,
                    panel.bars_top + 8,
                    24,
                    BARS - 8,
                    fill="none",
                    stroke=svg.COLOURS["unknown"],
                    stroke_dasharray="4 4",
                    data_role="unknown",
                    data_entry=k,
                )
            )
            body.append(
                svg.text(
                    panel.x(k),
                    panel.bars_top + 8 + BARS / 2,
                    "?",
                    text_anchor="middle",
                    fill=TEXT,
                    data_role="unknown-mark",
                )
            )
        return body, TITLE + BARS + INDEX
    reach = 3 * max(max(abs(v) for v in rights), 0.1)
    learner = None
    if given is not None:
        learner = [svg.finite(v) for v in given]
        learner = [v if v is not None else 0.0 for v in learner]
    shown = [max(-reach, min(reach, v)) for v in learner] if learner else []
    panel = _Panel(top, rights + shown, column)
    title = "the right answer" + (", and yours dashed" if learner else "")
    body = _frame(panel, _entries(n, column), title, width)
    for k, (value, number) in enumerate(zip(right, rights, strict=True)):
        x = panel.x(k) - (10 if learner else 0)
        body.append(
            panel.bar(
                x,
                18 if learner else 24,
                number,
                fill=svg.COLOURS["right"],
                fill_opacity="0.6",
                data_role="right",
                data_entry=k,
                data_value=f"{number:.6g}",
            )
        )
        body.append(
            svg.text(
                panel.x(k),
                panel.bottom() + INDEX + LINE - 3,
                written(value),
                text_anchor="middle",
                fill=svg.COLOURS["right"],
                data_role="right-value",
            )
        )
    height = TITLE + BARS + INDEX + LINE
    if learner:
        for k, number in enumerate(learner):
            body.append(
                panel.bar(
                    panel.x(k) + 10,
                    18,
                    shown[k],
                    fill="none",
                    stroke=svg.COLOURS["answer"],
                    stroke_width=1.5,
                    stroke_dasharray="4 3",
                    data_role="answer",
                    data_entry=k,
                    data_value=f"{number:.6g}",
                    data_clipped="true" if shown[k] != number else None,
                )
            )
            body.append(
                svg.text(
                    panel.x(k),
                    panel.bottom() + INDEX + 2 * LINE - 3,
                    written(given[k]),
                    text_anchor="middle",
                    fill=svg.COLOURS["answer"],
                    data_role="answer-value",
                )
            )
        height += LINE
    return body, height


def _legend(top: float, learner: bool) -> tuple[list[str], float]:
    """Return the legend under a solved picture (what green and dashed bars are) and its
    height."""
    entries = [(svg.COLOURS["right"], "0.6", None, "right answer, value in green")]
    if learner:
        entries.append(("none", None, svg.COLOURS["answer"], "your answer, value in orange"))
    body = []
    y = top
    for fill, opacity, stroke, words in entries:
        body.append(
            svg.rect(
                LEFT,
                y + 2,
                14,
                12,
                fill=fill,
                fill_opacity=opacity,
                stroke=stroke,
                stroke_dasharray="3 2" if stroke else None,
                data_role="legend-swatch",
            )
        )
        body.append(svg.text(LEFT + 22, y + 12, words, fill=TEXT, data_role="legend"))
        y += 18
    return body, y - top


def vector_picture(
    label: str,
    vectors: Sequence[tuple[str, Sequence[Any]]],
    right: Sequence[Any],
    answer: Sequence[Any] | None,
    solved: bool,
    key: Any,
) -> str:
    """Return the SVG of a vector answer: each given vector's bars, then the answer's (unknown,
    or the right one and the learner's ``answer`` when given, of the same length)."""
    n = max([len(right), *(len(v) for _, v in vectors)])
    column = COLUMN if n <= 5 else NARROW
    width = max(2 * LEFT + column * n, MIN_WIDTH)
    body: list[str] = []
    top = 4.0
    for name, values in vectors:
        drawn, height = _given(name, values, top, column, width)
        body += drawn
        top += height + GAP
    given = answer if answer is not None and len(answer) == len(right) else None
    solved = solved or given is not None
    drawn, height = _answer(right, given, solved, top, column, width)
    body += drawn
    top += height + GAP / 2
    if solved:
        drawn, height = _legend(top, given is not None)
        body += drawn
        top += height
    inputs = "; ".join(
        f"{name}, given: {', '.join(written(v) for v in vs)}" for name, vs in vectors
    )
    if not solved:
        told = "The answer has one bar per entry, left for you to work out."
    else:
        told = f"The right answer: {', '.join(written(v) for v in right)} (green bars)."
        if given is not None:
            told += f" Yours: {', '.join(written(v) for v in given)} (dashed bars beside them)."
    desc = f"{inputs}. {told}" if inputs else told
    title = f"{label}: the given vectors and the answer, entry by entry"
    return svg.document(width, top + 4, title, desc, body, key=key)


__all__ = ["vector_picture", "written"]
