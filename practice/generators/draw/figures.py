"""Pictures of two-dimensional problems as SVG: rows as arrows, weighted terms, the sum.

The shared machinery: a kind's generator builds a `Figure` (its panels of arrows, with and
without the solution) and `draw` turns it into SVG; the arithmetic of the plane (a panel's
scale, pixels, clipping, reading coordinates) is `plane`'s.

Every arrow is a ``<line>`` with ``data-role`` (``row``, ``term``, ``sum``, ``right``,
``answer``), ``data-index`` where it has one, and ``data-x``/``data-y``: the exact coordinates
of its tip. Each panel ``<g>`` carries ``data-origin`` (pixel position of the origin) and
``data-scale`` (pixels per unit, y pointing up), so a test can check the drawing against the
numbers. Text is escaped; the root has ``role="img"``, a ``<title>`` and a ``<desc>``.

Labels are placed by ``labels.place`` so none overlaps an arrow (shaft or head) or another
label: a row's label around its tip, outward first; a result's beside its shaft. The axes are
faint guides (class ``guide``) labels may cross. A panel is its ``plane.Layout``'s square
and wider on each side, room for labels beside arrows along an axis. Panels sit side by side,
two at most (one in ``plane.PHONE``, 312 px for a phone); more wrap onto the next row, so a
picture is drawn at its natural size rather than shrunk to fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from . import geometry, labels, plane, svg
from .labels import Box, Label, Segment
from .plane import Number, number, vec

CAPTION = 24  # under each panel's drawing
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

CUT_SHORT = ", cut short: it runs off the picture"
CLIP = 14  # pixels: a learner's arrow running past the panel stops this far inside its edge
__all__ = ["Number", "number", "vec"]


@dataclass
class Arrow:
    role: str
    tail: tuple[Number, Number]
    tip: tuple[Number, Number]
    label: str = ""
    index: int | None = None


@dataclass
class Panel:
    """One drawing of arrows with its caption. A panel ``own_scale`` is drawn at the scale that
    fits its own arrows (a small difference stays visible), its caption saying how much larger
    or smaller than the others it is drawn."""

    caption: str
    arrows: list[Arrow] = field(default_factory=list)
    own_scale: bool = False


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


def _arrow_markup(arrow: Arrow, ends: Segment, marker: str) -> str:
    (x1, y1), (x2, y2) = ends
    attrs = {
        "class": f"arrow {arrow.role}",
        "data-role": arrow.role,
        "x1": svg.px(x1),
        "y1": svg.px(y1),
        "x2": svg.px(x2),
        "y2": svg.px(y2),
        "data-x": plane.fmt(arrow.tip[0]),
        "data-y": plane.fmt(arrow.tip[1]),
        "stroke": COLOURS[arrow.role],
        "stroke-width": str(WIDTH[arrow.role]),
        "marker-end": f"url(#{marker}-{arrow.role})",
    }
    if arrow.index is not None:
        attrs["data-index"] = str(arrow.index)
    if arrow.role in DASH:
        attrs["stroke-dasharray"] = DASH[arrow.role]
    return svg.element("line", attrs, {})


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


@dataclass
class Figure:
    """What a kind's picture shows: the panels with the solution and the right answer's tip,
    the panels a fresh problem shows (rows only, never the answer), and a title for each."""

    panels: list[Panel]
    tip: tuple[Number, Number]
    fresh: list[Panel]
    title: str
    fresh_title: str = "The rows of the sentence as arrows"
    layout: plane.Layout = plane.WIDE


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
    picture_layout: ClassVar[plane.Layout] = plane.WIDE

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
            layout=self.picture_layout,
        )
        return draw(spec, figure, answer=answer, solution=solution)


def _describe(figure: Figure, answer: tuple | None, *, solution: bool) -> tuple[str, str]:
    tip = figure.tip
    yours = f"({plane.fmt(answer[0])}, {plane.fmt(answer[1])})" if answer is not None else ""
    if not solution:
        desc = (
            "Each row is an arrow from the origin, labelled with its word; the answer is not drawn."
        )
        if answer is not None:
            desc += f" Your answer, {yours}, is drawn dashed."
        return figure.fresh_title, desc
    desc = f"The right answer is ({plane.fmt(tip[0])}, {plane.fmt(tip[1])})."
    if answer is not None:
        desc += f" Your answer, {yours}, is drawn dashed beside it."
    return figure.title, desc


def _panel_points(panels: list[Panel]) -> list[tuple[Number, Number]]:
    return [p for panel in panels for a in panel.arrows for p in (a.tail, a.tip)]


@dataclass
class _Drawing:
    """The arrow panels being drawn: every arrow an obstacle for the labels placed last.

    Lines first, every arrow (shaft and head) an obstacle for the labels; the axes are faint
    guides labels may cross (class "guide"), else a label at the tip of an arrow lying on an
    axis could not sit above or below it. Then the labels, placed together (rows first: they
    are tied to a tip, results can slide along their shaft)."""

    frames: list[tuple[float, float, float]]  # per panel: pixels per unit, the origin (x, y)
    prefix: str
    layout: plane.Layout
    segments: list[Segment] = field(default_factory=list)
    obstacles: list[Box] = field(default_factory=list)
    pending: list[tuple[int, Arrow, Label]] = field(default_factory=list)
    bodies: list[list[str]] = field(default_factory=list)
    clipped: bool = False

    def panel(self, n: int, panel: Panel, caption: str) -> None:
        """Draw one panel's axes, arrows and caption; queue its arrows' labels."""
        size, width, columns = self.layout.panel, self.layout.width, self.layout.columns
        left, top = (n % columns) * width, (n // columns) * (size + CAPTION)
        scale, ox, oy = self.frames[n]
        px_ox, px_oy = left + ox, top + oy
        body = [
            f'<g class="panel" data-origin="{svg.px(px_ox)},{svg.px(px_oy)}" data-scale="{scale}">',
            svg.line(
                left + 4,
                px_oy,
                left + width - 4,
                px_oy,
                class_="axis guide",
                stroke=COLOURS["muted"],
            )
            + svg.line(
                px_ox, top + 4, px_ox, top + size - 4, class_="axis guide", stroke=COLOURS["muted"]
            ),
        ]
        bounds = Box(left + 2, top + 2, left + width - 2, top + size - 2)
        for arrow in panel.arrows:
            markup, ends = self.arrow(arrow, left, top, self.frames[n])
            body.append(markup)
            if arrow.label:
                self.pending.append((n, arrow, _label(arrow, ends, (px_ox, px_oy), bounds)))
        caption_x, caption_y = left + width / 2, top + size + 14
        self.obstacles.append(
            labels.text_box(caption_x, caption_y, caption, size=FONT_SIZE, anchor="middle")
        )
        body.append(svg.text(caption_x, caption_y, caption, class_="caption", text_anchor="middle"))
        self.bodies.append(body)

    def arrow(
        self, arrow: Arrow, left: float, top: float, frame: tuple[float, float, float]
    ) -> tuple[str, Segment]:
        """Return one arrow's markup and its ends in pixels; a learner's answer past the panel
        is cut short."""
        scale, ox, oy = frame
        ends = plane.pixels(arrow.tail, arrow.tip, scale, left + ox, top + oy)
        if arrow.role == "answer":
            right, bottom = left + self.layout.width - CLIP, top + self.layout.panel - CLIP
            inner = Box(left + CLIP, top + CLIP, right, bottom)
            ends, cut = plane.clip(ends, inner)
            self.clipped = self.clipped or cut
        markup = _arrow_markup(arrow, ends, self.prefix)
        if arrow.role == "answer" and self.clipped:
            markup = markup.replace("<line ", '<line data-clipped="true" ', 1)
        self.segments += geometry.arrow_segments(*ends)
        return markup, ends

    def place_labels(self) -> list[str]:
        """Place every queued label and return the panels' markup."""
        self.pending.sort(key=lambda item: item[1].role != "row")  # stable: drawing order within
        placed = labels.place(
            [label for _, _, label in self.pending],
            segments=self.segments,
            obstacles=self.obstacles,
        )
        for (n, arrow, _), spot in zip(self.pending, placed, strict=True):
            self.bodies[n].insert(-1, labels.svg_text(spot, fill=COLOURS[arrow.role]))
        out: list[str] = []
        for body in self.bodies:
            out.extend(body)
            out.append("</g>")
        return out


def _legend(
    roles: list[str], top: float, *, clipped: bool = False, narrow: bool = False
) -> list[str]:
    """Return the legend: one line per role drawn, below the panels (a learner's arrow cut
    short at the edge says so, on a line of its own in a ``narrow`` picture)."""
    out = ['<g class="legend">']
    for k, role in enumerate(roles):
        y = top + LEGEND_LINE * k + 10
        words = LEGEND_TEXT[role] + (CUT_SHORT if role == "answer" and clipped else "")
        if narrow and role == "answer" and clipped:
            words = LEGEND_TEXT[role] + ","
            out.append(svg.text(48, y + LEGEND_LINE + 4, CUT_SHORT.removeprefix(", ")))
        stroke = {"stroke": COLOURS[role], "stroke_width": WIDTH[role]}
        line = svg.line(10, y, 40, y, **stroke, stroke_dasharray=DASH.get(role))
        out.append(line + svg.text(48, y + 4, words))
    out.append("</g>")
    return out


def _own_frame(panel: Panel, layout: plane.Layout) -> tuple[float, float, float]:
    """Return the scale and origin fitting a panel's own arrows; a learner's answer in it
    counts when it lies within six times their extent (further out it is cut short)."""
    points = [p for a in panel.arrows if a.role != "answer" for p in (a.tail, a.tip)]
    extent = plane.bounds(points)
    reach = max(abs(b) for b in extent)
    for arrow in panel.arrows:
        if arrow.role == "answer" and max(abs(float(v)) for v in arrow.tip) <= 6 * reach:
            points.append(arrow.tip)
    # However small the arrows, they fill the panel (a zero drawing keeps the unit span).
    return plane.scale(plane.bounds(points), least=1e-6 if reach > 0 else 1.0, layout=layout)


def _scale_note(factor: float) -> str:
    """Return a caption's note on a panel drawn at its own scale, ``factor`` times the others'."""
    if factor > 1.05:
        return f", drawn {factor:.2g}× larger"
    if factor < 0.95:
        return f", drawn {1 / factor:.2g}× smaller"
    return ", at the same scale"


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
    learner = plane.drawable_answer(answer, plane.bounds(_panel_points(panels)))
    # The scale is the right answer's: a learner's answer far out must not shrink the rows and
    # terms to a smudge at the origin. Past the panel's edge it is cut short (see plane.clip).
    shared = [panel for panel in panels if not panel.own_scale] or panels
    layout = figure.layout
    frame = plane.scale(plane.bounds(_panel_points(shared)), layout=layout)
    if learner is not None:
        panels[-1].arrows.append(Arrow("answer", (0, 0), (learner[0], learner[1]), "your answer"))
    frames = [_own_frame(panel, layout) if panel.own_scale else frame for panel in panels]
    prefix = svg.picture_id([spec, [plane.fmt(v) for v in learner or ()], show_solution])
    title, desc = _describe(figure, learner, solution=show_solution)
    roles = list(dict.fromkeys(a.role for panel in panels for a in panel.arrows))
    columns = min(layout.columns, len(panels))
    rows = -(-len(panels) // columns)
    drawing = _Drawing(frames, prefix, layout)
    for n, panel in enumerate(panels):
        own = _scale_note(frames[n][0] / frame[0]) if panel.own_scale else ""
        drawing.panel(n, panel, panel.caption + own)
    top = (layout.panel + CAPTION) * rows
    narrow = layout.columns == 1  # the legend's long line wraps in a narrow picture
    legend = _legend(roles, top, clipped=drawing.clipped, narrow=narrow)
    out = drawing.place_labels() + legend
    if any(panel.own_scale for panel in panels):
        desc += " A panel drawn at its own scale says so in its caption."
    if drawing.clipped:
        desc += " Your answer runs off the picture: its arrow is cut short at the edge."
    lines = len(roles) + (drawing.clipped and narrow)
    width, height = layout.width * columns, top + LEGEND_LINE * lines
    return svg.document(width, height, title, desc, out, prefix=prefix, markers=roles)
