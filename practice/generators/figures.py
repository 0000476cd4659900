"""Pictures of two-dimensional problems as SVG: rows as arrows, weighted terms, the sum.

The shared machinery: a kind's generator builds a `Figure` (its panels of arrows, with and
without the solution) and `draw` turns it into SVG.

Every arrow is a ``<line>`` with ``data-role`` (``row``, ``term``, ``sum``, ``right``,
``answer``), ``data-index`` where it has one, and ``data-x``/``data-y``: the exact coordinates
of its tip. Each panel ``<g>`` carries ``data-origin`` (pixel position of the origin) and
``data-scale`` (pixels per unit, y pointing up), so a test can check the drawing against the
numbers. Text is escaped; the root has ``role="img"``, a ``<title>`` and a ``<desc>``.

Labels are placed by ``labels.place`` so none overlaps an arrow (shaft or head) or another
label: a row's label around its tip, outward first; a result's beside its shaft. The axes are
faint guides (class ``guide``) labels may cross. Each panel is ``PANEL`` high and ``SIDE``
wider on each side than the drawing's square, room for labels beside arrows along an axis.
Panels sit side by side, ``COLUMNS`` at most; more wrap onto the next row, so a picture is
drawn at its natural size rather than shrunk to fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from . import geometry, labels, svg
from .labels import Box, Label, Segment

PANEL = 340  # pixels: the drawing's square
PAD = 58  # room for the labels around the drawing
SIDE = 40  # more room for labels left and right of the square (labels are wide, not tall)
PANEL_WIDTH = PANEL + 2 * SIDE
PANEL_HEIGHT = PANEL + 24  # the drawing and its caption
COLUMNS = 2  # panels side by side at most: a third wraps below, so no panel is shrunk
LEGEND_LINE = 20
FONT_SIZE = svg.FONT_SIZE

COLOURS = svg.COLOURS
DASH = {"answer": "6 4", "row": "2 3"}
WIDTH = {"row": 1.5, "term": 2, "sum": 3, "right": 3, "answer": 3}

LEGEND_TEXT = {
    "row": "rows xⱼ, from the origin",
    "term": "weighted terms wᵢⱼ xⱼ, tip to tail",
    "sum": "the sum hᵢ",
    "right": "the right answer",
    "answer": "your answer",
}

Number = Fraction | float
FAR_OUT = 20
CLIP = 14  # pixels: a learner's arrow running past the panel stops this far inside its edge


@dataclass
class Arrow:
    role: str
    tail: tuple[Number, Number]
    tip: tuple[Number, Number]
    label: str = ""
    index: int | None = None


@dataclass
class Panel:
    caption: str
    arrows: list[Arrow] = field(default_factory=list)


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


def _fmt(value: Number) -> str:
    """Write a coordinate for a label or a data attribute: exact if rational, else 4 places."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return f"{value:.4f}".rstrip("0").rstrip(".")


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def h_label(position: int, side: str = "") -> str:
    """Return a label such as ``h₂`` or ``h₂ᴮ`` (plain text: SVG has no TeX)."""
    return "h" + str(position).translate(_SUBSCRIPT) + {"": "", "A": "ᴬ", "B": "ᴮ"}[side]


def mix_arrows(
    tokens: Sequence[str], rows: Sequence[tuple[Number, ...]], weights: Sequence[Number]
) -> tuple[list[Arrow], tuple[Number, Number]]:
    """Return rows from the origin, weighted terms tip to tail, and the sum's tip."""
    arrows = [
        Arrow("row", (0, 0), (row[0], row[1]), label=str(token), index=j)
        for j, (token, row) in enumerate(zip(tokens, rows, strict=True))
    ]
    x: Number = Fraction(0)
    y: Number = Fraction(0)
    for j, (row, weight) in enumerate(zip(rows, weights, strict=True)):
        tail = (x, y)
        x, y = x + weight * row[0], y + weight * row[1]
        arrows.append(Arrow("term", tail, (x, y), index=j))
    return arrows, (x, y)


def _bounds(panels: list[Panel]) -> tuple[float, float, float, float]:
    xs = [0.0] + [float(p[0]) for panel in panels for a in panel.arrows for p in (a.tail, a.tip)]
    ys = [0.0] + [float(p[1]) for panel in panels for a in panel.arrows for p in (a.tail, a.tip)]
    return min(xs), max(xs), min(ys), max(ys)


def _scale(bounds: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """Return pixels per unit and the origin's pixel position inside a panel (equal axes)."""
    x0, x1, y0, y1 = bounds
    span = max(x1 - x0, y1 - y0, 1.0)
    scale = (PANEL - 2 * PAD) / span
    # Centre the drawing in the panel.
    origin_x = SIDE + PAD + (PANEL - 2 * PAD - (x1 - x0) * scale) / 2 - x0 * scale
    origin_y = PAD + (PANEL - 2 * PAD - (y1 - y0) * scale) / 2 + y1 * scale
    return round(scale, 6), round(origin_x, 3), round(origin_y, 3)


def _arrow_markup(arrow: Arrow, ends: Segment, marker: str) -> str:
    (x1, y1), (x2, y2) = ends
    attrs = {
        "class": f"arrow {arrow.role}",
        "data-role": arrow.role,
        "x1": svg.px(x1),
        "y1": svg.px(y1),
        "x2": svg.px(x2),
        "y2": svg.px(y2),
        "data-x": _fmt(arrow.tip[0]),
        "data-y": _fmt(arrow.tip[1]),
        "stroke": COLOURS[arrow.role],
        "stroke-width": str(WIDTH[arrow.role]),
        "marker-end": f"url(#{marker}-{arrow.role})",
    }
    if arrow.index is not None:
        attrs["data-index"] = str(arrow.index)
    if arrow.role in DASH:
        attrs["stroke-dasharray"] = DASH[arrow.role]
    return svg.element("line", attrs, {})


def _clip(ends: Segment, box: Box) -> tuple[Segment, bool]:
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


def _pixels(arrow: Arrow, scale: float, ox: float, oy: float) -> Segment:
    """Return the arrow's tail and tip in pixels (y down)."""
    return (
        (ox + float(arrow.tail[0]) * scale, oy - float(arrow.tail[1]) * scale),
        (ox + float(arrow.tip[0]) * scale, oy - float(arrow.tip[1]) * scale),
    )


def _label(arrow: Arrow, ends: Segment, origin: tuple[float, float], bounds: Box) -> Label:
    """Return an arrow's label with its candidate positions, best first.

    A row's label goes around its tip, outward from the origin first, then beside its shaft.
    A result (sum, right answer, learner's answer) is labelled beside its shaft (its tip may
    meet a row's): the right answer's on one side first, the learner's on the other, then
    around its tip."""
    (x1, y1), (x2, y2) = ends
    size = FONT_SIZE
    if arrow.role == "row":
        outward = (x2 - origin[0], y2 - origin[1])
        candidates = [
            *labels.around_point((x2, y2), arrow.label, size, toward=outward),
            *labels.along_segment(ends, arrow.label, size, fractions=(0.8, 0.65, 0.5)),
        ]
    else:
        side = 1 if arrow.role == "answer" else -1
        candidates = [
            *labels.along_segment(ends, arrow.label, size, side=side),
            *labels.around_point((x2, y2), arrow.label, size, toward=(x2 - x1, y2 - y1)),
        ]
    return Label(arrow.label, size, tuple(candidates), bounds)


def _drawable_answer(
    answer: Sequence[Any] | None, bounds: tuple[float, float, float, float]
) -> tuple[Number, ...] | None:
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
    extent = max(1.0, *(abs(b) for b in bounds))
    if max(abs(v) for v in values) > FAR_OUT * extent:
        return None
    return vector


@dataclass
class Figure:
    """What a kind's picture shows: the panels with the solution and the right answer's tip,
    the panels a fresh problem shows (rows only, never the answer), and a title for each."""

    panels: list[Panel]
    tip: tuple[Number, Number]
    fresh: list[Panel]
    title: str
    fresh_title: str = "The rows of the sentence as arrows"


def rows_only(panels: list[Panel], captions: Sequence[str] | None = None) -> list[Panel]:
    """Return the panels with only the rows: the picture shown before the learner answers."""
    return [
        Panel(
            captions[n] if captions is not None else "rows",
            [a for a in panel.arrows if a.role == "row"],
        )
        for n, panel in enumerate(panels)
    ]


class ArrowPicture:
    """Draw a kind's problem as arrows in the plane: a mixin for the generators of the arrow kinds.

    A kind names the spec field whose rows are drawn (``picture_rows``: only two-dimensional
    rows are drawn, else there is no picture), the titles of the picture with and without the
    solution, and builds its panels with ``picture_panels``; ``fresh_panels`` keeps only the
    rows, the picture of a fresh problem, and a kind may caption them otherwise.
    """

    picture_rows: ClassVar[str] = "rows"
    picture_title: ClassVar[str]
    picture_fresh_title: ClassVar[str] = "The rows of the sentence as arrows"

    def picture_panels(self, spec: dict) -> tuple[list[Panel], tuple[Number, Number]]:
        """Return the panels with the solution drawn, and the right answer's tip."""
        raise NotImplementedError

    def fresh_panels(self, panels: list[Panel]) -> list[Panel]:
        """Return the panels a fresh problem shows: the rows only."""
        return rows_only(panels)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        """Return the SVG of the problem's arrows, or None when its rows are not in the plane."""
        if len(spec[self.picture_rows][0]) != 2:
            return None  # drawn in the plane only
        panels, tip = self.picture_panels(spec)
        figure = Figure(
            panels,
            tip,
            fresh=self.fresh_panels(panels),
            title=self.picture_title,
            fresh_title=self.picture_fresh_title,
        )
        return draw(spec, figure, answer=answer, solution=solution)


def _describe(figure: Figure, answer: tuple | None, *, solution: bool) -> tuple[str, str]:
    tip = figure.tip
    if not solution:
        desc = (
            "Each row is an arrow from the origin, labelled with its word; the answer is not drawn."
        )
        if answer is not None:
            desc += f" Your answer, ({_fmt(answer[0])}, {_fmt(answer[1])}), is drawn dashed."
        return figure.fresh_title, desc
    desc = f"The right answer is ({_fmt(tip[0])}, {_fmt(tip[1])})."
    if answer is not None:
        desc += f" Your answer, ({_fmt(answer[0])}, {_fmt(answer[1])}), is drawn dashed beside it."
    return figure.title, desc


def draw(
    spec: dict,
    figure: Figure,
    *,
    answer: Sequence[Any] | None = None,
    solution: bool | None = None,
) -> str:
    """Return the SVG of a two-dimensional figure: arrows in panels, a legend, a title.

    ``answer`` (the learner's vector) is drawn dashed beside the right one; an answer of
    another length, not finite or far off the picture is not drawn. ``solution`` defaults to
    showing the solution only when an ``answer`` is given, so the picture shown with a fresh
    problem never gives its answer away (in lines, labels or data attributes); pass
    ``solution=True`` to draw it after a right answer.
    """
    show_solution = answer is not None if solution is None else solution
    panels = figure.panels if show_solution else figure.fresh
    learner = _drawable_answer(answer, _bounds(panels))
    # The scale is the right answer's: a learner's answer far out must not shrink the rows and
    # terms to a smudge at the origin. Past the panel's edge it is cut short (see _clip).
    scale, ox, oy = _scale(_bounds(panels))
    if learner is not None:
        panels[-1].arrows.append(Arrow("answer", (0, 0), (learner[0], learner[1]), "your answer"))

    prefix = svg.picture_id([spec, [_fmt(v) for v in learner or ()], show_solution])
    title, desc = _describe(figure, learner, solution=show_solution)
    clipped = False
    roles = list(dict.fromkeys(a.role for panel in panels for a in panel.arrows))

    columns = min(COLUMNS, len(panels))
    rows = -(-len(panels) // columns)
    width = PANEL_WIDTH * columns
    height = PANEL_HEIGHT * rows + LEGEND_LINE * len(roles)
    out: list[str] = []
    # Lines first, every arrow (shaft and head) an obstacle for the labels; the axes are faint
    # guides labels may cross (class "guide"), else a label at the tip of an arrow lying on an
    # axis could not sit above or below it. Then the labels, placed together (rows first: they
    # are tied to a tip, results can slide along their shaft).
    segments: list[Segment] = []
    obstacles: list[Box] = []
    pending: list[tuple[int, Arrow, Label]] = []
    bodies: list[list[str]] = []
    for n, panel in enumerate(panels):
        left, top = (n % columns) * PANEL_WIDTH, (n // columns) * PANEL_HEIGHT
        px_ox, px_oy = left + ox, top + oy
        body = [
            f'<g class="panel" data-origin="{svg.px(px_ox)},{svg.px(px_oy)}" data-scale="{scale}">',
            svg.line(
                left + 4,
                px_oy,
                left + PANEL_WIDTH - 4,
                px_oy,
                class_="axis guide",
                stroke=COLOURS["muted"],
            )
            + svg.line(
                px_ox, top + 4, px_ox, top + PANEL - 4, class_="axis guide", stroke=COLOURS["muted"]
            ),
        ]
        bounds = Box(left + 2, top + 2, left + PANEL_WIDTH - 2, top + PANEL - 2)
        for arrow in panel.arrows:
            ends = _pixels(arrow, scale, px_ox, px_oy)
            if arrow.role == "answer":
                inner = Box(left + CLIP, top + CLIP, left + PANEL_WIDTH - CLIP, top + PANEL - CLIP)
                ends, cut = _clip(ends, inner)
                if cut:
                    clipped = True
            markup = _arrow_markup(arrow, ends, prefix)
            if arrow.role == "answer" and clipped:
                markup = markup.replace("<line ", '<line data-clipped="true" ', 1)
            body.append(markup)
            segments += geometry.arrow_segments(*ends)
            if arrow.label:
                pending.append((n, arrow, _label(arrow, ends, (px_ox, px_oy), bounds)))
        caption_x, caption_y = left + PANEL_WIDTH / 2, top + PANEL + 14
        obstacles.append(
            labels.text_box(caption_x, caption_y, panel.caption, size=FONT_SIZE, anchor="middle")
        )
        body.append(
            svg.text(caption_x, caption_y, panel.caption, class_="caption", text_anchor="middle")
        )
        bodies.append(body)
    pending.sort(key=lambda item: item[1].role != "row")  # stable: drawing order within
    placed = labels.place(
        [label for _, _, label in pending], segments=segments, obstacles=obstacles
    )
    for (n, arrow, _), spot in zip(pending, placed, strict=True):
        bodies[n].insert(-1, labels.svg_text(spot, fill=COLOURS[arrow.role]))
    for body in bodies:
        out.extend(body)
        out.append("</g>")
    out.append('<g class="legend">')
    for k, role in enumerate(roles):
        y = PANEL_HEIGHT * rows + LEGEND_LINE * k + 10
        out.append(
            svg.line(
                10,
                y,
                40,
                y,
                stroke=COLOURS[role],
                stroke_width=WIDTH[role],
                stroke_dasharray=DASH.get(role),
            )
            + svg.text(48, y + 4, LEGEND_TEXT[role])
        )
    out.append("</g>")
    if clipped:
        desc += " Your answer runs off the picture: its arrow is cut short at the edge."
    return svg.document(width, height, title, desc, out, prefix=prefix, markers=roles)
