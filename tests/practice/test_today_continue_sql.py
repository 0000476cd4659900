"""Continue's one statement (``practice.today.continue_sql``) against its ORM reference.

Each state below is built on the mini course (or the real one), then ``next_step`` and
``next_step_by_orm`` (``continue_by_orm``, the ORM reference) must return the same step; the
one statement is counted too.
"""

import json
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from courses.models import MASTERY_CORRECT, CourseCopy, IdeaProgress
from courses.services import copy_get_or_create
from grading.kinds import Status
from practice.models import Attempt, ProblemInstance
from practice.review.models import CardState, ReviewItem
from practice.services import problem_open
from practice.today.continue_sql import CONTINUE_SQL, continue_facts, continue_params
from practice.today.selectors import StepKind, next_step
from tests.review.conftest import make_attempt

from .continue_by_orm import next_step_by_orm


def _open(copy: CourseCopy, idea: str, kind: str, page: str = "first-page") -> ProblemInstance:
    return problem_open(copy=copy, page_slug=page, idea_slug=idea, kind=kind)


def _solve(problem: ProblemInstance) -> None:
    make_attempt(problem, status=Status.CORRECT)
    ProblemInstance.objects.filter(pk=problem.pk).update(state=ProblemInstance.State.SOLVED)


def _master(copy: CourseCopy, idea: str, page: str = "first-page") -> None:
    IdeaProgress.objects.update_or_create(
        copy=copy,
        page_slug=page,
        idea_slug=idea,
        defaults={"attempts": MASTERY_CORRECT, "correct": MASTERY_CORRECT},
    )


def fresh(copy: CourseCopy) -> StepKind:
    return StepKind.IDEA


def one_open_problem(copy: CourseCopy) -> StepKind:
    _open(copy, "weighted-sum", "weighted_sum")
    return StepKind.PROBLEM


def the_problem_answered_last_wins(copy: CourseCopy) -> StepKind:
    older = _open(copy, "one-row", "lookup")
    _open(copy, "weighted-sum", "contrast")
    # The first opened, answered after the second was opened: it was touched last.
    attempt = make_attempt(older)
    Attempt.objects.filter(pk=attempt.pk).update(created_at=timezone.now() + timedelta(seconds=5))
    return StepKind.PROBLEM


def a_review_problem_is_not_unfinished_practice(copy: CourseCopy) -> StepKind:
    problem = _open(copy, "one-row", "lookup")
    ProblemInstance.objects.filter(pk=problem.pk).update(purpose=ProblemInstance.Purpose.REVIEW)
    return StepKind.IDEA


def a_review_is_due(copy: CourseCopy) -> StepKind:
    problem = _open(copy, "weighted-sum", "weighted_sum")
    make_attempt(problem)
    ReviewItem.objects.create(
        copy=copy,
        kind="weighted_sum",
        mistake="omitted_term",
        state=CardState.LEARNING,
        source_problem=problem,
        due=timezone.now() - timedelta(minutes=1),
    )
    return StepKind.REVIEW


def a_review_due_later_changes_nothing(copy: CourseCopy) -> StepKind:
    a_review_is_due(copy)
    ReviewItem.objects.update(due=timezone.now() + timedelta(days=1))
    return StepKind.PROBLEM


def started_idea_keeps_going(copy: CourseCopy) -> StepKind:
    _solve(_open(copy, "one-row", "lookup"))
    IdeaProgress.objects.create(
        copy=copy, page_slug="first-page", idea_slug="one-row", attempts=1, correct=1
    )
    return StepKind.IDEA


def mastered_idea_gives_the_least_practised_kind(copy: CourseCopy) -> StepKind:
    _master(copy, "one-row")
    _solve(_open(copy, "weighted-sum", "weighted_sum"))
    return StepKind.IDEA


def every_idea_mastered(copy: CourseCopy) -> StepKind:
    _master(copy, "one-row")
    _master(copy, "weighted-sum")
    _solve(_open(copy, "weighted-sum", "weighted_sum"))
    return StepKind.DONE


STATES: list[Callable[[CourseCopy], StepKind]] = [
    fresh,
    one_open_problem,
    the_problem_answered_last_wins,
    a_review_problem_is_not_unfinished_practice,
    a_review_is_due,
    a_review_due_later_changes_nothing,
    started_idea_keeps_going,
    mastered_idea_gives_the_least_practised_kind,
    every_idea_mastered,
]


@pytest.mark.parametrize("state", STATES, ids=lambda f: f.__name__)
def test_the_one_statement_gives_the_orms_step(state, course_copy, django_assert_num_queries):
    expected_kind = state(course_copy)
    now = timezone.now()
    next_step(copy=course_copy, now=now)  # the course's ideas are read once per process

    reference = next_step_by_orm(copy=course_copy, now=now)
    # One statement; a due item adds the review queue's own reads.
    with django_assert_num_queries(1 if expected_kind != StepKind.REVIEW else 4):
        fast = next_step(copy=course_copy, now=now)

    assert reference.kind == expected_kind
    assert fast == reference


def test_the_page_last_worked_on_gives_the_same_idea_on_the_real_course(real_course, learner):
    copy = copy_get_or_create(user=learner, course_slug=real_course.course.slug)
    for page in real_course.pages.order_by("order")[:3]:
        ideas = [idea for idea in page.ideas.order_by("order") if idea.problem_kinds]
        first = ideas[0]
        IdeaProgress.objects.update_or_create(
            copy=copy,
            page_slug=page.slug,
            idea_slug=first.slug,
            defaults={"attempts": 3, "correct": 3, "level": 2},
        )
        _solve(_open(copy, first.slug, first.problem_kinds[0], page=page.slug))

        fast, reference = next_step(copy=copy), next_step_by_orm(copy=copy)

        assert fast == reference
        assert f"/pages/{page.slug}/ideas/" in fast.url


def _attempt_rows_read(copy: CourseCopy) -> int:
    """Return how much work the database does for Continue's statement on the copy: SQLite's
    virtual machine steps, or the rows PostgreSQL's plan reads from the attempts table."""
    if connection.vendor == "sqlite":
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0

        connection.ensure_connection()
        connection.connection.set_progress_handler(step, 1)
        try:
            continue_facts(copy_id=copy.pk, now=timezone.now())
        finally:
            connection.connection.set_progress_handler(None, 1)
        return steps[0]
    with connection.cursor() as cursor:
        params = continue_params(copy_id=copy.pk, now=timezone.now())
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + CONTINUE_SQL, params)
        (plan,) = cursor.fetchone()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    nodes, read = [plan[0]["Plan"]], 0
    while nodes:
        node = nodes.pop()
        nodes.extend(node.get("Plans", []))
        if node.get("Relation Name") == Attempt._meta.db_table:
            read += node["Actual Rows"] * node["Actual Loops"]
    return read


def test_with_a_problem_open_the_copys_older_answers_are_not_read(course_copy):
    # The answers of solved problems are counted only when no practice problem is open: with
    # one open, three hundred more of them cost the statement nothing more.
    solved = _open(course_copy, "one-row", "lookup")
    _solve(solved)
    _open(course_copy, "weighted-sum", "weighted_sum")
    before = _attempt_rows_read(course_copy)
    for _ in range(300):
        make_attempt(solved)
    assert next_step(copy=course_copy).kind == StepKind.PROBLEM
    # Not one step or row per answer: read one by one, as before, SQLite took about 2100 more
    # steps here; a deeper index costs a few.
    assert _attempt_rows_read(course_copy) - before < 50
