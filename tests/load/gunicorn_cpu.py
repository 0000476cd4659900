"""Gunicorn hooks for the load test: each worker's CPU time per request type.

Loaded with ``gunicorn -c`` by ``tests/load/__main__.py``. A sync worker serves one request at a
time, so the worker process's CPU time between ``pre_request`` and ``post_request`` is that
request's (Python, the template engine, the database driver; not PostgreSQL's own). Each worker
writes its totals as JSON into ``LOAD_CPU_DIR`` when it exits, and the load test adds them up.
"""

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

_totals: dict[str, list[float]] = {}
_started: dict[str, float] = {}


def request_type(method: str, path: str) -> str:
    """Return the load test's name for a request, or "other"."""
    for name, wanted, pattern in REQUEST_TYPES:
        if method == wanted and pattern.match(path):
            return name
    return "other"


def pre_request(worker: object, req: object) -> None:
    """Note the worker's CPU time as the request starts."""
    _started["cpu"] = time.process_time()


def post_request(worker: object, req: object, environ: dict, resp: object) -> None:
    """Add the request's CPU time to its type's total."""
    spent = time.process_time() - _started.pop("cpu", time.process_time())
    entry = _totals.setdefault(request_type(req.method, req.path), [0, 0.0])
    entry[0] += 1
    entry[1] += spent


def worker_exit(server: object, worker: object) -> None:
    """Write the worker's totals, {type: [requests, cpu seconds]}, for the load test."""
    directory = os.environ.get("LOAD_CPU_DIR")
    if directory:
        path = Path(directory) / f"{os.getpid()}.json"
        path.write_text(json.dumps(_totals), encoding="utf-8")
