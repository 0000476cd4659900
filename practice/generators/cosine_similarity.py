"""``cosine_similarity``: two words' small integer rows; the learner computes cos θ exactly.

Levels: 1, two-dimensional rows with entries 0..3 (drawable, first quadrant); 2, two
dimensions with negative entries; 3, three dimensions; 4, four dimensions. Every problem has a
nonzero dot product, rows of different lengths (so "divided by one length only" names the row)
and a product of squared lengths that is not a square (so the answer keeps its ``sqrt``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.cosine_similarity import cosine

from .base import Draw, ProblemGenerator
from .draw import geometry, labels, svg
from .draw.crop import Crop, crop_to
from .draw.geometry import Point
from .statement import format_example, md_word, tex_vector
from .words.embedding import WORD_PAIRS

# Cosines for the format example: (a, b) is a / sqrt(b), also typed a * sqrt(b) / b.
_ROOT_EXAMPLES = ((7, 65), (5, 38), (4, 57), (9, 130))


def _root_example(spec: dict) -> str:
    """Return the statement's example of an exact cosine, never this problem's answer or a
    catalogued mistake's, in its two typed forms."""
    chosen = format_example(spec, [f"{a}/sqrt({b})" for a, b in _ROOT_EXAMPLES])
    a, b = (int(x) for x in re.findall(r"\d+", chosen))
    return f"`{a}/sqrt({b})` or `{a}*sqrt({b})/{b}`"


@dataclass(frozen=True)
class CosineLevel:
    dim: int
    low: int
    high: int


LEVELS: dict[int, CosineLevel] = {
    1: CosineLevel(dim=2, low=0, high=3),
    2: CosineLevel(dim=2, low=-3, high=4),
    3: CosineLevel(dim=3, low=-2, high=3),
    4: CosineLevel(dim=4, low=-2, high=2),
}

PANEL = 340
PAD = 48


def int_rows(spec: dict) -> list[tuple[int, ...]]:
    """Return the spec's rows as integer tuples."""
    return [tuple(int(x) for x in row) for row in spec["rows"]]


def _as_float(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    return number if math.isfinite(number) else None


class CosineSimilarityGenerator(ProblemGenerator):
    kind: ClassVar[str] = "cosine_similarity"
    name: ClassVar[str] = "cosine_similarity"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 16
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    # Learners may answer in decimals (three significant figures): keep mistakes apart.
    separation: ClassVar[float] = 0.02

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        words = list(draw.choice(WORD_PAIRS))
        if draw.below(2):
            words.reverse()
        rows = [
            [str(draw.integer(spec_level.low, spec_level.high)) for _ in range(spec_level.dim)]
            for _ in range(2)
        ]
        return {"words": words, "rows": rows}

    def plausible(self, spec: dict, target: str | None) -> bool:
        u, v = int_rows(spec)
        nu, nv = sum(a * a for a in u), sum(b * b for b in v)
        dot = sum(a * b for a, b in zip(u, v, strict=True))
        if not nu or not nv or nu == nv or dot == 0:
            return False
        # Keep the sqrt: a square product of lengths would make the cosine rational.
        return math.isqrt(nu * nv) ** 2 != nu * nv

    def statement(self, spec: dict) -> str:
        (a, b), (u, v) = spec["words"], spec["rows"]
        return "\n".join(
            [
                f"In a small embedding table, {md_word(a)} has the row "
                f"$\\mathbf{{u}} = {tex_vector(u)}$ and {md_word(b)} has the row "
                f"$\\mathbf{{v}} = {tex_vector(v)}$.",
                "",
                f"**Compute** the cosine similarity of {md_word(a)} and {md_word(b)}:",
                "",
                "$$\\cos\\theta = \\frac{\\mathbf{u} \\cdot \\mathbf{v}}"
                "{\\lVert\\mathbf{u}\\rVert\\,\\lVert\\mathbf{v}\\rVert}$$",
                "",
                "Answer exactly, writing a square root as `sqrt(...)` (for example "
                f"{_root_example(spec)}), or as a decimal with at least three significant figures "
                "(a decimal counts when it rounds the exact value at the digits typed).",
            ]
        )

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        u, v = int_rows(spec)
        words = spec["words"]
        show = answer is not None if solution is None else solution
        prefix = svg.picture_id(("cosine", spec.get("words"), spec.get("rows"), str(answer), show))
        if not show and len(u) == 2:
            return _fresh_arrows(prefix, words, u, v)
        if not show:
            return _fresh_bars(prefix, words, u, v)
        return _angle_picture(prefix, words, u, v, answer)


def _scale_for(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    xs = [0.0] + [p[0] for p in points]
    ys = [0.0] + [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    scale = (PANEL - 2 * PAD) / span
    ox = PAD + (PANEL - 2 * PAD - (max(xs) - min(xs)) * scale) / 2 - min(xs) * scale
    oy = PAD + (PANEL - 2 * PAD - (max(ys) - min(ys)) * scale) / 2 + max(ys) * scale
    return scale, ox, oy


class _Drawing:
    """Collect a panel's lines, what a label must keep off, and the labels to place."""

    def __init__(self) -> None:
        self.body: list[str] = []
        self.segments: list[labels.Segment] = []
        self.labels: list[labels.Label] = []
        self.attributes: list[dict[str, str]] = []
        self.spots: list[labels.Placed] = []

    def label(self, text: str, candidates: list[labels.Candidate], **attributes: str) -> None:
        self.labels.append(labels.Label(text, 12, tuple(candidates), bounds=_BOUNDS))
        self.attributes.append(attributes)

    def placed(self) -> list[str]:
        """Return the body with every label placed off every line and earlier label."""
        self.spots = labels.place(self.labels, segments=self.segments)
        pairs = zip(self.spots, self.attributes, strict=True)
        return [*self.body, *(labels.svg_text(s, **a) for s, a in pairs)]

    def crop(self, origin: tuple[float, float], tips: list[tuple[float, float]]) -> Crop:
        """Return the part of the panel holding the origin, the arrows' ``tips`` (pixels) and
        the placed labels (call after ``placed``)."""
        return crop_to([origin, *tips], [spot.box for spot in self.spots])


_BOUNDS = labels.Box(0, 0, PANEL, PANEL)


def _angle_arc(drawing: _Drawing, ox: float, oy: float, a: float, b: float, label: str) -> None:
    """Draw the arc from direction a to direction b (radians) and label it."""
    start, end = (a, b) if (b - a) % (2 * math.pi) <= math.pi else (b, a)
    sweep = (end - start) % (2 * math.pi)
    middle = start + sweep / 2
    drawing.body.append(
        svg.arc((ox, oy), 30, start, end, stroke=svg.COLOURS["angle"], class_="angle")
    )
    drawing.segments += geometry.polyline_segments(svg.arc_points((ox, oy), 30, start, end))
    anchor = (ox + 30 * math.cos(middle), oy - 30 * math.sin(middle))
    drawing.label(
        label,
        labels.around_point(anchor, label, 12, toward=(math.cos(middle), -math.sin(middle))),
        fill=svg.COLOURS["angle"],
        **{"class": "angle-label"},
    )


def _arrow(
    drawing: _Drawing,
    prefix: str,
    role: str,
    text: str,
    tip: tuple[float, float],
    origin: tuple[float, float],
    data: dict[str, object],
    *,
    dashed: bool = False,
) -> None:
    """Draw an arrow from the origin to ``tip`` (pixels) and label it near its tip."""
    drawing.body.append(svg.arrow(prefix, role, origin, tip, data=data, dashed=dashed))
    drawing.segments += geometry.arrow_segments(origin, tip)
    outward = (tip[0] - origin[0], tip[1] - origin[1])
    candidates = [
        *labels.around_point(tip, text, 12, toward=outward),
        *labels.along_segment((origin, tip), text, 12),
    ]
    drawing.label(text, candidates, fill=svg.COLOURS[role])


def _row_arrow(
    drawing: _Drawing,
    prefix: str,
    k: int,
    word: str,
    tip: tuple[float, float],
    scale: float,
    ox: float,
    oy: float,
) -> None:
    x, y = ox + tip[0] * scale, oy - tip[1] * scale
    data = {"index": k, "x": _fmt(tip[0]), "y": _fmt(tip[1])}
    _arrow(drawing, prefix, "row", f"{'uv'[k]}: {word}", (x, y), (ox, oy), data)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}".rstrip("0")


def _fresh_arrows(prefix: str, words: list[str], u: tuple, v: tuple) -> str:
    scale, ox, oy = _scale_for([(float(u[0]), float(u[1])), (float(v[0]), float(v[1]))])
    drawing = _Drawing()
    _row_arrow(drawing, prefix, 0, words[0], (u[0], u[1]), scale, ox, oy)
    _row_arrow(drawing, prefix, 1, words[1], (v[0], v[1]), scale, ox, oy)
    _angle_arc(drawing, ox, oy, math.atan2(u[1], u[0]), math.atan2(v[1], v[0]), "θ")
    drawn = drawing.placed()
    tips = [(ox + x * scale, oy - y * scale) for x, y in ((u[0], u[1]), (v[0], v[1]))]
    kept = drawing.crop((ox, oy), tips)
    body = [f'<g class="panel" data-origin="{svg.px(ox)},{svg.px(oy)}" data-scale="{scale:g}">']
    body += [*kept.axes((ox, oy)), *drawn, "</g>"]
    return svg.document(
        kept.width,
        kept.height,
        "The two rows as arrows and the angle between them",
        f"The rows of {words[0]} (u) and {words[1]} (v) drawn from the origin; θ is the "
        "angle between them. Its cosine is not written.",
        kept.shifted(body),
        markers=["row"],
        prefix=prefix,
    )


def _fresh_bars(prefix: str, words: list[str], u: tuple, v: tuple) -> str:
    dim = len(u)
    top = max(1, *(abs(x) for x in (*u, *v)))
    height = 220
    middle = height / 2
    unit = (middle - 30) / top
    group = 86  # wider than the estimated width of a "coordinate d" caption
    width = 60 + group * dim
    body = [svg.line(40, middle, width - 10, middle, stroke=svg.COLOURS["muted"], class_="axis")]
    for d in range(dim):
        for k, row in enumerate((u, v)):
            value = row[d]
            x = 50 + group * d + k * 26
            y = middle - max(value, 0) * unit
            body.append(
                svg.rect(
                    x,
                    y,
                    22,
                    abs(value) * unit,
                    fill=svg.COLOURS["angle"] if k else svg.COLOURS["row"],
                    data_role="coordinate",
                    data_row=k,
                    data_index=d,
                    data_value=value,
                )
            )
            body.append(
                svg.text(
                    x + 11, middle + (14 if value >= 0 else -6), str(value), text_anchor="middle"
                )
            )
        body.append(
            svg.text(50 + group * d + 24, height - 8, f"coordinate {d}", text_anchor="middle")
        )
    body.append(svg.text(40, 16, f"grey: u ({words[0]}), blue: v ({words[1]})"))
    return svg.document(
        width,
        height,
        "The two rows, coordinate by coordinate",
        f"Bars for each coordinate of u ({words[0]}) and v ({words[1]}); the rows have "
        f"{dim} coordinates, so they are drawn as bars rather than arrows.",
        body,
        prefix=prefix,
    )


def _plane_tips(u: tuple, v: tuple, cos_right: float) -> tuple[Point, Point]:
    """Return the rows' tips in the plane they span: the real axes when two-dimensional, else
    u along the x axis and v at the angle between them."""
    if len(u) == 2:
        return (float(u[0]), float(u[1])), (float(v[0]), float(v[1]))
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(b * b for b in v))
    angle = math.acos(max(-1.0, min(1.0, cos_right)))
    return (nu, 0.0), (nv * math.cos(angle), nv * math.sin(angle))


def _learner_tip(
    tip_u: Point, tip_v: Point, learner: float | None, cos_right: float
) -> Point | None:
    """Return the tip of an arrow as long as v at the angle from u whose cosine is the
    learner's value (on v's side of u), or None when it is right or no cosine."""
    if learner is None or not -1 <= learner <= 1 or abs(learner - cos_right) <= 1e-9:
        return None
    base = math.atan2(tip_u[1], tip_u[0])
    side = 1 if (tip_u[0] * tip_v[1] - tip_u[1] * tip_v[0]) >= 0 else -1
    theta = base + side * math.acos(learner)
    length = math.hypot(*tip_v)
    return length * math.cos(theta), length * math.sin(theta)


def _angle_words(learner: float | None, drawn: bool, cos_right: float) -> tuple[str, str | None]:
    """Return the description and, for a value no cosine has, the line the picture writes."""
    desc = f"The right cosine is about {cos_right:.4f}."
    if learner is None:
        return desc + " Your answer could not be drawn as an angle.", None
    if not -1 <= learner <= 1:
        desc += (
            f" Your answer, about {learner:.4g}, is not the cosine of any angle: a cosine lies "
            "between -1 and 1."
        )
        return desc, f"your {learner:.4g} is not a cosine (they lie in [−1, 1])".replace("-", "−")
    if drawn:
        desc += f" The dashed arrow makes the angle whose cosine is your {learner:.4g}."
    return desc, None


def _angle_picture(prefix: str, words: list[str], u: tuple, v: tuple, answer: Any) -> str:
    """Draw both rows in the plane they span (the real axes when they are two-dimensional),
    the angle with its exact cosine, and the angle the learner's value stands for."""
    right = cosine(u, v)
    cos_right = float(right)
    tip_u, tip_v = _plane_tips(u, v, cos_right)
    learner = _as_float(answer)
    learner_tip = _learner_tip(tip_u, tip_v, learner, cos_right)
    points = [tip_u, tip_v] + ([learner_tip] if learner_tip else [])
    scale, ox, oy = _scale_for(points)
    drawing = _Drawing()
    _row_arrow(drawing, prefix, 0, words[0], tip_u, scale, ox, oy)
    _row_arrow(drawing, prefix, 1, words[1], tip_v, scale, ox, oy)
    base = math.atan2(tip_u[1], tip_u[0])
    _angle_arc(drawing, ox, oy, base, math.atan2(tip_v[1], tip_v[0]), f"cos θ ≈ {cos_right:.3f}")
    roles = ["row"]
    if learner_tip is not None:
        x, y = ox + learner_tip[0] * scale, oy - learner_tip[1] * scale
        data: dict[str, object] = {"cos": f"{learner:.6g}"}
        _arrow(
            drawing, prefix, "answer", "your answer's angle", (x, y), (ox, oy), data, dashed=True
        )
        roles.append("answer")
    drawn = drawing.placed()
    kept = drawing.crop((ox, oy), [(ox + x * scale, oy - y * scale) for x, y in points])
    body = [f'<g class="panel" data-origin="{svg.px(ox)},{svg.px(oy)}" data-scale="{scale:g}">']
    body = kept.shifted([*body, *kept.axes((ox, oy)), *drawn, "</g>"])
    desc, no_cosine = _angle_words(learner, learner_tip is not None, cos_right)
    lines = [(f"cos θ = {svg.math_text(right)}", {})]
    if no_cosine:
        lines.append((no_cosine, {"fill": svg.COLOURS["answer"], "data_role": "answer"}))
    for n, (line, extra) in enumerate(lines):
        body.append(svg.text(8, kept.height + 12 + 18 * n, line, **extra))
    width = max(kept.width, *(geometry.text_width(line, 12) + 16 for line, _ in lines))
    plane = "" if len(u) == 2 else " (drawn in the plane the two rows span)"
    return svg.document(
        width,
        kept.height + 20 + 18 * (len(lines) - 1),
        f"The angle between the rows{plane}",
        desc,
        body,
        markers=roles,
        prefix=prefix,
    )
