"""Every request type of ``tests/budgets.py``: its statements and this process's CPU ms beside
its budget, with what is over flagged.

The request types are ``tests/budget_requests.py``'s, through Django's test Client (the whole
stack: middleware, session, signed-in user) against a database of their own, as
``bench_submit`` makes it: SQLite in a temporary file, or a ``test_`` PostgreSQL database when
DATABASE_URL names one, dropped after. Rounds are interleaved over the types, so drift hits
them alike; each round's set-up (a fresh problem, the review card due) is untimed. Statements
are counted in one round after the warm-up (the work after the commit included: these are real
transactions); the timed rounds count nothing, as capturing statements costs CPU. The bench
process serves its requests itself, so its CPU per request is the request's, with the test
client's own work on top; under ``make load`` the same request costs more (contention, the
production layout), which the CPU budgets allow for. Nothing is asserted: the budgets' test is
``tests/test_budgets.py``.
"""

import os
import statistics
import time

from tests.benchmarks.bench_submit import _percentile, _prepare_database
from tests.budgets import BUDGETS, verdict

ROUNDS = int(os.environ.get("BENCH_BUDGETS_ROUNDS", "40"))
WARMUP = 3


def run() -> list[dict]:
    """Measure each request type; return table rows with their budgets."""
    label, drop = _prepare_database()
    try:
        return _run(label)
    finally:
        drop()


def _run(label: str) -> list[dict]:
    from django.db import connection
    from django.test import override_settings
    from django.test.utils import CaptureQueriesContext

    from tests import budget_requests

    scenario = budget_requests.build()
    types = budget_requests.REQUEST_TYPES
    statements: dict[str, int] = {}
    cpu: dict[str, list[float]] = {t.name: [] for t in types}
    wall: dict[str, list[float]] = {t.name: [] for t in types}
    slug = scenario.copy.version.course.slug
    with override_settings(BASISLAB_COURSE_SLUG=slug, PRACTICE_PREVIEW_RATE="1000000/m"):
        for index in range(WARMUP + 1 + ROUNDS):
            for request_type in types:
                request_type.prepare(scenario)
                if index == WARMUP:
                    with CaptureQueriesContext(connection) as counted:
                        request_type.send(scenario)
                    statements[request_type.name] = len(counted.captured_queries)
                    continue
                cpu_started, started = time.process_time(), time.perf_counter()
                request_type.send(scenario)
                if index > WARMUP:
                    wall[request_type.name].append(time.perf_counter() - started)
                    cpu[request_type.name].append(time.process_time() - cpu_started)
    rows = []
    for request_type in types:
        name = request_type.name
        budget = BUDGETS[name]
        cpu_ms = statistics.median(cpu[name]) * 1000
        rows.append(
            {
                "benchmark": "budgets",
                "case": name,
                "n": len(wall[name]),
                "median_ms": statistics.median(wall[name]) * 1000,
                "p99_ms": _percentile(wall[name], 0.99) * 1000,
                "statements": statements[name],
                "budget_statements": budget.statements_on(connection.vendor),
                "cpu_ms": cpu_ms,
                "budget_cpu_ms": budget.cpu_ms,
                "budget": verdict(name, statements[name], cpu_ms, vendor=connection.vendor),
            }
        )
    rows[0]["note"] = label
    return rows
