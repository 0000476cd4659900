"""Run the load test: `python -m tests.load` (or `make load`).

Needs PostgreSQL named by DATABASE_URL. A scratch database (the named one plus ``_load``) is
created, migrated, loaded with the course and 50 signed-in learners, then dropped at the end,
so the named database is never written. The app is served by gunicorn on 127.0.0.1 at a free
port; Locust runs headless for a bounded time (60 s by default) and the summary is printed:
requests/s, p50/p99 per request type and overall, errors.

Environment: LOAD_USERS (50), LOAD_RUN_TIME (60s), LOAD_WORKERS (gunicorn workers, 2 per CPU),
CACHE_URL (the preview's rate limit; the development file cache when unset).
"""

import csv
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.throwaway import free_port

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
COURSE_DIR = ROOT / "courses" / "content" / "how-text-becomes-numbers"
HOST = "127.0.0.1"


def _scratch_url(url: str) -> tuple[str, str, str]:
    """Return (scratch database URL, scratch name, maintenance URL) for a PostgreSQL URL."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "postgres"
    scratch = f"{name}_load"
    return (
        urlunsplit(parts._replace(path=f"/{scratch}")),
        scratch,
        urlunsplit(parts._replace(path="/postgres")),
    )


def _recreate_database(maintenance_url: str, name: str, *, create: bool) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


def _django_env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="basislab.settings",
        # DEBUG keeps the session cookie usable over plain http on loopback; everything else
        # (templates, grading, database) runs as in production.
        DEBUG="1",
        LOG_LEVEL="WARNING",
        DATABASE_CONN_MAX_AGE="60",
        PYTHONPATH=str(ROOT),
    )
    return env


def _prepare(env: dict[str, str], users: int, workdir: Path) -> Path:
    """Migrate, load the course and sign in the learners; return the learners file."""
    python = str(VENV_BIN / "python")
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    subprocess.run(
        [python, "manage.py", "load_course", str(COURSE_DIR)],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    learners_file = workdir / "learners.json"
    subprocess.run(
        [python, "-m", "tests.load.setup", str(users), str(learners_file)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return learners_file


def _wait_until_serving(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited before serving")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer {url} within {timeout:.0f} s")


def _cpu_seconds(pid: int) -> float:
    """Return the user+system CPU seconds of a process and its children (the gunicorn workers)."""
    import psutil

    root = psutil.Process(pid)
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def _summary(stats_csv: Path) -> tuple[list[dict], dict]:
    with stats_csv.open() as handle:
        rows = list(csv.DictReader(handle))
    table = []
    total = {}
    for row in rows:
        entry = {
            "name": row["Name"] if row["Type"] else "all requests",
            "requests": int(row["Request Count"]),
            "errors": int(row["Failure Count"]),
            "rps": float(row["Requests/s"]),
            "p50_ms": float(row["50%"] or 0),
            "p99_ms": float(row["99%"] or 0),
        }
        if row["Name"] == "Aggregated":
            entry["name"] = "all requests"
            total = entry
        else:
            table.append(entry)
    return table, total


def _print_table(table: list[dict], total: dict) -> None:
    print()
    print(f"{'request':34} {'count':>7} {'errors':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}")
    for entry in [*table, total]:
        print(
            f"{entry['name']:34} {entry['requests']:>7} {entry['errors']:>6} "
            f"{entry['rps']:>7.1f} {entry['p50_ms']:>7.0f} {entry['p99_ms']:>7.0f}"
        )


def main() -> int:
    """Set up, serve, load, report, tear down; return 0 when no request failed."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        print(
            "The load test runs against PostgreSQL, and DATABASE_URL does not name it.\n"
            "Try: DATABASE_URL=postgres://postgres@127.0.0.1:5432/basislab make load\n"
            "(it works in a scratch database <name>_load and leaves the named one untouched).",
            file=sys.stderr,
        )
        return 2
    users = int(os.environ.get("LOAD_USERS", "50"))
    run_time = os.environ.get("LOAD_RUN_TIME", "60s")
    workers = int(os.environ.get("LOAD_WORKERS", str(2 * (os.cpu_count() or 1))))
    scratch_url, scratch_name, maintenance_url = _scratch_url(database_url)
    env = _django_env(scratch_url)
    workdir = Path(tempfile.mkdtemp(prefix="basislab-load-"))
    server = None
    try:
        print(f"# preparing scratch database {scratch_name} ...", file=sys.stderr, flush=True)
        _recreate_database(maintenance_url, scratch_name, create=True)
        learners_file = _prepare(env, users, workdir)
        port = free_port()
        base = f"http://{HOST}:{port}"
        cpu_dir = workdir / "cpu"
        cpu_dir.mkdir()
        server = subprocess.Popen(
            [
                str(VENV_BIN / "gunicorn"),
                "basislab.wsgi:application",
                "--bind",
                f"{HOST}:{port}",
                "--workers",
                str(workers),
                "--timeout",
                "30",
                "--log-level",
                "warning",
                # Hooks that add up each worker's CPU per request type (tests/load/gunicorn_cpu.py).
                "--config",
                str(Path(__file__).with_name("gunicorn_cpu.py")),
            ],
            cwd=ROOT,
            env=dict(env, LOAD_CPU_DIR=str(cpu_dir)),
            start_new_session=True,
        )
        _wait_until_serving(f"{base}/", server)
        print(
            f"# gunicorn ({workers} workers) on {base}; {users} learners for {run_time} ...",
            file=sys.stderr,
            flush=True,
        )
        cpu_before = _cpu_seconds(server.pid)
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        locust_env = dict(env, LOAD_LEARNERS_FILE=str(learners_file), LOAD_ORACLE_URL=scratch_url)
        result = subprocess.run(
            [
                str(VENV_BIN / "locust"),
                "-f",
                str(Path(__file__).with_name("locustfile.py")),
                "--headless",
                "--users",
                str(users),
                "--spawn-rate",
                str(users),
                "--run-time",
                run_time,
                "--stop-timeout",
                "10",
                "--host",
                base,
                "--csv",
                str(workdir / "load"),
                "--only-summary",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=locust_env,
            timeout=_seconds(run_time) + 120,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        server_cpu = _cpu_seconds(server.pid) - cpu_before
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        locust_cpu = (children_after.ru_utime + children_after.ru_stime) - (
            children_before.ru_utime + children_before.ru_stime
        )
        _stop(server)
        table, total = _summary(workdir / "load_stats.csv")
        _print_table(table, total)
        _print_cpu_per_type(cpu_dir)
        failures = workdir / "load_failures.csv"
        if total.get("errors"):
            print("\nerrors:")
            print(failures.read_text())
        print(
            f"\n{users} learners, {run_time}, gunicorn {workers} workers on PostgreSQL: "
            f"{total['rps']:.1f} requests/s, p50 {total['p50_ms']:.0f} ms, "
            f"p99 {total['p99_ms']:.0f} ms, {total['errors']} errors "
            f"({total['requests']} requests; locust exit {result.returncode})"
        )
        if total["requests"]:
            print(
                f"server CPU: {server_cpu:.1f} s in all, "
                f"{1000 * server_cpu / total['requests']:.0f} ms per request; "
                f"Locust CPU: {locust_cpu:.1f} s (the machine has {os.cpu_count()} CPUs)"
            )
        return 0 if total.get("errors") == 0 else 1
    finally:
        if server is not None:
            _stop(server)
        _recreate_database(maintenance_url, scratch_name, create=False)
        shutil.rmtree(workdir, ignore_errors=True)


def _stop(server: subprocess.Popen) -> None:
    """Stop gunicorn (its workers write their CPU totals as they exit); kill it if it hangs."""
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def _print_cpu_per_type(cpu_dir: Path) -> None:
    """Print the workers' CPU per request type, as written by tests/load/gunicorn_cpu.py."""
    totals: dict[str, list[float]] = {}
    for path in sorted(cpu_dir.glob("*.json")):
        for name, (count, seconds) in json.loads(path.read_text(encoding="utf-8")).items():
            entry = totals.setdefault(name, [0, 0.0])
            entry[0] += count
            entry[1] += seconds
    if not totals:
        print("\nCPU per request type: no worker wrote its totals")
        return
    print(f"\n{'server CPU per HTTP request':34} {'count':>7} {'ms each':>7}")
    for name, (count, seconds) in sorted(totals.items()):
        print(f"{name:34} {count:>7} {1000 * seconds / max(count, 1):>7.1f}")
    count = sum(entry[0] for entry in totals.values())
    seconds = sum(entry[1] for entry in totals.values())
    print(f"{'all HTTP requests (inside Django)':34} {count:>7} {1000 * seconds / count:>7.1f}")


def _seconds(run_time: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600}
    if run_time[-1] in units:
        return int(float(run_time[:-1]) * units[run_time[-1]])
    return int(run_time)


if __name__ == "__main__":
    sys.exit(main())
