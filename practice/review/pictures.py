"""The workload picture of the review settings page: expected reviews a day against desired
retention, drawn with the one SVG toolkit (``practice.generators.draw.svg``) by the progress
pictures' rules (``practice.today.pictures``): presentation attributes only, every text
escaped, a ``<title>`` and ``<desc>``, at most ``WIDTH`` pixels wide with text of
``FONT_SIZE`` pixels, so on a 390 px phone it is drawn at its own size. The page beside it
lists the same numbers (``workload_rows``), written by the same function."""

import math
from collections.abc import Sequence

from django.utils.translation import gettext as _

from practice.generators.draw.svg import Axis, circle, document, line, polyline, text

from .workload import WorkloadPoint

WIDTH = 320
FONT_SIZE = 13
INK = "#1d2433"
MUTED = "#5b6473"
GRID = "#d9d5cc"
LINE = "#2f5bd3"
CURRENT = "#b3261e"

_TEXT = {"font_size": FONT_SIZE, "fill": INK}
_SMALL = {"font_size": FONT_SIZE, "fill": MUTED}


def reviews_text(value: float) -> str:
    """Write expected reviews a day as the picture and the table show them: two decimals
    under one a day (a few settled mistakes cost a fraction of a review a day), else one."""
    return f"{value:.2f}" if value < 1 else f"{value:.1f}"


def retention_text(value: float) -> str:
    """Write a desired retention as the picture and the table show it: two decimals."""
    return f"{value:.2f}"


def workload_rows(
    points: Sequence[WorkloadPoint], *, current: float
) -> list[tuple[str, str, bool]]:
    """Return the table's rows: retention, reviews a day (as drawn) and whether the row is the
    learner's own retention."""
    return [
        (
            retention_text(p.retention),
            reviews_text(p.reviews_per_day),
            math.isclose(p.retention, current, abs_tol=1e-9),
        )
        for p in points
    ]


def _top(largest: float) -> float:
    """Return the y axis's top: the largest value rounded up to 1, 2 or 5 times a power of 10."""
    if largest <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(largest))
    return next(k * power for k in (1, 2, 5, 10) if k * power >= largest)


def workload_picture(points: Sequence[WorkloadPoint], *, current: float) -> str:
    """Draw expected reviews a day (y) against desired retention (x) as a line through one dot
    per retention, with the learner's own retention marked by a dashed line."""
    left, right, top, bottom = 40, WIDTH - 10, 30, 190
    low, high = min(p.retention for p in points), max(p.retention for p in points)
    x = Axis(low, high, left, right)
    y_top = _top(max(p.reviews_per_day for p in points))
    y = Axis(0, y_top, bottom, top)
    body = [
        text(4, 16, _("reviews a day"), **_SMALL),
        line(left, bottom, right, bottom, stroke=GRID, stroke_width=1),
        line(left, top, left, bottom, stroke=GRID, stroke_width=1),
    ]
    for value in (0, y_top / 2, y_top):
        body.append(line(left - 4, y(value), right, y(value), stroke=GRID, stroke_width=1))
        label = f"{value:g}"
        body.append(text(left - 7, y(value) + 4, label, text_anchor="end", **_SMALL))
    for tick in (0.80, 0.85, 0.90, 0.95):
        if low - 1e-9 <= tick <= high + 1e-9:
            body.append(line(x(tick), bottom, x(tick), bottom + 4, stroke=MUTED, stroke_width=1))
            body.append(
                text(x(tick), bottom + 18, retention_text(tick), text_anchor="middle", **_SMALL)
            )
    body.append(text(right, bottom + 36, _("desired retention →"), text_anchor="end", **_SMALL))
    if low - 1e-9 <= current <= high + 1e-9:
        body.append(
            line(
                x(current),
                top,
                x(current),
                bottom,
                stroke=CURRENT,
                stroke_width=1.5,
                stroke_dasharray="4 3",
                data_role="current",
                data_retention=retention_text(current),
            )
        )
        anchor = "end" if x(current) > (left + right) / 2 else "start"
        shift = -4 if anchor == "end" else 4
        body.append(
            text(
                x(current) + shift,
                top - 6,
                _("yours"),
                text_anchor=anchor,
                fill=CURRENT,
                font_size=FONT_SIZE,
            )
        )
    pairs = [(x(p.retention), y(p.reviews_per_day)) for p in points]
    body.append(polyline(pairs, stroke=LINE, stroke_width=2))
    for point, (px_, py_) in zip(points, pairs, strict=True):
        body.append(
            circle(
                px_,
                py_,
                3,
                fill=LINE,
                data_role="point",
                data_retention=retention_text(point.retention),
                data_reviews=reviews_text(point.reviews_per_day),
            )
        )
    first, last = points[0], points[-1]
    desc = _(
        "Expected reviews a day over the next year: %(low)s at a desired retention of "
        "%(low_r)s, rising to %(high)s at %(high_r)s."
    ) % {
        "low": reviews_text(first.reviews_per_day),
        "low_r": retention_text(first.retention),
        "high": reviews_text(last.reviews_per_day),
        "high_r": retention_text(last.retention),
    }
    key = ("workload", [(p.retention, reviews_text(p.reviews_per_day)) for p in points], current)
    return document(
        WIDTH,
        bottom + 44,
        _("Expected reviews a day against desired retention"),
        desc,
        body,
        key=key,
        font_size=FONT_SIZE,
    )
