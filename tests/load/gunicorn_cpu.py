"""Gunicorn hooks for the load test: each worker's CPU time and statements per request type.

Loaded with ``gunicorn -c`` by ``tests/load/__main__.py``. A sync worker serves one request at a
time, so the worker process's CPU time between ``pre_request`` and ``post_request`` is that
request's (Python, the template engine, the database driver; not PostgreSQL's own), and so are
the statements its database connection sent meanwhile, counted as ``tests/budgets.py`` counts
them: every statement Django executes, and a transaction's ``BEGIN`` and ``COMMIT`` (or
``ROLLBACK``). Each request is added up twice: under its type here (by method and path) and
under its request type of ``tests/budgets.py`` (an answer's, from the ``X-Load-Case`` header
the learners send). Each worker writes its totals as JSON into ``LOAD_CPU_DIR`` when it exits,
and the load test adds them up.

With ``LOAD_PROFILE_DIR`` set, one worker (the first to claim the directory) also runs cProfile
around each request it serves, timing the process's CPU (not wall time, which on a busy machine
charges a function for the time the process waited its turn after a system call), and writes
``<pid>.prof`` there as it exits (read it with ``python -m pstats``). The other workers are not
profiled; the profiled one spends more CPU per request, so a profiled run's figures are not
the load test's.
"""

import cProfile
import json
import os
import re
import time
from pathlib import Path

# (request type, method, path pattern), first match wins; the names are the load test's.
REQUEST_TYPES = (
    ("open: redirect", "GET", re.compile(r"^/course/\d+/pages/[^/]+/ideas/[^/]+/[^/]+/$")),
    ("open: problem page", "GET", re.compile(r"^/course/\d+/problems/\d+/$")),
    ("preview (htmx)", "POST", re.compile(r"^/course/\d+/problems/\d+/preview/$")),
    ("submit: grade and store", "POST", re.compile(r"^/course/\d+/problems/\d+/$")),
    ("submit: verdict page", "GET", re.compile(r"^/course/\d+/attempts/\d+/$")),
)

# The request types of tests/budgets.py the load test sends, by this module's name for them;
# an answer's is the X-Load-Case header's (one of tests/budgets.py's names, or none).
BUDGET_NAMES = {
    "open: redirect": "open a problem (redirect)",
    "open: problem page": "problem page",
    "preview (htmx)": "preview (htmx)",
    "submit: verdict page": "Verdict page",
}
RIGHT_ANSWERS = ("submit, right after wrong", "submit, right first try (credit)")
CASE_HEADER = "X-LOAD-CASE"  # gunicorn's spelling of the learners' X-Load-Case

# {name: [requests, CPU seconds, {statements: requests}]}, by this module's types and by
# budget names.
_totals: dict[str, list] = {}
_budgets: dict[str, list] = {}
_started: dict[str, float] = {}
_statements = [0]
_profile: dict[str, cProfile.Profile] = {}


def request_type(method: str, path: str) -> str:
    """Return the load test's name for a request, or "other"."""
    for name, wanted, pattern in REQUEST_TYPES:
        if method == wanted and pattern.match(path):
            return name
    return "other"


def budget_name(method: str, path: str, case: str | None) -> str | None:
    """Return the request's type in tests/budgets.py, or None for one it has no budget for."""
    kind = request_type(method, path)
    if kind == "submit: grade and store":
        return case or None
    if kind == "submit: verdict page" and case in RIGHT_ANSWERS:
        return "Verdict page, problem solved"  # the redirect kept the answer's header
    return BUDGET_NAMES.get(kind)


def _count_execute(execute, sql, params, many, context):
    _statements[0] += 1
    return execute(sql, params, many, context)


def count_statements(connection: object) -> None:
    """Count in ``_statements`` what the connection sends: each statement Django executes (an
    execute wrapper) and each transaction's BEGIN and COMMIT or ROLLBACK, which Django asks of
    the driver without executing a statement (the methods wrapped on this connection only)."""
    connection.execute_wrappers.append(_count_execute)
    set_autocommit, commit, rollback = (
        connection.set_autocommit,
        connection._commit,
        connection._rollback,
    )

    def counted_set_autocommit(autocommit: bool, *args, **kwargs):
        _statements[0] += not autocommit  # BEGIN
        return set_autocommit(autocommit, *args, **kwargs)

    def counted(method):
        def call():
            _statements[0] += connection.connection is not None
            return method()

        return call

    connection.set_autocommit = counted_set_autocommit
    connection._commit = counted(commit)
    connection._rollback = counted(rollback)


def _case(req: object) -> str | None:
    for name, value in getattr(req, "headers", ()):
        if name == CASE_HEADER:
            return value
    return None


def claim_profile(directory: Path) -> bool:
    """Return True for the first worker to claim ``directory`` for its profile (a marker file
    created exclusively), False for every other."""
    try:
        descriptor = os.open(directory / "profiled-worker", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(descriptor, str(os.getpid()).encode())
    os.close(descriptor)
    return True


def post_fork(server: object, worker: object) -> None:
    """Count this worker's statements; start its profiler when LOAD_PROFILE_DIR is set and no
    worker has claimed it."""
    from django.db import connections

    count_statements(connections["default"])
    directory = os.environ.get("LOAD_PROFILE_DIR")
    if directory and claim_profile(Path(directory)):
        _profile["profile"] = cProfile.Profile(time.process_time)


def pre_request(worker: object, req: object) -> None:
    """Note the worker's CPU time as the request starts (and profile it, in the profiled one)."""
    if "profile" in _profile:
        _profile["profile"].enable()
    _started["statements"] = _statements[0]
    _started["cpu"] = time.process_time()


def post_request(worker: object, req: object, environ: dict, resp: object) -> None:
    """Add the request's CPU time and statements to its type's totals."""
    spent = time.process_time() - _started.pop("cpu", time.process_time())
    sent = _statements[0] - _started.pop("statements", _statements[0])
    if "profile" in _profile:
        _profile["profile"].disable()
    add(_totals, request_type(req.method, req.path), spent, sent)
    name = budget_name(req.method, req.path, _case(req))
    if name is not None:
        add(_budgets, name, spent, sent)


def add(totals: dict[str, list], name: str, cpu_seconds: float, statements: int) -> None:
    """Add one request to ``totals[name]``: [requests, CPU seconds, {statements: requests}]."""
    entry = totals.setdefault(name, [0, 0.0, {}])
    entry[0] += 1
    entry[1] += cpu_seconds
    entry[2][statements] = entry[2].get(statements, 0) + 1


def worker_exit(server: object, worker: object) -> None:
    """Write the worker's totals for the load test: {"types": {type: [requests, CPU seconds,
    {statements: requests}]}, "budgets": the same by tests/budgets.py's names}."""
    directory = os.environ.get("LOAD_CPU_DIR")
    if directory:
        path = Path(directory) / f"{os.getpid()}.json"
        totals = {"types": _totals, "budgets": _budgets}
        path.write_text(json.dumps(totals), encoding="utf-8")
    profile_dir = os.environ.get("LOAD_PROFILE_DIR")
    if profile_dir and "profile" in _profile:
        _profile["profile"].dump_stats(str(Path(profile_dir) / f"{os.getpid()}.prof"))
