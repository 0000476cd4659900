"""Template helpers for today's practice: ``{% load today_tags %}``.

``{% dashboard_today copy as today %}`` is the dashboard's first section;
``{% next_step copy as step %}`` is the step Continue opens; ``{% level_pips level kinds %}``
draws an idea's level; ``{% review_history item as history %}`` is a review item's answers with
their timeline picture.
"""

from dataclasses import dataclass

from django import template
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe

from courses.models import CourseCopy
from practice.review.models import ReviewItem
from practice.review.selectors import review_settings_of
from practice.today import pictures, progress, selectors
from practice.today.presenters import Dashboard, dashboard_today

register = template.Library()


@register.simple_tag(name="dashboard_today")
def dashboard_today_tag(copy: CourseCopy) -> Dashboard:
    """Return what the dashboard shows first (Continue, the day, the pictures) for the copy:
    drawn by practice, so the course's views need not know of it."""
    return dashboard_today(copy=copy)


@register.simple_tag
def next_step(copy: CourseCopy | None) -> selectors.NextStep | None:
    """Return the step Continue opens for the copy (None without a copy)."""
    if copy is None or not getattr(copy, "pk", None):
        return None
    return selectors.next_step(copy=copy)


@register.simple_tag
def level_pips(level: int, kinds: list[str]) -> SafeString:
    """Draw the idea's level out of the highest its kinds offer."""
    top = selectors.idea_top_level(list(kinds or []))
    return mark_safe(pictures.level_picture(min(level, top), top))  # noqa: S308 (numbers only)


@register.simple_tag
def idea_top_level(kinds: list[str]) -> int:
    """Return the highest level the idea's kinds offer."""
    return selectors.idea_top_level(list(kinds or []))


@dataclass(frozen=True)
class History:
    rows: list[tuple[str, progress.HistoryEntry, str]]
    svg: SafeString


@register.simple_tag
def review_history(item: ReviewItem) -> History:
    """Return the item's answers (local date, entry, interval in words) and their timeline."""
    zone = review_settings_of(user_id=item.copy.owner_id).zone
    entries = progress.review_item_history(item=item)
    short = [date_format(e.reviewed_at.astimezone(zone), "j M") for e in entries]
    long = [date_format(e.reviewed_at.astimezone(zone), "j M Y, H:i") for e in entries]
    svg = pictures.history_picture(entries, zone_dates=short) if entries else ""
    return History(
        rows=[(long[k], e, pictures.interval_words(e.interval)) for k, e in enumerate(entries)],
        svg=mark_safe(svg),  # noqa: S308 (the SVG toolkit escapes every text)
    )
