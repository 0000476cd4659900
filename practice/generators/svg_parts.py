"""Small SVG building blocks for the pictures of pages 4 and 6 (arrows, bars, grids, text).

Pure string building, every text escaped. A document has ``role="img"``, a ``<title>`` and a
``<desc>``; arrows are ``<line>`` elements carrying ``data-role`` and whatever ``data-*``
attributes the caller gives, so tests can read the drawing back.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape, quoteattr

# Presentation attributes, not a `style` attribute: the pages' Content-Security-Policy without
# 'unsafe-inline' blocks `style` attributes in inline SVG (CSP3 style-src-attr), not these.
FONT = 'font-family="system-ui, sans-serif" font-size="12"'

COLOURS = {
    "row": "#6b7280",
    "query": "#111827",
    "candidate": "#6b7280",
    "right": "#047857",
    "answer": "#c2410c",
    "angle": "#2563eb",
    "path": "#047857",
    "loop": "#7c3aed",
    "before": "#9ca3af",
    "after": "#2563eb",
    "window": "#2563eb",
    "muted": "#d1d5db",
    "text": "#111827",
}


def _name(key: str) -> str:
    """Return an attribute name from a keyword: ``class_`` -> ``class``, ``data_row`` ->
    ``data-row``."""
    return key.rstrip("_").replace("_", "-")


def px(value: float) -> str:
    """Return a pixel coordinate with at most three decimals."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def attrs(values: Mapping[str, object]) -> str:
    """Return XML attributes, values quoted and escaped (None values left out)."""
    return " ".join(f"{k}={quoteattr(str(v))}" for k, v in values.items() if v is not None)


def text(x: float, y: float, content: str, **extra: object) -> str:
    """Return a ``<text>`` element at (x, y)."""
    fields: dict[str, object] = {"x": px(x), "y": px(y)}
    fields.update({_name(k): v for k, v in extra.items()})
    return f"<text {attrs(fields)}>{escape(content)}</text>"


def rect(x: float, y: float, width: float, height: float, **extra: object) -> str:
    """Return a ``<rect>`` element."""
    fields: dict[str, object] = {
        "x": px(x),
        "y": px(y),
        "width": px(max(width, 0.0)),
        "height": px(max(height, 0.0)),
    }
    fields.update({_name(k): v for k, v in extra.items()})
    return f"<rect {attrs(fields)}/>"


def line(x1: float, y1: float, x2: float, y2: float, **extra: object) -> str:
    """Return a ``<line>`` element."""
    fields: dict[str, object] = {"x1": px(x1), "y1": px(y1), "x2": px(x2), "y2": px(y2)}
    fields.update({_name(k): v for k, v in extra.items()})
    return f"<line {attrs(fields)}/>"


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
    """Return an arrow from ``start`` to ``end`` (pixels) with a ``data-role`` and data."""
    fields: dict[str, object] = {"class": f"arrow {role}", "data-role": role}
    for key, value in (data or {}).items():
        fields[f"data-{key}"] = value
    fields.update(
        {
            "stroke": COLOURS[role],
            "stroke-width": width,
            "marker-end": f"url(#{prefix}-{role})",
            "stroke-dasharray": "6 4" if dashed else None,
        }
    )
    return line(*start, *end, **{k.replace("-", "_") + "_": v for k, v in fields.items()})


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
    points = arc_points(centre, radius, start, end)
    fields: dict[str, object] = {
        "d": "M" + " L".join(f"{px(x)},{px(y)}" for x, y in points),
        "fill": "none",
    }
    fields.update({_name(k): v for k, v in extra.items()})
    return f"<path {attrs(fields)}/>"


def prefix_for(key: object) -> str:
    """Return the id prefix of a picture: unique per ``key`` (any repr-able value)."""
    digest = hashlib.sha1(repr(key).encode()).hexdigest()[:10]  # noqa: S324 - an id, not security
    return f"bl-{digest}"


def document(
    prefix: str,
    width: float,
    height: float,
    title: str,
    desc: str,
    body: Iterable[str],
    *,
    marker_roles: Iterable[str] = (),
) -> str:
    """Return a whole SVG document whose ids start with ``prefix`` (see ``prefix_for``)."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {px(width)} {px(height)}" '
        f'width="{px(width)}" height="{px(height)}" role="img" '
        f'aria-labelledby="{prefix}-title {prefix}-desc" {FONT}>',
        f'<title id="{prefix}-title">{escape(title)}</title>',
        f'<desc id="{prefix}-desc">{escape(desc)}</desc>',
        "<defs>",
    ]
    for role in dict.fromkeys(marker_roles):
        parts.append(
            f'<marker id="{prefix}-{role}" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" '
            'orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{COLOURS[role]}"/></marker>'
        )
    parts.append("</defs>")
    parts.extend(body)
    parts.append("</svg>")
    return "".join(parts)
