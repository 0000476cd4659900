"""Tests that hold on one database only, run on it whichever database the suite is given.

A few tests check one database's own behaviour: SQLite's statement cache
(``tests/practice/test_sqlite_statements.py``), or a second writer that waits on PostgreSQL's
row lock, where SQLite refuses it (``tests/practice/test_concurrency.py``,
``tests/review/test_credit_races.py``). They carry ``@pytest.mark.database("sqlite")`` or
``@pytest.mark.database("postgresql")``.

On the other database the suite's ``pytest_collection_modifyitems`` (``tests/conftest.py``)
deselects them (pytest reports them as deselected, never as skipped) and remembers their ids;
the module's runner test, made by ``runner()``, runs exactly those ids in a pytest process of
its own on the database they need, and fails unless every one of them passed:

- for SQLite, the default database of the test settings (``DATABASE_URL`` and ``CACHE_URL``
  left out of the child's environment);
- for PostgreSQL, a database named after the runner's process on the server of
  ``tests/postgres_server.py`` (the configured one, the local one, or a throwaway cluster).

On the database the tests need, they run in the suite itself and the runner is deselected.
"""

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = "database"
RUNNER_MARKER = "runs_elsewhere"
VENDORS = ("sqlite", "postgresql")
DESELECTED = pytest.StashKey[dict[str, list[str]]]()


def wanted_vendor(item: pytest.Item) -> str | None:
    """Return the database an item's ``database`` marker names, or None."""
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return None
    (vendor,) = marker.args
    if vendor not in VENDORS:
        raise pytest.UsageError(f"{item.nodeid}: database({vendor!r}) is not one of {VENDORS}")
    return vendor


def select(config: pytest.Config, items: list[pytest.Item], vendor: str) -> None:
    """Deselect the items meant for another database (remembering them by module) and the
    runners of tests that run here; keep the rest."""
    elsewhere: dict[str, list[str]] = {}
    kept, dropped = [], []
    for item in items:
        wanted = wanted_vendor(item)
        runner = item.get_closest_marker(RUNNER_MARKER)
        if wanted is not None and wanted != vendor:
            elsewhere.setdefault(str(item.path), []).append(item.nodeid)
            dropped.append(item)
        elif runner is not None and runner.args[0] == vendor:
            dropped.append(item)
        else:
            kept.append(item)
    config.stash[DESELECTED] = elsewhere
    # A runner with nothing deselected in its module (``-k`` chose none of them) goes too.
    idle = [
        item
        for item in kept
        if item.get_closest_marker(RUNNER_MARKER) is not None and str(item.path) not in elsewhere
    ]
    dropped += idle
    kept = [item for item in kept if item not in idle]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _child_environment(vendor: str, request: pytest.FixtureRequest) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")}
    if vendor == "postgresql":
        server = request.getfixturevalue("postgres_url").rsplit("/", 1)[0]
        # pytest-django makes and drops test_<name>; <name> itself is never created.
        environment["DATABASE_URL"] = f"{server}/basislab_elsewhere_{os.getpid()}"
    return environment


def run_elsewhere(request: pytest.FixtureRequest, vendor: str, module_file: str) -> str:
    """Run the module's tests deselected for ``vendor`` in a pytest process on that database;
    return its summary line after checking that each of them passed and nothing else ran."""
    ids = request.config.stash.get(DESELECTED, {}).get(str(Path(module_file)), [])
    assert ids, f"no test of {module_file} was deselected for {vendor}: nothing to run there"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *ids],
        cwd=ROOT,
        env=_child_environment(vendor, request),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(rf"=* ?{len(ids)} passed in [\d.]+s( \([\d:]+\))? ?=*", summary), summary
    return summary


def runner(vendor: str, module_file: str) -> Callable[[pytest.FixtureRequest], None]:
    """Return the test that runs, on ``vendor``, the module's tests the suite deselected."""

    @pytest.mark.runs_elsewhere(vendor)
    def test_the_tests_for_another_database_run_on_it_in_a_process_of_their_own(
        request: pytest.FixtureRequest,
    ) -> None:
        run_elsewhere(request, vendor, module_file)

    return test_the_tests_for_another_database_run_on_it_in_a_process_of_their_own
