"""Factories for review tests: learners' copies, problems, attempts and review items.

Attempts are written directly (status, mistake, verdict) where a test is about scheduling, so
those tests do not depend on the grader; the end-to-end tests go through
``practice.services.attempt_submit``.
"""

import itertools
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from kombu import pools

from basislab.celery import app
from courses.models import Course, CourseCopy, CourseVersion, Idea, Page
from grading.kinds import MistakeCode, ProblemKind, Status
from practice.models import Attempt, ProblemInstance
from practice.problems import problem_replace, problem_store
from tests import redis_server

_numbers = itertools.count(1)

PAGE_SLUG = "the-same-word-twice"
IDEA_SLUG = "mixing-rows"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

WEIGHTED_SUM_SPEC = {
    "kind": "weighted_sum",
    "tokens": ["the", "bank"],
    "position": 1,
    "weights": ["1/4", "3/4"],
    "rows": [["1", "0"], ["0", "2"]],
}


def make_version() -> CourseVersion:
    """Create (or reuse) a course with one version, one page and one idea listing every kind."""
    course, _ = Course.objects.get_or_create(
        slug="how-text-becomes-numbers", defaults={"title": "How Text Becomes Numbers"}
    )
    version = course.versions.order_by("-number").first()
    if version is not None:
        return version
    version = CourseVersion.objects.create(
        course=course, number=1, content_hash="hash-1", title=course.title
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
        problem_kinds=[kind.value for kind in ProblemKind],
    )
    return version


def make_copy(*, email: str | None = None) -> CourseCopy:
    """Create a learner with an email address and their copy of the course."""
    n = next(_numbers)
    user = get_user_model().objects.create_user(
        username=f"reviewer{n}",
        email=f"reviewer{n}@example.org" if email is None else email,
        password="a-long-test-password",
    )
    version = make_version()
    return CourseCopy.objects.create(owner=user, course=version.course, version=version)


def make_problem(
    copy: CourseCopy,
    *,
    kind: ProblemKind = ProblemKind.WEIGHTED_SUM,
    spec: dict | None = None,
    purpose: str = ProblemInstance.Purpose.PRACTICE,
) -> ProblemInstance:
    """Store a problem through practice's own services (a hand-written spec unless one is
    given): an open practice problem of the same idea and kind is replaced first, as "new
    variant" does, since an idea keeps one open practice problem per kind."""
    with transaction.atomic():
        if purpose == ProblemInstance.Purpose.PRACTICE:
            for open_problem in ProblemInstance.objects.filter(
                copy=copy,
                page_slug=PAGE_SLUG,
                idea_slug=IDEA_SLUG,
                kind=kind.value,
                purpose=purpose,
                state=ProblemInstance.State.OPEN,
            ):
                problem_replace(problem=open_problem)
        return problem_store(
            copy=copy,
            page_slug=PAGE_SLUG,
            idea_slug=IDEA_SLUG,
            kind=kind,
            seed=next(_numbers),
            level=1,
            spec=spec or dict(WEIGHTED_SUM_SPEC, kind=kind.value),
            purpose=purpose,
        )


def make_attempt(
    problem: ProblemInstance,
    *,
    status: Status = Status.INCORRECT,
    mistake: MistakeCode | None = MistakeCode.OMITTED_TERM,
    text: str = "[0, 3/2]",
) -> Attempt:
    """Create a stored attempt with a minimal Verdict of the given status and mistake."""
    if status != Status.INCORRECT:
        mistake = None
    diagnosis = (
        {"mistake": mistake.value, "terms": [0], "coordinate": None, "detail": {}}
        if mistake
        else None
    )
    return Attempt.objects.create(
        problem=problem,
        copy=problem.copy,
        text=text,
        status=status.value,
        score=1.0 if status == Status.CORRECT else 0.0,
        verdict={
            "status": status.value,
            "score": 1.0 if status == Status.CORRECT else 0.0,
            "interpreted": "",
            "diagnosis": diagnosis,
            "explanation": "You left out the term for position 0, *the*." if mistake else "",
            "message": "",
            "notes": [],
        },
        mistake=mistake.value if mistake else None,
        form_token=uuid.uuid4(),
    )


@pytest.fixture
def copy(db) -> CourseCopy:
    return make_copy()


# --- a real Celery worker against Redis -----------------------------------------------------

# The session's Redis (configured, or a throwaway server): a fixture for the worker tests.
redis_url = redis_server.redis_url
# Nothing listens here: the broker is "down".
BROKER_DOWN = "redis://127.0.0.1:1/0"


def redis_broker_url() -> str:
    """Return the Redis broker for worker tests: CELERY_BROKER_URL when it names Redis (CI),
    else the throwaway server tests/redis_server.py started for this session."""
    return redis_server.current_url()


def subprocess_database_url() -> str:
    """Return a DATABASE_URL naming the test database, for a worker run as a subprocess.

    PostgreSQL's test database is named as it is; SQLite's must be a file (``TEST["NAME"]`` in
    ``basislab.settings_test``), since another process cannot see an in-memory database.
    """
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        if connection.is_in_memory_db():
            raise RuntimeError("a subprocess cannot see an in-memory SQLite test database")
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{user}{password}@{host}/{quote(db['NAME'], safe='')}"


def use_broker(url: str) -> None:
    """Point the Celery app at another broker, dropping pooled connections to the old one."""
    # Pools are registered globally per connection: a closed one would be handed out again.
    pools.reset()
    app._pool = None
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    app.conf.broker_url = url
    # Celery prefers the CELERY_BROKER_URL environment variable to broker_url, but the read and
    # write URLs to both: set those so the switch holds in CI too.
    app.conf.broker_read_url = url
    app.conf.broker_write_url = url
    app.conf.broker_transport_options = {"visibility_timeout": 3600}
    # Fail fast when the broker is down instead of retrying for long.
    app.conf.task_publish_retry_policy = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    }


def wait_for(predicate: Callable[[], bool], *, timeout: float = 30.0, what: str = "") -> None:
    """Poll until the predicate holds; fail the test after the timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


@pytest.fixture
def redis_app(transactional_db, redis_url):
    """Yield the project's Celery app pointed at Redis with an empty queue; restore it after."""
    saved = {
        key: app.conf.get(key)
        for key in (
            "broker_url",
            "broker_read_url",
            "broker_write_url",
            "broker_transport_options",
            "task_publish_retry_policy",
        )
    }
    use_broker(redis_broker_url())
    # An embedded worker must not take over the root logger for the tests that follow.
    hijack = app.conf.worker_hijack_root_logger
    app.conf.worker_hijack_root_logger = False
    app.control.purge()
    yield app
    app.conf.worker_hijack_root_logger = hijack
    use_broker(redis_broker_url())
    app.control.purge()
    use_broker(saved["broker_url"])
    app.conf.broker_read_url = saved["broker_read_url"]
    app.conf.broker_write_url = saved["broker_write_url"]
    app.conf.broker_transport_options = saved["broker_transport_options"]
    app.conf.task_publish_retry_policy = saved["task_publish_retry_policy"]


@pytest.fixture
def finished_tasks():
    """Collect (task name, task id, return value) of every task a worker finishes."""
    done: list[tuple[str, str, object]] = []

    def record(sender=None, task_id=None, task=None, retval=None, **kwargs):
        done.append((task.name, task_id, retval))

    task_postrun.connect(record, weak=False)
    yield done
    task_postrun.disconnect(record)


@pytest.fixture
def worker(redis_app):
    """Run a real embedded worker (solo pool, one at a time) on the Redis broker."""
    with start_worker(
        redis_app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30
    ) as running:
        yield running
