"""Rating a review item's FSRS card: the card's columns are updated and a log appended."""

import dataclasses
from datetime import datetime, timedelta

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from practice.models import Attempt, Reveal

from .. import scheduling
from ..evidence import MAX_SHARE
from ..models import ParameterSet, ReviewItem, ReviewLog, ReviewSettings
from ..recall_map import RecallMap
from ..selectors import review_parameters_current, review_recall_map_current

_UNREAD = object()


def _fitted(rater: Attempt | Reveal | ReviewItem) -> ParameterSet | None:
    """Return the fitted parameter set in use for the learner of what rates a card (an
    attempt, a reveal, or the item itself), read once per rater however many cards it rates
    (kept on the object)."""
    found = getattr(rater, "_review_parameters", _UNREAD)
    if found is _UNREAD:
        found = review_parameters_current(user_id=rater.copy.owner_id)
        rater._review_parameters = found
    return found if isinstance(found, ParameterSet) else None


def _calibration(rater: Attempt | Reveal | ReviewItem) -> RecallMap | None:
    """Return the calibration map in use (None: FSRS's own recall), read once per rater."""
    found = getattr(rater, "_review_recall_map", _UNREAD)
    if found is _UNREAD:
        found = review_recall_map_current()
        rater._review_recall_map = found
    return found if isinstance(found, RecallMap) else None


def scheduled_retention(rater: Attempt | Reveal | ReviewItem, desired: float) -> float:
    """Return the FSRS retention a card rated by ``rater`` is scheduled at so that its
    calibrated recall falls to ``desired`` at the due date (``desired`` without a map)."""
    calibration = _calibration(rater)
    return calibration.effective_retention(desired) if calibration is not None else desired


def card_predicted_recall(
    item: ReviewItem, *, at: datetime, rater: Attempt | Reveal | ReviewItem | None = None
) -> tuple[float | None, float | None]:
    """Return (calibrated, FSRS's own) predicted recall of the item's card at ``at``, with the
    fitted set and calibration map in use for its learner (None, None for a card never
    reviewed); the calibrated one is FSRS's own when no map is in use."""
    if item.stability is None:
        return None, None
    rater = rater if rater is not None else item
    fitted = _fitted(rater)
    raw = scheduling.card_retrievability(
        scheduling.card_of(item),
        at=at,
        parameters=fitted.parameters if fitted is not None else None,
        time_scale=fitted.time_scale if fitted is not None else 1.0,
    )
    calibration = _calibration(rater)
    return (calibration.apply(raw) if calibration is not None else raw), raw


# The origins of logs that are outcomes the learner showed on the item itself: what FSRS's
# memory state, the fitting and the calibration read. Credit (implicit, graph) is evidence.
EXPLICIT_ORIGINS = (
    ReviewLog.Origin.REVIEW,
    ReviewLog.Origin.PRACTICE,
    ReviewLog.Origin.REVEAL,
)

# The columns a rating changes on the item (saved by the caller with its other changes).
CARD_FIELDS = [*scheduling.CARD_COLUMNS, "reps", "lapses"]


def card_rate(
    *,
    item: ReviewItem,
    attempt: Attempt | None,
    rating: scheduling.Rating,
    origin: ReviewLog.Origin,
    review_settings: ReviewSettings,
    reveal: Reveal | None = None,
) -> ReviewLog:
    """Review the item's card with the rating, set its columns and append the log; the log is
    rated by the attempt, or by the reveal of a worked solution when ``attempt`` is None.

    The card is reviewed at the learner's desired retention (with a calibration map in use,
    at the FSRS retention where the calibrated recall is the learner's: ``scheduled_retention``),
    and the log keeps the calibrated prediction and FSRS's own; its due date is fuzzed and
    balanced across the learner's days (``spread_due``).

    The caller holds the item's row lock and saves ``CARD_FIELDS`` (with whatever else it
    changes) in the same transaction.
    """
    rated_by = attempt if attempt is not None else reveal
    at = scheduling.to_utc((rated_by.created_at if rated_by else None) or timezone.now())
    before = scheduling.State(item.state)
    previous_due = item.due
    rater = rated_by if rated_by is not None else item
    fitted = _fitted(rater)
    predicted, raw = card_predicted_recall(item, at=at, rater=rater)
    card = scheduling.card_review(
        scheduling.card_of(item),
        rating,
        at=at,
        desired_retention=scheduled_retention(rater, review_settings.desired_retention),
        parameters=fitted.parameters if fitted is not None else None,
        time_scale=fitted.time_scale if fitted is not None else 1.0,
    )
    card = spread_due(item=item, card=card, at=at, review_settings=review_settings)
    columns = scheduling.card_columns(card)
    for name, value in columns.items():
        setattr(item, name, value)
    item.reps += 1
    if rating == scheduling.Rating.Again and before == scheduling.State.Review:
        item.lapses += 1
    # The log keeps the card it left, except the step and last review (the item has them).
    return ReviewLog.objects.create(
        item=item,
        attempt=attempt,
        reveal=reveal if attempt is None else None,
        rating=int(rating),
        origin=origin,
        reviewed_at=at,
        state=columns["state"],
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        previous_due=previous_due,
        parameters=fitted,
        predicted_recall=predicted,
        fsrs_recall=raw,
    )


def spread_due(
    *, item: ReviewItem, card: scheduling.CardState, at: datetime, review_settings: ReviewSettings
) -> scheduling.CardState:
    """Return the card with its due date fuzzed and balanced, the one place a due date is.

    A card in the review state with an interval of ``FUZZ_MIN_DAYS`` days or more gets
    ``scheduling.spread_days``: a fuzz drawn from the item and its review count (the same on
    every run), then a day earlier or later when the day it lands on, in the learner's time
    zone, already holds the learner's daily limit of the copy's due items. Costs one
    statement (the copy's due items on the three days around the fuzzed one, counted by day),
    none for a shorter interval.
    """
    days = round((card.due - at).total_seconds() / 86400)
    if card.state != scheduling.State.Review or days < scheduling.FUZZ_MIN_DAYS:
        return card
    seed = f"{item.pk}:{item.reps}"
    fuzzed = scheduling.fuzzed_days(days, seed=seed)
    zone = review_settings.zone
    local_day = {
        (at + timedelta(days=d)).astimezone(zone).date(): d for d in range(fuzzed - 1, fuzzed + 2)
    }
    first, last = min(local_day), max(local_day)
    counts = (
        ReviewItem.objects.filter(
            copy_id=item.copy_id,
            due__gte=datetime(first.year, first.month, first.day, tzinfo=zone),
            due__lt=datetime(last.year, last.month, last.day, tzinfo=zone) + timedelta(days=1),
        )
        .exclude(pk=item.pk)
        .annotate(day=TruncDate("due", tzinfo=zone))
        .values("day")
        .annotate(n=Count("pk"))
        .values_list("day", "n")
    )
    load = {local_day[day]: n for day, n in counts if day in local_day}
    chosen = scheduling.spread_days(days, seed=seed, load=load, limit=review_settings.daily_limit)
    return dataclasses.replace(card, due=at + timedelta(days=chosen))


def credited_due(
    item: ReviewItem, *, good_due: datetime, at: datetime, fraction: float
) -> datetime:
    """Return where a fractional credit at ``at`` moves the item's due date: ``at + fraction x
    (the interval a Good review would give now)``, but never later than ``fraction x`` the
    interval of the card's last explicit rating (a review, a practice mistake, a worked
    solution shown; never a credit) past the due date that rating set (however many credits
    came since: they do not compound).

    The bound keeps credit from a related kind, which exercises the mistake only in part, from
    postponing a review further than one step of the card's own schedule: the learner simulator
    measured that unbounded pushes cost retention (docs/simulation.md).
    """
    wanted = at + (good_due - at) * fraction
    rated = (
        ReviewLog.objects.filter(item=item, origin__in=EXPLICIT_ORIGINS)
        .order_by("-reviewed_at", "-pk")
        .values_list("reviewed_at", "due")
        .first()
    )
    if rated is None:
        return wanted
    rated_at, scheduled = rated
    return min(wanted, scheduled + max(scheduled - rated_at, timedelta(0)) * fraction)


def card_credit(
    *,
    item: ReviewItem,
    attempt: Attempt,
    fraction: float,
    origin: ReviewLog.Origin,
    review_settings: ReviewSettings,
) -> ReviewLog:
    """Give the item's card credit from a right answer elsewhere; append the log.

    Credit is evidence, never a review: the fraction (0 < f <= ``evidence.MAX_SHARE``, the
    caller's evidence share or capped graph fraction) leaves the card's memory state alone and
    only pushes its due date (``credited_due``), never earlier than the due date it had. The
    caller holds the item's row lock and saves ``CARD_FIELDS``.
    """
    if not 0 < fraction <= MAX_SHARE:
        raise ValueError(
            f"a credit fraction lies in (0, {MAX_SHARE:g}]: {fraction}; credit is evidence,"
            " never a full review"
        )
    if item.stability is None or item.difficulty is None:
        raise ValueError("a card never reviewed has no interval to push; rate it instead")
    at = scheduling.to_utc(attempt.created_at or timezone.now())
    fitted = _fitted(attempt)
    good = scheduling.card_review(
        scheduling.card_of(item),
        scheduling.Rating.Good,
        at=at,
        desired_retention=scheduled_retention(attempt, review_settings.desired_retention),
        parameters=fitted.parameters if fitted is not None else None,
        time_scale=fitted.time_scale if fitted is not None else 1.0,
    )
    previous_due = item.due
    item.due = max(item.due, credited_due(item, good_due=good.due, at=at, fraction=fraction))
    return ReviewLog.objects.create(
        item=item,
        attempt=attempt,
        rating=int(scheduling.Rating.Good),
        origin=origin,
        reviewed_at=at,
        state=item.state,
        stability=item.stability,
        difficulty=item.difficulty,
        due=item.due,
        credit=fraction,
        previous_due=previous_due,
        parameters=fitted,
    )
