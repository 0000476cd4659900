"""review_record_attempt: explained mistakes create and relapse items; reviews rate cards."""

import time_machine

from grading.kinds import MistakeCode, ProblemKind, Status
from practice.models import ProblemInstance
from practice.review import scheduling
from practice.review.models import CardState, ReviewItem, ReviewLog
from practice.review.services.recording import review_record_attempt

from .conftest import NOW, make_attempt, make_problem

REVIEW = ProblemInstance.Purpose.REVIEW


def _review_variant(item: ReviewItem) -> ProblemInstance:
    """Attach a hand-made review variant to the item, as review_open would."""
    problem = make_problem(item.copy, kind=ProblemKind(item.kind), purpose=REVIEW)
    item.problem = problem
    item.save(update_fields=["problem"])
    return problem


def test_incorrect_attempt_with_a_diagnosis_creates_an_item_due_in_an_hour(copy):
    with time_machine.travel(NOW, tick=False):
        attempt = make_attempt(make_problem(copy))
        logs = review_record_attempt(attempt=attempt)
    item = ReviewItem.objects.get(copy=copy)
    assert (item.kind, item.mistake) == (ProblemKind.WEIGHTED_SUM, MistakeCode.OMITTED_TERM)
    assert item.state == CardState.LEARNING
    assert item.due == NOW + scheduling.LEARNING_STEPS[0]
    assert item.last_review == NOW
    assert item.source_attempt == attempt
    assert [log.rating for log in logs] == [ReviewLog.Rating.AGAIN]
    assert logs[0].origin == ReviewLog.Origin.PRACTICE


def test_incorrect_attempt_without_a_diagnosis_creates_nothing_with_unexplained_items_off(
    copy, settings
):
    settings.REVIEW_UNEXPLAINED_ITEMS = False
    attempt = make_attempt(make_problem(copy), mistake=None)
    assert review_record_attempt(attempt=attempt) == []
    assert not ReviewItem.objects.exists()


def test_correct_and_invalid_practice_attempts_create_nothing(copy):
    problem = make_problem(copy)
    for status in (Status.CORRECT, Status.INVALID):
        assert review_record_attempt(attempt=make_attempt(problem, status=status)) == []
    assert not ReviewItem.objects.exists()


def test_recording_the_same_attempt_twice_changes_nothing(copy):
    attempt = make_attempt(make_problem(copy))
    review_record_attempt(attempt=attempt)
    before = ReviewItem.objects.get()
    assert review_record_attempt(attempt=attempt) == []
    after = ReviewItem.objects.get()
    assert (after.due, after.reps) == (before.due, before.reps)
    assert ReviewLog.objects.count() == 1


def test_the_same_mistake_on_another_problem_relapses_the_same_item(copy):
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    later = NOW + scheduling.LEARNING_STEPS[0] * 3
    with time_machine.travel(later, tick=False):
        second = make_attempt(make_problem(copy))
        review_record_attempt(attempt=second)
    item = ReviewItem.objects.get()
    assert item.reps == 2
    assert item.due == later + scheduling.LEARNING_STEPS[0]
    assert item.source_attempt == second


def test_repeating_the_mistake_on_the_same_problem_relapses_once(copy):
    problem = make_problem(copy)
    review_record_attempt(attempt=make_attempt(problem))
    review_record_attempt(attempt=make_attempt(problem))
    assert ReviewItem.objects.get().reps == 1


def test_another_mistake_makes_another_item(copy):
    problem = make_problem(copy)
    review_record_attempt(attempt=make_attempt(problem))
    review_record_attempt(attempt=make_attempt(problem, mistake=MistakeCode.WRONG_ROW))
    assert sorted(ReviewItem.objects.values_list("mistake", flat=True)) == [
        MistakeCode.OMITTED_TERM,
        MistakeCode.WRONG_ROW,
    ]


def test_correct_review_at_first_try_is_good_and_graduates(copy):
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    item = ReviewItem.objects.get()
    variant = _review_variant(item)
    with time_machine.travel(item.due, tick=False):
        logs = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    item.refresh_from_db()
    assert [log.rating for log in logs] == [ReviewLog.Rating.GOOD]
    assert logs[0].origin == ReviewLog.Origin.REVIEW
    assert item.state == CardState.REVIEW
    assert item.due - item.last_review >= scheduling.LEARNING_STEPS[0] * 24
    assert item.problem is None
    assert item.previous_problem == variant


def test_correct_review_after_a_wrong_try_is_hard(copy):
    review_record_attempt(attempt=make_attempt(make_problem(copy)))
    item = ReviewItem.objects.get()
    variant = _review_variant(item)
    wrong = review_record_attempt(attempt=make_attempt(variant))
    right = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    assert [log.rating for log in wrong] == [ReviewLog.Rating.AGAIN]
    assert [log.rating for log in right] == [ReviewLog.Rating.HARD]
    assert ReviewItem.objects.get().reps == 3


def test_a_wrong_review_answered_wrong_again_counts_once(copy):
    review_record_attempt(attempt=make_attempt(make_problem(copy)))
    variant = _review_variant(ReviewItem.objects.get())
    review_record_attempt(attempt=make_attempt(variant))
    assert review_record_attempt(attempt=make_attempt(variant)) == []
    assert ReviewItem.objects.get().reps == 2


def test_a_review_failed_without_a_diagnosis_is_still_again_with_unexplained_items_off(
    copy, settings
):
    settings.REVIEW_UNEXPLAINED_ITEMS = False
    review_record_attempt(attempt=make_attempt(make_problem(copy)))
    variant = _review_variant(ReviewItem.objects.get())
    logs = review_record_attempt(attempt=make_attempt(variant, mistake=None))
    assert [log.rating for log in logs] == [ReviewLog.Rating.AGAIN]


def test_without_implicit_credit_a_review_failed_with_another_mistake_rates_both(copy, settings):
    # Today's policy before implicit credit, kept for the simulator's comparison.
    settings.REVIEW_IMPLICIT_CREDIT = False
    review_record_attempt(attempt=make_attempt(make_problem(copy)))
    variant = _review_variant(ReviewItem.objects.get())
    logs = review_record_attempt(attempt=make_attempt(variant, mistake=MistakeCode.WRONG_ROW))
    assert sorted(log.item.mistake for log in logs) == [
        MistakeCode.OMITTED_TERM,
        MistakeCode.WRONG_ROW,
    ]
    assert ReviewItem.objects.count() == 2


def test_a_lapse_from_review_state_counts_a_lapse(copy):
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    item = ReviewItem.objects.get()
    variant = _review_variant(item)
    with time_machine.travel(item.due, tick=False):
        review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    item.refresh_from_db()
    with time_machine.travel(item.due, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    item.refresh_from_db()
    assert item.state == CardState.RELEARNING
    assert item.lapses == 1


def test_the_learners_desired_retention_is_used(copy, django_user_model):
    from practice.review.services.review_settings import review_settings_get_or_create

    def graduate_and_review(retention: float):
        ReviewItem.objects.all().delete()
        row = review_settings_get_or_create(user_id=copy.owner.pk)
        row.desired_retention = retention
        row.save()
        with time_machine.travel(NOW, tick=False):
            review_record_attempt(attempt=make_attempt(make_problem(copy)))
        item = ReviewItem.objects.get()
        variant = _review_variant(item)
        with time_machine.travel(item.due, tick=False):
            review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
        item.refresh_from_db()
        variant = _review_variant(item)
        with time_machine.travel(item.due, tick=False):
            review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
        item.refresh_from_db()
        return item.due - item.last_review

    assert graduate_and_review(0.80) > graduate_and_review(0.95)
