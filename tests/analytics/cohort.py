"""A generated cohort through the real services, and the counts computed directly from the
attempts in Python (by the definitions in docs/analytics.md), for the tests to compare."""

import uuid
from collections import Counter

import grading
from courses.models import CourseCopy
from courses.services import copy_get_or_create
from practice import services
from practice.analytics.models import LearnerMistakeCount, MistakeCount, MistakeRecurrence
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem, ReviewLog
from practice.review.services.variants import review_open
from tests.answers import right_answer, typed, wrong_answer

PAGE = "first-page"
IDEA = "weighted-sum"
LOOKUP_IDEA = "one-row"
KEY = ("course_id", "page_slug", "idea_slug", "kind", "level", "code", "try_class")


def unexplained_answer(problem: ProblemInstance) -> str:
    """Return a wrong answer no catalogued mistake explains (checked with the grader)."""
    far = [x + 997 for x in grading.expected_answer(problem.spec)]
    text = typed(far)
    verdict = grading.grade(problem.spec, text)
    assert verdict.status == "incorrect" and verdict.diagnosis is None, verdict
    return text


def submit(copy: CourseCopy, problem: ProblemInstance, text: str) -> Attempt:
    return services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())


def work(copy: CourseCopy, n: int) -> None:
    """One learner's history; ``n`` varies it: wrong, unreadable, unexplained and right answers,
    retries, a second problem, another kind, and a review variant answered."""
    problem = services.problem_open(copy=copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum")
    if n % 2 == 0:
        submit(copy, problem, wrong_answer(problem)[1])
    submit(copy, problem, "[[")  # unreadable: never counted
    if n % 3 == 0:
        submit(copy, problem, unexplained_answer(problem))
    submit(copy, problem, right_answer(problem))
    second = services.problem_open(copy=copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum")
    submit(copy, second, wrong_answer(second)[1] if n % 4 == 1 else right_answer(second))
    lookup = services.problem_open(copy=copy, page_slug=PAGE, idea_slug=LOOKUP_IDEA, kind="lookup")
    submit(copy, lookup, wrong_answer(lookup)[1] if n % 2 else right_answer(lookup))
    item = ReviewItem.objects.filter(copy=copy).order_by("pk").first()
    if item is not None:
        variant = review_open(copy=copy, item=item)
        submit(copy, variant, wrong_answer(variant)[1])
        submit(copy, variant, right_answer(variant))


def cohort(make_user, course_slug: str, learners: int) -> list[CourseCopy]:
    copies = []
    for n in range(learners):
        copy = copy_get_or_create(user=make_user(username=f"cohort-{n}"), course_slug=course_slug)
        work(copy, n)
        copies.append(copy)
    return copies


def direct_counts() -> tuple[dict, dict]:
    """Return (per learner and key: attempts, per key: (attempts, learners)) from the attempts."""
    per_learner: Counter = Counter()
    graded_problems: set[int] = set()
    for attempt in (
        Attempt.objects.exclude(status="invalid").select_related("problem", "copy").order_by("pk")
    ):
        problem = attempt.problem
        if problem.purpose == "review":
            tried = "review"
        else:
            tried = "retry" if problem.pk in graded_problems else "first"
        graded_problems.add(problem.pk)
        code = "correct" if attempt.status == "correct" else (attempt.mistake or "unexplained")
        for level, try_class in ((problem.level, tried), (0, "all")):
            key = (attempt.copy.course_id, problem.page_slug, problem.idea_slug, problem.kind)
            per_learner[(attempt.copy_id, *key, level, code, try_class)] += 1
    per_key: dict = {}
    for (_copy, *key), attempts in per_learner.items():
        total, learners = per_key.get(tuple(key), (0, 0))
        per_key[tuple(key)] = (total + attempts, learners + 1)
    return dict(per_learner), per_key


def stored_counts() -> tuple[dict, dict]:
    """Return the counts tables in the shape of ``direct_counts``."""
    per_learner = {
        tuple(row[:-1]): row[-1]
        for row in LearnerMistakeCount.objects.values_list("copy_id", *KEY, "attempts")
    }
    per_key = {
        tuple(row[:-2]): (row[-2], row[-1])
        for row in MistakeCount.objects.values_list(*KEY, "attempts", "learners")
    }
    return per_learner, per_key


def direct_recurrence() -> dict[tuple, tuple]:
    """Return (copy, kind, mistake) -> (first attempt id, next problem, next review) computed
    from the attempts and review logs by the definitions in docs/analytics.md: the first
    attempt that made the mistake; then whether the first graded answer to a later practice
    problem of the kind, and to a later review variant of the mistake's item, made it again
    (None when there is none)."""
    graded = list(
        Attempt.objects.exclude(status="invalid").select_related("problem").order_by("pk")
    )
    seen: set[int] = set()
    firsts = []  # attempts that are the first graded answer to their problem
    for attempt in graded:
        if attempt.problem_id not in seen:
            firsts.append(attempt)
        seen.add(attempt.problem_id)
    reviewed = {
        log.attempt_id: (log.item.kind, log.item.mistake)
        for log in ReviewLog.objects.filter(origin="review").select_related("item")
    }
    result: dict[tuple, tuple] = {}
    for attempt in graded:
        if not attempt.mistake:
            continue
        key = (attempt.copy_id, attempt.problem.kind, attempt.mistake)
        if key in result:
            continue
        later = [
            a
            for a in firsts
            if a.copy_id == attempt.copy_id and a.problem.kind == key[1] and a.pk > attempt.pk
        ]
        practice = next((a for a in later if a.problem.purpose == "practice"), None)
        review = next(
            (
                a
                for a in later
                if a.problem.purpose == "review" and reviewed.get(a.pk) == (key[1], key[2])
            ),
            None,
        )
        result[key] = (
            attempt.pk,
            None if practice is None else practice.mistake == key[2],
            None if review is None else review.mistake == key[2],
        )
    return result


def stored_recurrence() -> dict[tuple, tuple]:
    """Return the recurrence rows in the shape of ``direct_recurrence``."""
    return {
        (row[0], row[1], row[2]): row[3:]
        for row in MistakeRecurrence.objects.values_list(
            "copy_id", "kind", "mistake", "attempt_id", "next_problem", "next_review"
        )
    }
