"""SVG building blocks for pictures of text: rows of boxed characters or pieces, grids, legends.

Every box is a ``<rect>`` with ``data-role`` (what the row shows: ``char``, ``piece``,
``right``, ``answer``, ...), ``data-index`` (its 0-based place in the row) and ``data-text`` (the
text it holds, spaces as ``▁``), so a test can read a picture back without its pixels. Text is
escaped; the root has ``role="img"``, a ``<title>`` and a ``<desc>``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

# Presentation attributes, not a `style` attribute: the pages' Content-Security-Policy without
# 'unsafe-inline' blocks `style` attributes in inline SVG (CSP3 style-src-attr), not these.
FONT = 'font-family="system-ui, sans-serif" font-size="13"'
MONO = 'font-family="ui-monospace, monospace"'
CHAR_WIDTH = 10  # pixels per character of monospaced text, at the font size used
BOX_HEIGHT = 26
SPACE_MARK = "▁"

COLOURS = {
    "char": "#6b7280",
    "piece": "#2563eb",
    "unknown": "#b91c1c",
    "marked": "#7c3aed",
    "right": "#047857",
    "answer": "#c2410c",
    "changed": "#c2410c",
    "cell": "#2563eb",
}


def shown(text: str) -> str:
    """Return text with its spaces made visible as ``▁``."""
    return text.replace(" ", SPACE_MARK)


def text_width(text: str) -> int:
    """Return the pixel width of a box holding ``text`` (monospaced, with padding)."""
    return max(1, len(text)) * CHAR_WIDTH + 10


def svg_root(width: float, height: float, title: str, desc: str, body: Sequence[str]) -> str:
    """Wrap ``body`` in an accessible SVG root of the given size, with its title and desc."""
    digest = hashlib.sha1(  # noqa: S324 - a short id for the markup, not security
        (title + desc + "".join(body)).encode()
    ).hexdigest()[:10]
    prefix = f"bl-{digest}"
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc" {FONT}>',
            f'<title id="{prefix}-title">{escape(title)}</title>',
            f'<desc id="{prefix}-desc">{escape(desc)}</desc>',
            *body,
            "</svg>",
        ]
    )


def label(x: float, y: float, text: str, *, anchor: str = "start", colour: str = "#111827") -> str:
    """Return a ``<text>`` element."""
    return f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" fill="{colour}">{escape(text)}</text>'


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
    width = text_width(text) if width is None else width
    colour = COLOURS.get(role, "#111827")
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    markup = (
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{BOX_HEIGHT}" rx="4" '
        f'fill="{fill}" stroke="{colour}" stroke-width="1.5"{dash} '
        f'data-role={quoteattr(role)} data-index="{index}" data-text={quoteattr(shown(text))}/>'
        f'<text x="{x + width / 2:g}" y="{y + BOX_HEIGHT / 2 + 5:g}" text-anchor="middle" '
        f"{MONO}>{escape(shown(text))}</text>"
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
            f'<line x1="{x:g}" y1="{yy:g}" x2="{x + 26:g}" y2="{yy:g}" '
            f'stroke="{COLOURS.get(role, "#111827")}" stroke-width="3"/>'
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
