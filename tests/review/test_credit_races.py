"""Credit under real races (threads with their own connections, as tests/practice/test_concurrency
does): a double submit of a right answer credits once, and right answers to several review
variants at once each credit the others once, without a deadlock."""

import itertools
import threading
import uuid

import pytest
import time_machine
from django.utils import timezone

import grading
from practice import services
from practice.models import Attempt
from practice.review.models import ReviewItem, ReviewLog
from practice.review.services.variants import review_open
from tests import other_database
from tests.answers import right_answer, typed, wrong_answer
from tests.practice.conftest import IDEA_SLUG, PAGE_SLUG
from tests.practice.test_concurrency import RACERS, _race, behind_a_held_lock


def _items_made(copy, count: int) -> list[ReviewItem]:
    """Make ``count`` review items of weighted_sum, each a different mistake on its own problem
    (the last one a wrong answer no catalogued mistake explains)."""
    problem = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    made: set[str] = set()
    for n in range(count):
        if n == count - 1:
            far = [x + 100 for x in grading.expected_answer(problem.spec)]
            text = typed(far)
        else:
            text = next(
                typed(vector)
                for diagnosis, vector in grading.mistaken_answers(problem.spec)
                if str(diagnosis.mistake) not in made
                and (verdict := grading.grade(problem.spec, typed(vector))).diagnosis
                and verdict.diagnosis.mistake == diagnosis.mistake
            )
        attempt = services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())
        made.add(attempt.mistake or "unexplained")
        problem = services.problem_new_variant(copy=copy, problem=problem)
    items = list(ReviewItem.objects.filter(copy=copy).order_by("pk"))
    assert len(items) == count
    return items


@pytest.mark.django_db(transaction=True)
def test_a_racing_double_submit_of_a_right_answer_credits_once(course_copy):
    items = _items_made(course_copy, 2)
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    text, token = right_answer(problem), uuid.uuid4()
    results = _race(
        lambda: services.attempt_submit(copy=course_copy, problem=problem, text=text, token=token)
    )
    assert len({attempt.pk for attempt in results}) == 1
    for item in items:
        assert ReviewLog.objects.filter(item=item, origin="implicit").count() == 1
        assert ReviewItem.objects.get(pk=item.pk).reps == item.reps  # credit is no review


@pytest.mark.django_db(transaction=True)
def test_right_answers_to_several_reviews_at_once_each_credit_the_others_once(course_copy):
    items = _items_made(course_copy, RACERS)
    at = max(item.due for item in items) + timezone.timedelta(minutes=1)
    with time_machine.travel(at, tick=True):
        variants = [review_open(copy=course_copy, item=item) for item in items]
        order = itertools.count()
        lock = threading.Lock()
        # One variant and one form token per thread, kept when SQLite makes a racer retry.
        mine: dict[int, tuple] = {}

        def answer() -> Attempt:
            with lock:
                if threading.get_ident() not in mine:
                    mine[threading.get_ident()] = (variants[next(order)], uuid.uuid4())
                variant, token = mine[threading.get_ident()]
            return services.attempt_submit(
                copy=course_copy, problem=variant, text=right_answer(variant), token=token
            )

        attempts = _race(answer)
    assert len({a.pk for a in attempts}) == RACERS
    for item in items:
        logs = ReviewLog.objects.filter(item=item, attempt__in=attempts)
        assert sorted(logs.values_list("origin", flat=True)) == ["implicit"] * (RACERS - 1) + [
            "review"
        ]
        # Only its own review rates the card; the others' credit is evidence.
        assert ReviewItem.objects.get(pk=item.pk).reps == item.reps + 1


# SQLite refuses a second writer instead of making it wait: on SQLite this test is deselected
# and the module's runner runs it on PostgreSQL (tests/other_database.py).
@pytest.mark.database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_a_right_answer_that_waited_for_a_wrong_ones_lock_is_a_retry_and_credits_nothing(
    course_copy,
):
    # The wrong answer's transaction holds the problem's lock until the right answer (another
    # form) is seen waiting for it; the right answer must then see the wrong one before it
    # (it is read after the lock, not from the waiting select's older snapshot).
    (item,) = _items_made(course_copy, 1)
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )

    def submit(text: str):
        return lambda: services.attempt_submit(
            copy=course_copy, problem=problem, text=text, token=uuid.uuid4()
        )

    wrong, right = behind_a_held_lock(
        submit(wrong_answer(problem)[1]), submit(right_answer(problem))
    )
    assert wrong.status == "incorrect" and right.status == "correct"
    assert not ReviewLog.objects.filter(item=item, origin="implicit").exists()


test_on_sqlite_the_lock_waits_run_on_postgresql_in_a_process_of_their_own = other_database.runner(
    "postgresql", __file__
)
