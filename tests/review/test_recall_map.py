"""The calibration map of predicted recall: degenerate logs, a known miscalibration, the due
date it gives, and the weekly fit (practice/review/recall_map.py, services/recall_maps.py)."""

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from grading.kinds import MistakeCode, Status
from practice.review import recall_map, scheduling, tasks
from practice.review.models import CalibrationMap, ReviewItem, ReviewLog
from practice.review.services.recall_maps import review_recall_map_fit
from practice.review.services.recording import review_record_attempt
from practice.review.services.variants import review_open

from .conftest import NOW, make_attempt, make_problem

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _log(n: int, *, items: int, outcome) -> list[tuple[datetime, int, float, bool]]:
    rng = random.Random(3)
    rows = []
    for i in range(n):
        p = rng.uniform(0.6, 0.97)
        rows.append((T0 + timedelta(hours=i), i % items, p, outcome(p, rng)))
    return rows


@pytest.mark.parametrize(
    ("outcome", "items"),
    [
        (lambda p, rng: True, 50),  # all recalled
        (lambda p, rng: False, 50),  # all forgotten
        (lambda p, rng: rng.random() < p, 1),  # one item
    ],
    ids=["all-right", "all-wrong", "one-item"],
)
def test_degenerate_logs_yield_no_map(outcome, items):
    assert recall_map.fit_and_judge(_log(400, items=items, outcome=outcome)) is None


def test_too_few_reviews_yield_no_map():
    log = _log(recall_map.MIN_REVIEWS - 1, items=50, outcome=lambda p, rng: rng.random() < p)
    assert recall_map.fit_and_judge(log) is None


def test_a_known_miscalibration_is_learned_and_lowers_held_out_log_loss():
    # Memory better than predicted: the true recall is sigmoid(logit(p) + 1.5).
    truth = recall_map.RecallMap(1.0, 1.5)
    fit = recall_map.fit_and_judge(
        _log(2000, items=100, outcome=lambda p, rng: rng.random() < truth.apply(p))
    )
    assert fit is not None and fit.beats_current
    assert fit.log_loss < fit.current_log_loss - 0.02
    assert 1.0 < fit.map.b < 2.0 and 0.5 < fit.map.a < 1.6
    assert fit.test_reviews >= recall_map.MIN_TEST_REVIEWS


def test_a_calibrated_log_is_not_improved_on():
    fit = recall_map.fit_and_judge(
        _log(2000, items=100, outcome=lambda p, rng: rng.random() < p), current=None
    )
    assert fit is not None
    assert abs(fit.map.a - 1) < 0.4 and abs(fit.map.b) < 0.4


def test_a_perfectly_separated_log_stays_in_bounds():
    fit = recall_map.fit_and_judge(_log(1000, items=100, outcome=lambda p, rng: p > 0.8))
    assert fit is not None
    assert recall_map.A_RANGE[0] <= fit.map.a <= recall_map.A_RANGE[1]
    assert recall_map.B_RANGE[0] <= fit.map.b <= recall_map.B_RANGE[1]


def test_a_map_out_of_range_is_refused():
    with pytest.raises(ValueError, match="a map's a lies in"):
        recall_map.RecallMap(10.0, 0.0)


def test_the_due_date_moves_the_right_way():
    at = T0
    card = scheduling.card_review(scheduling.card_new(now=at), scheduling.Rating.Good, at=at)
    card = scheduling.card_review(card, scheduling.Rating.Good, at=card.due)

    def due_at(retention: float) -> datetime:
        return scheduling.card_review(
            card, scheduling.Rating.Good, at=card.due, desired_retention=retention
        ).due

    better = recall_map.RecallMap(1.0, 1.0, lowest=0.5)  # recall better than FSRS predicts
    worse = recall_map.RecallMap(1.0, -1.0, lowest=0.5)
    assert better.effective_retention(0.9) < 0.9 < worse.effective_retention(0.9)
    assert (
        due_at(better.effective_retention(0.9))
        > due_at(0.9)
        > due_at(worse.effective_retention(0.9))
    )
    # Where the calibrated recall is 0.9, FSRS's own is the effective retention.
    r = better.effective_retention(0.9)
    assert better.apply(r) == pytest.approx(0.9)
    # Clamped: never below the map's lowest fitted prediction nor EFFECTIVE_RANGE.
    assert recall_map.RecallMap(0.25, 4.0, lowest=0.85).effective_retention(0.9) == 0.85
    assert (
        recall_map.RecallMap(0.25, 4.0, lowest=0.1).effective_retention(0.9)
        == (recall_map.EFFECTIVE_RANGE[0])
    )
    assert (
        recall_map.RecallMap(0.25, -4.0).effective_retention(0.97)
        == (recall_map.EFFECTIVE_RANGE[1])
    )


def _reviewed_item(copy) -> tuple[ReviewItem, ReviewLog]:
    with time_machine.travel(NOW, tick=False):
        (first,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    return ReviewItem.objects.get(pk=first.item_id), first


@pytest.mark.django_db
def test_a_map_in_use_calibrates_the_stored_prediction_and_keeps_fsrs_own(copy, settings):
    settings.REVIEW_CALIBRATED_RECALL = True
    CalibrationMap.objects.create(
        fitted_at=NOW - timedelta(days=1), a=1.0, b=1.0, lowest=0.5, reviews=1, items=1,
        train_reviews=1, test_reviews=1, log_loss=0.1, previous_log_loss=0.2,
        constant_log_loss=0.2, adopted=True,
    )  # fmt: skip
    item, _first = _reviewed_item(copy)
    # Days after the learning step, so that FSRS's own recall is below 1.
    with time_machine.travel(item.due + timedelta(days=3), tick=False):
        variant = review_open(copy=copy, item=item)
        (log,) = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    assert log.fsrs_recall is not None and log.fsrs_recall < 1
    assert log.predicted_recall == pytest.approx(
        recall_map.RecallMap(1.0, 1.0).apply(log.fsrs_recall)
    )
    assert log.predicted_recall > log.fsrs_recall


@pytest.mark.django_db
def test_without_the_switch_the_prediction_is_fsrs_own(copy):
    CalibrationMap.objects.create(
        fitted_at=NOW - timedelta(days=1), a=1.0, b=1.0, lowest=0.5, reviews=1, items=1,
        train_reviews=1, test_reviews=1, log_loss=0.1, previous_log_loss=0.2,
        constant_log_loss=0.2, adopted=True,
    )  # fmt: skip
    item, _first = _reviewed_item(copy)
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
        (log,) = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    assert log.predicted_recall == log.fsrs_recall


@pytest.mark.django_db
def test_the_weekly_fit_is_idempotent_and_adopts_a_better_map(copy, monkeypatch):
    monkeypatch.setattr(recall_map, "MIN_ITEMS", 1)
    _item, first = _reviewed_item(copy)
    template = ReviewLog.objects.get(pk=first.pk)
    rng = random.Random(5)
    truth = recall_map.RecallMap(1.0, 2.0)
    for n in range(300):
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        template.origin = ReviewLog.Origin.REVIEW
        p = rng.uniform(0.5, 0.95)
        recalled = rng.random() < truth.apply(p)
        template.rating = ReviewLog.Rating.GOOD if recalled else ReviewLog.Rating.AGAIN
        template.fsrs_recall = template.predicted_recall = p
        template.reviewed_at = NOW - timedelta(hours=400 - n)
        template.save()
    with time_machine.travel(NOW, tick=False):
        assert tasks.fit_recall_map() is True
        assert tasks.fit_recall_map() is False  # no new review: nothing stored
    (stored,) = CalibrationMap.objects.all()
    assert stored.adopted and stored.log_loss < stored.previous_log_loss
    assert stored.b > 0.5 and stored.reviews == 300


@pytest.mark.django_db
def test_a_degenerate_site_log_stores_no_map(copy):
    _item, first = _reviewed_item(copy)
    template = ReviewLog.objects.get(pk=first.pk)
    for n in range(150):
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        template.origin = ReviewLog.Origin.REVIEW
        template.rating = ReviewLog.Rating.GOOD
        template.fsrs_recall = template.predicted_recall = 0.9
        template.reviewed_at = NOW - timedelta(hours=200 - n)
        template.save()
    assert review_recall_map_fit(now=NOW) is None
    assert not CalibrationMap.objects.exists()
