"""Template helpers for review: ``{% load review_tags %}``.

``{% review_due_count copy as n %}`` counts the copy's due items; ``{{ due|comes_back_in }}``
says when an item returns in words ("in 3 days"); ``{{ item|review_mistake }}`` says what the
item is about; ``{{ log|credit_source }}`` where a credit came from;
``{% attempt_review_credit attempt %}`` lists which reviews a practice answer counted for.
"""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from courses.labels import kind_label
from courses.models import CourseCopy
from practice import labels
from practice.models import Attempt

from .. import selectors
from ..codes import REVEALED, UNEXPLAINED
from ..models import ReviewItem, ReviewLog

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


@register.filter
def review_mistake(item: ReviewItem) -> str:
    """Return what a review item is about, as a phrase: "you <mistake>", or for a kind-level
    item "a mistake in <kind> that had no name" / "you asked for the worked solution of ..."."""
    kind = kind_label(item.kind)
    if item.mistake == UNEXPLAINED:
        return gettext("a mistake in %(kind)s that had no name") % {"kind": kind}
    if item.mistake == REVEALED:
        return gettext("you asked for the worked solution of %(kind)s") % {"kind": kind}
    return gettext("you %(mistake)s") % {"mistake": labels.mistake_label(item.mistake, item.kind)}


@register.filter
def credit_share(credit: float) -> str:
    """Return a credit fraction in words: "a full review", "half a review", "25% of a review"."""
    if credit >= 1:
        return gettext("a full review")
    if credit == 0.5:
        return gettext("half a review")
    return gettext("%(percent)d%% of a review") % {"percent": round(credit * 100)}


@register.filter
def credit_source(log: ReviewLog | None) -> str:
    """Return where a credit log came from: "your right answer to <kind> (<share>)"."""
    if log is None:
        return ""
    problem = log.attempt.problem
    where = (
        gettext("a review of %(kind)s")
        if problem.purpose == problem.Purpose.REVIEW
        else gettext("practice in %(kind)s")
    ) % {"kind": kind_label(problem.kind)}
    return gettext("your right answer in %(where)s counted as %(share)s") % {
        "where": where,
        "share": credit_share(log.credit),
    }


@register.inclusion_tag("review/_attempt_credit.html")
def attempt_review_credit(attempt: Attempt | None) -> dict:
    """Show which of the learner's reviews a right practice answer counted for."""
    if attempt is None or attempt.status != "correct":
        return {"credit": None}
    return {
        "credit": selectors.review_attempt_credit(attempt=attempt),
        "copy_id": attempt.copy_id,
    }
