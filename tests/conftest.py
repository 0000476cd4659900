"""Fixtures for every test: learners, signed-in clients, and a loaded course.

- ``make_user(username=..., email=..., password=...)`` creates a signed-up learner.
- ``learner`` / ``other_learner``: two learners; ``client_for(user)`` a signed-in test client;
  ``learner_client`` is ``client_for(learner)``.
- ``course``: the small fixture course ``tests/courses/fixtures/mini-course`` loaded through the
  loader (pages ``first-page`` with ideas ``one-row`` [lookup] and ``weighted-sum``
  [weighted_sum, contrast, content_weights], ``second-page`` with ``coming-soon`` []); the
  dashboard is pointed at it. ``course_copy`` is the learner's copy of it.
- ``real_course``: the authored *How Text Becomes Numbers*, loaded from ``courses/content``.
- ``postgres_url``: a PostgreSQL server's URL (tests/postgres_server.py).

Tests marked ``database("sqlite")`` or ``database("postgresql")`` are deselected on the other
database and run on theirs by their module's runner (tests/other_database.py).
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from basislab.accounts.services import SIGN_IN_BACKEND
from courses.models import CourseCopy, CourseVersion
from courses.services import copy_get_or_create, course_load
from tests import other_database, postgres_server
from tests.no_skips import pytest_runtest_makereport  # noqa: F401 (a skip fails the test)

# The PostgreSQL of the backup test and of the PostgreSQL-only tests run from SQLite.
postgres_url = postgres_server.postgres_url

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_COURSE_DIR = ROOT / "tests" / "courses" / "fixtures" / "mini-course"
REAL_COURSE_DIR = ROOT / "courses" / "content" / "how-text-becomes-numbers"
TEST_PASSWORD = "violet-harbour-tangent-42"


@pytest.fixture
def make_user(db) -> Callable[..., object]:
    """Return a factory of signed-up learners with the password ``TEST_PASSWORD``."""

    def make(username: str = "learner", *, email: str | None = None, password: str = TEST_PASSWORD):
        return get_user_model().objects.create_user(
            username=username, email=email or f"{username}@example.org", password=password
        )

    return make


@pytest.fixture
def learner(make_user):
    return make_user(username="ada")


@pytest.fixture
def other_learner(make_user):
    return make_user(username="grace")


@pytest.fixture
def client_for(db) -> Callable[[object], Client]:
    """Return a factory of test clients signed in as the given user."""

    def make(user) -> Client:
        client = Client()
        client.force_login(user, backend=SIGN_IN_BACKEND)
        return client

    return make


@pytest.fixture
def learner_client(client_for, learner) -> Client:
    return client_for(learner)


@pytest.fixture
def course(db, settings) -> CourseVersion:
    """Load the small fixture course and point the dashboard at it; return its version."""
    version = course_load(directory=FIXTURE_COURSE_DIR).version
    settings.BASISLAB_COURSE_SLUG = version.course.slug
    return version


@pytest.fixture
def course_copy(course, learner) -> CourseCopy:
    return copy_get_or_create(user=learner, course_slug=course.course.slug)


@pytest.fixture
def real_course(db, settings) -> CourseVersion:
    """Load the authored course from courses/content and point the dashboard at it."""
    version = course_load(directory=REAL_COURSE_DIR).version
    settings.BASISLAB_COURSE_SLUG = version.course.slug
    return version


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Start every test with an empty cache: rate-limit counts must not leak between tests."""
    from django.core.cache import cache

    cache.clear()


@pytest.hookimpl(trylast=True)  # after -k and -m have chosen
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the tests meant for another database; their module's runner runs them there
    (tests/other_database.py)."""
    other_database.select(config, items, connection.vendor)
