"""A few seconds of the real load test in each layout, with two learners and one gunicorn
worker: set-up, serving, Locust's learners answering through the server, the report, the
profile of LOAD_PROFILE_DIR, tear-down. Bounded: 15 s of load (4 s served no request at all on
a busy 2-core machine), and the whole run is killed after
5 minutes."""

import os
import pstats
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

pytestmark = pytest.mark.deploy  # the production layout starts Debian's nginx

ROOT = Path(__file__).resolve().parents[2]


def _run(postgres_url: str, layout: str, **environ: str) -> subprocess.CompletedProcess:
    # A database name of this run's own: the scratch database is <name>_load, dropped after.
    name = f"smoke_{os.getpid()}_{layout.replace('-', '_')}"
    url = urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}"))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DATABASE_URL=url, LOAD_LAYOUT=layout, LOAD_USERS="2", LOAD_RUN_TIME="15s", **environ)
    result = subprocess.run(
        [sys.executable, "-m", "tests.load"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        left = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (f"{name}_load",))
        assert left.fetchone() is None  # the scratch database is dropped
    return result


@pytest.mark.parametrize("layout", ["production", "debug-http"])
def test_a_short_run_answers_without_errors(postgres_url, layout, tmp_path):
    profiles = tmp_path / "profiles"

    # One worker: it serves every request, so its profile holds some.
    result = _run(postgres_url, layout, LOAD_WORKERS="1", LOAD_PROFILE_DIR=str(profiles))

    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert f"layout {layout}" in result.stdout
    assert re.search(r"requests/s, p50 \d+ ms, p99 \d+ ms, 0 errors", result.stdout)
    counts = dict(
        re.findall(r"^(preview \(htmx\)|submit: grade and store) +(\d+) ", result.stdout, re.M)
    )
    assert int(counts["preview (htmx)"]) > 0  # the learners typed
    assert int(counts["submit: grade and store"]) > 0  # and answered
    assert re.search(r"server CPU: gunicorn [\d.]+ s", result.stdout)
    # One worker profiled the requests it served; the file is cProfile's.
    written = sorted(profiles.glob("*.prof"))
    assert len(written) == 1, sorted(profiles.iterdir())
    stats = pstats.Stats(str(written[0]))
    assert any(name == "get_response" for _file, _line, name in stats.stats)
