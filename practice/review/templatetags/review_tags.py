"""Template helpers for review: ``{% load review_tags %}``.

``{% review_due_count copy as n %}`` counts the copy's due items; ``{{ due|comes_back_in }}``
says when an item returns in words ("in 3 days").
"""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import ngettext

from courses.models import CourseCopy

from .. import selectors

register = template.Library()


@register.simple_tag
def review_due_count(copy: CourseCopy | None) -> int:
    """Return how many of the copy's review items are due now (0 without a copy)."""
    if copy is None or not getattr(copy, "pk", None):
        return 0
    return selectors.review_due_count(copy=copy)


@register.filter
def comes_back_in(due: datetime | None, now: datetime | None = None) -> str:
    """Return "in N minutes/hours/days" from now until ``due`` ("now" when it is due)."""
    if due is None:
        return ""
    seconds = (due - (now or timezone.now())).total_seconds()
    if seconds < 60:
        return ngettext("now", "now", 1)
    minutes = round(seconds / 60)
    if minutes < 60:
        return ngettext("in %(n)d minute", "in %(n)d minutes", minutes) % {"n": minutes}
    hours = round(seconds / 3600)
    if hours < 24:
        return ngettext("in %(n)d hour", "in %(n)d hours", hours) % {"n": hours}
    days = round(seconds / 86400)
    return ngettext("in %(n)d day", "in %(n)d days", days) % {"n": days}
