"""Place text labels in a picture so no label overlaps a drawn segment or another label.

Pure Python, deterministic, no Django. Coordinates are SVG pixels, y pointing down.

How a picture uses the pass:

1. Draw every line first and collect what a label must keep off as ``segments``: arrow shafts
   and their heads (``geometry.arrow_segments``), box edges where they matter (``rect_segments``),
   polylines and curves (``polyline_segments``). Every drawn line counts except faint guide
   lines (axes, grids), which a label may cross: give those the class ``guide`` and leave them
   out of ``segments`` (the test skips exactly the lines with that class). In ``figures``'
   pictures the two axes are guides: an arrow may lie along an axis, and its label must still
   be able to sit just past its tip; every arrow and its head counts.
2. Make a ``Label`` per text with its candidate positions, best first: ``around_point`` (sixteen
   directions around an anchor such as an arrow's tip or a point, the ones nearest a
   preferred direction first, near gaps before far ones) and/or ``along_segment``
   (beside a shaft, at several fractions of its length, a preferred side first). Fixed texts
   (captions, legends) go in as ``obstacles`` (their boxes, from ``geometry.text_box``).
3. ``place(labels, segments=..., obstacles=..., bounds=...)`` goes through the labels in the
   order given and takes, for each, the first candidate whose box (grown by ``margin``) stays
   inside its bounds and meets no segment and no label already placed. When none is free it
   takes the least-overlapping one and marks the result ``free=False`` (tests assert this
   never happens on generated problems).
4. Write each result with ``svg_text`` (it sets ``x``, ``y``, ``text-anchor`` and
   ``font-size``, so the box can be read back from the markup).

Text boxes are estimated, not measured (there is no font here): each character has a
conservative advance width in ems, at least that of DejaVu Sans, the widest of the usual
``system-ui`` fonts (narrow ``i l j I . , : ; ' |`` and the space 0.34,
``f r t ( ) [ ] - / \\`` 0.42, other lowercase letters and digits 0.64, ``m w`` 1.0,
capitals 0.80 (``M W`` 1.0), other ASCII symbols 1.0, other non-ASCII characters 0.84, wide
East Asian ones 1.0, combining marks 0). Vertically a
box runs from 0.80 em above the baseline to 0.24 em below it. ``tests/generators/
test_label_placement.py`` reads every ``<text>`` of every generated picture back into such a
box and checks it against every drawn segment (but guides) and every other text.

A minimal use, in a kind's picture code::

    segments = [*geometry.arrow_segments(tail, tip), *geometry.polyline_segments(curve)]
    label = labels.Label(
        "h₂", 12, tuple(labels.around_point(tip, "h₂", 12, toward=direction)), bounds=panel
    )
    (spot,) = labels.place([label], segments=segments, obstacles=[caption_box])
    parts.append(labels.svg_text(spot, fill="#047857"))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import svg
from .geometry import (
    ASCENT,
    DESCENT,
    Box,
    Point,
    Segment,
    clipped_length,
    segment_hits_box,
    text_box,
)


@dataclass(frozen=True)
class Candidate:
    """One position for a label: where its ``<text>`` goes and its ``text-anchor``."""

    x: float
    y: float
    anchor: str


DIRECTIONS = 16  # candidate directions around an anchor, every 22.5 degrees


def _candidate_at(
    cx: float, cy: float, ux: float, uy: float, gap: float, text: str, size: float
) -> Candidate:
    """Return the candidate whose box is ``gap`` pixels from (cx, cy) along the unit
    direction (ux, uy), on that side of the point: a box to the right starts there (so a text
    longer than estimated grows away from the anchor), one to the left ends there, one above
    has its bottom there, one below its top; a box straight above, below or beside is centred
    on the ray."""
    px, py = cx + gap * ux, cy + gap * uy
    height = (ASCENT + DESCENT) * size
    anchor = "start" if ux > 0.3 else "end" if ux < -0.3 else "middle"
    if uy < -0.3:
        bottom = py
    elif uy > 0.3:
        bottom = py + height
    else:
        bottom = py + height / 2
    return Candidate(px, bottom - DESCENT * size, anchor)


def _directions(toward: Point | None) -> list[tuple[float, float]]:
    """Return the unit directions, every 22.5 degrees from east (clockwise on screen, y
    down), those nearest ``toward`` first (ties: the order just said)."""
    steps = [2 * math.pi * k / DIRECTIONS for k in range(DIRECTIONS)]
    if toward is not None and (toward[0] or toward[1]):
        angle = math.atan2(toward[1], toward[0])

        def distance(step: float) -> float:
            turn = abs(step - angle) % (2 * math.pi)
            return round(min(turn, 2 * math.pi - turn), 9)

        steps.sort(key=distance)
    else:
        # No preference: upper right first, as map labels go, then around.
        steps.sort(key=lambda a: round((a + math.pi / 4) % (2 * math.pi), 9))
    return [(math.cos(a), math.sin(a)) for a in steps]


def around_point(
    point: Point,
    text: str,
    size: float,
    *,
    toward: Point | None = None,
    gaps: Sequence[float] = (3, 8, 14, 22, 32, 44),
) -> list[Candidate]:
    """Return positions around ``point`` (an arrow's tip, a dot): sixteen directions at each
    gap, nearest gap first; within a gap, the directions closest to ``toward`` (e.g. outward
    along the arrow) first, else from the upper right round."""
    directions = _directions(toward)
    return [
        _candidate_at(point[0], point[1], ux, uy, gap, text, size)
        for gap in gaps
        for ux, uy in directions
    ]


def along_segment(
    segment: Segment,
    text: str,
    size: float,
    *,
    side: int = 1,
    fractions: Sequence[float] = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9),
    gaps: Sequence[float] = (5, 12, 20, 30, 42),
) -> list[Candidate]:
    """Return positions beside a shaft: at each gap, at each fraction of its length (from its
    first point), on ``side`` (+1: the side to the left of the direction of travel as seen on
    screen, -1: the right) before the other. The box sits off the shaft along its normal."""
    (x0, y0), (x1, y1) = segment
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length == 0:
        return around_point((x0, y0), text, size, gaps=gaps)
    # Left of the direction of travel on screen (y down): the direction turned by -90 degrees.
    nx, ny = dy / length, -dx / length
    return [
        _candidate_at(x0 + f * dx, y0 + f * dy, s * nx, s * ny, gap, text, size)
        for gap in gaps
        for f in fractions
        for s in (side, -side)
    ]


@dataclass(frozen=True)
class Label:
    """A text to place: its candidates best first, its font size, and where it may go
    (``bounds``, e.g. its panel; None: anywhere)."""

    text: str
    size: float
    candidates: tuple[Candidate, ...]
    bounds: Box | None = None


@dataclass(frozen=True)
class Placed:
    """Where a label went: its position, its box, and whether the box was free (``free``)
    or the least-overlapping candidate (``overlap``, a measure of how much it overlaps)."""

    text: str
    size: float
    x: float
    y: float
    anchor: str
    box: Box
    free: bool
    overlap: float


def overlap_cost(
    box: Box, segments: Iterable[Segment], boxes: Iterable[Box], bounds: Box | None
) -> float:
    """Return how much a box overlaps: the length of segments inside it, plus other boxes'
    shared area and its area outside ``bounds``, each divided by its height (so in pixels)."""
    height = max(box.bottom - box.top, 1e-9)
    cost = sum(clipped_length(s, box) for s in segments)
    cost += sum(box.overlap(b) for b in boxes) / height
    if bounds is not None:
        cost += box.outside_area(bounds) / height
    return cost


def place(
    labels: Sequence[Label],
    *,
    segments: Sequence[Segment],
    obstacles: Sequence[Box] = (),
    margin: float = 2.0,
) -> list[Placed]:
    """Place the labels greedily in the order given; return one ``Placed`` per label.

    Each label takes its first candidate whose box, grown by ``margin`` pixels, lies inside
    the label's bounds and meets no segment, no obstacle and no label placed before it. If no
    candidate is free it takes the one with the least ``overlap_cost`` (the first on a tie)
    and is marked ``free=False``. A label without candidates is an error."""
    taken: list[Box] = list(obstacles)
    crossing = _crossing_finder(segments)
    out: list[Placed] = []
    for label in labels:
        if not label.candidates:
            raise ValueError(f"label {label.text!r} has no candidate positions")
        chosen = _first_free(label, taken, crossing, margin) or _least_overlapping(
            label, taken, crossing, margin
        )
        taken.append(chosen.box.grown(margin))
        out.append(chosen)
    return out


def _crossing_finder(segments: Sequence[Segment]) -> Callable[[Box], list[Segment]]:
    """Return a function listing the segments that meet a box."""
    # Each segment with its bounding box, so most segments are ruled out by four comparisons.
    spans = [
        (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), (a, b))
        for a, b in segments
    ]

    def crossing(box: Box) -> list[Segment]:
        return [
            s
            for left, top, right, bottom, s in spans
            if left < box.right
            and right > box.left
            and top < box.bottom
            and bottom > box.top
            and segment_hits_box(s, box)
        ]

    return crossing


def _box_of(label: Label, candidate: Candidate) -> Box:
    return text_box(candidate.x, candidate.y, label.text, size=label.size, anchor=candidate.anchor)


def _first_free(
    label: Label,
    taken: Sequence[Box],
    crossing: Callable[[Box], list[Segment]],
    margin: float,
) -> Placed | None:
    """Return the label at its first candidate that is free (inside its bounds, meeting no
    segment and no taken box, all grown by ``margin``), or None when none is."""
    for candidate in label.candidates:
        box = _box_of(label, candidate)
        grown = box.grown(margin)
        if (
            (label.bounds is None or grown.inside(label.bounds))
            and not any(grown.intersects(b) for b in taken)
            and not crossing(grown)
        ):
            return Placed(
                label.text, label.size, candidate.x, candidate.y, candidate.anchor, box, True, 0.0
            )
    return None


def _least_overlapping(
    label: Label,
    taken: Sequence[Box],
    crossing: Callable[[Box], list[Segment]],
    margin: float,
) -> Placed:
    """Return the label at the candidate with the least ``overlap_cost`` (the first on a tie),
    marked not free."""
    boxes = [_box_of(label, c) for c in label.candidates]
    costs = [
        overlap_cost(box.grown(margin), crossing(box.grown(margin)), taken, label.bounds)
        for box in boxes
    ]
    best = min(range(len(costs)), key=lambda k: (costs[k], k))
    candidate = label.candidates[best]
    return Placed(
        label.text,
        label.size,
        candidate.x,
        candidate.y,
        candidate.anchor,
        boxes[best],
        False,
        costs[best],
    )


def svg_text(placed: Placed, **attributes: str) -> str:
    """Return the ``<text>`` element of a placed label; ``attributes`` (underscores written
    as hyphens, e.g. ``data_role``) are added after position, anchor and font size. A label
    that found no free place carries ``data-crowded="true"``, so a test can find it."""
    return svg.text(
        placed.x,
        placed.y,
        placed.text,
        text_anchor=placed.anchor,
        font_size=svg.px(placed.size),
        data_crowded=None if placed.free else "true",
        **attributes,
    )
