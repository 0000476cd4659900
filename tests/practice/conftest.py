"""Fixtures for practice tests, on top of tests/conftest.py (learners, the mini course).

The mini course's ``first-page`` has the ideas ``one-row`` [lookup] and ``weighted-sum``
[weighted_sum, contrast, content_weights].
"""

import uuid

import pytest

from courses.models import CourseCopy
from grading.kinds import ProblemKind
from practice import services
from practice.models import ProblemInstance

PAGE_SLUG = "first-page"
IDEA_SLUG = "weighted-sum"
LOOKUP_IDEA_SLUG = "one-row"


@pytest.fixture
def copy(course_copy) -> CourseCopy:
    return course_copy


@pytest.fixture
def problem(copy) -> ProblemInstance:
    return services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind=ProblemKind.WEIGHTED_SUM
    )


@pytest.fixture
def submit(copy):
    """Return a function that submits an answer with a fresh token (or the given one)."""

    def run(problem: ProblemInstance, text: str, token: uuid.UUID | None = None):
        return services.attempt_submit(
            copy=copy, problem=problem, text=text, token=token or uuid.uuid4()
        )

    return run


@pytest.fixture
def staff(make_user):
    user = make_user(username="author")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user
