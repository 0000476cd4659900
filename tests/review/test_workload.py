"""The workload against desired retention: the scheduler run forward as an expectation, its
picture and table on the review settings page, and whose items they count."""

import itertools
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from fsrs import Card, Rating

from practice.review import scheduling, workload
from practice.review.models import ReviewItem, ReviewSettings
from practice.review.pictures import FONT_SIZE, WIDTH, reviews_text, workload_picture
from practice.review.scheduling import CardState, State
from practice.review.selectors import review_workload
from practice.review.workload import (
    RETENTIONS,
    WorkloadPoint,
    expected_workload,
    next_interval,
)

from .conftest import make_copy

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _card(stability: float, difficulty: float, *, due_in: float, elapsed: float) -> CardState:
    return CardState(
        state=State.Review,
        step=None,
        stability=stability,
        difficulty=difficulty,
        due=NOW + timedelta(days=due_in),
        last_review=NOW - timedelta(days=elapsed),
    )


# A hand-built set: a fresh mistake, one overdue, two settled ones, one in relearning.
HAND_BUILT = [
    _card(0.7, 7.0, due_in=0.5, elapsed=0.5),
    _card(3.0, 6.0, due_in=-2, elapsed=5),
    _card(15.0, 5.0, due_in=6, elapsed=9),
    _card(60.0, 4.0, due_in=30, elapsed=30),
    CardState(
        state=State.Relearning,
        step=0,
        stability=1.2,
        difficulty=8.0,
        due=NOW + timedelta(hours=1),
        last_review=NOW,
    ),
]


def test_the_numbers_fall_as_retention_falls():
    points = expected_workload(HAND_BUILT, now=NOW)
    assert [p.retention for p in points] == list(RETENTIONS)
    per_day = [p.reviews_per_day for p in points]
    assert all(lower < higher for lower, higher in itertools.pairwise(per_day))
    # The climb is steep near the top: 0.97 costs more than twice 0.80.
    assert per_day[-1] > 2 * per_day[0]
    # Every card is reviewed at least once in the year (all are due within 30 days).
    assert per_day[0] * workload.HORIZON_DAYS >= len(HAND_BUILT)


def test_the_same_cards_give_the_same_numbers():
    first = expected_workload(HAND_BUILT, now=NOW, retentions=(0.8, 0.9))
    again = expected_workload(list(HAND_BUILT), now=NOW, retentions=(0.8, 0.9))
    assert first == again


def test_more_cards_cost_more_and_a_copy_of_each_costs_double():
    one = expected_workload(HAND_BUILT, now=NOW, retentions=(0.9,))[0].reviews_per_day
    two = expected_workload(HAND_BUILT * 2, now=NOW, retentions=(0.9,))[0].reviews_per_day
    # Not exactly double: branches merged from two cards weigh more, so fewer are dropped as
    # negligible (workload._NEGLIGIBLE).
    assert two == pytest.approx(2 * one, rel=0.01)
    assert two > one


def test_only_max_cards_are_run_forward_and_the_count_is_scaled():
    many = HAND_BUILT * 40  # 200 cards, 5 kinds of card in turn
    bounded = expected_workload(many, now=NOW, retentions=(0.9,), max_cards=25)[0]
    whole = expected_workload(many, now=NOW, retentions=(0.9,), max_cards=len(many))[0]
    # 25 cards, every 8th, are 5 of each kind: the scaled count is the whole one (but for the
    # negligible branches, dropped a little more often among fewer cards).
    assert bounded.reviews_per_day == pytest.approx(whole.reviews_per_day, rel=0.02)


def test_no_cards_or_never_reviewed_ones_cost_nothing():
    assert expected_workload([], now=NOW, retentions=(0.9,)) == [WorkloadPoint(0.9, 0.0)]
    fresh = scheduling.card_new(now=NOW)
    assert expected_workload([fresh], now=NOW, retentions=(0.9,)) == [WorkloadPoint(0.9, 0.0)]


def test_bad_retentions_and_horizons_are_refused():
    with pytest.raises(ValueError, match="retention"):
        expected_workload(HAND_BUILT, now=NOW, retentions=(1.0,))
    with pytest.raises(ValueError, match="horizon"):
        expected_workload(HAND_BUILT, now=NOW, horizon=0)


def test_the_interval_formula_is_py_fsrs_own():
    for retention in (0.8, 0.9, 0.97):
        scheduler = workload._scheduler(retention, None)
        for stability in (0.3, 2.0, 11.0, 80.0, 900.0, 5000.0):
            card = Card(
                card_id=0,
                state=State.Review,
                stability=stability,
                difficulty=5.0,
                due=NOW,
                last_review=NOW - timedelta(days=10),
            )
            good, _log = scheduler.review_card(card, Rating.Good, review_datetime=NOW)
            assert (good.due - NOW).days == next_interval(good.stability, scheduler)


def test_the_expectation_is_close_to_running_py_fsrs_with_recall_drawn():
    # Monte Carlo with py-fsrs itself: the expectation should agree within a few percent at
    # the lower retentions, where binning the memory state matters least.
    cards = HAND_BUILT[:4]
    horizon, runs, retention = 120, 300, 0.85
    scheduler = workload._scheduler(retention, None)
    draw = random.Random(11)
    end = NOW + timedelta(days=horizon)
    total = 0
    for _ in range(runs):
        for state in cards:
            card = Card(
                card_id=0,
                state=state.state,
                step=state.step,
                stability=state.stability,
                difficulty=state.difficulty,
                due=max(state.due, NOW),
                last_review=state.last_review,
            )
            while card.due < end:
                at = max(card.due, NOW)
                recall = scheduler.get_card_retrievability(card, current_datetime=at)
                rating = Rating.Good if draw.random() < recall else Rating.Again
                card, _log = scheduler.review_card(card, rating, review_datetime=at)
                total += 1
    drawn = total / runs / horizon
    (point,) = expected_workload(cards, now=NOW, retentions=(retention,), horizon=horizon)
    assert point.reviews_per_day == pytest.approx(drawn, rel=0.06)


# --- the picture -----------------------------------------------------------------------------


def test_reviews_are_written_with_two_decimals_under_one_a_day():
    assert [reviews_text(v) for v in (0.057, 0.999, 1.04, 12.36)] == ["0.06", "1.00", "1.0", "12.4"]


def test_the_picture_is_phone_sized_with_readable_text():
    svg = workload_picture(expected_workload(HAND_BUILT, now=NOW), current=0.9)
    assert f'width="{WIDTH}"' in svg and WIDTH <= 358
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) >= 11
    assert FONT_SIZE >= 11
    assert 'data-role="current"' in svg and 'data-retention="0.90"' in svg
    assert "style=" not in svg and "<script" not in svg


# --- the settings page -----------------------------------------------------------------------


def _review_item(copy, mistake: str, card: CardState) -> ReviewItem:
    return ReviewItem.objects.create(
        copy=copy, kind="weighted_sum", mistake=mistake, **scheduling.card_columns(card)
    )


@pytest.fixture
def learner(client, db):
    cache.clear()
    copy = make_copy()
    for mistake, card in zip(
        ("omitted_term", "wrong_row", "wrong_weight", "unweighted_sum", "plain_average"),
        HAND_BUILT,
        strict=True,
    ):
        _review_item(copy, mistake, card)
    client.force_login(copy.owner)
    return client, copy


def _table(html: str) -> list[tuple[str, str]]:
    cells = re.findall(r'<td data-retention="([\d.]+)">.*?</td><td data-reviews="([\d.]+)">', html)
    return [(r, n) for r, n in cells]


def _dots(html: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<circle [^>]*data-role="point" data-retention="([\d.]+)" data-reviews="([\d.]+)"', html
    )


def test_the_settings_page_shows_the_same_numbers_in_the_picture_and_the_table(learner):
    client, copy = learner
    ReviewSettings.objects.update_or_create(user=copy.owner, defaults={"desired_retention": 0.9})
    html = client.get(reverse("review:settings")).content.decode()
    table, dots = _table(html), _dots(html)
    assert len(table) == len(RETENTIONS)
    assert table == dots
    assert [r for r, _n in table] == [f"{r:.2f}" for r in RETENTIONS]
    numbers = [float(n) for _r, n in table]
    assert numbers == sorted(numbers) and numbers[0] < numbers[-1]
    # The learner's own retention is marked in both.
    assert re.search(r'class="review-workload__mine"><td data-retention="0.90"', html)
    assert 'data-role="current" data-retention="0.90"' in html
    # The trade is explained, with R typeset.
    assert "<math" in html and "0.80" in html and "0.97" in html


def test_the_page_counts_the_learners_own_items_through_the_selector(learner):
    client, copy = learner
    html = client.get(reverse("review:settings")).content.decode()
    expected = review_workload(user_id=copy.owner_id)
    assert expected.items == len(HAND_BUILT)
    assert [n for _r, n in _table(html)] == [
        reviews_text(p.reviews_per_day) for p in expected.points
    ]


def test_another_learner_sees_only_their_own_workload(learner, client):
    _client, copy = learner
    other = make_copy()
    client.force_login(other.owner)
    html = client.get(reverse("review:settings")).content.decode()
    # The first learner's items are not counted: the other learner has none.
    assert 'id="review-workload-empty"' in html
    assert _dots(html) == [] and _table(html) == []
    assert review_workload(user_id=other.owner_id).items == 0
    # There is no address for someone else's settings: the page is the signed-in learner's,
    # and an id in the query string changes nothing.
    again = client.get(reverse("review:settings"), {"user": copy.owner_id}).content.decode()
    assert 'id="review-workload-empty"' in again


def test_the_settings_page_asks_an_anonymous_visitor_to_sign_in(client, db):
    response = client.get(reverse("review:settings"))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_a_learner_with_no_items_sees_a_sentence_not_an_empty_plot(client, db):
    copy = make_copy()
    client.force_login(copy.owner)
    html = client.get(reverse("review:settings")).content.decode()
    assert "No mistake of yours is in review yet" in html
    assert "<svg" not in html.split('id="review-workload"')[1].split("</section>")[0]


@pytest.mark.parametrize("value", ["0.79", "0.7", "0.98"])
def test_a_retention_outside_080_to_097_is_refused(learner, value):
    client, copy = learner
    url = reverse("review:settings")
    form = {"desired_retention": value, "time_zone": "UTC", "daily_limit": "20", "reminders": ""}
    response = client.post(url, form)
    assert response.status_code == 400
    assert "desired_retention" in response.context["form"].errors
    stored = ReviewSettings.objects.filter(user=copy.owner).values_list(
        "desired_retention", flat=True
    )
    assert all(0.8 <= r <= 0.97 for r in stored)


def test_the_bounds_are_accepted(learner):
    client, copy = learner
    url = reverse("review:settings")
    for value in ("0.80", "0.97"):
        form = {"desired_retention": value, "time_zone": "UTC", "daily_limit": "20"}
        assert client.post(url, form).status_code == 302
        assert ReviewSettings.objects.get(user=copy.owner).desired_retention == float(value)


def test_the_workload_is_read_in_two_statements_at_most_and_then_cached(
    learner, django_assert_max_num_queries, monkeypatch
):
    _client, copy = learner
    runs = []
    real = workload.expected_workload
    monkeypatch.setattr(
        workload, "expected_workload", lambda *a, **k: runs.append(1) or real(*a, **k)
    )
    # The cards, and the fitted parameters in use (none read when fitting is switched off).
    with django_assert_max_num_queries(2):
        first = review_workload(user_id=copy.owner_id, now=NOW)
    with django_assert_max_num_queries(2):
        again = review_workload(user_id=copy.owner_id, now=NOW)
    assert first == again
    assert len(runs) == 1  # the second read came from the cache
    # A changed card is a new run.
    ReviewItem.objects.filter(copy=copy, mistake="wrong_row").update(stability=40.0)
    changed = review_workload(user_id=copy.owner_id, now=NOW)
    assert len(runs) == 2
    assert changed.points != first.points
