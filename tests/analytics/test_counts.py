"""Counts kept on write: equal to a direct count over the attempts, idempotent per attempt,
and the same rows after a rebuild."""

import uuid
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import grading
from practice import services
from practice.analytics import tasks
from practice.analytics.codes import CORRECT, KIND_LEVEL
from practice.analytics.models import AttemptCounted, LearnerMistakeCount, MistakeCount
from practice.analytics.services import counts_catch_up, counts_rebuild, counts_record
from practice.models import Attempt

from .cohort import (
    IDEA,
    PAGE,
    cohort,
    direct_counts,
    direct_recurrence,
    stored_counts,
    stored_recurrence,
    submit,
)


@pytest.fixture
def counted_cohort(course, make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        copies = cohort(make_user, course.course.slug, learners=7)
    return copies


def test_counts_on_commit_equal_a_direct_count_over_a_cohort(counted_cohort):
    per_learner, per_key = stored_counts()
    assert (per_learner, per_key) == direct_counts()
    codes = {key[5] for key in per_key}
    tries = {key[6] for key in per_key}
    # The cohort reaches every class and the kind-level codes.
    assert {CORRECT, "unexplained"} <= codes and len(codes) >= 4
    assert tries == {"first", "retry", "review", "all"}
    graded = Attempt.objects.exclude(status="invalid").count()
    assert AttemptCounted.objects.count() == graded
    assert sum(a for key, (a, _n) in per_key.items() if key[6] == "all") == graded
    # Seven learners answered weighted_sum: each is one learner of its correct/all row.
    correct = [v for k, v in per_key.items() if k[3:] == ("weighted_sum", 0, CORRECT, "all")]
    right = Attempt.objects.filter(status="correct", problem__kind="weighted_sum").count()
    assert correct == [(right, 7)] and right > 7


def test_an_unreadable_answer_is_never_counted(course_copy, django_capture_on_commit_callbacks):
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum"
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        attempt = submit(course_copy, problem, "[[")
    assert attempt.status == "invalid"
    assert callbacks == []
    assert counts_record(attempt_ids=[attempt.pk]) == 0
    assert not MistakeCount.objects.exists() and not AttemptCounted.objects.exists()


def test_counting_an_attempt_again_changes_nothing(counted_cohort):
    before = stored_counts()
    ids = list(Attempt.objects.values_list("pk", flat=True))
    assert counts_record(attempt_ids=ids) == 0
    assert counts_catch_up() == 0
    assert stored_counts() == before


def test_a_double_submit_is_counted_once(course_copy, django_capture_on_commit_callbacks):
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum"
    )
    token = uuid.uuid4()
    text = "[1, 1]"
    with django_capture_on_commit_callbacks(execute=True):
        first = services.attempt_submit(copy=course_copy, problem=problem, text=text, token=token)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.attempt_submit(copy=course_copy, problem=problem, text=text, token=token)
    assert first.pk == again.pk
    assert stored_counts() == direct_counts()
    assert sum(MistakeCount.objects.filter(try_class="all").values_list("attempts", flat=True)) == 1


def test_the_catch_up_counts_an_attempt_whose_commit_did_not(course_copy):
    # Inside the test's transaction the on-commit hook never runs: as if it had failed.
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum"
    )
    submit(course_copy, problem, "[1, 1]")
    assert not MistakeCount.objects.exists()
    assert counts_catch_up() == 1
    assert stored_counts() == direct_counts()
    assert tasks.catch_up_mistake_counts.apply().get() == 0


def test_the_rebuild_gives_exactly_the_incremental_rows(counted_cohort):
    incremental = stored_counts()
    out = StringIO()
    call_command("rebuild_mistake_counts", stdout=out)
    assert stored_counts() == incremental
    graded = Attempt.objects.exclude(status="invalid").count()
    assert out.getvalue().strip() == f"{graded} attempts counted"
    # From empty tables too, and by the task.
    LearnerMistakeCount.objects.all().delete()
    MistakeCount.objects.all().delete()
    AttemptCounted.objects.all().delete()
    assert tasks.rebuild_mistake_counts.apply().get() == graded
    assert stored_counts() == incremental


def test_the_rebuild_mends_counts_gone_wrong(counted_cohort):
    right = stored_counts()
    MistakeCount.objects.filter(try_class="all").update(attempts=999, learners=999)
    LearnerMistakeCount.objects.filter(try_class="first").delete()
    assert counts_rebuild() == AttemptCounted.objects.count()
    assert stored_counts() == right


def test_a_deleted_learner_leaves_the_counts(counted_cohort):
    get_user_model().objects.get(username="cohort-2").delete()
    after = stored_counts()
    assert after == direct_counts()
    counts_rebuild()
    assert stored_counts() == after
    assert all(learners > 0 for _a, learners in after[1].values())


def test_no_kind_uses_the_codes_counted_for_no_mistake():
    for kind in grading.KINDS.values():
        assert not (set(kind.codes) & ({CORRECT} | KIND_LEVEL)), kind


@pytest.mark.django_db(transaction=True)
def test_the_simulators_cohort_is_counted_as_its_attempts_say():
    from tests.simulate.cohort import course_ideas, run_arm
    from tests.simulate.measures import ARMS

    ideas = course_ideas()[:3]
    run_arm(ARMS[0], learners=3, days=3, seed=11, ideas=ideas)
    counted = stored_counts()
    assert counted[1], "the run counted nothing"
    assert counted == direct_counts()
    recurrence = stored_recurrence()
    assert recurrence, "the run made no named mistake"
    assert recurrence == direct_recurrence()
    counts_rebuild()
    assert stored_counts() == counted
    assert stored_recurrence() == recurrence
