"""The one SVG toolkit every picture is drawn with: elements, arrows, arcs, markers, the root.

Pure string building, no Django. Every text and attribute value is escaped. Coordinates are
written with at most two decimals (``px``). Element helpers take keyword attributes, written
with hyphens for underscores and a trailing underscore dropped (``class_`` -> ``class``,
``data_role`` -> ``data-role``, ``text_anchor`` -> ``text-anchor``); ``None`` values are left
out. Attributes come out in the order given: position and size first, then the caller's.

A picture is one ``document``: ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` named by
``aria-labelledby``, ids prefixed per picture (``picture_id``), arrow-head markers in ``<defs>``
when asked for. Shapes carry ``data-role`` (and ``data-*`` facts such as the exact value they
stand for) so tests can read a drawing back without its pixels.

Styling is by presentation attributes, never a ``style`` attribute: the pages'
Content-Security-Policy without 'unsafe-inline' blocks ``style`` attributes in inline SVG
(CSP3 style-src-attr), not these.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any
from xml.sax.saxutils import escape, quoteattr

FONT_FAMILY = "system-ui, sans-serif"
MONO_FAMILY = "ui-monospace, monospace"
FONT_SIZE = 12  # pixels, the size of a picture's text unless it says otherwise
MONO = f'font-family="{MONO_FAMILY}"'

# One palette for every picture; a role keeps its colour from one kind to the next.
COLOURS = {
    "text": "#111827",
    "muted": "#d1d5db",
    "row": "#6b7280",
    "given": "#6b7280",
    "candidate": "#6b7280",
    "char": "#6b7280",
    "query": "#111827",
    "term": "#2563eb",
    "sum": "#047857",
    "right": "#047857",
    "path": "#047857",
    "answer": "#c2410c",
    "changed": "#c2410c",
    "angle": "#2563eb",
    "after": "#2563eb",
    "window": "#2563eb",
    "signal": "#2563eb",
    "piece": "#2563eb",
    "cell": "#2563eb",
    "loop": "#7c3aed",
    "noise": "#7c3aed",
    "marked": "#7c3aed",
    "before": "#9ca3af",
    "unknown": "#9ca3af",
}


def px(value: float) -> str:
    """Return a pixel coordinate with at most two decimals (``-0`` written as ``0``)."""
    written = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if written == "-0" else written


def _name(key: str) -> str:
    """Return an attribute name from a keyword: ``class_`` -> ``class``, ``data_row`` ->
    ``data-row``."""
    return key.rstrip("_").replace("_", "-")


def attrs(values: Mapping[str, object] | None = None, /, **extra: object) -> str:
    """Return ``name="value"`` pairs, values quoted and escaped, ``None`` values left out.

    Names in ``values`` are written as given; keyword names are converted (see the module
    docstring)."""
    fields: dict[str, object] = dict(values or {})
    fields.update({_name(k): v for k, v in extra.items()})
    return " ".join(f"{k}={quoteattr(str(v))}" for k, v in fields.items() if v is not None)


def element(tag: str, fields: Mapping[str, object], extra: Mapping[str, object]) -> str:
    """Return an empty element ``<tag .../>`` with ``fields`` then ``extra`` (keyword names)."""
    return f"<{tag} {attrs(fields, **extra)}/>"


def text(x: float, y: float, content: str, **extra: object) -> str:
    """Return a ``<text>`` element with its baseline at (x, y)."""
    return f"<text {attrs({'x': px(x), 'y': px(y)}, **extra)}>{escape(content)}</text>"


def line(x1: float, y1: float, x2: float, y2: float, **extra: object) -> str:
    """Return a ``<line>`` element."""
    return element("line", {"x1": px(x1), "y1": px(y1), "x2": px(x2), "y2": px(y2)}, extra)


def rect(x: float, y: float, width: float, height: float, **extra: object) -> str:
    """Return a ``<rect>`` element (a negative size is drawn as zero)."""
    fields = {"x": px(x), "y": px(y), "width": px(max(width, 0)), "height": px(max(height, 0))}
    return element("rect", fields, extra)


def circle(x: float, y: float, r: float, **extra: object) -> str:
    """Return a ``<circle>`` element."""
    return element("circle", {"cx": px(x), "cy": px(y), "r": px(r)}, extra)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    """Return a ``points`` attribute value (``x,y x,y ...``) for a polyline or polygon."""
    return " ".join(f"{px(x)},{px(y)}" for x, y in pairs)


def polyline(pairs: Iterable[tuple[float, float]], **extra: object) -> str:
    """Return an unfilled ``<polyline>`` through the points."""
    return element("polyline", {"points": points(pairs), "fill": "none"}, extra)


def arrow(
    prefix: str,
    role: str,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    data: Mapping[str, object] | None = None,
    width: float = 2,
    dashed: bool = False,
) -> str:
    """Return an arrow from ``start`` to ``end`` (pixels): a ``<line>`` with class ``arrow``,
    ``data-role``, the given ``data-*`` facts, the role's colour and its marker (declare the
    role in ``document(markers=...)``)."""
    fields: dict[str, object] = {"class": f"arrow {role}", "data-role": role}
    fields.update({f"data-{key}": value for key, value in (data or {}).items()})
    fields.update(
        {
            "stroke": COLOURS[role],
            "stroke-width": width,
            "marker-end": f"url(#{prefix}-{role})",
            "stroke-dasharray": "6 4" if dashed else None,
        }
    )
    (x1, y1), (x2, y2) = start, end
    return line(x1, y1, x2, y2, **{k.replace("-", "_") + "_": v for k, v in fields.items()})


def arc_points(
    centre: tuple[float, float], radius: float, start: float, end: float, *, steps: int = 24
) -> list[tuple[float, float]]:
    """Return points along an arc (angles in radians, counter-clockwise with y pointing up),
    ``steps`` pieces from ``start`` to ``end``."""
    cx, cy = centre
    sweep = (end - start) % (2 * math.pi)
    return [
        (
            cx + radius * math.cos(start + sweep * k / steps),
            cy - radius * math.sin(start + sweep * k / steps),
        )
        for k in range(steps + 1)
    ]


def arc(
    centre: tuple[float, float], radius: float, start: float, end: float, **extra: object
) -> str:
    """Return an arc as a path of short straight pieces (angles in radians, counter-clockwise
    with y pointing up); drawn from ``arc_points``, so a label placed off those points' segments
    stays off the drawn arc."""
    route = arc_points(centre, radius, start, end)
    fields = {"d": "M" + " L".join(f"{px(x)},{px(y)}" for x, y in route), "fill": "none"}
    return element("path", fields, extra)


def picture_id(key: object) -> str:
    """Return the id prefix of a picture: the same for equal keys (any JSON-able value, others
    written with ``str``), different for different ones."""
    written = json.dumps(key, sort_keys=True, default=str)
    digest = hashlib.sha1(written.encode()).hexdigest()[:10]  # noqa: S324 - an id, not security
    return f"bl-{digest}"


def marker(prefix: str, role: str) -> str:
    """Return the arrow-head ``<marker>`` of a role, coloured as the role, id ``prefix-role``."""
    return (
        f'<marker id="{prefix}-{role}" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" '
        'orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{COLOURS[role]}"/></marker>'
    )


def document(
    width: float,
    height: float,
    title: str,
    desc: str,
    body: Iterable[str],
    *,
    prefix: str | None = None,
    key: object = None,
    markers: Iterable[str] = (),
    font_size: float = FONT_SIZE,
) -> str:
    """Return a whole SVG document: the accessible root, its title and description, the
    arrow-head ``markers`` of the roles named and the ``body``'s elements.

    Ids start with ``prefix`` when given (a body that points at markers needs it before it is
    drawn), else with ``picture_id(key)``, else with the id of the picture's own content.
    The picture is drawn at its natural size: ``width`` and ``height`` in pixels, the same as
    its viewBox, so its text shows at the size it was written in."""
    body = list(body)
    if prefix is None:
        prefix = picture_id(key if key is not None else [title, desc, body])
    roles = list(dict.fromkeys(markers))
    size = f"0 0 {px(width)} {px(height)}"
    return "".join(
        [
            f"<svg {attrs(xmlns='http://www.w3.org/2000/svg', viewBox=size)} "
            f'width="{px(width)}" height="{px(height)}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc" '
            f'font-family="{FONT_FAMILY}" font-size="{px(font_size)}">',
            f'<title id="{prefix}-title">{escape(title)}</title>',
            f'<desc id="{prefix}-desc">{escape(desc)}</desc>',
            *(["<defs>", *(marker(prefix, role) for role in roles), "</defs>"] if roles else []),
            *body,
            "</svg>",
        ]
    )


# The learner's answer, where a picture draws it, is drawn by elements whose data-role names it
# (``answer``, ``answer-count``, ``band-answer``, ...): the page's caption relies on it.
_ANSWER_ROLE = re.compile(r'data-role="(?:[a-z-]*-)?answer(?:-[a-z-]*)?"')


def draws_answer(markup: str) -> bool:
    """Return whether a picture draws the learner's answer (an element whose ``data-role``
    names ``answer``), so a caption may say so."""
    return bool(_ANSWER_ROLE.search(markup))


def math_text(value: object) -> str:
    """Write a number or SymPy expression for a picture as a reader writes it, in Unicode:
    ``2*sqrt(5)/5`` as ``2√5/5``, ``sqrt(2 - x)`` as ``√(2 − x)``, minus signs as ``−``."""
    written = re.sub(r"sqrt\((\d+)\)", r"√\1", str(value)).replace("sqrt(", "√(")
    written = re.sub(r"(?<=[\d)])\*(?=[√(])", "", written).replace("**", "^").replace("*", "·")
    return written.replace("-", "−")


def finite(value: Any) -> float | None:
    """Return a float for a number-like value when it is finite, else None."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    return number if math.isfinite(number) else None


def fmt(value: Any) -> str:
    """Write a value for a label: exact when it is a rational, else at most three decimals."""
    if isinstance(value, Fraction | int):
        value = Fraction(value)
        return str(value.numerator) if value.denominator == 1 else str(value)
    if getattr(value, "is_Rational", False):
        return str(value)
    number = finite(value)
    return "?" if number is None else f"{number:.3f}".rstrip("0").rstrip(".")


class Axis:
    """Map values in ``[low, high]`` to pixels in ``[left, right]``."""

    def __init__(self, low: float, high: float, left: float, right: float) -> None:
        if high - low < 1e-9:
            low, high = low - 1, high + 1
        self.low, self.high, self.left, self.right = low, high, left, right

    def __call__(self, value: float) -> float:
        """Return the pixel of ``value``."""
        return self.left + (value - self.low) / (self.high - self.low) * (self.right - self.left)
