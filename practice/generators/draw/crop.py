"""Crop an arrows panel to what it draws, so a picture is not half empty.

An arrows panel is fitted square (one scale for both axes), so rows that all point one way
leave a band of the square empty, and the faint axes used to run across all of it. Once its
labels are placed, a picture takes the box around the origin, the arrows' tips and the labels,
draws its axes across that box only, and shifts everything by the box's corner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import svg
from .geometry import Box, Point

PAD = 14  # pixels around what is drawn: an arrow's head and a label's margin fit in it


@dataclass(frozen=True)
class Crop:
    """The part of a panel a picture keeps (panel pixels)."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def axes(self, origin: Point) -> list[str]:
        """Return the two faint axes through ``origin``, across the kept part only: guides a
        label may cross (class ``guide``)."""
        ox, oy = origin
        muted = svg.COLOURS["muted"]
        return [
            svg.line(self.left + 4, oy, self.right - 4, oy, class_="axis guide", stroke=muted),
            svg.line(ox, self.top + 4, ox, self.bottom - 4, class_="axis guide", stroke=muted),
        ]

    def shifted(self, body: Sequence[str]) -> list[str]:
        """Return ``body`` moved so the kept part's corner is the picture's (0, 0)."""
        move = f"translate({svg.px(-self.left)},{svg.px(-self.top)})"
        return [f'<g transform="{move}">', *body, "</g>"]


def crop_to(points: Iterable[Point], boxes: Iterable[Box], *, pad: float = PAD) -> Crop:
    """Return the box around ``points`` (the origin, the arrows' tips) and ``boxes`` (the
    placed labels), ``pad`` pixels larger on every side."""
    xs, ys = [], []
    for x, y in points:
        xs.append(x)
        ys.append(y)
    for box in boxes:
        xs += [box.left, box.right]
        ys += [box.top, box.bottom]
    return Crop(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
