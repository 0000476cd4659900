"""Calibration of predicted recall: the pure measures, the stored prediction, the weekly report
and the fallback from a set whose predictions lose to a constant guess."""

import math
from datetime import timedelta

import pytest
import time_machine

from grading.kinds import MistakeCode, Status
from practice.review import calibration
from practice.review.models import CalibrationReport, ParameterSet, ReviewItem, ReviewLog
from practice.review.selectors import review_parameters_current
from practice.review.services.calibration import review_calibration_report
from practice.review.services.recording import review_record_attempt
from practice.review.services.variants import review_open

from .conftest import NOW, make_attempt, make_problem


def test_perfect_predictions_beat_a_constant_guess_and_rank_perfectly():
    pairs = [(0.95, True)] * 9 + [(0.05, False)] * 9
    measures = calibration.calibration_of(pairs)
    assert measures.log_loss < measures.constant_log_loss == pytest.approx(math.log(2))
    assert measures.auc == 1.0
    assert measures.rmse_bins == pytest.approx(0.05)


def test_inverted_predictions_lose_to_a_constant_guess():
    pairs = [(0.05, True)] * 9 + [(0.95, False)] * 9
    measures = calibration.calibration_of(pairs)
    assert measures.log_loss > measures.constant_log_loss
    assert measures.auc == 0.0


def test_no_pairs_give_no_measures_and_a_bad_prediction_is_refused():
    assert calibration.calibration_of([]) is None
    assert calibration.calibration_of([(0.9, True)] * 3).auc is None
    with pytest.raises(ValueError, match="predicted recall"):
        calibration.calibration_of([(1.5, True)])


@pytest.mark.django_db
def test_a_review_stores_the_recall_predicted_before_it(copy):
    with time_machine.travel(NOW, tick=False):
        (first,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    assert first.predicted_recall is None  # a new card: nothing to predict
    item = ReviewItem.objects.get(pk=first.item_id)
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
        (log,) = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    assert 0 < log.predicted_recall <= 1


def _site_set(**extra) -> ParameterSet:
    from practice.review import fitting

    return ParameterSet.objects.create(
        scope=ParameterSet.Scope.SITE,
        parameters=list(fitting.DEFAULT_PARAMETERS),
        logs=1,
        train_reviews=1,
        test_reviews=1,
        log_loss=0.5,
        rmse_bins=0.1,
        previous_log_loss=0.6,
        previous_rmse_bins=0.2,
        adopted=True,
        **{"fitted_at": NOW - timedelta(days=30), **extra},
    )


@pytest.mark.django_db
def test_predictions_worse_than_a_constant_withdraw_the_set_in_use(copy, settings):
    settings.REVIEW_FITTED_PARAMETERS = True
    older = _site_set()
    newer = _site_set(fitted_at=NOW - timedelta(days=7))
    assert review_parameters_current(user_id=copy.owner_id) == newer
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    template = ReviewLog.objects.get(pk=log.pk)
    rows = []
    for n in range(120):
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        template.origin = ReviewLog.Origin.REVIEW
        # Confident and wrong: every recalled review predicted 0.05, every failed one 0.95.
        recalled = n % 2 == 0
        template.rating = ReviewLog.Rating.GOOD if recalled else ReviewLog.Rating.AGAIN
        template.predicted_recall = 0.05 if recalled else 0.95
        template.reviewed_at = NOW - timedelta(hours=1 + n)
        template.save()
        rows.append(template.pk)
    reports = review_calibration_report(now=NOW)
    site = next(r for r in reports if r.kind == "")
    assert site.reviews == 120 and site.worse_than_constant and site.withdrew
    assert {r.kind for r in reports} == {"", "weighted_sum"}
    newer.refresh_from_db()
    assert newer.withdrawn_at == NOW
    # The last set not withdrawn schedules again.
    assert review_parameters_current(user_id=copy.owner_id) == older
    assert CalibrationReport.objects.count() == 2


@pytest.mark.django_db
def test_a_set_is_judged_on_its_own_predictions_never_on_the_set_before_it(copy, settings):
    settings.REVIEW_FITTED_PARAMETERS = True
    older = _site_set()
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    template = ReviewLog.objects.get(pk=log.pk)
    assert template.parameters == older
    for n in range(120):  # the older set's predictions, confident and wrong
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        template.origin = ReviewLog.Origin.REVIEW
        recalled = n % 2 == 0
        template.rating = ReviewLog.Rating.GOOD if recalled else ReviewLog.Rating.AGAIN
        template.predicted_recall = 0.05 if recalled else 0.95
        template.reviewed_at = NOW - timedelta(hours=1 + n)
        template.save()
    newer = _site_set(fitted_at=NOW - timedelta(hours=1))  # adopted after those reviews
    (site,) = (r for r in review_calibration_report(now=NOW) if r.kind == "")
    assert site.worse_than_constant and not site.withdrew
    newer.refresh_from_db()
    assert newer.withdrawn_at is None
    assert review_parameters_current(user_id=copy.owner_id) == newer


@pytest.mark.django_db
def test_good_predictions_withdraw_nothing(copy):
    in_use = _site_set()
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    template = ReviewLog.objects.get(pk=log.pk)
    for n in range(120):
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        template.origin = ReviewLog.Origin.REVIEW
        recalled = n % 2 == 0
        template.rating = ReviewLog.Rating.GOOD if recalled else ReviewLog.Rating.AGAIN
        template.predicted_recall = 0.9 if recalled else 0.1
        template.reviewed_at = NOW - timedelta(hours=1 + n)
        template.save()
    (site, _kind) = review_calibration_report(now=NOW)
    assert not site.worse_than_constant and not site.withdrew and site.auc == 1.0
    in_use.refresh_from_db()
    assert in_use.withdrawn_at is None


@pytest.mark.django_db
def test_practice_mistakes_are_not_scored_only_reviews_are(copy):
    """A practice mistake is a lapse with a prediction stored, but practice logs only its
    failures: scored, 120 of them would make sound predictions look worse than a constant."""
    in_use = _site_set()
    with time_machine.travel(NOW, tick=False):
        (log,) = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    template = ReviewLog.objects.get(pk=log.pk)
    for n in range(240):
        template.pk = None
        template.attempt = make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        review = n % 2 == 0
        template.origin = ReviewLog.Origin.REVIEW if review else ReviewLog.Origin.PRACTICE
        # The reviews' predictions are right (recalled ones 0.9, failed 0.1); the practice
        # mistakes were predicted recalled.
        recalled = review and n % 4 == 0
        template.rating = ReviewLog.Rating.GOOD if recalled else ReviewLog.Rating.AGAIN
        template.predicted_recall = 0.9 if recalled or not review else 0.1
        template.reviewed_at = NOW - timedelta(minutes=30 * (1 + n))
        template.save()
    (site, _kind) = review_calibration_report(now=NOW)
    assert site.reviews == 120 and site.recalled == 60
    assert not site.worse_than_constant and not site.withdrew and site.auc == 1.0
    in_use.refresh_from_db()
    assert in_use.withdrawn_at is None
