"""SVG building blocks for pictures of text: rows of boxed characters or pieces, grids, legends.

Every box is a ``<rect>`` with ``data-role`` (what the row shows: ``char``, ``piece``,
``right``, ``answer``, ...), ``data-index`` (its 0-based place in the row) and ``data-text`` (the
text it holds, spaces as ``▁``), so a test can read a picture back without its pixels. A box's
run of two or more spaces is drawn as separate ``▁`` marks (letter-spaced) followed by its
count as a subscript (``▁▁▁▁₄``), so four spaces cannot pass for eight. Text is escaped; the
root has ``role="img"``, a ``<title>`` and a ``<desc>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from . import svg

FONT_SIZE = 13  # pixels: pictures of text are read character by character
MONO = svg.MONO
CHAR_WIDTH = 10  # pixels per character of monospaced text, at the font size used
BOX_HEIGHT = 26
SPACE_MARK = "▁"

# The toolkit's palette, but an unknown character stands out in red.
COLOURS = {**svg.COLOURS, "unknown": "#b91c1c"}


def shown(text: str) -> str:
    """Return text with its spaces made visible as ``▁``."""
    return text.replace(" ", SPACE_MARK)


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
SPACED = 3  # pixels between the marks of a run of spaces, so four cannot pass for eight


def counted(text: str) -> str:
    """Return text with spaces as ``▁`` and each run of two or more followed by its count as a
    subscript: ``"    if"`` -> ``"▁▁▁▁₄if"``."""
    return re.sub(
        " {2,}", lambda run: SPACE_MARK * len(run[0]) + str(len(run[0])).translate(_SUBSCRIPT), text
    ).replace(" ", SPACE_MARK)


def _has_run(text: str) -> bool:
    return "  " in text


def text_width(text: str) -> int:
    """Return the pixel width of a box holding ``text`` (monospaced, with padding)."""
    return max(1, len(text)) * CHAR_WIDTH + 10


def svg_root(width: float, height: float, title: str, desc: str, body: Sequence[str]) -> str:
    """Wrap ``body`` in the toolkit's SVG root (``svg.document``) at the text pictures' font
    size; ids come from the picture's content."""
    return svg.document(width, height, title, desc, body, font_size=FONT_SIZE)


def label(
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "start",
    colour: str = "#111827",
    role: str | None = None,
) -> str:
    """Return a ``<text>`` element (with a ``data-role`` when given)."""
    return svg.text(x, y, text, text_anchor=anchor, fill=colour, data_role=role)


def box(
    x: float,
    y: float,
    text: str,
    *,
    role: str,
    index: int,
    width: float | None = None,
    fill: str = "none",
    dashed: bool = False,
) -> tuple[str, float]:
    """Return one boxed piece of text and its width."""
    written = counted(text)
    spaced = _has_run(text)
    if width is None:
        width = text_width(written) + (SPACED * len(written) if spaced else 0)
    colour = COLOURS.get(role, COLOURS["text"])
    markup = svg.rect(
        x,
        y,
        width,
        BOX_HEIGHT,
        rx=4,
        fill=fill,
        stroke=colour,
        stroke_width=1.5,
        stroke_dasharray="5 3" if dashed else None,
        data_role=role,
        data_index=index,
        data_text=shown(text),
    ) + svg.text(
        x + width / 2,
        y + BOX_HEIGHT / 2 + 5,
        written,
        text_anchor="middle",
        font_family=svg.MONO_FAMILY,
        letter_spacing=SPACED if spaced else None,
    )
    return markup, width


def box_row(
    x: float,
    y: float,
    texts: Sequence[str],
    *,
    role: str,
    gap: float = 4,
    fills: Sequence[str] | None = None,
    roles: Sequence[str] | None = None,
    dashed: bool = False,
) -> tuple[list[str], float]:
    """Return a row of boxes left to right, and the x where the row ends."""
    out = []
    for index, text in enumerate(texts):
        markup, width = box(
            x,
            y,
            text,
            role=roles[index] if roles else role,
            index=index,
            fill=fills[index] if fills else "none",
            dashed=dashed,
        )
        out.append(markup)
        x += width + gap
    return out, x


def legend(x: float, y: float, entries: Sequence[tuple[str, str]]) -> list[str]:
    """Return legend lines: a short stroke of each role's colour and its words."""
    out = ['<g class="legend">']
    for k, (role, words) in enumerate(entries):
        yy = y + 18 * k
        out.append(
            svg.line(x, yy, x + 26, yy, stroke=COLOURS.get(role, COLOURS["text"]), stroke_width=3)
        )
        out.append(label(x + 32, yy + 4, words))
    out.append("</g>")
    return out


def answer_pieces(answer: Any) -> tuple[str, ...] | None:
    """Return a learner's answer as pieces when it is a sequence of strings, else None."""
    if isinstance(answer, tuple | list) and all(isinstance(p, str) for p in answer):
        return tuple(answer)
    return None


def first_part_pieces(answer: Any) -> tuple[str, ...] | None:
    """Return the pieces of a learner's tuple answer (its first part), else None."""
    try:
        pieces = answer[0]
    except (TypeError, IndexError, KeyError):
        return None
    return answer_pieces(pieces)


def answer_and_legend(
    body: list[str],
    entries: Sequence[tuple[str, str]],
    *,
    x: float,
    width: float,
    height: float,
    desc: str,
    learner: Sequence[str] | None,
) -> tuple[float, float, str]:
    """Append the learner's pieces (when given) as a dashed row, then the legend, to ``body``.

    Return the picture's width, height and description grown to hold them.
    """
    entries = list(entries)
    if learner is not None:
        body.append(label(x, height, "your pieces"))
        row, end = box_row(x, height + 8, list(learner), role="answer", dashed=True)
        body.extend(row)
        width = max(width, end + x)
        height += BOX_HEIGHT + 30
        entries.append(("answer", "your pieces"))
        desc += f" Your pieces: {' '.join(shown(p) for p in learner)}."
    body.extend(legend(x, height, entries))
    return width, height + 18 * len(entries) + 6, desc
