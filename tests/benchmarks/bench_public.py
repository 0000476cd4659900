"""The open course: an anonymous page cold (rendered), warm (cached), 304, and signed in.

Through the whole stack with Django's test Client against a fresh test database (SQLite in a
temporary file, or a ``test_`` PostgreSQL database when ``DATABASE_URL`` names one). "Cold"
clears the cache before each request, so the page is rendered (Markdown, TeX to MathML, the
template); the per-process Markdown cache is cleared too. "Warm" is a repeat visit served from
the cache; "304" sends the ETag back; "signed in" is the same URL for a learner with a copy
(rendered for them, never cached; the course index is then their dashboard). ``queries`` counts
the statements of one request.
"""

import statistics
import time
from collections.abc import Callable

from tests.benchmarks.bench_submit import _prepare_database

ROUNDS = 40


def _time(fn: Callable[[], object], before: Callable[[], object] | None = None) -> list[float]:
    samples = []
    for _ in range(ROUNDS):
        if before is not None:
            before()
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return sorted(samples)


def _count(connection, fn: Callable[[], object]) -> int:
    """Return how many statements ``fn`` sends to the database."""
    statements = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        fn()
    return len(statements)


def run() -> list[dict]:
    """Time anonymous page views cold, warm and conditional; return the table rows."""
    label, drop = _prepare_database()
    try:
        return _run(label)
    finally:
        drop()


def _run(label: str) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import reverse

    from courses import mathml, presenters
    from courses.services import course_load
    from tests.conftest import REAL_COURSE_DIR

    version = course_load(directory=REAL_COURSE_DIR).version
    rows = []
    with override_settings(BASISLAB_COURSE_SLUG=version.course.slug):
        client = Client()
        learner = get_user_model().objects.create_user(username="bench", password="x")
        signed_in = Client()
        signed_in.force_login(learner, backend="django.contrib.auth.backends.ModelBackend")
        signed_in.get(reverse("courses:dashboard"))  # makes the learner's copy

        def cold() -> None:
            cache.clear()
            mathml._render_cached.cache_clear()
            presenters._split_body.cache_clear()

        for case, url in (
            ("page the-same-word-twice", reverse("public:page", args=["the-same-word-twice"])),
            (
                "answer same-word-twice",
                reverse("public:answer", args=["same-word-different-vector"]),
            ),
            ("course index", reverse("courses:dashboard")),
        ):
            first = client.get(url)
            etag = first["ETag"]
            cold()
            cold_queries = _count(connection, lambda u=url: client.get(u))
            warm_queries = _count(connection, lambda u=url: client.get(u))
            results = {
                "cold": (_time(lambda u=url: client.get(u), before=cold), cold_queries),
                "signed in": (
                    _time(lambda u=url: signed_in.get(u)),
                    _count(connection, lambda u=url: signed_in.get(u)),
                ),
                "warm": (_time(lambda u=url: client.get(u)), warm_queries),
                "304": (
                    _time(lambda u=url, e=etag: client.get(u, headers={"if-none-match": e})),
                    warm_queries,
                ),
            }
            for kind, (samples, queries) in results.items():
                rows.append(
                    {
                        "benchmark": "public",
                        "case": f"{case} {kind}",
                        "n": ROUNDS,
                        "median_ms": statistics.median(samples),
                        "p99_ms": samples[-1],
                        "queries": queries,
                        "note": label,
                    }
                )
    return rows
