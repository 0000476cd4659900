"""The pure FSRS wrapper: ratings, card columns round trip, UTC, desired retention."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.review.scheduling import (
    LEARNING_STEPS,
    CardState,
    Rating,
    State,
    card_new,
    card_review,
    rating_for,
    to_utc,
)

NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def test_correct_first_time_is_good():
    assert rating_for(correct=True, retried=False) is Rating.Good


def test_correct_after_a_retry_is_hard():
    assert rating_for(correct=True, retried=True) is Rating.Hard


def test_incorrect_is_again_whether_or_not_retried():
    assert rating_for(correct=False, retried=False) is Rating.Again
    assert rating_for(correct=False, retried=True) is Rating.Again


def test_new_card_is_learning_and_due_now():
    card = card_new(now=NOW)
    assert card.state is State.Learning
    assert card.due == NOW
    assert card.last_review is None


def test_a_mistake_comes_back_after_the_first_learning_step():
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW)
    assert card.state is State.Learning
    assert card.due == NOW + LEARNING_STEPS[0]
    assert card.last_review == NOW


def test_good_recall_graduates_to_review_days_later():
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW)
    card = card_review(card, Rating.Good, at=card.due)
    assert card.state is State.Review
    assert card.due - card.last_review >= timedelta(days=1)


def test_a_lapse_in_review_goes_to_relearning():
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW)
    card = card_review(card, Rating.Good, at=card.due)
    lapsed = card_review(card, Rating.Again, at=card.due)
    assert lapsed.state is State.Relearning
    assert lapsed.stability < card.stability


def test_lower_desired_retention_spaces_reviews_further():
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW)
    card = card_review(card, Rating.Good, at=card.due)
    strict = card_review(card, Rating.Good, at=card.due, desired_retention=0.95)
    loose = card_review(card, Rating.Good, at=card.due, desired_retention=0.8)
    assert loose.due > strict.due


def test_hard_is_sooner_than_good():
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW)
    card = card_review(card, Rating.Good, at=card.due)
    hard = card_review(card, Rating.Hard, at=card.due)
    good = card_review(card, Rating.Good, at=card.due)
    assert hard.due < good.due


def test_times_in_another_zone_come_back_in_utc():
    paris = timezone(timedelta(hours=1))
    card = card_review(card_new(now=NOW), Rating.Again, at=NOW.astimezone(paris))
    assert card.due.tzinfo is UTC
    assert card.last_review == NOW


def test_naive_datetime_is_refused():
    with pytest.raises(ValueError, match="naive"):
        to_utc(datetime(2026, 3, 1))


@pytest.mark.parametrize("retention", [0.0, 1.0, 1.5, -0.1])
def test_retention_outside_zero_one_is_refused(retention):
    with pytest.raises(ValueError, match="desired_retention"):
        card_review(card_new(now=NOW), Rating.Good, at=NOW, desired_retention=retention)


@settings(max_examples=40, deadline=500)
@given(st.lists(st.sampled_from([Rating.Again, Rating.Hard, Rating.Good]), min_size=1, max_size=8))
def test_any_rating_sequence_keeps_due_after_review_and_columns_valid(ratings):
    card: CardState = card_new(now=NOW)
    at = NOW
    for rating in ratings:
        card = card_review(card, rating, at=at)
        assert card.due > card.last_review == at
        assert 1 <= card.difficulty <= 10
        assert card.stability > 0
        assert (card.step is None) == (card.state is State.Review)
        at = card.due
