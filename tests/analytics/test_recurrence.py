"""Recurrence after feedback, kept on write: checked on hand-built histories, against a direct
computation over a generated cohort's attempts, and after a rebuild."""

import pytest
from django.urls import reverse

import grading
from courses.services import copy_get_or_create
from practice import services
from practice.analytics.models import MistakeRecurrence, RecurrenceCount
from practice.analytics.selectors import recurrence_table
from practice.analytics.services import counts_rebuild
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from tests.answers import right_answer, typed, wrong_answer

from .cohort import IDEA, PAGE, cohort, direct_recurrence, stored_recurrence, submit


def _answer_with(problem: ProblemInstance, mistake: str) -> str | None:
    for _diagnosis, vector in grading.mistaken_answers(problem.spec):
        text = typed(vector)
        diagnosis = grading.grade(problem.spec, text).diagnosis
        if diagnosis is not None and diagnosis.mistake == mistake:
            return text
    return None


def _next_with(copy, problem: ProblemInstance, mistake: str) -> tuple[ProblemInstance, str]:
    """Return a fresh open problem of the kind at which the mistake can be made, and its text
    (fresh variants replace the open problem unanswered)."""
    for _ in range(30):
        text = _answer_with(problem, mistake)
        if text is not None:
            return problem, text
        problem = services.problem_new_variant(copy=copy, problem=problem)
    raise AssertionError(f"no variant shows {mistake}")


def _summary() -> dict[tuple, tuple]:
    return {
        (r.kind, r.mistake, r.month): (
            r.made,
            r.problem_of,
            r.problem_again,
            r.review_of,
            r.review_again,
        )
        for r in RecurrenceCount.objects.all()
    }


def _summed_rows() -> dict[tuple, tuple]:
    """Return the recurrence rows summed per kind, mistake and month, in Python."""
    summed: dict[tuple, list[int]] = {}
    for row in MistakeRecurrence.objects.all():
        numbers = summed.setdefault((row.kind, row.mistake, row.month), [0] * 5)
        numbers[0] += 1
        numbers[1] += row.next_problem is not None
        numbers[2] += row.next_problem is True
        numbers[3] += row.next_review is not None
        numbers[4] += row.next_review is True
    return {key: tuple(numbers) for key, numbers in summed.items()}


def _open(copy) -> ProblemInstance:
    return services.problem_open(copy=copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum")


@pytest.fixture
def histories(course, make_user, django_capture_on_commit_callbacks):
    """Three learners who made one mistake M at a first problem and retried it right: one gets
    the next problem right and M's review right; one makes M again at both; one does no other
    problem of the kind."""
    made = {}
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("learned", "repeated", "stopped"):
            copy = copy_get_or_create(user=make_user(username=name), course_slug=course.course.slug)
            first = _open(copy)
            diagnosis, text = wrong_answer(first)
            submit(copy, first, text)
            submit(copy, first, right_answer(first))
            made[name] = (copy, str(diagnosis.mistake))
        copy, mistake = made["learned"]
        submit(copy, _open(copy), right_answer(_open(copy)))
        item = ReviewItem.objects.get(copy=copy, mistake=mistake)
        variant = review_open(copy=copy, item=item)
        submit(copy, variant, right_answer(variant))
        copy, mistake = made["repeated"]
        problem, text = _next_with(copy, _open(copy), mistake)
        submit(copy, problem, text)
        submit(copy, problem, text)  # again at the same problem: a retry, not a next problem
        item = ReviewItem.objects.get(copy=copy, mistake=mistake)
        variant = review_open(copy=copy, item=item)
        text = _answer_with(variant, mistake)
        assert text is not None, "the review variant is aimed at the mistake"
        submit(copy, variant, text)
    return made


def test_the_next_problem_and_the_next_review_say_whether_the_mistake_came_back(histories):
    rows = {
        row.copy_id: row
        for row in MistakeRecurrence.objects.filter(kind="weighted_sum").order_by("pk")
    }
    learned, repeated, stopped = (histories[name][0].pk for name in histories)
    assert (rows[learned].next_problem, rows[learned].next_review) == (False, False)
    assert (rows[repeated].next_problem, rows[repeated].next_review) == (True, True)
    assert (rows[stopped].next_problem, rows[stopped].next_review) == (None, None)
    assert stored_recurrence() == direct_recurrence()


def test_a_learner_with_no_next_problem_is_left_out_of_the_share(histories):
    table = recurrence_table(rows=MistakeRecurrence.objects.all(), private=False)
    mistake = histories["learned"][1]
    assert histories["repeated"][1] == mistake == histories["stopped"][1]
    row = next(r for r in table if r.kind == "weighted_sum" and r.mistake == mistake)
    assert row.made.learners == 3
    assert (row.next_problem.again, row.next_problem.of) == (1, 2)
    assert (row.next_review.again, row.next_review.of) == (1, 2)
    assert row.next_problem.percent == 50


def test_recurrence_on_a_cohort_is_the_direct_computation_and_survives_a_rebuild(
    course, make_user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        cohort(make_user, course.course.slug, learners=8)
    stored = stored_recurrence()
    assert stored == direct_recurrence()
    assert any(v[1] is not None for v in stored.values())
    assert any(v[2] is not None for v in stored.values())
    summary = _summary()
    assert summary == _summed_rows() and summary
    counts_rebuild()
    assert stored_recurrence() == stored
    assert _summary() == summary
    # A deleted learner leaves the summary with the rows that remain.
    MistakeRecurrence.objects.order_by("pk").first().copy.delete()
    assert _summary() == _summed_rows() != summary


def test_a_private_share_under_five_learners_is_hidden(histories):
    table = recurrence_table(rows=MistakeRecurrence.objects.all(), private=True)
    row = next(r for r in table if r.kind == "weighted_sum")
    assert row.next_problem.hidden and row.next_problem.text == "fewer than 5"


def test_recurrence_by_month_splits_learners_by_the_month_they_first_made_it(
    course, make_user, client_for, staff, django_capture_on_commit_callbacks, time_machine
):
    months = ["2026-10-15 12:00", "2026-10-20 12:00", "2026-11-03 12:00"]
    with django_capture_on_commit_callbacks(execute=True):
        for n, moment in enumerate(months):
            time_machine.move_to(moment)
            copy = copy_get_or_create(
                user=make_user(username=f"m{n}"), course_slug=course.course.slug
            )
            first = _open(copy)
            submit(copy, first, wrong_answer(first)[1])
            submit(copy, first, right_answer(first))
            submit(copy, _open(copy), right_answer(_open(copy)))
    data = client_for(staff).get(reverse("analytics:site_json")).json()
    by_month = {
        (r["month"], r["kind"]): (r["learners"], r["next_problem_again"], r["next_problem_of"])
        for r in data["recurrence_by_month"]
    }
    expected: dict = {}
    for (_copy, kind, _m), (first_id, problem, _review) in direct_recurrence().items():
        month = f"{Attempt.objects.get(pk=first_id).created_at:%Y-%m}"
        made, again, of = expected.get((month, kind), (0, 0, 0))
        expected[(month, kind)] = (made + 1, again + (problem is True), of + (problem is not None))
    assert by_month == expected
    assert {month for month, _kind in by_month} == {"2026-10", "2026-11"}
    assert all(r["month"] is None for r in data["recurrence"])
