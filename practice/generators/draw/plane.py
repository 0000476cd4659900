"""The plane of an arrow picture: reading coordinates, a panel's scale, pixels and clipping.

Pure arithmetic, no markup: `figures` draws with it. A panel shows its drawing in a square of
``PANEL`` pixels with ``PAD`` around it and ``SIDE`` more on each side; both axes share one
scale, y pointing up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .labels import Box, Segment

PANEL = 340  # pixels: the drawing's square
PAD = 58  # room for the labels around the drawing
SIDE = 40  # more room for labels left and right of the square (labels are wide, not tall)
FAR_OUT = 20

Number = Fraction | float
Bounds = tuple[float, float, float, float]


def number(value: Any) -> Number:
    """Read a spec string, Fraction, int, float or SymPy number as a Fraction or a float."""
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value)
        except ValueError:
            return float(value)
    if getattr(value, "is_Rational", False):
        return Fraction(int(value.p), int(value.q))
    return float(value)


def vec(values: Sequence[Any]) -> tuple[Number, ...]:
    """Return a spec row (or a vector) as Fractions or floats."""
    return tuple(number(v) for v in values)


def fmt(value: Number) -> str:
    """Write a coordinate for a label or a data attribute: exact if rational, else 4 places."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return f"{value:.4f}".rstrip("0").rstrip(".")


def bounds(points: Iterable[tuple[Number, Number]]) -> Bounds:
    """Return the smallest box (x0, x1, y0, y1) holding the origin and every point."""
    pairs = list(points)
    xs = [0.0] + [float(p[0]) for p in pairs]
    ys = [0.0] + [float(p[1]) for p in pairs]
    return min(xs), max(xs), min(ys), max(ys)


@dataclass(frozen=True)
class Layout:
    """A picture's panels: the drawing's square, the room beside it, how many side by side."""

    panel: int = PANEL
    side: int = SIDE
    columns: int = 2

    @property
    def width(self) -> int:
        return self.panel + 2 * self.side


WIDE = Layout()  # two panels of 420 px side by side
# A phone's verdict column is 312 px: one panel a row, its square smaller, less room beside it.
PHONE = Layout(panel=272, side=20, columns=1)


def scale(
    extent: Bounds, *, least: float = 1.0, layout: Layout = WIDE
) -> tuple[float, float, float]:
    """Return pixels per unit and the origin's pixel position inside a panel (equal axes); a
    drawing spanning less than ``least`` units is drawn as if it spanned ``least``."""
    x0, x1, y0, y1 = extent
    square = layout.panel - 2 * PAD
    span = max(x1 - x0, y1 - y0, least)
    per_unit = square / span
    # Centre the drawing in the panel.
    origin_x = layout.side + PAD + (square - (x1 - x0) * per_unit) / 2 - x0 * per_unit
    origin_y = PAD + (square - (y1 - y0) * per_unit) / 2 + y1 * per_unit
    return round(per_unit, 6), round(origin_x, 3), round(origin_y, 3)


def pixels(
    tail: tuple[Number, Number], tip: tuple[Number, Number], per_unit: float, ox: float, oy: float
) -> Segment:
    """Return a segment's ends in pixels (y down), the origin at (ox, oy)."""
    return (
        (ox + float(tail[0]) * per_unit, oy - float(tail[1]) * per_unit),
        (ox + float(tip[0]) * per_unit, oy - float(tip[1]) * per_unit),
    )


def clip(ends: Segment, box: Box) -> tuple[Segment, bool]:
    """Return the segment cut short where it leaves ``box`` (its start is inside), and whether
    it was cut."""
    (x1, y1), (x2, y2) = ends
    reach = 1.0
    for start, delta, low, high in (
        (x1, x2 - x1, box.left, box.right),
        (y1, y2 - y1, box.top, box.bottom),
    ):
        if delta > 0:
            reach = min(reach, (high - start) / delta)
        elif delta < 0:
            reach = min(reach, (low - start) / delta)
    reach = max(reach, 0.0)
    if reach >= 1.0:
        return ends, False
    return ((x1, y1), (x1 + (x2 - x1) * reach, y1 + (y2 - y1) * reach)), True


def drawable_answer(answer: Sequence[Any] | None, extent: Bounds) -> tuple[Number, ...] | None:
    """Return the learner's vector if it can share the picture, else None.

    It is left out when it has another length, is not a finite real, or lies so far out
    (beyond FAR_OUT times the drawing's extent) that the right answer would shrink to a dot.
    """
    if answer is None or len(answer) != 2:
        return None
    try:
        vector = vec(answer)
        values = [float(v) for v in vector]
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if not all(math.isfinite(v) for v in values):
        return None
    reach = max(1.0, *(abs(b) for b in extent))
    if max(abs(v) for v in values) > FAR_OUT * reach:
        return None
    return vector
