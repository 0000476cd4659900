"""Rating a review item's FSRS card: the card's columns are updated and a log appended."""

from django.utils import timezone

from practice.models import Attempt

from .. import scheduling
from ..models import ReviewItem, ReviewLog
from .parameters import review_parameters_current

# The columns a rating changes on the item (saved by the caller with its other changes).
CARD_FIELDS = [*scheduling.CARD_COLUMNS, "reps", "lapses"]


def card_rate(
    *,
    item: ReviewItem,
    attempt: Attempt,
    rating: scheduling.Rating,
    origin: ReviewLog.Origin,
    retention: float,
) -> ReviewLog:
    """Review the item's card with the rating, set its columns and append the log.

    The caller holds the item's row lock and saves ``CARD_FIELDS`` (with whatever else it
    changes) in the same transaction.
    """
    at = scheduling.to_utc(attempt.created_at or timezone.now())
    before = scheduling.State(item.state)
    fitted = review_parameters_current(user_id=attempt.copy.owner_id)
    card = scheduling.card_review(
        scheduling.card_of(item),
        rating,
        at=at,
        desired_retention=retention,
        parameters=fitted.parameters if fitted is not None else None,
    )
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
        rating=int(rating),
        origin=origin,
        reviewed_at=at,
        state=columns["state"],
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        parameters=fitted,
    )
