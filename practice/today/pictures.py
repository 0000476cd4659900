"""The progress pictures as SVG, drawn from plain numbers: the review forecast, answers and
named mistakes by week, an idea's level, and a review item's history.

Same rules as the problems' pictures (``practice.generators.draw.svg``, the one toolkit):
presentation attributes only (no ``style`` attribute, no ``<style>``, no script), every text
escaped, a ``<title>`` and ``<desc>`` for screen readers. Each picture is at most ``WIDTH``
pixels wide with text of ``FONT_SIZE`` pixels, so on a 390 px phone it needs no scaling; the
page beside it lists the same numbers in a table.
"""

import math
from collections.abc import Sequence
from datetime import timedelta

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from practice.generators.draw.svg import document, line, rect, text

from .progress import ForecastDay, HistoryEntry, WeekOfAnswers

WIDTH = 320
FONT_SIZE = 13
INK = "#1d2433"
MUTED = "#5b6473"
GRID = "#d9d5cc"
BAR = "#2f5bd3"
ANSWERS = "#6f87c9"  # 3.5:1 on white, as graphics need (WCAG 1.4.11)
MISTAKES = "#b3261e"
GOOD = "#2e8b57"
LEVEL_ON = "#2f5bd3"
LEVEL_OFF = "#e3e0d8"

_TEXT = {"font_size": FONT_SIZE, "fill": INK}
_SMALL = {"font_size": FONT_SIZE, "fill": MUTED}


def _bars(
    *,
    key: object,
    title: str,
    desc: str,
    totals: Sequence[int],
    parts: Sequence[int] | None,
    labels: Sequence[str],
    footnote: str = "",
    empty: str = "",
) -> str:
    """Return a bar chart: one bar per total (and, when ``parts`` is given, the part of it drawn
    darker), the total above each bar that is not zero, the given labels below, and a
    ``footnote`` under the first label; ``empty`` says why there are no bars when all are 0."""
    left, right, top, plot_height = 8, WIDTH - 8, 22, 110
    base = top + plot_height
    height = base + FONT_SIZE + 10 + (FONT_SIZE + 4 if footnote else 0)
    slot = (right - left) / max(len(totals), 1)
    scale = plot_height / max(max(totals, default=0), 1)
    body = [line(left, base, right, base, stroke=GRID, stroke_width=1)]
    for k, total in enumerate(totals):
        x = left + k * slot
        body += _bar(x, slot, base, scale, total, part=None if parts is None else parts[k])
        if labels[k]:
            body.append(_bar_label(x + slot / 2, base, right, labels[k]))
    if not any(totals) and empty:
        body.append(text(WIDTH / 2, top + plot_height / 2, empty, text_anchor="middle", **_SMALL))
    if footnote:
        body.append(text(left, base + 2 * FONT_SIZE + 8, footnote, **_SMALL))
    return document(WIDTH, height, title, desc, body, key=key, font_size=FONT_SIZE)


def _bar(
    x: float, slot: float, base: float, scale: float, total: int, *, part: int | None
) -> list[str]:
    """Return one slot's bar with its total above it (nothing for a zero total) and, when
    ``part`` is given (a chart with parts), the part drawn darker inside it."""
    bar_width = slot * 0.7
    bar_x = x + (slot - bar_width) / 2
    centre = x + slot / 2
    drawn = []
    if total:
        drawn.append(
            rect(
                bar_x,
                base - total * scale,
                bar_width,
                total * scale,
                fill=ANSWERS if part is not None else BAR,
                data_value=total,
            )
        )
        drawn.append(
            text(centre, base - total * scale - 5, str(total), text_anchor="middle", **_TEXT)
        )
    if part:
        drawn.append(
            rect(bar_x, base - part * scale, bar_width, part * scale, fill=MISTAKES, data_part=part)
        )
    return drawn


def _bar_label(centre: float, base: float, right: float, label: str) -> str:
    """Return the label under a bar; near the right edge it ends there instead of running out
    of the picture."""
    near_edge = centre + 3 * len(label) + 2 > right
    return text(
        right if near_edge else centre,
        base + FONT_SIZE + 4,
        label,
        text_anchor="end" if near_edge else "middle",
        **_SMALL,
    )


def forecast_picture(days: Sequence[ForecastDay]) -> str:
    """Draw the reviews due on each of the next days as bars, labelled with the day of month
    (and "today" under the first)."""
    total = sum(day.due for day in days)
    desc = ngettext(
        "%(n)d review falls due in the next %(days)d days; the busiest day has %(max)d.",
        "%(n)d reviews fall due in the next %(days)d days; the busiest day has %(max)d.",
        total,
    ) % {"n": total, "days": len(days), "max": max((d.due for d in days), default=0)}
    labels = [str(day.day.day) for day in days]
    return _bars(
        key=("forecast", [(d.day.isoformat(), d.due) for d in days]),
        title=_("Reviews due each day"),
        desc=desc,
        totals=[day.due for day in days],
        parts=None,
        labels=labels,
        footnote=_("↑ today"),
        empty=_("Nothing due in the next two weeks"),
    )


def weeks_picture(weeks: Sequence[WeekOfAnswers]) -> str:
    """Draw each week's graded answers as a light bar with the answers a named mistake explains
    drawn darker inside it; every third week is labelled with its Monday."""
    answers = sum(week.answers for week in weeks)
    mistaken = sum(week.mistaken for week in weeks)
    desc = _(
        "%(answers)d answers in %(weeks)d weeks, %(mistaken)d of them with a named mistake."
    ) % {"answers": answers, "weeks": len(weeks), "mistaken": mistaken}
    count = len(weeks)
    labels = [
        date_format(week.start, "j M") if (count - 1 - k) % 4 == 0 else ""
        for k, week in enumerate(weeks)
    ]
    return _bars(
        key=("weeks", [(w.start.isoformat(), w.answers, w.mistaken) for w in weeks]),
        title=_("Answers and named mistakes each week"),
        desc=desc,
        totals=[week.answers for week in weeks],
        parts=[week.mistaken for week in weeks],
        labels=labels,
        empty=_("No answers in these weeks yet"),
    )


def level_picture(level: int, top: int) -> str:
    """Draw an idea's level as ``top`` small boxes, the first ``level`` filled (no text: the
    words beside it say the level)."""
    size, gap = 10, 4
    body = [
        rect(
            k * (size + gap),
            1,
            size,
            size,
            rx=2,
            fill=LEVEL_ON if k < level else LEVEL_OFF,
            data_filled="1" if k < level else "0",
        )
        for k in range(top)
    ]
    width = top * (size + gap) - gap
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {size + 2}" '
        f'width="{width}" height="{size + 2}" aria-hidden="true" focusable="false" '
        f'class="level-pips">{"".join(body)}</svg>'
    )


def interval_words(interval: timedelta) -> str:
    """Return an interval in words: minutes under an hour, hours under a day, else days."""
    seconds = max(interval.total_seconds(), 0)
    if seconds < 3600:
        n = round(seconds / 60)
        return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}
    if seconds < 86400:
        n = round(seconds / 3600)
        return ngettext("%(n)d hour", "%(n)d hours", n) % {"n": n}
    n = round(seconds / 86400)
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def history_picture(entries: Sequence[HistoryEntry], *, zone_dates: Sequence[str]) -> str:
    """Draw a review item's history, one row per answer (oldest at the top): its date, a dot
    (red for Again, green otherwise) and a bar as long as the interval it earned, on a scale
    that grows with the logarithm of the interval so an hour and a month both show."""
    row, top = 24, 8
    date_width, bar_left, bar_right = 64, 80, WIDTH - 78
    height = top + row * max(len(entries), 1)
    longest = max((e.interval.total_seconds() for e in entries), default=3600)
    scale_top = math.log10(max(longest, 3600) / 60 + 1)
    body = []
    for k, entry in enumerate(entries):
        y = top + row * k + row / 2
        colour = MISTAKES if entry.again else GOOD
        minutes = max(entry.interval.total_seconds(), 0) / 60
        length = (bar_right - bar_left) * math.log10(minutes + 1) / scale_top
        body.append(text(0, y + 4, zone_dates[k], **_SMALL))
        body.append(
            f'<circle cx="{date_width + 6}" cy="{y:.1f}" r="5" fill="{colour}" '
            f'data-rating="{"again" if entry.again else "right"}"/>'
        )
        body.append(rect(bar_left, y - 4, max(length, 2), 8, fill=colour, opacity="0.85"))
        body.append(
            text(bar_left + max(length, 2) + 6, y + 4, interval_words(entry.interval), **_TEXT)
        )
    desc = ngettext(
        "%(n)d answer; the last earned %(interval)s.",
        "%(n)d answers; the last earned %(interval)s.",
        len(entries),
    ) % {
        "n": len(entries),
        "interval": interval_words(entries[-1].interval) if entries else "",
    }
    key = ("history", [(e.reviewed_at.isoformat(), e.interval.total_seconds()) for e in entries])
    return document(
        WIDTH, height, _("This review's history"), desc, body, key=key, font_size=FONT_SIZE
    )
