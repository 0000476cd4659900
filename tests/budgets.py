"""What one request of each type may cost: statements, and CPU milliseconds under ``make load``.

One table, read by ``tests/test_budgets.py`` (which asserts each type's statements at most its
budget, through Django's test client on the configured database), by ``make bench``
(``tests/benchmarks/bench_budgets.py``) and ``make load`` (``tests/load/``), which print what
they measure beside it and flag what is over; ``tests/test_budgets.py`` also checks the
table that opens docs/benchmarks.md against this one. Timing is never asserted: the machine is
shared and its speed moves by 2x between runs.

**Statements** are counted as Django sends them for one request: the signed-in user (the
session comes from the cache, Django's ``cached_db``), the view's reads and writes, and the work
run after the commit (the mistake counts of ``practice/analytics``). A transaction is two
statements besides its own, ``BEGIN`` and ``COMMIT`` (``SAVEPOINT`` and ``RELEASE`` inside a
test's transaction). The pages are counted warm: what a version's content gives is read once
per process. The request types are those of ``tests/budget_requests.py`` (the fixture course,
one learner with a few answers); pages that show Continue read the review queue, three
statements more, only when a review is due, and the practice loop's types are counted with none
due, as under ``make load``.

**CPU ms** is the gunicorn worker's CPU time for one request under ``make load`` (production
layout, PostgreSQL's own CPU not counted), set on 2026-12-07 on this shared 2-CPU machine
(docs/benchmarks.md, "Budgets"): 1.5 times the mean of one ``make load`` run (50 learners, 30
s) for the types it sent (``cpu_from="make load"``), and for the others 3 times this process's
median CPU in one ``make bench`` run (``bench_budgets``, PostgreSQL): the types both measured
cost 1.2 to 2.5 times as much under load (1.65 the median), rounded up to 2, times the same
1.5.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """One request type's budget; ``what`` says what its statements are for."""

    statements: int
    cpu_ms: float
    what: str
    load: bool = False  # whether ``make load`` sends this type
    cpu_from: str = "make load"  # where its CPU budget was measured: "make load" or "make bench"
    counted: bool = False  # whether the mistake counts run after its commit

    def statements_on(self, vendor: str) -> int:
        """Return the statement budget on a database (``connection.vendor``)."""
        return self.statements + (SQLITE_COUNTING if self.counted and vendor == "sqlite" else 0)


# The budgets are PostgreSQL's, production's and CI's database. On SQLite (the suite's default)
# the mistake counts after a commit take up to four statements more: no lock timeout, but the
# counts are three statements, as SQLite has no INSERT inside WITH, and two more for the
# variant parameters' rows when the problem has any.
SQLITE_COUNTING = 4


# Every stored answer: the user, the problem with its copy; BEGIN, the problem's lock with the
# form token's check, the attempt's insert.
_ANSWER = "user, problem; BEGIN, lock and token, insert"
# After the commit, the mistake counts (practice.analytics): BEGIN, the lock timeout, the counts
# (one statement), the earlier recurrence rows updated, COMMIT; an explained mistake adds its
# own recurrence row and the problem it was explained at.
_COUNTED = "after it the mistake counts (BEGIN, timeout, counts, recurrence, COMMIT"
_EXPLAINED = f"{_COUNTED}, the mistake's row, the problem explained)"

BUDGETS: dict[str, Budget] = {
    "open a problem (redirect)": Budget(
        7,
        20.0,
        "user, copy, open problem (none); BEGIN, level, insert, COMMIT (a process's first open "
        "on a page also reads the page and its ideas, once)",
        load=True,
    ),
    "problem page": Budget(3, 23.0, "user, problem with copy and version, its attempts", load=True),
    "preview (htmx)": Budget(2, 8.0, "user, problem", load=True),
    "submit, first wrong answer": Budget(
        25,
        18.0,
        f"{_ANSWER}, progress; the card and the review settings (both made: a learner's first "
        f"mistake), log, card update; COMMIT; {_EXPLAINED}, the month's count",
        load=True,
        counted=True,
    ),
    "submit, unreadable answer": Budget(
        6,
        10.0,
        f"{_ANSWER}, COMMIT; nothing else",
        load=True,
    ),
    "submit, repeated wrong answer": Budget(
        15,
        17.0,
        f"{_ANSWER}, progress; the card (rated already); COMMIT; {_EXPLAINED}",
        counted=True,
        cpu_from="make bench",
    ),
    "submit, right after wrong": Budget(
        13,
        12.0,
        f"{_ANSWER}, solved (a retry: no credit), progress; COMMIT; {_COUNTED})",
        load=True,
        counted=True,
    ),
    "submit, right first try (credit)": Budget(
        22,
        36.0,
        f"{_ANSWER}, solved (a first try), progress; the kind's 2 items locked, credited "
        f"already, settings, per item last interval, log, update; COMMIT; {_COUNTED})",
        load=True,
        counted=True,
        cpu_from="make bench",
    ),
    "Verdict page": Budget(
        3,
        20.0,
        "user, the problem's attempts with the one shown (problem, copy, version joined); Continue",
        load=True,
    ),
    "Verdict page, problem solved": Budget(
        6,
        20.0,
        "the Verdict page's, the idea's open problem, what the answer credited (the logs, their "
        "items)",
        load=True,
    ),
    "course page": Budget(
        4, 17.0, "user, copy with note, progress; Continue", cpu_from="make bench"
    ),
    "Today page": Budget(
        13,
        49.0,
        "user, course, copy, progress, newest version; settings, forecast, weeks; Continue; "
        "goal, today's count, days in a row, review badge",
        cpu_from="make bench",
    ),
    "review queue": Budget(
        10,
        39.0,
        "user, copy, settings (twice), done today, due items, their credit; due count; done "
        "today, upcoming items, their credit",
        cpu_from="make bench",
    ),
    "review, next item": Budget(
        9,
        56.0,
        "user, item; BEGIN, item locked with its variant, COMMIT; its credit; settings (twice); "
        "the attempt recalled",
        cpu_from="make bench",
    ),
    "review answer": Budget(
        20,
        31.0,
        f"{_ANSWER}, progress; rated already?, item, its ratings, settings, log, card update; "
        f"COMMIT; {_EXPLAINED}",
        counted=True,
        cpu_from="make bench",
    ),
    "analytics class page": Budget(
        6,
        35.0,
        "user, the instructor's context, recurrence, idea titles, the table, who has each "
        "mistake now",
        cpu_from="make bench",
    ),
}


def verdict(
    name: str, statements: float | None, cpu_ms: float | None, *, vendor: str = "postgresql"
) -> str:
    """Return "ok", or which of the request's measures are over its budget on that database
    ("OVER: statements", "OVER: CPU", "OVER: statements, CPU"); "no budget" for a name the
    table lacks. A measure given as None is not judged."""
    budget = BUDGETS.get(name)
    if budget is None:
        return "no budget"
    over = []
    if statements is not None and statements > budget.statements_on(vendor):
        over.append("statements")
    if cpu_ms is not None and cpu_ms > budget.cpu_ms:
        over.append("CPU")
    return "OVER: " + ", ".join(over) if over else "ok"
