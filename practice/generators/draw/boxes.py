"""Pictures made of labelled boxes (tokens, characters, bytes, pieces), as SVG.

The pictures of the tokenization kinds are rows of boxes with text, so they share this small
writer. Every box is a ``<rect>`` with ``data-role`` (what it shows: ``token``, ``id``,
``char``, ``byte``, ``piece``, ``pair``, ...) and optional ``data-*`` facts, followed by its
``<text>``; a test can read the picture back from those attributes. Text is escaped; the root
has ``role="img"``, a ``<title>`` and a ``<desc>``, with ids unique per picture (the root is
``text_figures.svg_root``, shared with the other pictures of text). Elements are written with the
one toolkit, ``svg``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import svg
from .text_figures import svg_root

STYLES = {
    # role: (fill, stroke)
    "plain": ("#ffffff", "#6b7280"),
    "unknown": ("#fef3c7", "#b45309"),
    "right": ("#ecfdf5", "#047857"),
    "answer": ("#fff7ed", "#c2410c"),
    "wrong": ("#fee2e2", "#b91c1c"),
    "merged": ("#dbeafe", "#1d4ed8"),
    "muted": ("#f3f4f6", "#9ca3af"),
}


@dataclass
class Figure:
    """Collect an SVG picture as it is drawn: boxes, free text and lines, in pixels."""

    title: str
    desc: str
    items: list[str] = field(default_factory=list)
    width: float = 0
    height: float = 0

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str,
        *,
        role: str,
        style: str = "plain",
        data: dict[str, str | int] | None = None,
        mono: bool = False,
        dashed: bool = False,
        size: int | None = None,
    ) -> None:
        """Draw a rectangle with centred text; record its role and facts as data attributes."""
        fill, stroke = STYLES[style]
        fields = {
            "x": svg.px(x),
            "y": svg.px(y),
            "width": svg.px(w),
            "height": svg.px(h),
            "rx": 3,
            "fill": fill,
            "stroke": stroke,
            "stroke-width": 1.5,
            "stroke-dasharray": "4 3" if dashed else None,
            "data-role": role,
            "data-style": style,
            **{f"data-{k}": v for k, v in (data or {}).items()},
        }
        self.items.append(
            svg.element("rect", fields, {})
            + svg.text(
                x + w / 2,
                y + h / 2 + 4.5,
                text,
                text_anchor="middle",
                font_family=svg.MONO_FAMILY if mono else None,
                font_size=size or None,
            )
        )
        self._grow(x + w, y + h)

    def label(
        self,
        x: float,
        y: float,
        text: str,
        *,
        anchor: str = "start",
        role: str = "label",
        size: int | None = None,
        colour: str = "#374151",
        weight: str | None = None,
    ) -> None:
        """Write free text with its baseline at ``y``."""
        self.items.append(
            svg.text(
                x,
                y,
                text,
                text_anchor=anchor,
                fill=colour,
                data_role=role,
                font_size=size or None,
                font_weight=weight,
            )
        )
        width = 7.5 * len(text)
        right = x + (width if anchor == "start" else width / 2 if anchor == "middle" else 0)
        self._grow(right, y + 6)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, colour: str = "#9ca3af") -> None:
        """Draw a thin connecting line."""
        self.items.append(svg.line(x1, y1, x2, y2, stroke=colour, stroke_width=1))
        self._grow(max(x1, x2), max(y1, y2))

    def _grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def render(self) -> str:
        """Return the SVG markup."""
        return svg_root(
            int(self.width + 12), int(self.height + 12), self.title, self.desc, self.items
        )


def text_width(text: str, *, per_char: float = 8.5, pad: float = 14, least: float = 30) -> float:
    """Return a box width that fits ``text`` (a rough monospace estimate)."""
    return max(least, per_char * len(text) + pad)
