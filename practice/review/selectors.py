"""Reads for spaced review: ownership-checked lookups, the due queue and counts, settings.

Nothing here writes: a learner without stored settings reads the unsaved defaults.
"""

import re
import zoneinfo
from collections import defaultdict, deque
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from courses.models import CourseCopy
from practice.models import Attempt, ProblemInstance

from .models import ReviewItem, ReviewLog, ReviewSettings


def access_review_item(
    *, user: AbstractBaseUser | AnonymousUser, copy_id: int, item_id: int
) -> ReviewItem:
    """Return the review item if the user owns its copy; raise Http404 otherwise."""
    if not user.is_authenticated:
        raise Http404("No such review")
    item = (
        ReviewItem.objects.select_related(
            "copy", "copy__course", "copy__owner", "source_problem", "source_attempt", "problem"
        )
        .filter(pk=item_id, copy_id=copy_id, copy__owner=user)
        .first()
    )
    if item is None:
        raise Http404("No such review")
    return item


def review_item_for_attempt(*, attempt: Attempt) -> ReviewItem | None:
    """Return the item an attempt at a review variant was about, or None."""
    log = (
        ReviewLog.objects.select_related("item")
        .filter(attempt=attempt, origin=ReviewLog.Origin.REVIEW)
        .first()
    )
    if log is not None:
        return log.item
    return review_item_for_problem(problem=attempt.problem)


def review_item_for_problem(*, problem: ProblemInstance) -> ReviewItem | None:
    """Return the item whose current or previous variant is this problem, or None."""
    return (
        ReviewItem.objects.select_related("copy", "source_problem", "source_attempt")
        .filter(copy_id=problem.copy_id)
        .filter(Q(problem=problem) | Q(previous_problem=problem))
        .first()
    )


# --- settings -------------------------------------------------------------------------------

# Tokens are made by ``models.new_unsubscribe_token`` (URL-safe base64); anything else, such as
# a NUL byte that PostgreSQL refuses in text, is no token and never reaches the database. The
# URL converter of the unsubscribe link matches the same pattern.
UNSUBSCRIBE_TOKEN_PATTERN = "[A-Za-z0-9_-]{16,64}"  # noqa: S105 (a pattern, not a secret)
_TOKEN = re.compile(UNSUBSCRIBE_TOKEN_PATTERN)


def is_unsubscribe_token(token: str) -> bool:
    """Return whether the text has the shape of an unsubscribe token."""
    return bool(_TOKEN.fullmatch(token or ""))


def review_settings_of(*, user_id: int) -> ReviewSettings:
    """Return the learner's review settings, or the unsaved defaults if none are stored yet."""
    found = ReviewSettings.objects.filter(user_id=user_id).first()
    return found if found is not None else ReviewSettings(user_id=user_id)


def review_settings_by_token(*, token: str) -> ReviewSettings | None:
    """Return the settings whose unsubscribe link carries this token, or None."""
    if not is_unsubscribe_token(token):
        return None
    return ReviewSettings.objects.select_related("user").filter(unsubscribe_token=token).first()


# --- the queue ------------------------------------------------------------------------------


def _local_midnight(*, now: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    local = now.astimezone(zone)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def _interleave(items: list[ReviewItem]) -> list[ReviewItem]:
    """Return the items round-robin across kinds, each kind in due order, oldest kind first."""
    by_kind: dict[str, deque[ReviewItem]] = defaultdict(deque)
    for item in items:  # already in due order
        by_kind[item.kind].append(item)
    queues = list(by_kind.values())
    out: list[ReviewItem] = []
    while queues:
        for queue in queues:
            out.append(queue.popleft())
        queues = [q for q in queues if q]
    return out


def review_done_today(
    *, copy: CourseCopy, now: datetime | None = None, row: ReviewSettings | None = None
) -> int:
    """Return how many reviews the learner rated today, in their own time zone.

    ``row`` is the learner's settings when the caller already has them.
    """
    now = now or timezone.now()
    zone = (row or review_settings_of(user_id=copy.owner_id)).zone
    return ReviewLog.objects.filter(
        item__copy=copy,
        origin=ReviewLog.Origin.REVIEW,
        reviewed_at__gte=_local_midnight(now=now, zone=zone),
    ).count()


def review_next(*, copy: CourseCopy, now: datetime | None = None) -> list[ReviewItem]:
    """Return the review queue: due items, interleaved across kinds, within today's limit.

    The limit counts reviews already rated today in the learner's time zone.
    """
    now = now or timezone.now()
    row = review_settings_of(user_id=copy.owner_id)
    remaining = max(0, row.daily_limit - review_done_today(copy=copy, now=now, row=row))
    if remaining == 0:
        return []
    # A copy has at most one item per catalogued mistake, so the due list is short.
    due = list(
        ReviewItem.objects.filter(copy=copy, due__lte=now)
        .select_related("source_problem", "source_attempt")
        .order_by("due", "pk")
    )
    return _interleave(due)[:remaining]


def review_due_count(*, copy: CourseCopy, now: datetime | None = None) -> int:
    """Return how many of the copy's items are due now."""
    return ReviewItem.objects.filter(copy=copy, due__lte=now or timezone.now()).count()


def review_upcoming(
    *, copy: CourseCopy, now: datetime | None = None, limit: int = 5
) -> list[ReviewItem]:
    """Return the copy's next items to come due after ``now``, soonest first."""
    now = now or timezone.now()
    return list(ReviewItem.objects.filter(copy=copy, due__gt=now).order_by("due", "pk")[:limit])
