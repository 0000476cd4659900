"""Gunicorn hooks for the load test: each worker's CPU time per request type.

Loaded with ``gunicorn -c`` by ``tests/load/__main__.py``. A sync worker serves one request at a
time, so the worker process's CPU time between ``pre_request`` and ``post_request`` is that
request's (Python, the template engine, the database driver; not PostgreSQL's own). Each worker
writes its totals as JSON into ``LOAD_CPU_DIR`` when it exits, and the load test adds them up.

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

_totals: dict[str, list[float]] = {}
_started: dict[str, float] = {}
_profile: dict[str, cProfile.Profile] = {}


def request_type(method: str, path: str) -> str:
    """Return the load test's name for a request, or "other"."""
    for name, wanted, pattern in REQUEST_TYPES:
        if method == wanted and pattern.match(path):
            return name
    return "other"


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
    """Start this worker's profiler when LOAD_PROFILE_DIR is set and no worker has claimed it."""
    directory = os.environ.get("LOAD_PROFILE_DIR")
    if directory and claim_profile(Path(directory)):
        _profile["profile"] = cProfile.Profile(time.process_time)


def pre_request(worker: object, req: object) -> None:
    """Note the worker's CPU time as the request starts (and profile it, in the profiled one)."""
    if "profile" in _profile:
        _profile["profile"].enable()
    _started["cpu"] = time.process_time()


def post_request(worker: object, req: object, environ: dict, resp: object) -> None:
    """Add the request's CPU time to its type's total."""
    spent = time.process_time() - _started.pop("cpu", time.process_time())
    if "profile" in _profile:
        _profile["profile"].disable()
    entry = _totals.setdefault(request_type(req.method, req.path), [0, 0.0])
    entry[0] += 1
    entry[1] += spent


def worker_exit(server: object, worker: object) -> None:
    """Write the worker's totals, {type: [requests, cpu seconds]}, for the load test."""
    directory = os.environ.get("LOAD_CPU_DIR")
    if directory:
        path = Path(directory) / f"{os.getpid()}.json"
        path.write_text(json.dumps(_totals), encoding="utf-8")
    profile_dir = os.environ.get("LOAD_PROFILE_DIR")
    if profile_dir and "profile" in _profile:
        _profile["profile"].dump_stats(str(Path(profile_dir) / f"{os.getpid()}.prof"))
