"""The geometry of a picture's text: estimated text boxes, and the segments a label keeps off.

Pure Python, deterministic, no Django; SVG pixels, y pointing down. The estimate of a text's
box and the rules it follows are described in ``labels``, which places labels with these.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Segment = tuple[Point, Point]

ASCENT = 0.80  # ems above the baseline
DESCENT = 0.24  # ems below it
_NARROW = frozenset("iljI.,:;'| ")
_SEMI = frozenset("frt()[]-/\\")
_WIDE = frozenset("mwMW")


def char_width(char: str) -> float:
    """Return a conservative advance width of one character, in ems."""
    if char in _NARROW:
        return 0.34
    if char in _SEMI:
        return 0.42
    if char in _WIDE:
        return 1.0
    if char.isascii():
        if char.islower() or char.isdigit():
            return 0.64
        if char.isupper():
            return 0.80
        return 1.0
    if unicodedata.combining(char):
        return 0.0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.0
    return 0.84


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: float) -> float:
    """Return the estimated width in pixels of ``text`` at font size ``size`` (cached: the
    pass asks for the same label's width at every candidate)."""
    return size * sum(char_width(c) for c in text)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle: ``left <= right``, ``top <= bottom`` (y points down)."""

    left: float
    top: float
    right: float
    bottom: float

    def grown(self, by: float) -> Box:
        """Return the box grown by ``by`` pixels on every side."""
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def overlap(self, other: Box) -> float:
        """Return the area shared with ``other`` (0 when they only touch or are apart)."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0

    def intersects(self, other: Box) -> bool:
        """Return whether the two boxes share an area (touching edges do not count)."""
        return self.overlap(other) > 0

    def inside(self, other: Box) -> bool:
        """Return whether this box lies within ``other``."""
        return (
            self.left >= other.left
            and self.right <= other.right
            and self.top >= other.top
            and self.bottom <= other.bottom
        )

    def outside_area(self, other: Box) -> float:
        """Return how much of this box's area lies outside ``other``."""
        area = (self.right - self.left) * (self.bottom - self.top)
        return area - self.overlap(other)


def text_box(
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    anchor: str = "start",
    baseline: str = "alphabetic",
) -> Box:
    """Return the estimated box of an SVG ``<text>`` at (x, y) with the given ``text-anchor``
    (start, middle, end) and ``dominant-baseline`` (alphabetic, middle/central, hanging)."""
    width = text_width(text, size)
    left = {"start": x, "middle": x - width / 2, "end": x - width}.get(anchor)
    if left is None:
        raise ValueError(f"text-anchor {anchor!r} is not start, middle or end")
    height = (ASCENT + DESCENT) * size
    if baseline in ("middle", "central"):
        top = y - height / 2
    elif baseline in ("hanging", "text-before-edge"):
        top = y
    else:
        top = y - ASCENT * size
    return Box(left, top, left + width, top + height)


def clipped_length(segment: Segment, box: Box) -> float:
    """Return the length of the part of ``segment`` strictly inside ``box`` (Liang–Barsky);
    a segment that only touches the box's edge gives 0."""
    (x0, y0), (x1, y1) = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, x0 - box.left),
        (dx, box.right - x0),
        (-dy, y0 - box.top),
        (dy, box.bottom - y0),
    ):
        if p == 0:
            if q <= 0:  # parallel to this edge and on or beyond it
                return 0.0
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return 0.0
    length = math.hypot(dx, dy)
    if length == 0:  # a point: inside when strictly within the box
        inside = box.left < x0 < box.right and box.top < y0 < box.bottom
        return 1e-9 if inside else 0.0
    return (high - low) * length


def segment_hits_box(segment: Segment, box: Box) -> bool:
    """Return whether any part of ``segment`` lies strictly inside ``box``."""
    return clipped_length(segment, box) > 0


def arrow_segments(
    tail: Point,
    tip: Point,
    *,
    head_length: float = 8.1,
    head_half_width: float = 4.5,
    overshoot: float = 0.9,
) -> list[Segment]:
    """Return an arrow's shaft and the three edges of its triangular head at ``tip``.

    The defaults match ``figures``' marker (a 10×10 triangle drawn 9×9 with its reference
    point 1 unit behind its point): the head reaches ``overshoot`` past the tip. A zero-length
    arrow's head points right, as SVG turns a marker on a zero-length line."""
    segments: list[Segment] = [(tail, tip)]
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length else (1.0, 0.0)
    nx, ny = -uy, ux
    point = (tip[0] + overshoot * ux, tip[1] + overshoot * uy)
    back = (tip[0] - head_length * ux, tip[1] - head_length * uy)
    left = (back[0] + head_half_width * nx, back[1] + head_half_width * ny)
    right = (back[0] - head_half_width * nx, back[1] - head_half_width * ny)
    return [*segments, (left, point), (point, right), (right, left)]


def polyline_segments(points: Sequence[Point], *, closed: bool = False) -> list[Segment]:
    """Return the segments joining consecutive points (and the last to the first if closed)."""
    pts = list(points)
    if closed and len(pts) > 2:
        pts.append(pts[0])
    return [(pts[k], pts[k + 1]) for k in range(len(pts) - 1)]


def rect_segments(box: Box) -> list[Segment]:
    """Return the four edges of a drawn rectangle."""
    corners = [
        (box.left, box.top),
        (box.right, box.top),
        (box.right, box.bottom),
        (box.left, box.bottom),
    ]
    return polyline_segments(corners, closed=True)
