"""A fitted set's time scale: FSRS on a slower (or faster) clock, and the one-number fit that
finds it when 21 weights cannot be fitted (practice/review/scheduling.py, fitting.py).

The synthetic learners here remember as FSRS does on a clock ``true_scale`` times slower, and
are reviewed when FSRS's defaults (scale 1) say their recall has fallen to 0.9: the fit must
find the clock from the outcomes alone."""

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from practice.review import fitting, scheduling, workload
from practice.review.models import ParameterSet, ReviewLog
from practice.review.selectors import review_parameters_current
from practice.review.services.parameters import review_parameters_fit
from practice.review.services.recording import review_record_attempt

from .conftest import NOW, make_attempt, make_copy, make_problem
from .test_fitting import _store_histories

Rating = scheduling.Rating


def _reviewed_card(days_since: float, stability: float = 5.0) -> scheduling.CardState:
    last = NOW - timedelta(days=days_since)
    return scheduling.CardState(
        state=scheduling.State.Review,
        step=None,
        stability=stability,
        difficulty=5.0,
        due=NOW,
        last_review=last,
    )


def test_scale_one_is_fsrs_itself():
    card = _reviewed_card(4)
    for rating in (Rating.Again, Rating.Hard, Rating.Good):
        assert scheduling.card_review(card, rating, at=NOW, time_scale=1.0) == (
            scheduling.card_review(card, rating, at=NOW)
        )
    assert scheduling.card_retrievability(card, at=NOW, time_scale=1.0) == (
        scheduling.card_retrievability(card, at=NOW)
    )


@pytest.mark.parametrize("k", [0.5, 2.0, 4.0, 8.0])
def test_on_a_scale_recall_after_k_days_is_fsrs_recall_after_one(k):
    slow = scheduling.card_retrievability(_reviewed_card(6 * k), at=NOW, time_scale=k)
    fsrs = scheduling.card_retrievability(_reviewed_card(6), at=NOW)
    assert slow == pytest.approx(fsrs, rel=1e-9)
    # The memory state after a review is FSRS's after the review k times sooner.
    scaled = scheduling.card_review(_reviewed_card(6 * k), Rating.Good, at=NOW, time_scale=k)
    plain = scheduling.card_review(_reviewed_card(6), Rating.Good, at=NOW)
    assert scaled.stability == pytest.approx(plain.stability)
    assert scaled.difficulty == pytest.approx(plain.difficulty)
    # The interval is k times FSRS's, within the rounding to whole days.
    days = (scaled.due - NOW) / timedelta(days=1)
    assert abs(days - k * (plain.due - NOW) / timedelta(days=1)) <= 1
    assert scaled.last_review == NOW


@pytest.mark.parametrize("k", [0.5, 8.0])
def test_learning_steps_are_not_scaled_and_the_maximum_interval_holds(k):
    new = scheduling.card_new(now=NOW)
    again = scheduling.card_review(new, Rating.Again, at=NOW, time_scale=k)
    assert again.due - NOW == scheduling.LEARNING_STEPS[0]
    strong = _reviewed_card(400, stability=600.0)
    good = scheduling.card_review(strong, Rating.Good, at=NOW, time_scale=scheduling.MAX_TIME_SCALE)
    assert good.due - NOW == timedelta(days=scheduling.MAXIMUM_INTERVAL_DAYS)


@pytest.mark.parametrize("k", [0.0, 0.49, 8.01, float("nan")])
def test_a_scale_out_of_range_is_refused(k):
    with pytest.raises(ValueError, match="time scale"):
        scheduling.card_review(_reviewed_card(1), Rating.Good, at=NOW, time_scale=k)
    with pytest.raises(ValueError, match="time scale"):
        scheduling.card_retrievability(_reviewed_card(1), at=NOW, time_scale=k)


def test_a_scale_whose_intervals_run_past_the_documented_maximum_is_refused():
    defaults = fitting.DEFAULT_PARAMETERS
    assert fitting.refusal(defaults, time_scale=2.0) is None
    assert "within 3 Goods" in fitting.refusal(defaults, time_scale=3.0)
    assert "outside" in fitting.refusal(defaults, time_scale=8.5)


def test_a_scale_is_judged_at_the_retentions_in_use_not_at_every_one_a_learner_could_choose():
    defaults = fitting.DEFAULT_PARAMETERS
    # At 0.80 a scale of 6 reaches past 3 years within three Goods; at 0.97 it does not.
    assert "retention 0.8" in fitting.refusal(defaults, time_scale=6.0)
    assert fitting.refusal(defaults, (0.97,), time_scale=6.0) is None
    assert fitting.refusal(defaults, (0.97,), time_scale=8.0) is None
    # The first Good of a scale of 8 at 0.97 is still far below a year.
    intervals = fitting._good_intervals(defaults, 0.97, first=Rating.Good, time_scale=8.0)
    assert intervals[0] <= 30 and max(intervals) < fitting.MAX_DAYS_EVER
    # Any retention in use that a scale is not sane at refuses it.
    assert fitting.refusal(defaults, (0.85, 0.97), time_scale=6.0) is None
    assert "retention 0.85" in fitting.refusal(defaults, (0.85, 0.97), time_scale=8.0)


def test_the_one_number_fit_tries_only_scales_sane_at_the_retentions_given():
    histories = _scaled_histories(cards=300, true_scale=4.0, seed=3)
    everywhere = fitting.fit_time_scale(histories)
    at_097 = fitting.fit_time_scale(histories, retentions=(0.97,))
    assert everywhere is not None and everywhere.time_scale <= 2.0
    assert at_097 is not None and at_097.time_scale == 4.0  # the true scale
    defaults = fitting.DEFAULT_PARAMETERS
    assert fitting.refusal(defaults, (0.97,), time_scale=at_097.time_scale) is None


def _scaled_histories(
    *, cards: int, true_scale: float, seed: int, reviews: int = 6, retention: float = 0.9
) -> list[list[tuple[datetime, int]]]:
    """Cards remembered as FSRS on a clock ``true_scale`` times slower, each starting with a
    mistake and reviewed when FSRS's defaults schedule it at ``retention`` (a few hours late or
    early once the interval is a day or more)."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 5, 17, tzinfo=UTC)
    histories = []
    for n in range(cards):
        at = start + timedelta(days=rng.randint(0, 20), minutes=n)
        schedule = scheduling.card_review(scheduling.card_new(now=at), Rating.Again, at=at)
        truth = scheduling.card_review(
            scheduling.card_new(now=at), Rating.Again, at=at, time_scale=true_scale
        )
        history = [(at, 1)]
        for _ in range(reviews):
            late = schedule.due - at >= timedelta(days=1)  # a learning step is kept on time
            at = schedule.due + (timedelta(hours=rng.uniform(-3, 3)) if late else timedelta())
            recall = scheduling.card_retrievability(truth, at=at, time_scale=true_scale)
            rating = Rating.Good if rng.random() < recall else Rating.Again
            history.append((at, int(rating)))
            schedule = scheduling.card_review(schedule, rating, at=at, desired_retention=retention)
            truth = scheduling.card_review(truth, rating, at=at, time_scale=true_scale)
        histories.append(history)
    return histories


def test_memory_twice_as_slow_is_found_and_beats_fsrs_on_later_reviews():
    fit = fitting.fit_time_scale(_scaled_histories(cards=300, true_scale=2.0, seed=1))
    assert fit is not None
    assert fit.time_scale == 2.0
    assert fit.parameters == fitting.DEFAULT_PARAMETERS  # the weights in use are kept
    assert fit.beats_current
    assert fit.test_reviews > 100 and fit.train_reviews > fit.test_reviews


def test_memory_faster_than_fsrs_gets_a_scale_under_one():
    fit = fitting.fit_time_scale(_scaled_histories(cards=300, true_scale=0.5, seed=2))
    assert fit is not None
    # Chosen on the earlier reviews; lapses already shorten FSRS's own stabilities, so the
    # later ones barely tell the two apart and it is adopted only if they do.
    assert fit.time_scale < 1


def test_memory_as_fsrs_expects_yields_no_new_scale_or_none_that_beats_it():
    fit = fitting.fit_time_scale(_scaled_histories(cards=300, true_scale=1.0, seed=3))
    assert fit is None or (fit.time_scale in (0.75, 1.5) and not fit.beats_current)


def test_a_few_failures_where_many_were_expected_are_evidence_enough():
    histories = _scaled_histories(cards=60, true_scale=4.0, seed=5, reviews=4)
    scored = fitting.replayed_predictions(histories, parameters=None, time_scale=1.0)
    failed = sum(not recalled for _at, _p, recalled in scored)
    assert failed == 3 and sum(1 - p for _at, p, _y in scored) > 15  # 3 seen, 18 expected
    fit = fitting.fit_time_scale(histories)
    assert fit is not None and fit.time_scale == 2.0  # the largest sane scale


def test_too_few_expected_failures_say_nothing():
    # Aimed at 0.97, 100 reviews expect 3 failures or so: too few to say how memory fades.
    histories = _scaled_histories(cards=20, true_scale=1.0, seed=5, reviews=12, retention=0.97)
    scored = fitting.replayed_predictions(histories, parameters=None, time_scale=1.0)
    assert len(scored) >= fitting.MIN_SCALE_REVIEWS
    assert sum(1 - p for _at, p, _y in scored) < fitting.MIN_EXPECTED_FAILURES
    assert fitting.fit_time_scale(histories) is None


def test_a_scale_in_use_is_the_one_to_beat():
    histories = _scaled_histories(cards=300, true_scale=2.0, seed=1)
    assert fitting.fit_time_scale(histories, current_scale=2.0) is None  # already the best


def test_too_little_or_one_rating_never_yields_a_scale():
    histories = _scaled_histories(cards=300, true_scale=2.0, seed=1)
    assert fitting.fit_time_scale(histories[:5]) is None  # fewer than MIN_ITEMS cards
    passes = [[h[0], *[(at, 3) for at, _r in h[1:]]] for h in histories]
    assert fitting.fit_time_scale(passes) is None
    lapses = [[(at, 1) for at, _r in h] for h in histories]
    assert fitting.fit_time_scale(lapses) is None
    assert fitting.fit_time_scale([]) is None


def test_a_scale_makes_the_workload_lighter_in_proportion():
    cards = [_reviewed_card(d, stability=s) for d, s in ((1, 3.0), (3, 8.0), (10, 20.0))]
    plain = workload.expected_workload(cards, now=NOW, retentions=(0.9,))[0].reviews_per_day
    one = workload.expected_workload(cards, now=NOW, retentions=(0.9,), time_scale=1.0)
    slow = workload.expected_workload(cards, now=NOW, retentions=(0.9,), time_scale=2.0)
    assert one[0].reviews_per_day == plain
    assert 0 < slow[0].reviews_per_day < plain


@pytest.mark.django_db
def test_the_weekly_fit_stores_a_scale_when_the_weights_cannot_be_fitted_and_it_schedules(
    settings,
):
    settings.REVIEW_FITTED_PARAMETERS = True
    settings.REVIEW_DESIRED_RETENTION = 0.97
    # Memory three times as slow: sane at the only retention in use (the site's 0.97; at 0.80,
    # where nobody aims, 3 would reach past 3 years within three Goods), so it is found.
    histories = _scaled_histories(cards=100, true_scale=3.0, seed=7, reviews=4)
    assert not fitting.enough_data(histories)  # too few failures for 21 weights
    copies = [make_copy() for _ in range(2)]
    _store_histories(copies, histories)
    later = datetime(2027, 1, 1, tzinfo=UTC)
    with time_machine.travel(later, tick=False):
        stored = review_parameters_fit(now=later)
    assert stored is not None
    assert stored.time_scale == 3.0
    assert stored.parameters == list(fitting.DEFAULT_PARAMETERS)
    assert stored.adopted and stored.log_loss < stored.previous_log_loss
    assert stored.logs == ReviewLog.objects.count()
    # The adopted scale schedules the next review, and the predicted recall logged with it.
    newcomer = make_copy()
    assert review_parameters_current(user_id=newcomer.owner_id) == stored
    with time_machine.travel(later, tick=False):
        (log,) = review_record_attempt(attempt=make_attempt(make_problem(newcomer)))
    assert log.parameters == stored
    assert ParameterSet.objects.get(pk=stored.pk).time_scale == 3.0


@pytest.mark.django_db
def test_the_retentions_in_use_are_the_sites_default_and_what_the_scopes_learners_chose(settings):
    from practice.review.models import ReviewSettings
    from practice.review.services.parameters import retentions_in_use

    settings.REVIEW_DESIRED_RETENTION = 0.97
    keeps_default, chooses = make_copy(), make_copy()
    ReviewSettings.objects.create(user=keeps_default.owner)
    ReviewSettings.objects.create(user=chooses.owner, desired_retention=0.85)
    assert retentions_in_use() == (0.85, 0.97)
    assert retentions_in_use(user_id=chooses.owner_id) == (0.85,)
    assert retentions_in_use(user_id=keeps_default.owner_id) == (0.97,)
    # A learner with no settings yet is scheduled at the site's default.
    assert retentions_in_use(user_id=make_copy().owner_id) == (0.97,)
