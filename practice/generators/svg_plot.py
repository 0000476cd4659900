"""A small SVG writer for the pictures of the noise and two-layer kinds.

Every picture is one ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` named by
``aria-labelledby``; shapes carry ``data-role`` (and ``data-*`` facts such as the exact value
they stand for) so tests can read a drawing back. Text is escaped.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

# Presentation attributes, not a `style` attribute: the pages' Content-Security-Policy without
# 'unsafe-inline' blocks `style` attributes in inline SVG (CSP3 style-src-attr), not these.
FONT = 'font-family="system-ui, sans-serif" font-size="12"'
COLOURS = {
    "given": "#6b7280",
    "noise": "#7c3aed",
    "right": "#047857",
    "answer": "#c2410c",
    "unknown": "#9ca3af",
    "signal": "#2563eb",
}


def px(value: float) -> str:
    """Write a pixel coordinate with at most two decimals."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def attrs(**values: Any) -> str:
    """Return ``name="value"`` pairs, quoted and escaped; ``data_x`` becomes ``data-x``."""
    return " ".join(
        f"{name.replace('_', '-')}={quoteattr(str(value))}"
        for name, value in values.items()
        if value is not None
    )


def text(x: float, y: float, content: str, **extra: Any) -> str:
    """Return a ``<text>`` element."""
    return f"<text {attrs(x=px(x), y=px(y), **extra)}>{escape(content)}</text>"


def line(x1: float, y1: float, x2: float, y2: float, **extra: Any) -> str:
    """Return a ``<line>`` element."""
    return f"<line {attrs(x1=px(x1), y1=px(y1), x2=px(x2), y2=px(y2), **extra)}/>"


def rect(x: float, y: float, width: float, height: float, **extra: Any) -> str:
    """Return a ``<rect>`` element."""
    size = attrs(width=px(max(width, 0)), height=px(max(height, 0)))
    return f"<rect {attrs(x=px(x), y=px(y))} {size} {attrs(**extra)}/>"


def circle(x: float, y: float, r: float, **extra: Any) -> str:
    """Return a ``<circle>`` element."""
    return f"<circle {attrs(cx=px(x), cy=px(y), r=px(r), **extra)}/>"


def document(
    width: float, height: float, title: str, desc: str, body: Sequence[str], key: object
) -> str:
    """Return the whole SVG: root, title, description and the body's elements."""
    digest = hashlib.sha1(  # noqa: S324 - a short id for the markup, not security
        json.dumps(key, sort_keys=True, default=str).encode()
    ).hexdigest()[:10]
    prefix = f"bl-{digest}"
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {px(width)} {px(height)}" '
            f'width="{px(width)}" height="{px(height)}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc" {FONT}>',
            f'<title id="{prefix}-title">{escape(title)}</title>',
            f'<desc id="{prefix}-desc">{escape(desc)}</desc>',
            *body,
            "</svg>",
        ]
    )


def finite(value: Any) -> float | None:
    """Return a float for a number-like value when it is finite, else None."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    return number if math.isfinite(number) else None


def fmt(value: Any) -> str:
    """Write a value for a label: exact when it is a short rational, else three decimals."""
    from fractions import Fraction

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
        return self.left + (value - self.low) / (self.high - self.low) * (self.right - self.left)
