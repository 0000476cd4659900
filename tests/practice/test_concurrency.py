"""Races that really happen: threads with their own database connections.

On PostgreSQL a racer waits for the row lock and then gets the one row. SQLite's shared
in-memory test database refuses a second writer at once ("database table is locked") instead
of waiting; there a racer retries, as a browser retries after a failed request, with the same
form token. Either way exactly one row is written and every racer gets it.
"""

import threading
import time
import uuid
from collections.abc import Callable

import pytest
from django.db import OperationalError, connection, transaction

from courses.models import LEVEL_UP_STREAK, IdeaProgress
from courses.services import progress_record
from practice import services
from practice.models import Attempt, ProblemInstance
from tests import other_database
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG

RACERS = 3


def _race(call: Callable[[], object]) -> list:
    """Run call in RACERS threads released together; return what the winners returned."""
    barrier = threading.Barrier(RACERS)
    results: list = []
    errors: list = []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            for attempt in range(50):
                try:
                    results.append(call())
                    return
                except OperationalError as exc:
                    if "locked" not in str(exc) or attempt == 49:
                        raise
                    time.sleep(0.01)
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=run) for _ in range(RACERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert not errors, errors
    assert len(results) == RACERS
    return results


def _wait_until_a_session_waits_for_a_lock() -> None:
    """Return once another session of this PostgreSQL test database waits for a lock (about
    2 s at most); fail the test otherwise."""
    with connection.cursor() as cursor:
        for _ in range(200):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    pytest.fail("the second submit never waited for the lock")


def behind_a_held_lock(first: Callable[[], object], second: Callable[[], object]) -> tuple:
    """Run ``first`` in a transaction held open (its row locks with it) until ``second``, in
    another thread and its own transactions, is seen waiting for a lock on PostgreSQL; then let
    ``first`` commit.
    Return what each returned; fail on any error of either."""
    submitted, release = threading.Event(), threading.Event()
    results: dict = {}
    errors: list = []

    def run(name: str, call: Callable[[], object], hold: bool) -> None:
        try:
            if not hold:
                results[name] = call()
                return
            with transaction.atomic():
                results[name] = call()
                submitted.set()
                assert release.wait(timeout=20)
        except Exception as exc:  # asserted below
            errors.append(exc)
        finally:
            submitted.set()
            connection.close()

    holder = threading.Thread(target=run, args=("first", first, True))
    holder.start()
    assert submitted.wait(timeout=20)
    waiter = threading.Thread(target=run, args=("second", second, False))
    waiter.start()
    _wait_until_a_session_waits_for_a_lock()
    release.set()
    holder.join(timeout=30)
    waiter.join(timeout=30)
    assert not errors, errors
    return results["first"], results["second"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("answer", ["wrong", "right"])
def test_racing_double_submit_records_one_attempt_and_counts_once(course_copy, answer):
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    text = right_answer(problem) if answer == "right" else wrong_answer(problem)[1]
    token = uuid.uuid4()
    results = _race(
        lambda: services.attempt_submit(copy=course_copy, problem=problem, text=text, token=token)
    )
    assert len({attempt.pk for attempt in results}) == 1
    assert Attempt.objects.count() == 1
    progress = IdeaProgress.objects.get(copy=course_copy, idea_slug=IDEA_SLUG)
    assert progress.attempts == 1
    expected_state = "solved" if answer == "right" else "open"
    assert ProblemInstance.objects.get(pk=problem.pk).state == expected_state


@pytest.mark.django_db(transaction=True)
def test_racing_opens_create_one_problem(course_copy):
    results = _race(
        lambda: (
            services.problem_open(
                copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="contrast"
            ).pk
        )
    )
    assert len(set(results)) == 1
    assert ProblemInstance.objects.filter(kind="contrast").count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_first_answers_on_an_idea_are_all_counted(course_copy):
    # Right answers to different problems of one idea, none recorded yet: each racer's one
    # statement inserts the row or, when another racer inserted it first, updates it.
    def record() -> IdeaProgress:
        with transaction.atomic():
            return progress_record(
                copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, correct=True
            )

    assert RACERS == LEVEL_UP_STREAK
    _race(record)
    progress = IdeaProgress.objects.get(copy=course_copy, idea_slug=IDEA_SLUG)
    assert (progress.attempts, progress.correct, progress.streak, progress.level) == (3, 3, 0, 2)


# SQLite refuses a second writer instead of making it wait: on SQLite this test is deselected
# and the module's runner runs it on PostgreSQL (tests/other_database.py).
@pytest.mark.database("postgresql")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("answer", ["wrong", "right"])
def test_a_double_submit_that_waited_on_the_lock_returns_the_first_attempt(course_copy, answer):
    # The first submit's transaction stays open (its row lock held) until the second is seen
    # waiting for that lock on PostgreSQL; then it commits and the second must find its attempt.
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    text = right_answer(problem) if answer == "right" else wrong_answer(problem)[1]
    token = uuid.uuid4()

    def submit() -> Attempt:
        return services.attempt_submit(copy=course_copy, problem=problem, text=text, token=token)

    first, second = behind_a_held_lock(submit, submit)
    assert second.pk == first.pk
    assert Attempt.objects.count() == 1
    assert IdeaProgress.objects.get(copy=course_copy, idea_slug=IDEA_SLUG).attempts == 1


test_on_sqlite_the_lock_waits_run_on_postgresql_in_a_process_of_their_own = other_database.runner(
    "postgresql", __file__
)
