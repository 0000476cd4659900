"""Fuzz and load balancing of due dates: py-fsrs's fuzz ranges drawn from the item, and a day
that already holds the learner's daily limit avoided when a neighbouring day is free."""

import zoneinfo
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from practice.review import scheduling
from practice.review.models import ReviewItem
from practice.review.scheduling import (
    FUZZ_MIN_DAYS,
    MAXIMUM_INTERVAL_DAYS,
    CardState,
    State,
    fuzz_range,
    fuzzed_days,
    spread_days,
)
from practice.review.services.cards import spread_due
from practice.review.services.review_settings import review_settings_get_or_create

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


# --- the pure part ---------------------------------------------------------------------------


def test_the_same_item_and_review_get_the_same_fuzz_every_time():
    for days in (3, 10, 45, 300):
        picks = {fuzzed_days(days, seed="17:4") for _ in range(20)}
        assert len(picks) == 1
        assert fuzzed_days(days, seed="17:4") == next(iter(picks))


def test_the_fuzz_spreads_many_items_over_the_whole_range():
    days = 30
    shortest, longest = fuzz_range(days)
    # py-fsrs's range for 30 days: 1 + 0.15 * 4.5 + 0.1 * 13 + 0.05 * 10 = 3.475 either side.
    assert (shortest, longest) == (27, 33)
    picks = Counter(fuzzed_days(days, seed=f"{item}:3") for item in range(2000))
    assert set(picks) == set(range(shortest, longest + 1))
    # Near uniform: no day of the seven gets more than twice its share.
    assert max(picks.values()) < 2 * 2000 / 7
    assert picks[days] < 2000 / 2  # most items leave the unfuzzed day


def test_intervals_under_three_days_are_never_fuzzed():
    for days in range(FUZZ_MIN_DAYS):
        assert fuzz_range(days) == (days, days)
        for item in range(200):
            assert fuzzed_days(days, seed=f"{item}:1") == days
            full = {days: 10_000}
            assert spread_days(days, seed=f"{item}:1", load=full, limit=1) == days


def test_a_three_day_interval_is_fuzzed_as_py_fsrs_fuzzes_it():
    assert fuzz_range(3) == (2, 4)
    assert {fuzzed_days(3, seed=f"{item}:1") for item in range(200)} == {2, 3, 4}


def test_the_fuzz_never_passes_the_maximum_interval():
    for days in (MAXIMUM_INTERVAL_DAYS - 5, MAXIMUM_INTERVAL_DAYS):
        assert fuzz_range(days)[1] == MAXIMUM_INTERVAL_DAYS
        picks = {fuzzed_days(days, seed=f"{item}:2") for item in range(500)}
        assert max(picks) == MAXIMUM_INTERVAL_DAYS
        assert min(picks) < days


def test_a_full_day_moves_to_the_emptier_neighbour_within_the_range():
    seed = "5:2"
    chosen = fuzzed_days(20, seed=seed)
    shortest, longest = fuzz_range(20)
    load = {chosen: 3, chosen - 1: 2, chosen + 1: 1}
    moved = spread_days(20, seed=seed, load=load, limit=3)
    neighbours = [d for d in (chosen - 1, chosen + 1) if shortest <= d <= longest]
    assert moved in neighbours
    assert load[moved] < 3
    assert moved == min(neighbours, key=lambda d: (load[d], d))


def test_a_full_day_stays_when_both_neighbours_are_full_too():
    seed = "5:2"
    chosen = fuzzed_days(20, seed=seed)
    load = {chosen - 1: 3, chosen: 3, chosen + 1: 4}
    assert spread_days(20, seed=seed, load=load, limit=3) == chosen


def test_a_day_under_the_limit_keeps_the_fuzzed_interval():
    seed = "5:2"
    chosen = fuzzed_days(20, seed=seed)
    assert spread_days(20, seed=seed, load={chosen: 2}, limit=3) == chosen


def test_a_move_never_leaves_the_fuzz_range():
    # Find a seed whose fuzz lands on the range's shortest day: a full day there may only move
    # later, never below the range.
    seed = next(f"{n}:1" for n in range(1000) if fuzzed_days(10, seed=f"{n}:1") == 8)
    assert fuzz_range(10) == (8, 12)
    assert spread_days(10, seed=seed, load={8: 5, 7: 0, 9: 5}, limit=5) == 8
    assert spread_days(10, seed=seed, load={8: 5, 7: 0, 9: 1}, limit=5) == 9


# --- on the learner's items ------------------------------------------------------------------


def _item(copy, mistake: str, *, due: datetime, reps: int = 3) -> ReviewItem:
    return ReviewItem.objects.create(
        copy=copy,
        kind="weighted_sum",
        mistake=mistake,
        state=int(State.Review),
        stability=20.0,
        difficulty=5.0,
        due=due,
        last_review=due - timedelta(days=10),
        reps=reps,
    )


def _reviewed(days: int) -> CardState:
    return CardState(
        state=State.Review,
        step=None,
        stability=float(days),
        difficulty=5.0,
        due=AT + timedelta(days=days),
        last_review=AT,
    )


def test_an_items_due_date_is_the_same_on_every_run(copy):
    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    first = spread_due(item=item, card=_reviewed(40), at=AT, review_settings=row)
    again = spread_due(item=item, card=_reviewed(40), at=AT, review_settings=row)
    assert first.due == again.due
    shortest, longest = fuzz_range(40)
    assert AT + timedelta(days=shortest) <= first.due <= AT + timedelta(days=longest)
    assert first.due == AT + timedelta(days=fuzzed_days(40, seed=f"{item.pk}:{item.reps}"))


def test_a_day_at_the_daily_limit_is_avoided_when_a_neighbour_is_free(copy):
    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    row.daily_limit = 2
    row.save(update_fields=["daily_limit"])
    chosen = fuzzed_days(20, seed=f"{item.pk}:{item.reps}")
    # Two other items already due on the fuzzed day (in the learner's zone), one the day before.
    _item(copy, "wrong_row", due=AT + timedelta(days=chosen, hours=2))
    _item(copy, "wrong_weight", due=AT + timedelta(days=chosen, hours=5))
    _item(copy, "unweighted_sum", due=AT + timedelta(days=chosen - 1))
    with CaptureQueriesContext(connection) as captured:
        card = spread_due(item=item, card=_reviewed(20), at=AT, review_settings=row)
    assert len(captured.captured_queries) == 1  # the three days' counts, one aggregate
    moved = (card.due - AT).days
    assert moved != chosen
    assert abs(moved - chosen) == 1
    shortest, longest = fuzz_range(20)
    assert shortest <= moved <= longest
    day = card.due.date()
    held = ReviewItem.objects.filter(copy=copy, due__date=day).exclude(pk=item.pk).count()
    assert held < row.daily_limit


def test_the_days_are_the_learners_own(copy):
    # In Auckland (UTC+13 in March) 09:00 UTC is 22:00: an item due 12:00 UTC the next day is on
    # the day after next there, so it counts for another interval than in UTC.
    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    row.daily_limit = 1
    row.time_zone = "Pacific/Auckland"
    row.save(update_fields=["daily_limit", "time_zone"])
    zone = zoneinfo.ZoneInfo("Pacific/Auckland")
    chosen = fuzzed_days(20, seed=f"{item.pk}:{item.reps}")
    landing = (AT + timedelta(days=chosen)).astimezone(zone).date()
    # Another item at 10:00 local on the landing day: that day is full.
    other = datetime(landing.year, landing.month, landing.day, 10, tzinfo=zone)
    _item(copy, "wrong_row", due=other)
    card = spread_due(item=item, card=_reviewed(20), at=AT, review_settings=row)
    assert card.due.astimezone(zone).date() != landing
    assert abs((card.due - AT).days - chosen) == 1


def test_another_learners_items_do_not_fill_a_day(copy):
    from .conftest import make_copy

    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    row.daily_limit = 1
    row.save(update_fields=["daily_limit"])
    chosen = fuzzed_days(20, seed=f"{item.pk}:{item.reps}")
    _item(make_copy(), "wrong_row", due=AT + timedelta(days=chosen))
    card = spread_due(item=item, card=_reviewed(20), at=AT, review_settings=row)
    assert card.due == AT + timedelta(days=chosen)


@pytest.mark.parametrize("days", [0, 1, 2])
def test_a_short_interval_keeps_its_due_date_and_costs_no_statement(copy, days):
    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    card = _reviewed(days)
    with CaptureQueriesContext(connection) as captured:
        spread = spread_due(item=item, card=card, at=AT, review_settings=row)
    assert spread == card
    assert captured.captured_queries == []


def test_a_learning_card_is_never_fuzzed(copy):
    item = _item(copy, "omitted_term", due=AT)
    row = review_settings_get_or_create(user_id=copy.owner_id)
    learning = scheduling.card_review(scheduling.card_new(now=AT), scheduling.Rating.Again, at=AT)
    assert spread_due(item=item, card=learning, at=AT, review_settings=row) == learning
