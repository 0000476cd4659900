"""Write paths for spaced review: one service per action, each owning its transaction.

An explained mistake becomes a review item with an FSRS card; every rated attempt appends a
review log (idempotent on the attempt). The beat scan claims due items and hands their ids to
small tasks that prepare a fresh variant aimed at the mistake; the daily digest claims one email
per learner and local day in the same transaction that sends it.
"""

import functools
import logging
import secrets
import zoneinfo
from collections import defaultdict, deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from courses.models import CourseCopy
from grading.kinds import MistakeCode, ProblemKind, Status
from practice.models import Attempt, ProblemInstance

from . import scheduling
from .models import (
    MAX_DAILY_LIMIT,
    MAX_DESIRED_RETENTION,
    MIN_DESIRED_RETENTION,
    ReviewDigest,
    ReviewItem,
    ReviewLog,
    ReviewSettings,
)

logger = logging.getLogger(__name__)

# A claim older than this whose variant was never prepared is claimed again: the worker that
# took it died. Longer than the beat interval, so a slow worker is not raced needlessly.
PUBLISH_LEASE = timedelta(minutes=10)
PUBLISH_BATCH_SIZE = 200
# Draws tried before giving up on "different numbers from the last variant".
VARIANT_TRIES = 8
EXPORT_FORMAT = "basislab-review/1"
_SPEC_METADATA = frozenset({"generator", "level"})


# --- settings -------------------------------------------------------------------------------


@functools.cache
def _time_zones() -> frozenset[str]:
    # Reading the zone database takes a while; it does not change while the process runs.
    return frozenset(zoneinfo.available_timezones())


def review_settings_for(*, user: AbstractBaseUser) -> ReviewSettings:
    """Return the learner's review settings, creating the defaults on first use."""
    return _settings_for(user_id=user.pk)


def _settings_for(*, user_id: int) -> ReviewSettings:
    found = ReviewSettings.objects.filter(user_id=user_id).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return ReviewSettings.objects.create(user_id=user_id)
    except IntegrityError:
        # Two first uses at once: the other one created the row.
        return ReviewSettings.objects.get(user_id=user_id)


def review_settings_update(
    *,
    user: AbstractBaseUser,
    desired_retention: float,
    time_zone: str,
    daily_limit: int,
    reminders: bool,
) -> ReviewSettings:
    """Store the learner's review settings; raise ValueError naming a value out of range.

    A new desired retention applies from the next review of each item (FSRS intervals are
    computed at review time), so no card is rewritten.
    """
    if not MIN_DESIRED_RETENTION <= desired_retention <= MAX_DESIRED_RETENTION:
        raise ValueError(f"desired_retention out of range: {desired_retention}")
    if not 1 <= daily_limit <= MAX_DAILY_LIMIT:
        raise ValueError(f"daily_limit out of range: {daily_limit}")
    if time_zone not in _time_zones():
        raise ValueError(f"unknown time_zone: {time_zone}")
    review_settings_for(user=user)
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().get(user=user)
        row.desired_retention = desired_retention
        row.time_zone = time_zone
        row.daily_limit = daily_limit
        row.reminders = reminders
        row.save(
            update_fields=[
                "desired_retention",
                "time_zone",
                "daily_limit",
                "reminders",
                "updated_at",
            ]
        )
    return row


def review_unsubscribe(*, token: str) -> ReviewSettings | None:
    """Turn reminder emails off for the learner whose link carries this token.

    Returns the settings, or None when no learner has this token. Idempotent.
    """
    if not token:
        return None
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().filter(unsubscribe_token=token).first()
        if row is None:
            return None
        if row.reminders:
            row.reminders = False
            row.save(update_fields=["reminders", "updated_at"])
    return row


def _zone(row: ReviewSettings) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(row.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _local_midnight(*, now: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    local = now.astimezone(zone)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


# --- the card -------------------------------------------------------------------------------


def _card_of(item: ReviewItem) -> scheduling.CardState:
    return scheduling.CardState(
        state=scheduling.State(item.state),
        step=item.step,
        stability=item.stability,
        difficulty=item.difficulty,
        due=item.due,
        last_review=item.last_review,
    )


def _rate(
    *,
    item: ReviewItem,
    attempt: Attempt,
    rating: scheduling.Rating,
    origin: ReviewLog.Origin,
    retention: float,
) -> ReviewLog:
    """Review the item's card with the rating, save its columns and append the log."""
    at = scheduling.to_utc(attempt.created_at or timezone.now())
    before = scheduling.State(item.state)
    card = scheduling.card_review(_card_of(item), rating, at=at, desired_retention=retention)
    item.state = int(card.state)
    item.step = card.step
    item.stability = card.stability
    item.difficulty = card.difficulty
    item.due = card.due
    item.last_review = card.last_review
    item.reps += 1
    if rating == scheduling.Rating.Again and before == scheduling.State.Review:
        item.lapses += 1
    return ReviewLog.objects.create(
        item=item,
        attempt=attempt,
        rating=int(rating),
        origin=origin,
        reviewed_at=at,
        state=int(card.state),
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
    )


_CARD_FIELDS = ["state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses"]


def _review_on_variant(
    *, item: ReviewItem, attempt: Attempt, retention: Callable[[], float]
) -> ReviewLog | None:
    """Rate the item from an attempt at one of its review variants (caller holds the lock).

    Per variant at most one Again (the first wrong answer) and one Good or Hard (the first
    right one: Hard when a wrong answer to the same variant came before). ``retention`` gives
    the learner's desired retention, read only when a card is rated.
    """
    problem = attempt.problem
    ratings = set(
        ReviewLog.objects.filter(item=item, attempt__problem=problem).values_list(
            "rating", flat=True
        )
    )
    if attempt.status == Status.CORRECT:
        if ratings & {ReviewLog.Rating.HARD, ReviewLog.Rating.GOOD, ReviewLog.Rating.EASY}:
            return None
        retried = (
            Attempt.objects.filter(problem=problem, status=Status.INCORRECT)
            .exclude(pk=attempt.pk)
            .exists()
        )
        rating = scheduling.rating_for(correct=True, retried=retried)
    else:
        if ReviewLog.Rating.AGAIN in ratings:
            return None
        rating = scheduling.Rating.Again
    log = _rate(
        item=item,
        attempt=attempt,
        rating=rating,
        origin=ReviewLog.Origin.REVIEW,
        retention=retention(),
    )
    # This variant has been used: the next due date gets a fresh one, prepared anew.
    if item.problem_id == problem.pk:
        item.previous_problem = problem
        item.problem = None
    item.published_at = None
    item.save(update_fields=[*_CARD_FIELDS, "problem", "previous_problem", "published_at"])
    return log


def _item_for_mistake(
    *, copy_id: int, kind: str, mistake: str, attempt: Attempt, now: datetime
) -> tuple[ReviewItem, bool]:
    """Return the locked item for (copy, kind, mistake) and whether the attempt's problem has
    already rated it, creating a new card (not yet rated) if there is none.

    The check rides on the locking select. Under PostgreSQL a select that waited for a row
    lock reads its subqueries as of before the wait, but every log for this problem is
    written by a transaction holding the problem's row lock, which the caller holds now, so
    all of them committed before this select began.
    """
    locked = (
        ReviewItem.objects.select_for_update()
        .filter(copy_id=copy_id, kind=kind, mistake=mistake)
        .annotate(
            rated_by_problem=Exists(
                ReviewLog.objects.filter(
                    item=OuterRef("pk"), attempt__problem_id=attempt.problem_id
                )
            )
        )
    )
    item = locked.first()
    if item is not None:
        return item, item.rated_by_problem
    card = scheduling.card_new(now=now)
    try:
        with transaction.atomic():
            item = ReviewItem.objects.create(
                copy_id=copy_id,
                kind=kind,
                mistake=mistake,
                state=int(card.state),
                step=card.step,
                due=card.due,
                source_problem=attempt.problem,
                source_attempt=attempt,
            )
    except IntegrityError:
        # A concurrent answer created it first (the unique constraint lets one row in).
        item = locked.get()
        return item, item.rated_by_problem
    return item, False


def review_record_attempt(*, attempt: Attempt) -> list[ReviewLog]:
    """Schedule review from one graded attempt; call inside the attempt's transaction, holding
    its problem's row lock (as ``attempt_submit`` does).

    - An attempt at a review variant rates that item's card (Good, Hard or Again).
    - An incorrect attempt with a diagnosis creates the item for (copy, kind, mistake) or
      relapses it (Again), once per problem; the item's recall then shows this attempt.
    Invalid attempts change nothing. Recording the same attempt twice changes nothing.
    Returns the review logs appended.

    Only what the attempt can change is read: a right answer to a practice problem costs no
    statement, and the learner's settings are read only when a card is rated.
    """
    if attempt.status == Status.INVALID:
        return []
    problem = attempt.problem
    is_variant = problem.purpose == ProblemInstance.Purpose.REVIEW
    explained = attempt.status == Status.INCORRECT and bool(attempt.mistake)
    if not (is_variant or explained):
        return []
    # Recorded before? For a practice problem the mistake's item answers that below: its only
    # log could be there, and a card is rated at most once per problem.
    if is_variant and ReviewLog.objects.filter(attempt=attempt).exists():
        return []
    owner_id = attempt.copy.owner_id
    retention = functools.cache(lambda: _settings_for(user_id=owner_id).desired_retention)
    now = scheduling.to_utc(attempt.created_at or timezone.now())
    logs: list[ReviewLog] = []
    rated_item_id: int | None = None
    # No savepoint of its own: an error here rolls back the attempt's whole transaction.
    with transaction.atomic(savepoint=False):
        if is_variant:
            item = (
                ReviewItem.objects.select_for_update()
                .filter(copy_id=attempt.copy_id)
                .filter(Q(problem=problem) | Q(previous_problem=problem))
                .first()
            )
            if item is not None:
                rated_item_id = item.pk
                log = _review_on_variant(item=item, attempt=attempt, retention=retention)
                if log is not None:
                    logs.append(log)
        if explained:
            item, already_rated = _item_for_mistake(
                copy_id=attempt.copy_id,
                kind=problem.kind,
                mistake=attempt.mistake,
                attempt=attempt,
                now=now,
            )
            if item.pk != rated_item_id and not already_rated:
                logs.append(
                    _rate(
                        item=item,
                        attempt=attempt,
                        rating=scheduling.Rating.Again,
                        origin=ReviewLog.Origin.PRACTICE,
                        retention=retention(),
                    )
                )
                item.source_problem = problem
                item.source_attempt = attempt
                item.save(update_fields=[*_CARD_FIELDS, "source_problem", "source_attempt"])
    return logs


# --- the queue and the variant --------------------------------------------------------------


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
    zone = _zone(row or review_settings_for(user=copy.owner))
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
    row = review_settings_for(user=copy.owner)
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


def _numbers(spec: dict[str, Any]) -> dict[str, Any]:
    """Return the spec without the generator's bookkeeping: what the learner sees."""
    return {k: v for k, v in spec.items() if k not in _SPEC_METADATA}


def _draw(kind: ProblemKind, *, level: int, target: MistakeCode | None) -> tuple[int, dict]:
    from practice.generators import generate

    seed = secrets.randbits(63)
    try:
        return seed, generate(kind, seed=seed, level=level, target=target)
    except (ValueError, RuntimeError):
        if target is None:
            raise
        # The generator could not aim at this mistake at this level: an untargeted variant of
        # the same kind still exercises the idea, which beats no review at all.
        logger.warning("no %s variant targeted at %s; drawing untargeted", kind, target)
        return seed, generate(kind, seed=seed, level=level, target=None)


def _variant_create(item: ReviewItem) -> ProblemInstance:
    """Create a fresh review variant aimed at the item's mistake, unlike the last one shown."""
    from practice.services import problem_store

    kind = ProblemKind(item.kind)
    shown = [p for p in (item.previous_problem, item.source_problem) if p is not None]
    avoid = [_numbers(p.spec) for p in shown]
    origin = item.source_problem or item.previous_problem
    level = origin.level if origin is not None else 1
    target = MistakeCode(item.mistake)
    for _try in range(VARIANT_TRIES):
        seed, spec = _draw(kind, level=level, target=target)
        if _numbers(spec) not in avoid:
            break
    else:
        raise RuntimeError(f"no fresh {kind} variant in {VARIANT_TRIES} draws")
    return problem_store(
        copy_id=item.copy_id,
        page_slug=origin.page_slug if origin is not None else "",
        idea_slug=origin.idea_slug if origin is not None else "",
        kind=kind,
        seed=seed,
        level=level,
        spec=spec,
        purpose=ProblemInstance.Purpose.REVIEW,
    )


def review_open(*, copy: CourseCopy, item: ReviewItem) -> ProblemInstance:
    """Return the item's review variant, creating a fresh one aimed at its mistake if needed.

    The variant stays the same until it is answered (reloading the page shows the same
    numbers); the next one is drawn anew and never repeats the previous variant's numbers.
    Raises ValueError for another copy's item.
    """
    if item.copy_id != copy.pk:
        raise ValueError("the review item belongs to another copy")
    with transaction.atomic():
        # Lock the item row only: the joined problems are read, not written.
        locked = (
            ReviewItem.objects.select_for_update(of=("self",))
            .select_related("problem", "previous_problem", "source_problem")
            .get(pk=item.pk)
        )
        if locked.problem is None:
            locked.problem = _variant_create(locked)
            locked.save(update_fields=["problem"])
    item.problem = locked.problem
    item.previous_problem = locked.previous_problem
    return locked.problem


def review_prepare(*, item_id: int, now: datetime | None = None) -> ProblemInstance | None:
    """Prepare the variant of a claimed, due item (the worker's half of publishing).

    Returns None, doing nothing, when the item is gone, already has a variant or is not due
    (it was reviewed since the claim) — so a task delivered twice does the work once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        item = (
            ReviewItem.objects.select_for_update(of=("self",))
            .select_related("previous_problem", "source_problem")
            .filter(pk=item_id)
            .first()
        )
        if item is None or item.problem_id is not None or item.due > now:
            return None
        item.problem = _variant_create(item)
        item.save(update_fields=["problem"])
        return item.problem


def reviews_publish_due(
    *, now: datetime | None = None, batch_size: int = PUBLISH_BATCH_SIZE
) -> list[int]:
    """Claim one batch of due items with no variant and enqueue a prepare task for each.

    Rows locked by a concurrent scan are skipped, not waited for. A claim is a timestamp: an
    item claimed more than PUBLISH_LEASE ago whose variant is still missing (the worker died,
    the message was lost) is claimed again. Tasks are sent after commit, ids only.
    Returns the claimed item ids.
    """
    from . import tasks

    now = now or timezone.now()
    with transaction.atomic():
        ids = list(
            ReviewItem.objects.select_for_update(skip_locked=True)
            .filter(due__lte=now, problem__isnull=True)
            .filter(Q(published_at__isnull=True) | Q(published_at__lte=now - PUBLISH_LEASE))
            .order_by("due")
            .values_list("pk", flat=True)[:batch_size]
        )
        if ids:
            ReviewItem.objects.filter(pk__in=ids).update(published_at=now)
            for item_id in ids:
                tasks.prepare_review.delay_on_commit(item_id)
    return ids


# --- reminders ------------------------------------------------------------------------------


def review_due_count(*, copy: CourseCopy, now: datetime | None = None) -> int:
    """Return how many of the copy's items are due now."""
    return ReviewItem.objects.filter(copy=copy, due__lte=now or timezone.now()).count()


def reviews_digest_enqueue(*, now: datetime | None = None) -> list[int]:
    """Enqueue one digest task per learner with due reviews who has not opted out.

    Returns the user ids. The per-learner task decides, under a lock, whether today's email
    was already sent, so enqueuing twice is harmless.
    """
    from . import tasks

    now = now or timezone.now()
    user_model = get_user_model()
    with transaction.atomic():
        user_ids = list(
            user_model.objects.filter(course_copies__review_items__due__lte=now, is_active=True)
            .exclude(email="")
            .exclude(review_settings__reminders=False)
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        for user_id in user_ids:
            tasks.send_review_digest.delay_on_commit(user_id)
    return user_ids


def _site_url(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://127.0.0.1:8000").rstrip("/") + path


def review_digest_send(*, user_id: int, now: datetime | None = None) -> bool:
    """Send the learner today's reminder email, at most once per local day.

    The claim (a ReviewDigest row, unique per user and day) is written in the same transaction
    as the send: a second delivery of the task waits on the lock, then finds the claim; a send
    that raises rolls the claim back so a retry can send. Returns True when an email went out.
    """
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return False
    review_settings_for(user=user)
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().get(user=user)
        if not row.reminders:
            return False
        day = now.astimezone(_zone(row)).date()
        if ReviewDigest.objects.filter(user=user, day=day).exists():
            return False
        copies = [
            (copy, review_due_count(copy=copy, now=now))
            for copy in CourseCopy.objects.filter(owner=user).select_related("course")
        ]
        copies = [(copy, n) for copy, n in copies if n]
        total = sum(n for _copy, n in copies)
        if total == 0:
            return False
        ReviewDigest.objects.create(user=user, day=day, due_count=total, sent_at=now)
        context = {
            "user": user,
            "total": total,
            "copies": [
                {
                    "title": copy.course.title,
                    "count": n,
                    "url": _site_url(reverse("review:queue", args=[copy.pk])),
                }
                for copy, n in copies
            ],
            "unsubscribe_url": _site_url(
                reverse("review:unsubscribe", args=[row.unsubscribe_token])
            ),
        }
        subject = ngettext("%(count)d review is due", "%(count)d reviews are due", total) % {
            "count": total
        }
        send_mail(
            subject=subject,
            message=render_to_string("review/email/digest.txt", context),
            from_email=None,
            recipient_list=[user.email],
        )
    return True


# --- export ---------------------------------------------------------------------------------


def review_export(*, copy: CourseCopy) -> dict[str, Any]:
    """Return the copy's review items, cards and logs as plain JSON data."""
    items = ReviewItem.objects.filter(copy=copy).order_by("created_at", "pk")
    logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for log in ReviewLog.objects.filter(item__copy=copy).order_by("reviewed_at", "pk"):
        logs[log.item_id].append(
            {
                "attempt": log.attempt_id,
                "rating": log.get_rating_display(),
                "origin": log.origin,
                "reviewed_at": log.reviewed_at.isoformat(),
                "due": log.due.isoformat(),
            }
        )
    row = review_settings_for(user=copy.owner)
    return {
        "format": EXPORT_FORMAT,
        "settings": {
            "desired_retention": row.desired_retention,
            "time_zone": row.time_zone,
            "daily_limit": row.daily_limit,
            "reminders": row.reminders,
        },
        "items": [
            {
                "kind": item.kind,
                "mistake": item.mistake,
                "card": {
                    "state": item.get_state_display(),
                    "step": item.step,
                    "stability": item.stability,
                    "difficulty": item.difficulty,
                    "due": item.due.isoformat(),
                    "last_review": item.last_review.isoformat() if item.last_review else None,
                },
                "reps": item.reps,
                "lapses": item.lapses,
                "source_problem": item.source_problem_id,
                "source_attempt": item.source_attempt_id,
                "logs": logs[item.pk],
            }
            for item in items
        ],
        "note": _("Times are UTC."),
    }
