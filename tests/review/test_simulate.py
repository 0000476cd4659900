"""The learner simulator (tests/simulate, `make simulate`): its hidden memory model, its
measures, and a short run of two arms through the real services with its invariants."""

import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from practice.models import Attempt
from practice.review.models import ReviewLog
from tests.simulate.measures import (
    ARMS,
    SITE_RETENTION,
    SWITCHES,
    TODAY_RETENTION,
    base_rate_log_loss,
    log_loss,
    rmse_bins,
)
from tests.simulate.memory import Learner, Lesson, MistakeRates

T0 = datetime(2026, 1, 5, 17, tzinfo=UTC)


def test_recall_halves_after_one_half_life_and_is_zero_before_the_explanation():
    lesson = Lesson(susceptibility=0.2, first_half_life=2.0)
    assert lesson.recall(T0) == 0.0
    assert lesson.chance_of_mistake(T0) == pytest.approx(0.2)
    lesson.explained(T0)
    assert lesson.recall(T0) == pytest.approx(1.0)
    assert lesson.recall(T0 + timedelta(days=2)) == pytest.approx(0.5)
    assert lesson.chance_of_mistake(T0 + timedelta(days=2)) == pytest.approx(0.1)


def test_a_spaced_success_grows_the_half_life_more_than_a_massed_one():
    massed = Lesson(susceptibility=0.2, first_half_life=2.0)
    spaced = Lesson(susceptibility=0.2, first_half_life=2.0)
    massed.explained(T0)
    spaced.explained(T0)
    massed.retrieved(T0 + timedelta(minutes=10))
    spaced.retrieved(T0 + timedelta(days=2))
    assert 2.0 < massed.half_life < 2.1
    assert spaced.half_life == pytest.approx(2.0 * 3.0)  # 1 + 6 * (1 - 0.5), at the cap


def test_a_relapse_halves_the_half_life_but_never_below_the_first():
    lesson = Lesson(susceptibility=0.2, first_half_life=2.0)
    lesson.explained(T0)
    lesson.retrieved(T0 + timedelta(days=2))
    lesson.explained(T0 + timedelta(days=3))
    assert lesson.half_life == pytest.approx(3.0)
    assert lesson.relapses == 1
    lesson.explained(T0 + timedelta(days=4))
    assert lesson.half_life == pytest.approx(2.0)


def test_rates_are_the_same_for_one_seed_and_differ_between_learners():
    assert MistakeRates(1).of("lookup", "off_by_one_row") == MistakeRates(1).of(
        "lookup", "off_by_one_row"
    )
    a, b = Learner.draw(random.Random(1)), Learner.draw(random.Random(2))
    assert (a.susceptibility_factor, a.memory_factor) != (b.susceptibility_factor, b.memory_factor)


def test_log_loss_and_rmse_over_bins():
    assert log_loss([(0.5, 1), (0.5, 0)]) == pytest.approx(math.log(2))
    assert log_loss([]) is None
    calibrated = [(0.8, 1)] * 8 + [(0.8, 0)] * 2
    assert rmse_bins(calibrated) == pytest.approx(0.0, abs=1e-9)
    assert rmse_bins([(0.9, 0), (0.9, 0)]) == pytest.approx(0.9)
    assert base_rate_log_loss([(0.1, 1), (0.7, 1), (0.2, 1), (0.9, 0)]) == pytest.approx(
        -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    )


def _site_arm():
    """Return the arm that runs the site as settings.py configures it."""
    site = {name: getattr(settings, name) for name in ARMS[0].settings()}
    return next(arm for arm in ARMS if arm.settings() == site)


def test_the_first_arm_is_todays_policy_and_one_arm_is_the_sites_defaults():
    assert ARMS[0].settings() == {
        **dict.fromkeys(SWITCHES, False),
        "REVIEW_DESIRED_RETENTION": TODAY_RETENTION,
    }
    site = _site_arm()
    assert site.on == frozenset(SWITCHES) - {"REVIEW_FITTED_PARAMETERS", "REVIEW_CALIBRATED_RECALL"}
    assert site.retention == SITE_RETENTION == settings.REVIEW_DESIRED_RETENTION


@pytest.mark.django_db(transaction=True)
def test_a_short_run_keeps_its_invariants():
    from tests.simulate.cohort import USERNAME_PREFIX, course_ideas, run_arm

    ideas = course_ideas()
    today = run_arm(ARMS[0], learners=2, days=3, seed=5, ideas=ideas)
    users = get_user_model().objects.filter(username__startswith=USERNAME_PREFIX)
    attempts = Attempt.objects.filter(copy__owner__in=users).count()
    everything = run_arm(_site_arm(), learners=2, days=3, seed=5, ideas=ideas)

    assert today.practice_problems == 2 * (3 * 3 + 2)  # 3 new a day, 2 old from the third day
    assert today.attempts == attempts  # every answer the tally counts went through the service
    assert today.explicit_reviews > 0
    # Every explicit review is one review variant, answered and logged as a review.
    assert today.explicit_reviews == today.review_problems_logged
    assert today.review_logs >= today.explicit_reviews
    assert today.implicit_logs == 0
    assert set(today.logs_by_origin) <= {ReviewLog.Origin.PRACTICE, ReviewLog.Origin.REVIEW}
    assert len(today.predictions) == today.explicit_reviews
    for tally in (today, everything):
        assert tally.recalls and all(0.0 <= r <= 1.0 for r in tally.recalls)
        assert all(0.0 <= p <= 1.0 and y in (0, 1) for p, y in tally.predictions)
        assert tally.end_avoid and all(0.0 <= a <= 1.0 for a in tally.end_avoid)
        # One day-end figure a day; the last day's end is the end the snapshot reads.
        assert len(tally.daily_avoid.sums) == len(tally.daily_avoid.counts) == 3
        assert tally.daily_avoid.counts[-1] == len(tally.end_avoid)
        assert tally.daily_avoid.sums[-1] == pytest.approx(sum(tally.end_avoid))
        assert 0.0 < tally.daily_avoid.mean_last() <= 1.0
        assert 0 <= tally.held_reviews <= tally.catalogued_reviews <= tally.explicit_reviews
        assert tally.seconds > tally.review_seconds > 0
    assert everything.explicit_reviews == everything.review_problems_logged
    # The second arm started from a clean slate: only its own learners remain.
    assert users.count() == 2
