"""The submit request's statements, counted, so the count cannot silently grow back.

Each submit goes through the test client (session, user, the problem with its copy), then one
transaction: the problem's row lock with the token check, the insert, progress (one upsert)
and review. Inside the test's own transaction ``atomic()`` shows as SAVEPOINT and RELEASE.
"""

import uuid

import pytest
from django.db import connection
from django.urls import reverse

import grading
from courses.models import IdeaProgress
from courses.selectors import copy_credit_targets
from practice import services
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem, ReviewLog
from tests.answers import right_answer, typed, wrong_answer
from tests.budgets import SQLITE_COUNTING

# user, problem with copy (the session from the cache: Django's cached_db); SAVEPOINT, lock
# (with the token check), insert, ..., RELEASE
REQUEST_READS = 2
TRANSACTION = 2 + 2
# progress: one upsert (insert, or update from the row's own values)
PROGRESS = 1
# The mistake counts, after the commit (practice/analytics): SAVEPOINT, the lock timeout, one
# statement (marker, learner rows, key rows), the recurrence of earlier mistakes, the mistake's
# first time, the problem it was explained at, the recurrence summary (a first time, or an
# earlier mistake settled), RELEASE.
COUNTING = 2 + 2 + 4


def _url(problem: ProblemInstance) -> str:
    return reverse(
        "practice:problem", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )


def _post(client, problem: ProblemInstance, text: str, token: uuid.UUID | None = None):
    response = client.post(_url(problem), {"text": text, "token": str(token or uuid.uuid4())})
    assert response.status_code == 302
    return response


@pytest.fixture
def answered(learner_client, problem):
    """The problem after one wrong answer: progress row, review item and settings exist."""
    _post(learner_client, problem, wrong_answer(problem)[1])
    return problem


def test_a_repeated_wrong_answer_takes_eight_statements(
    learner_client, answered, django_assert_max_num_queries
):
    # progress; review: the mistake's card, already rated for this problem.
    with django_assert_max_num_queries(REQUEST_READS + TRANSACTION + PROGRESS + 1):
        _post(learner_client, answered, wrong_answer(answered)[1])
    assert Attempt.objects.filter(problem=answered).count() == 2
    assert ReviewLog.objects.count() == 1


def test_the_attempt_hook_reads_nothing_for_a_copy_never_launched_from_a_platform(
    learner_client, answered, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    # The LTI score hook runs after the commit; for a learner who never came through a link it
    # returns before any statement, so the request's count is the same with it run (but for
    # the mistake counts, which run after the commit too).
    assert not answered.copy.lti_linked
    # SQLite keeps the per-parameter counts in statements of their own (tests/budgets.py).
    counting = COUNTING + (SQLITE_COUNTING if connection.vendor == "sqlite" else 0)
    with (
        django_assert_max_num_queries(REQUEST_READS + TRANSACTION + PROGRESS + 1 + counting),
        django_capture_on_commit_callbacks(execute=True),
    ):
        _post(learner_client, answered, wrong_answer(answered)[1])
    assert Attempt.objects.filter(problem=answered).count() == 2


def _answer_with(problem: ProblemInstance, mistake) -> str | None:
    """Return a wrong answer to the problem that the grader diagnoses as this mistake."""
    for _diagnosis, vector in grading.mistaken_answers(problem.spec):
        text = typed(vector)
        diagnosis = grading.grade(problem.spec, text).diagnosis
        if diagnosis is not None and diagnosis.mistake == mistake:
            return text
    return None


def test_a_first_wrong_answer_to_a_new_problem_takes_at_most_twelve_statements(
    learner_client, answered, copy, django_assert_max_num_queries
):
    # The same mistake on a new problem: its card exists and is rated again (a relapse).
    mistake = ReviewItem.objects.get().mistake
    problem = answered
    for _ in range(20):
        problem = services.problem_new_variant(copy=copy, problem=problem)
        text = _answer_with(problem, mistake)
        if text is not None:
            break
    assert text is not None
    # review: the card, the learner's retention, the fitted parameters in use, the log, the
    # card's update.
    with django_assert_max_num_queries(REQUEST_READS + TRANSACTION + PROGRESS + 5):
        _post(learner_client, problem, text)
    assert ReviewLog.objects.filter(attempt__problem=problem).count() == 1


def test_a_right_answer_after_a_wrong_one_takes_eight_statements(
    learner_client, answered, django_assert_num_queries
):
    # the problem marked solved, returning whether a wrong answer came before (one did, so
    # review credits nothing and reads nothing); progress. The same on every database.
    solve_and_progress = 1 + PROGRESS
    before = IdeaProgress.objects.get(copy_id=answered.copy_id)
    with django_assert_num_queries(REQUEST_READS + TRANSACTION + solve_and_progress):
        _post(learner_client, answered, right_answer(answered))
    answered.refresh_from_db()
    assert answered.state == ProblemInstance.State.SOLVED
    assert not ReviewLog.objects.filter(origin=ReviewLog.Origin.IMPLICIT).exists()
    after = IdeaProgress.objects.get(pk=before.pk)
    assert (after.attempts, after.correct, after.streak) == (
        before.attempts + 1,
        before.correct + 1,
        before.streak + 1,
    )


def test_a_repeated_token_takes_six_statements(
    learner_client, answered, django_assert_max_num_queries
):
    token = uuid.uuid4()
    _post(learner_client, answered, wrong_answer(answered)[1], token)
    # the lock (with the token check) finds the first attempt, read whole; nothing is written.
    with django_assert_max_num_queries(REQUEST_READS + 2 + 2):
        _post(learner_client, answered, wrong_answer(answered)[1], token)
    assert Attempt.objects.filter(form_token=token).count() == 1


def test_a_right_first_try_crediting_two_items_takes_at_most_eighteen_statements(
    learner_client, copy, problem, django_assert_max_num_queries
):
    # Two review items of the kind: a catalogued mistake and one no mistake explains (each on
    # its own problem), then a fresh problem.
    _post(learner_client, problem, wrong_answer(problem)[1])
    problem = services.problem_new_variant(copy=copy, problem=problem)
    far = [x + 100 for x in grading.expected_answer(problem.spec)]
    _post(learner_client, problem, typed(far))
    problem = services.problem_new_variant(copy=copy, problem=problem)
    items = ReviewItem.objects.count()
    assert items == 2
    # the problem marked solved, returning whether a wrong answer came before (none: a first
    # try); progress; review: the kind's items locked, which of them this attempt credited
    # already, the learner's retention, the fitted parameters in use (once, when the switch is
    # on), then per item the last explicit interval the evidence is a share of, a log and an
    # update. The course's idea graph is read once per process and version
    # (courses.selectors.copy_credit_targets), here before counting.
    copy_credit_targets(copy=copy, kind=problem.kind)
    with django_assert_max_num_queries(REQUEST_READS + TRANSACTION + 1 + PROGRESS + 4 + 3 * items):
        _post(learner_client, problem, right_answer(problem))
    assert ReviewLog.objects.filter(origin=ReviewLog.Origin.IMPLICIT).count() == items


def test_the_verdict_page_takes_two_statements_and_continues_with_one(
    learner_client, answered, django_assert_num_queries
):
    attempt = Attempt.objects.get(problem=answered)
    url = reverse(
        "practice:attempt", kwargs={"copy_id": answered.copy_id, "attempt_id": attempt.pk}
    )
    learner_client.get(url)  # the typeset explanation and picture are cached from here on
    # user, the problem's own attempts with the one shown among them, each with its problem,
    # the problem's copy and the copy's version joined (not read again by the page); then
    # Continue's next step with nothing due, one statement (practice.today.continue_sql).
    with django_assert_num_queries(2 + 1):
        response = learner_client.get(url)
    assert response.status_code == 200
