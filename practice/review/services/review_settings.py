"""A learner's review settings: created on first use, changed by the learner, and the
no-sign-in unsubscribe link."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from ..models import MAX_DAILY_LIMIT, MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION, ReviewSettings
from ..selectors import is_unsubscribe_token, review_settings_stored
from ..zones import time_zone_names


def review_settings_get_or_create(*, user_id: int) -> ReviewSettings:
    """Return the learner's review settings, creating the defaults on first use (one plain
    read, ``selectors.review_settings_stored``: every explained mistake reads the learner's
    desired retention)."""
    found = review_settings_stored(user_id=user_id)
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
    if time_zone not in time_zone_names():
        raise ValueError(f"unknown time_zone: {time_zone}")
    review_settings_get_or_create(user_id=user.pk)
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().get(user=user)
        row.desired_retention = desired_retention
        row.time_zone = time_zone
        row.time_zone_chosen = True
        row.daily_limit = daily_limit
        row.reminders = reminders
        row.save(
            update_fields=[
                "desired_retention",
                "time_zone",
                "time_zone_chosen",
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
    if not is_unsubscribe_token(token):
        return None
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().filter(unsubscribe_token=token).first()
        if row is None:
            return None
        if row.reminders:
            row.reminders = False
            row.save(update_fields=["reminders", "updated_at"])
    return row
