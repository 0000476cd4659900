"""Factories for practice tests: a loaded course version, learners and their copies."""

import itertools

import pytest
from django.contrib.auth import get_user_model

from courses.models import Course, CourseCopy, CourseVersion, Idea, Page
from grading.kinds import ProblemKind

_numbers = itertools.count(1)

PAGE_SLUG = "the-same-word-twice"
IDEA_SLUG = "mixing-rows"


def make_version(*, kinds: tuple[ProblemKind, ...] = tuple(ProblemKind)) -> CourseVersion:
    """Create a course with one version, one page and one idea listing the kinds."""
    course, _ = Course.objects.get_or_create(
        slug="how-text-becomes-numbers", defaults={"title": "How Text Becomes Numbers"}
    )
    number = (course.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    version = CourseVersion.objects.create(
        course=course, number=number, content_hash=f"hash-{number}", title=course.title
    )
    page = Page.objects.create(
        version=version,
        slug=PAGE_SLUG,
        title="The Same Word Twice",
        order=1,
        question="Why does the same word get a different vector?",
        summary="The lookup is the same; the mixing differs.",
        body="::: idea mixing-rows",
    )
    Idea.objects.create(
        page=page,
        slug=IDEA_SLUG,
        title="Mixing rows",
        order=1,
        summary="A weighted sum of the rows around a position.",
        problem_kinds=[kind.value for kind in kinds],
    )
    return version


def make_user(*, staff: bool = False, password: str = "a-long-test-password"):
    """Create a learner (or a staff author) with a known password."""
    n = next(_numbers)
    return get_user_model().objects.create_user(
        username=f"learner{n}", email=f"learner{n}@example.org", password=password, is_staff=staff
    )


def make_copy(*, user=None, version: CourseVersion | None = None) -> CourseCopy:
    """Create a learner's copy of the course version (creating both when not given)."""
    version = version or CourseVersion.objects.order_by("-number").first() or make_version()
    user = user or make_user()
    return CourseCopy.objects.create(owner=user, course=version.course, version=version)


@pytest.fixture
def version(db) -> CourseVersion:
    return make_version()


@pytest.fixture
def copy(version) -> CourseCopy:
    return make_copy(version=version)


@pytest.fixture
def learner_client(client, copy):
    client.force_login(copy.owner)
    return client
