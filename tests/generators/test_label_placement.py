"""No label in any generated picture overlaps a drawn segment or another label.

Every registered generator whose class draws a picture is checked, over many seeds and every
level, fresh, solved, and with each catalogued mistake's answer drawn: a kind added later is
picked up from the registry. The SVG is read back on its own terms: each ``<text>``'s box from
its x, y, ``text-anchor``, ``dominant-baseline``, font size (inherited from its ancestors'
attributes or style) and its text, estimated as ``practice.generators.draw.geometry.text_box`` does;
each drawn segment from ``<line>``, ``<polyline>``, ``<polygon>`` and ``<path>`` (M, L, H, V,
Z; curves sampled), arrow heads from their markers (placed, scaled and turned as SVG does),
``translate``/``scale`` transforms applied, with half the stroke width as clearance. Boxes
(``<rect>``) and dots (``<circle>``) are not segments: a text inside a box is the point of it.
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

import grading
from practice.generators import GENERATORS, ProblemGenerator, generate, render_svg
from practice.generators.draw import geometry as G
from practice.generators.draw.geometry import Box

NS = "{http://www.w3.org/2000/svg}"
SEEDS = range(25)
GUIDE = "guide"  # the class of faint guide lines (axes, grids) a label may cross
HIDDEN = {"defs", "marker", "title", "desc", "clipPath", "mask", "symbol", "pattern", "style"}


# -- reading an SVG back -------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnText:
    text: str
    box: Box
    crowded: bool


@dataclass(frozen=True)
class DrawnSegment:
    segment: G.Segment
    half_width: float
    source: str


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _style(element: ET.Element) -> dict[str, str]:
    pairs = (part.split(":", 1) for part in element.get("style", "").split(";") if ":" in part)
    return {k.strip(): v.strip() for k, v in pairs}


def _own(element: ET.Element, name: str) -> str | None:
    return _style(element).get(name, element.get(name))


def _inherited(chain: list[ET.Element], name: str, default: str) -> str:
    for element in reversed(chain):
        value = _own(element, name)
        if value is not None and value != "inherit":
            return value
    return default


def _length(value: str) -> float:
    match = re.fullmatch(r"\s*(-?[\d.]+(?:e-?\d+)?)\s*(px)?\s*", value)
    assert match, f"cannot read the length {value!r} (only plain numbers and px)"
    return float(match.group(1))


Affine = tuple[float, float, float, float]  # x' = sx x + tx, y' = sy y + ty


def _transform(element: ET.Element, outer: Affine) -> Affine:
    sx, sy, tx, ty = outer
    text = element.get("transform")
    if not text:
        return outer
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "translate":
            dx, dy = values[0], values[1] if len(values) > 1 else 0.0
            tx, ty = tx + sx * dx, ty + sy * dy
        elif name == "scale":
            kx, ky = values[0], values[1] if len(values) > 1 else values[0]
            sx, sy = sx * kx, sy * ky
        else:
            raise AssertionError(f"transform {name} is not read by this test; draw without it")
    return sx, sy, tx, ty


def _apply(affine: Affine, point: G.Point) -> G.Point:
    sx, sy, tx, ty = affine
    return sx * point[0] + tx, sy * point[1] + ty


_NUMBER = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def path_polylines(d: str) -> list[list[G.Point]]:
    """Return a path's subpaths as lists of points (curves sampled at 12 points)."""
    tokens = re.findall(rf"[MmLlHhVvZzCcQq]|{_NUMBER}", d)
    leftover = re.sub(rf"[MmLlHhVvZzCcQq]|{_NUMBER}|[\s,]", "", d)
    assert not leftover, f"path command(s) {leftover!r} are not read by this test"
    out: list[list[G.Point]] = []
    x = y = 0.0
    start = (0.0, 0.0)
    command = ""
    k = 0

    def take(n: int) -> list[float]:
        nonlocal k
        values = [float(t) for t in tokens[k : k + n]]
        k += n
        return values

    while k < len(tokens):
        if re.fullmatch(r"[A-Za-z]", tokens[k]):
            command = tokens[k]
            k += 1
            if command in "Zz":
                if out:
                    out[-1].append(start)
                x, y = start
                continue
        rel = command.islower()
        base = (x, y) if rel else (0.0, 0.0)
        c = command.upper()
        if c == "M":
            px, py = take(2)
            x, y = base[0] + px, base[1] + py
            start = (x, y)
            out.append([(x, y)])
            command = "l" if rel else "L"
        elif c == "L":
            px, py = take(2)
            x, y = base[0] + px, base[1] + py
            out[-1].append((x, y))
        elif c == "H":
            (px,) = take(1)
            x = base[0] + px
            out[-1].append((x, y))
        elif c == "V":
            (py,) = take(1)
            y = base[1] + py
            out[-1].append((x, y))
        elif c in "CQ":
            values = take(6 if c == "C" else 4)
            controls = [(x, y)] + [
                (base[0] + values[j], base[1] + values[j + 1]) for j in range(0, len(values), 2)
            ]
            for step in range(1, 13):
                t = step / 12
                points = controls
                while len(points) > 1:  # de Casteljau
                    points = [
                        (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                        for a, b in itertools.pairwise(points)
                    ]
                out[-1].append(points[0])
            x, y = controls[-1]
        else:
            raise AssertionError(f"path command {command!r} is not read by this test")
    return out


def _points(text: str) -> list[G.Point]:
    values = [float(v) for v in re.findall(_NUMBER, text)]
    return [(values[j], values[j + 1]) for j in range(0, len(values) - 1, 2)]


def _shape_polylines(element: ET.Element) -> list[list[G.Point]]:
    tag = _local(element.tag)
    if tag == "line":
        return [
            [
                (float(element.get("x1", 0)), float(element.get("y1", 0))),
                (float(element.get("x2", 0)), float(element.get("y2", 0))),
            ]
        ]
    if tag == "polyline":
        return [_points(element.get("points", ""))]
    if tag == "polygon":
        points = _points(element.get("points", ""))
        return [[*points, points[0]]] if points else []
    if tag == "path":
        return path_polylines(element.get("d", ""))
    return []


def _marker_segments(
    marker: ET.Element, vertex: G.Point, direction: float, stroke: float
) -> list[G.Segment]:
    """Return a marker's drawn segments placed at ``vertex``, turned by ``direction`` (radians)."""
    view = [float(v) for v in re.split(r"[\s,]+", marker.get("viewBox", "").strip()) if v]
    width = _length(marker.get("markerWidth", "3"))
    height = _length(marker.get("markerHeight", "3"))
    scale = stroke if marker.get("markerUnits", "strokeWidth") == "strokeWidth" else 1.0
    unit = min(width / view[2], height / view[3]) * scale if view else scale
    ref = (float(marker.get("refX", 0)), float(marker.get("refY", 0)))
    cos, sin = math.cos(direction), math.sin(direction)
    out: list[G.Segment] = []
    for child in marker.iter():
        for line in _shape_polylines(child):
            placed = []
            for px, py in line:
                lx, ly = (px - ref[0]) * unit, (py - ref[1]) * unit
                placed.append((vertex[0] + lx * cos - ly * sin, vertex[1] + lx * sin + ly * cos))
            out += G.polyline_segments(placed)
    return out


def _marker(root: ET.Element, reference: str | None) -> ET.Element | None:
    match = re.fullmatch(r"\s*url\(#([^)]+)\)\s*", reference or "")
    if not match:
        return None
    for element in root.iter(f"{NS}marker"):
        if element.get("id") == match.group(1):
            return element
    raise AssertionError(f"marker {match.group(1)!r} is not defined")


def _angle(marker: ET.Element, a: G.Point, b: G.Point, *, start: bool) -> float:
    orient = marker.get("orient", "0")
    if orient in ("auto", "auto-start-reverse"):
        angle = math.atan2(b[1] - a[1], b[0] - a[0])
        return angle + math.pi if start and orient == "auto-start-reverse" else angle
    return math.radians(float(orient))


def read_svg(svg: str) -> tuple[list[DrawnText], list[DrawnSegment]]:
    """Return every visible text's box and every drawn segment of an SVG picture."""
    root = ET.fromstring(svg)
    texts: list[DrawnText] = []
    segments: list[DrawnSegment] = []

    def walk(element: ET.Element, chain: list[ET.Element], affine: Affine) -> None:
        tag = _local(element.tag)
        if tag in HIDDEN or _own(element, "display") == "none":
            return
        chain = [*chain, element]
        affine = _transform(element, affine)
        scale = abs(affine[0])
        if tag == "text":
            assert abs(affine[0]) == abs(affine[1]), "text under an uneven scale"
            for span in element.iter(f"{NS}tspan"):
                moved = {"x", "y", "dx", "dy"} & set(span.attrib)
                assert not moved, f"tspan positions ({moved}) are not read by this test"
            content = "".join(element.itertext())
            if content.strip():
                size = _length(_inherited(chain, "font-size", "16")) * scale
                x, y = _apply(
                    affine,
                    (
                        float(re.findall(_NUMBER, element.get("x", "0"))[0]),
                        float(re.findall(_NUMBER, element.get("y", "0"))[0]),
                    ),
                )
                box = G.text_box(
                    x,
                    y,
                    content,
                    size=size,
                    anchor=_inherited(chain, "text-anchor", "start"),
                    baseline=_own(element, "dominant-baseline") or "alphabetic",
                )
                texts.append(DrawnText(content, box, element.get("data-crowded") == "true"))
            return
        lines = [] if GUIDE in element.get("class", "").split() else _shape_polylines(element)
        if lines and _inherited(chain, "stroke", "none") != "none":
            half = _length(_inherited(chain, "stroke-width", "1")) * scale / 2
            label = f"<{tag}> {element.get('class', '')} {element.get('data-role', '')}".strip()
            for line in lines:
                placed = [_apply(affine, p) for p in line]
                segments.extend(DrawnSegment(s, half, label) for s in G.polyline_segments(placed))
            stroke = _length(_inherited(chain, "stroke-width", "1"))
            for attribute, start in (("marker-start", True), ("marker-end", False)):
                marker = _marker(root, _own(element, attribute))
                if marker is None or len(lines[0 if start else -1]) < 2:
                    continue
                line = lines[0] if start else lines[-1]
                a, b = (line[0], line[1]) if start else (line[-2], line[-1])
                vertex = a if start else b
                for s in _marker_segments(
                    marker, vertex, _angle(marker, a, b, start=start), stroke
                ):
                    ends = (_apply(affine, s[0]), _apply(affine, s[1]))
                    segments.append(DrawnSegment(ends, 0.0, f"{label} marker"))
        for child in element:
            walk(child, chain, affine)

    walk(root, [], (1.0, 1.0, 0.0, 0.0))
    return texts, segments


def collisions(svg: str) -> list[str]:
    """Return every overlap of a text with a segment or another text, described."""
    texts, segments = read_svg(svg)
    found = []
    for n, text in enumerate(texts):
        if text.crowded:
            found.append(f"{text.text!r} found no free place")
        for drawn in segments:
            if G.segment_hits_box(drawn.segment, text.box.grown(drawn.half_width)):
                found.append(f"{text.text!r} at {text.box} crosses {drawn.source} {drawn.segment}")
        for other in texts[n + 1 :]:
            if text.box.intersects(other.box):
                found.append(f"{text.text!r} overlaps {other.text!r}")
    return found


# -- every picture every generator draws -----------------------------------------------------

DRAWING_KINDS = [
    kind for kind, g in GENERATORS.items() if type(g).picture is not ProblemGenerator.picture
]


def test_the_arrow_kinds_are_among_the_kinds_checked():
    assert {"lookup", "weighted_sum", "contrast", "content_weights"} <= set(DRAWING_KINDS)


def pictures_of(spec: dict) -> list[tuple[str, str | None]]:
    """Return the problem's pictures, each named: fresh, solved, and with each catalogued
    mistake's answer (None where the kind draws nothing)."""
    pictures = [("fresh", render_svg(spec)), ("solved", render_svg(spec, solution=True))]
    for diagnosis, value in grading.mistaken_answers(spec):
        what = f"answer of {diagnosis.mistake} {list(diagnosis.terms)}"
        pictures.append((what, render_svg(spec, answer=value)))
    return pictures


@pytest.mark.parametrize("kind", DRAWING_KINDS)
def test_no_label_overlaps_a_line_or_another_label(kind):
    drawn = 0
    for level in GENERATORS[kind].levels:
        for seed in SEEDS:
            spec = generate(kind, seed=seed, level=level)
            for what, svg in pictures_of(spec):
                if svg is None:
                    continue
                drawn += 1
                problems = collisions(svg)
                assert not problems, f"{kind} seed={seed} level={level} {what}: {problems}"
    assert drawn > 0, f"{kind} drew no picture at any level"


# -- the reader itself ---------------------------------------------------------------------


def test_reader_finds_a_text_over_a_line():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" style="font-size:10px">'
        '<line x1="0" y1="0" x2="100" y2="0" stroke="black"/>'
        '<text x="10" y="4">over</text></svg>'
    )
    (problem,) = collisions(svg)
    assert "'over'" in problem and "<line>" in problem


def test_reader_places_arrow_heads_from_their_marker():
    # The head of an arrow ending at (100, 50) pointing right reaches back 8.1 px, ±4.5 px.
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" style="font-size:10px"><defs>'
        '<marker id="m" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" '
        'markerWidth="9" markerHeight="9" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>'
        '</defs><line x1="0" y1="50" x2="100" y2="50" stroke="red" marker-end="url(#m)"/></svg>'
    )
    _, segments = read_svg(svg)
    head = [s.segment for s in segments if "marker" in s.source]
    corners = {(round(x, 3), round(y, 3)) for s in head for x, y in s}
    assert corners == {(91.9, 45.5), (100.9, 50.0), (91.9, 54.5)}
    drawn = {
        (round(x, 3), round(y, 3)) for s in G.arrow_segments((0, 50), (100, 50))[1:] for x, y in s
    }
    assert drawn == corners  # figures' arrow_segments defaults match its marker


def test_reader_applies_translate_and_inherited_font_size():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(100, 20)" '
        'font-size="20" text-anchor="middle"><text x="0" y="0">ab</text></g></svg>'
    )
    ((text,), _) = read_svg(svg)
    width = G.text_width("ab", 20)
    expected = (100 - width / 2, 20 - 16, 100 + width / 2, 20 + 4.8)
    box = text.box
    assert (box.left, box.top, box.right, box.bottom) == pytest.approx(expected)


def test_reader_refuses_what_it_cannot_read():
    with pytest.raises(AssertionError, match="rotate"):
        read_svg(
            '<svg xmlns="http://www.w3.org/2000/svg"><g transform="rotate(30)">'
            '<text x="0" y="0">a</text></g></svg>'
        )
    with pytest.raises(AssertionError, match="A"):
        path_polylines("M0,0 A5,5 0 0 1 10,10")


def test_reader_follows_relative_path_commands_and_curves():
    (line,) = path_polylines("m10,10 l5,0 h5 v5 z")
    assert line == [(10, 10), (15, 10), (20, 10), (20, 15), (10, 10)]
    (curve,) = path_polylines("M0,0 Q10,10 20,0")
    assert curve[-1] == (20, 0) and max(y for _, y in curve) == pytest.approx(5)


def test_reader_lets_labels_cross_only_guide_lines():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" style="font-size:10px">'
        '<line class="axis guide" x1="0" y1="0" x2="100" y2="0" stroke="grey"/>'
        '<line class="axis" x1="0" y1="2" x2="100" y2="2" stroke="grey"/>'
        '<text x="10" y="4">over</text></svg>'
    )
    (problem,) = collisions(svg)
    assert "<line> axis" in problem and "(0.0, 2.0)" in problem


def test_reader_finds_labels_over_each_other_and_crowded_ones():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" font-size="10">'
        '<text x="0" y="10">first</text><text x="20" y="12">second</text>'
        '<text x="0" y="50" data-crowded="true">alone</text></svg>'
    )
    assert collisions(svg) == ["'first' overlaps 'second'", "'alone' found no free place"]
