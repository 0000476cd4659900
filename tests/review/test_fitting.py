"""Fitted FSRS parameters: the Rust binding and py-fsrs agree, fits are judged on held-out later
reviews, every set is stored, and an adopted set schedules (and is named on) the next reviews."""

import math
import random
import struct
import uuid
from datetime import UTC, datetime, timedelta

import fsrs
import fsrs_rs_python
import pytest
import time_machine

from practice.review import fitting, scheduling
from practice.review.models import ParameterSet, ReviewItem, ReviewLog
from practice.review.selectors import review_parameters_current
from practice.review.services.parameters import LEARNER_MIN_LOGS, review_parameters_fit
from practice.review.services.recording import review_record_attempt

from .conftest import NOW, make_attempt, make_copy, make_problem

# A set unlike the defaults (a learner who forgets fast, with a steep first-day curve).
OTHER = list(fitting.DEFAULT_PARAMETERS)
OTHER[0:4] = [0.5, 0.9, 1.6, 4.0]
OTHER[8] = 1.2
OTHER[20] = 0.35


def test_both_libraries_are_fsrs_6_with_the_same_defaults():
    assert len(fsrs_rs_python.DEFAULT_PARAMETERS) == scheduling.PARAMETER_COUNT == 21
    py_defaults = fsrs.Scheduler().parameters
    assert [round(w, 4) for w in fsrs_rs_python.DEFAULT_PARAMETERS] == list(py_defaults)


# Ratings and the time since the previous review (None: on the day py-fsrs scheduled).
SEQUENCES = [
    [(1, timedelta(0)), (3, timedelta(hours=1)), (3, None), (3, None), (3, None)],
    [(1, timedelta(0)), (2, timedelta(hours=1)), (3, None), (1, None), (3, timedelta(hours=1))],
    [(1, timedelta(0)), (3, timedelta(days=3)), (2, timedelta(days=9)), (3, None), (1, None)],
]


@pytest.mark.parametrize("parameters", [list(fitting.DEFAULT_PARAMETERS), OTHER])
@pytest.mark.parametrize("sequence", SEQUENCES)
def test_the_binding_and_py_fsrs_agree_on_memory_and_intervals(parameters, sequence):
    """py-fsrs schedules a card with the parameters; after every review the Rust binding,
    given the same ratings and whole days, finds the same stability and difficulty, and the
    interval it proposes (rounded, at least a day) is the one py-fsrs set on review cards."""
    binding = fsrs_rs_python.FSRS(parameters)
    card = scheduling.card_new(now=NOW)
    reviews: list[fsrs_rs_python.FSRSReview] = []
    at = previous = None
    for rating, gap in sequence:
        at = NOW if previous is None else (previous + gap if gap is not None else card.due)
        card = scheduling.card_review(card, scheduling.Rating(rating), at=at, parameters=parameters)
        days = 0 if previous is None else (at - previous).days
        reviews.append(fsrs_rs_python.FSRSReview(rating, days))
        memory = binding.memory_state(fsrs_rs_python.FSRSItem(list(reviews)))
        assert memory.stability == pytest.approx(card.stability, rel=1e-4)
        assert memory.difficulty == pytest.approx(card.difficulty, rel=1e-4)
        if card.state is scheduling.State.Review:
            interval = binding.next_interval(memory.stability, 0.9, 3)
            assert (card.due - at).days == max(1, round(interval))
        previous = at


def test_other_parameters_schedule_differently_and_a_wrong_length_is_refused():
    def two_reviews(parameters):
        card = scheduling.card_new(now=NOW)
        card = scheduling.card_review(card, scheduling.Rating.Again, at=NOW, parameters=parameters)
        later = NOW + timedelta(days=2)
        return scheduling.card_review(card, scheduling.Rating.Good, at=later, parameters=parameters)

    default, other = two_reviews(None), two_reviews(OTHER)
    assert other.due != default.due
    assert other.stability != pytest.approx(default.stability)
    with pytest.raises(ValueError, match="21 parameters"):
        two_reviews(OTHER[:19])


def _histories(*, cards: int, half_life: float, seed: int) -> list[list[tuple[datetime, int]]]:
    """Simulate cards forgotten exponentially with a half-life that doubles on each success,
    reviewed on a jittered expanding schedule (not FSRS's): (moment, rating) histories."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    histories = []
    for n in range(cards):
        at = start + timedelta(days=rng.randint(0, 30), hours=n % 5)
        history = [(at, 1)]
        h = half_life * rng.uniform(0.5, 1.5)
        gap = 1
        for _ in range(rng.randint(3, 7)):
            gap = max(1, round(gap * rng.uniform(1.5, 3.0)))
            at += timedelta(days=gap)
            recalled = rng.random() < 2 ** (-gap / h)
            history.append((at, 3 if recalled else 1))
            h = h * 2 if recalled else max(0.5, h / 2)
        histories.append(history)
    return histories


def test_too_little_data_fits_nothing():
    assert fitting.fit_parameters(_histories(cards=5, half_life=2.0, seed=1)) is None
    assert fitting.fit_parameters([]) is None


def test_a_fit_to_a_fast_forgetting_cohort_beats_the_defaults_on_later_reviews():
    histories = _histories(cards=600, half_life=1.0, seed=7)
    fit = fitting.fit_parameters(histories, min_test_reviews=100)
    assert fit is not None
    assert len(fit.parameters) == scheduling.PARAMETER_COUNT
    assert fit.parameters != fitting.DEFAULT_PARAMETERS
    assert fit.test_reviews >= 100
    assert fit.train_reviews > fit.test_reviews
    assert all(math.isfinite(x) for x in (fit.candidate.log_loss, fit.current.log_loss))
    assert fit.candidate.log_loss < fit.current.log_loss
    assert fit.beats_current
    # py-fsrs accepts the fitted set as it is.
    card = scheduling.card_review(
        scheduling.card_new(now=NOW), scheduling.Rating.Again, at=NOW, parameters=fit.parameters
    )
    assert card.stability == pytest.approx(fit.parameters[0])


def test_held_out_reviews_are_the_latest():
    histories = _histories(cards=50, half_life=3.0, seed=2)
    examples = fitting.examples_of(histories)
    assert [e.at for e in examples] == sorted(e.at for e in examples)
    assert len(examples) == sum(len(h) - 1 for h in histories)


def test_a_history_out_of_order_or_with_an_unknown_rating_is_refused():
    with pytest.raises(ValueError, match="time order"):
        fitting.examples_of([[(NOW, 1), (NOW - timedelta(days=1), 3)]])
    with pytest.raises(ValueError, match="rating"):
        fitting.examples_of([[(NOW, 1), (NOW + timedelta(days=1), 5)]])


@pytest.fixture(autouse=True)
def _fitted_parameters_on(settings):
    """Schedule with adopted sets, as a site that turns REVIEW_FITTED_PARAMETERS on does (the
    default is off: docs/review.md)."""
    settings.REVIEW_FITTED_PARAMETERS = True


def _adopted(user=None, parameters=OTHER) -> ParameterSet:
    return ParameterSet.objects.create(
        scope=ParameterSet.Scope.LEARNER if user else ParameterSet.Scope.SITE,
        user=user,
        parameters=parameters,
        fitted_at=NOW - timedelta(days=1),
        logs=1000,
        train_reviews=800,
        test_reviews=200,
        log_loss=0.3,
        rmse_bins=0.05,
        previous_log_loss=0.4,
        previous_rmse_bins=0.08,
        adopted=True,
    )


@pytest.mark.django_db
def test_an_adopted_site_set_schedules_reviews_and_is_named_on_the_log(copy):
    site = _adopted()
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(attempt=make_attempt(make_problem(copy)))
    assert log.parameters == site
    item = ReviewItem.objects.get(copy=copy)
    assert item.stability == pytest.approx(OTHER[0])


@pytest.mark.django_db
def test_a_learners_own_set_comes_before_the_sites_and_the_switch_turns_both_off(settings):
    copy = make_copy()
    other = make_copy()
    _adopted()
    own = _adopted(user=copy.owner, parameters=list(fitting.DEFAULT_PARAMETERS))
    assert review_parameters_current(user_id=copy.owner_id) == own
    assert review_parameters_current(user_id=other.owner_id).scope == ParameterSet.Scope.SITE
    settings.REVIEW_FITTED_PARAMETERS = False
    assert review_parameters_current(user_id=copy.owner_id) is None
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(attempt=make_attempt(make_problem(copy)))
    assert log.parameters is None
    assert ReviewItem.objects.get(copy=copy).stability == pytest.approx(
        fitting.DEFAULT_PARAMETERS[0]
    )


@pytest.mark.django_db
def test_a_set_not_adopted_schedules_nothing(copy):
    row = _adopted()
    row.adopted = False
    row.save(update_fields=["adopted"])
    assert review_parameters_current(user_id=copy.owner_id) is None


@pytest.mark.django_db
def test_fitting_a_small_log_stores_nothing(copy):
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    assert ReviewLog.objects.count() == 1
    assert review_parameters_fit(now=NOW) is None
    assert review_parameters_fit(user_id=copy.owner_id, now=NOW) is None
    assert not ParameterSet.objects.exists()


@pytest.mark.django_db
def test_the_export_names_the_set_that_scheduled_each_log(copy):
    from practice.review.services.export import review_export

    site = _adopted()
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    data = review_export(copy=copy)
    (log,) = data["items"][0]["logs"]
    assert log["parameters"] == site.pk
    assert [s["id"] for s in data["parameter_sets"]] == [site.pk]
    assert data["parameter_sets"][0]["parameters"] == OTHER
    assert review_export(copy=make_copy())["parameter_sets"] == []


def _store_histories(copies, histories) -> None:
    """Write the histories as review items and logs of the copies (one item per history, the
    copies' (kind, mistake) pairs in turn), each log with an attempt of its own."""
    from grading.kinds import MISTAKES_BY_KIND
    from practice.models import Attempt

    pairs = [(kind, m) for kind, codes in MISTAKES_BY_KIND.items() for m in codes]
    slots = [(copy, pair) for copy in copies for pair in pairs]
    assert len(slots) >= len(histories)
    problems = {copy.pk: make_problem(copy) for copy in copies}
    for (copy, (kind, mistake)), history in zip(slots, histories, strict=False):
        card = scheduling.card_new(now=history[0][0])
        item = ReviewItem.objects.create(
            copy=copy, kind=kind, mistake=mistake, **scheduling.card_columns(card)
        )
        attempts = Attempt.objects.bulk_create(
            [
                Attempt(
                    problem=problems[copy.pk],
                    copy=copy,
                    text="[0]",
                    status="incorrect",
                    score=0.0,
                    verdict={},
                    form_token=uuid.uuid4(),
                )
                for _ in history
            ]
        )
        ReviewLog.objects.bulk_create(
            [
                ReviewLog(
                    item=item,
                    attempt=attempt,
                    rating=rating,
                    origin=ReviewLog.Origin.REVIEW,
                    reviewed_at=at,
                    state=2,
                    stability=1.0,
                    difficulty=5.0,
                    due=at,
                )
                for attempt, (at, rating) in zip(attempts, history, strict=True)
            ]
        )


@pytest.mark.django_db
def test_the_weekly_fit_adopts_a_set_that_beats_the_defaults_and_fits_once_per_new_log():
    from practice.review import tasks

    copies = [make_copy() for _ in range(6)]
    _store_histories(copies, _histories(cards=600, half_life=1.0, seed=7))
    later = datetime(2036, 1, 1, tzinfo=UTC)  # after every stored log
    with time_machine.travel(later, tick=False):
        stored = tasks.fit_review_parameters()
        again = tasks.fit_review_parameters()
    # The site's set, and one per learner with at least LEARNER_MIN_LOGS logs.
    sites = ParameterSet.objects.filter(scope=ParameterSet.Scope.SITE)
    assert stored == ParameterSet.objects.count() >= 1
    assert again == 0  # no new log since: nothing fitted twice
    learners = ParameterSet.objects.filter(scope=ParameterSet.Scope.LEARNER)
    assert learners.exists()
    assert all(row.logs >= LEARNER_MIN_LOGS and row.user_id for row in learners)
    site = sites.get()
    assert site.adopted
    assert site.log_loss < site.previous_log_loss
    assert site.rmse_bins < site.previous_rmse_bins
    assert site.previous is None  # the defaults were in use
    assert site.logs == ReviewLog.objects.count()
    assert site.train_reviews > site.test_reviews >= 30
    assert len(site.parameters) == scheduling.PARAMETER_COUNT
    # The adopted set schedules the next review (the learner's own when they have one).
    newcomer = make_copy()
    assert review_parameters_current(user_id=newcomer.owner_id) == site
    with time_machine.travel(later, tick=False):
        (log,) = review_record_attempt(attempt=make_attempt(make_problem(newcomer)))
    assert log.parameters == site


def test_the_clearing_forecast_uses_the_parameters_in_use():
    from types import SimpleNamespace

    from practice.review import clearing

    card = scheduling.card_review(scheduling.card_new(now=NOW), scheduling.Rating.Again, at=NOW)
    card = scheduling.card_review(card, scheduling.Rating.Good, at=NOW + timedelta(days=1))
    item = SimpleNamespace(**scheduling.card_columns(card))
    later = NOW + timedelta(days=6)
    default = clearing.good_due_at(later, 0.9)(item)
    fitted = clearing.good_due_at(later, 0.9, OTHER)(item)
    assert (
        fitted
        == scheduling.card_review(card, scheduling.Rating.Good, at=later, parameters=OTHER).due
    )
    assert fitted != default


@pytest.mark.django_db
def test_deleting_a_learner_deletes_their_sets_and_the_logs_naming_them(copy):
    own = _adopted(user=copy.owner)
    site = _adopted()
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(attempt=make_attempt(make_problem(copy)))
    assert log.parameters == own
    copy.owner.delete()
    assert not ReviewLog.objects.exists()
    assert list(ParameterSet.objects.all()) == [site]


# --- issue 38, item 3: fitting that cannot run away -----------------------------------------


def _uniform(
    rating: int, *, cards: int = 200, reviews: int = 6
) -> list[list[tuple[datetime, int]]]:
    """Return histories of one rating only, reviewed on an expanding schedule."""
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    out = []
    for n in range(cards):
        at = start + timedelta(hours=n)
        history = [(at, 1)]
        for k in range(reviews):
            at += timedelta(days=2**k)
            history.append((at, rating))
        out.append(history)
    return out


@pytest.mark.parametrize("rating", [1, 3, 4], ids=["all-again", "all-good", "all-easy"])
def test_a_log_of_one_rating_never_yields_a_set(rating):
    assert fitting.fit_parameters(_uniform(rating), min_test_reviews=1) is None


def test_one_item_never_yields_a_set_however_long_its_log():
    (history,) = _histories(cards=1, half_life=1.0, seed=3)
    long = [history[0]]
    for k in range(400):
        long.append((long[-1][0] + timedelta(days=1 + k % 5), 1 if k % 3 == 0 else 3))
    assert not fitting.enough_data([long])
    assert fitting.fit_parameters([long], min_test_reviews=1) is None


def test_too_few_failures_or_passes_fit_nothing():
    histories = _histories(cards=600, half_life=1.0, seed=7)
    passes_only = [[h[0], *[(at, 3) for at, _r in h[1:]]] for h in histories]
    assert not fitting.enough_data(passes_only)
    assert fitting.enough_data(histories)


def test_the_defaults_are_sane_and_a_runaway_set_is_refused_at_every_retention():
    assert fitting.refusal(fitting.DEFAULT_PARAMETERS) is None
    runaway = list(fitting.DEFAULT_PARAMETERS)
    runaway[:4] = [24.7, 100.0, 100.0, 100.0]  # the set the old fit adopted
    assert "first stability" in fitting.refusal(runaway)
    # Within the first-stability bound, but too long at the lowest retention a learner may
    # choose: a check at 0.97 alone would have let it through.
    long = list(fitting.DEFAULT_PARAMETERS)
    long[:4] = [24.7, 25.0, 26.0, 29.0]
    assert fitting.refusal(long, retentions=(0.97,)) is None
    assert "retention 0.8" in fitting.refusal(long)


def test_every_fitted_set_stays_within_the_documented_maximum():
    fit = fitting.fit_parameters(_histories(cards=600, half_life=1.0, seed=7), min_test_reviews=100)
    assert fit is not None and fitting.refusal(fit.parameters) is None
    for retention in fitting.CHECKED_RETENTIONS:
        card = scheduling.card_new(now=NOW)
        at = NOW
        for _ in range(12):
            card = scheduling.card_review(
                card,
                scheduling.Rating.Good,
                at=at,
                desired_retention=retention,
                parameters=fit.parameters,
            )
            assert card.due - at <= timedelta(days=scheduling.MAXIMUM_INTERVAL_DAYS)
            at = card.due


@pytest.mark.django_db
def test_implicit_only_logs_never_yield_a_set():
    copies = [make_copy() for _ in range(6)]
    _store_histories(copies, _histories(cards=600, half_life=1.0, seed=7))
    ReviewLog.objects.update(origin=ReviewLog.Origin.IMPLICIT, credit=0.25)
    later = datetime(2036, 1, 1, tzinfo=UTC)
    assert review_parameters_fit(now=later) is None
    assert not ParameterSet.objects.exists()


def _float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def test_a_weight_a_float32_rounding_past_its_bound_is_put_on_it_not_raised():
    """The optimizer computes in 32 bits: a weight it clamps to py-fsrs's bound of 0.8 comes
    back as 0.800000011920929, which py-fsrs's Scheduler refused with a ValueError, so the
    check of a fitted set (and with it the weekly task and the simulator's run) crashed."""
    weights = list(fitting.DEFAULT_PARAMETERS)
    weights[20] = _float32(0.8)
    weights[19] = _float32(0.8)
    assert weights[20] > 0.8
    with pytest.raises(ValueError, match="out of bounds"):
        fsrs.Scheduler(parameters=tuple(weights))
    assert fitting.refusal(weights) == (
        "weight 19 is 0.800000011920929, outside py-fsrs's bounds [0, 0.8]"
    )
    bounded = fitting.into_bounds(weights)
    assert bounded[19] == bounded[20] == 0.8
    assert bounded[:19] == tuple(weights[:19])
    assert fitting.refusal(bounded) is None
    fsrs.Scheduler(parameters=bounded)  # accepted
    assert fitting.into_bounds(fitting.DEFAULT_PARAMETERS) == fitting.DEFAULT_PARAMETERS


@pytest.mark.parametrize("weight", [0.9, float("nan"), float("inf"), -0.01])
def test_a_weight_well_outside_its_bounds_is_refused_by_name_never_raised(weight):
    weights = list(fitting.DEFAULT_PARAMETERS)
    weights[20] = weight
    assert fitting.into_bounds(weights)[20] is weight or math.isnan(
        fitting.into_bounds(weights)[20]
    )
    reason = fitting.refusal(fitting.into_bounds(weights))
    assert reason is not None and reason.startswith("weight 20 is ")


def test_the_first_stability_of_a_rating_no_card_starts_with_is_bounded_not_refused():
    """The site never rates Easy: a fit's w[3] is the optimizer's extrapolation, and a seed-1
    simulation's site-wide fit was refused for it alone (37.9 days) while every informed weight
    was sane."""
    weights = list(fitting.DEFAULT_PARAMETERS)
    weights[3] = 37.9  # the defaults' first stabilities otherwise
    assert "first stability of 37.9" in fitting.refusal(weights)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    histories = [[(start, 1), (start + timedelta(days=2), 3)], [(start, 3)]]
    bounded = fitting.bound_unrated_first_stabilities(weights, histories)
    assert bounded[3] == fitting.MAX_FIRST_STABILITY_DAYS
    assert bounded[:3] == tuple(weights[:3]) and bounded[4:] == tuple(weights[4:])
    assert fitting.refusal(bounded) is None
    # A rating the data does start with keeps its fitted value, and the refusal names it.
    easy_first = [*histories, [(start, 4)]]
    assert fitting.bound_unrated_first_stabilities(weights, easy_first)[3] == 37.9
    runaway_good = list(weights)
    runaway_good[2] = 45.0
    kept = fitting.bound_unrated_first_stabilities(runaway_good, histories)
    assert kept[2] == 45.0 and "first stability of 45.0" in fitting.refusal(kept)


def test_a_practice_mistake_is_history_for_the_reviews_after_it_but_never_a_target():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    history = [
        (start, 1, True),
        (start + timedelta(days=2), 3, True),
        (start + timedelta(days=5), 1, False),  # a mistake made in practice
        (start + timedelta(days=7), 3, True),
    ]
    examples = fitting.examples_of([history])
    assert [example.at for example in examples] == [history[1][0], history[3][0]]
    # The last example's history holds the practice mistake before it.
    assert [len(example.item.reviews) for example in examples] == [2, 4]
    # Pairs are targets, as before.
    assert len(fitting.examples_of([[entry[:2] for entry in history]])) == 3


def test_practice_mistakes_alone_are_not_enough_data():
    """Practice logs only its failures: as outcomes they would be failures by selection."""
    histories = _histories(cards=600, half_life=1.0, seed=7)
    assert fitting.enough_data(histories)
    untargeted = [[(at, rating, False) for at, rating in h] for h in histories]
    assert not fitting.enough_data(untargeted)
    assert fitting.fit_parameters(untargeted, min_test_reviews=1) is None
