"""Run the load test: `python -m tests.load` (or `make load`).

Needs PostgreSQL named by DATABASE_URL. A scratch database (the named one plus ``_load``) is
created, migrated, loaded with the course and 50 signed-in learners, then dropped at the end,
so the named database is never written. The app is served on loopback in the production
layout (nginx from deploy/nginx over HTTPS with a throwaway certificate, gunicorn from
deploy/gunicorn.conf.py, DEBUG=0; see tests/load/layout.py) or, with LOAD_LAYOUT=debug-http,
by gunicorn alone over plain HTTP with DEBUG=1. Locust runs headless for a bounded time (60 s
by default) and the summary is printed: requests/s, p50/p99 per request type and overall,
errors, and the server's CPU per request, overall and per request type; then, per request
type of tests/budgets.py, the statements and CPU ms measured beside the budget, over flagged.

Environment: LOAD_LAYOUT (production | debug-http), LOAD_USERS (50), LOAD_RUN_TIME (60s),
LOAD_WORKERS (gunicorn workers; deploy's 2 per CPU + 1, or 2 per CPU in debug-http),
LOAD_PROFILE_DIR (cProfile files from one worker), PRACTICE_PREVIEW_RATE (600/m here),
CACHE_URL (the cache of the rate limits and fragments; the development file cache when unset).
"""

import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.load.layout import Knobs, Served, django_env, knobs_from_env, new_secret, run_seconds
from tests.load.layout import serve as serve_layout

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
COURSE_DIR = ROOT / "courses" / "content" / "how-text-becomes-numbers"


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


def _prepare(knobs: Knobs, env: dict[str, str], workdir: Path) -> Path:
    """Migrate, load the course, collect the static files (production: the manifest the
    templates name), sign in the learners; return the learners file."""
    python = str(VENV_BIN / "python")
    commands = [
        ["manage.py", "migrate", "--noinput", "-v0"],
        ["manage.py", "load_course", str(COURSE_DIR)],
    ]
    if knobs.layout == "production":
        commands.append(["manage.py", "collectstatic", "--noinput", "-v0"])
    for command in commands:
        subprocess.run([python, *command], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    learners_file = workdir / "learners.json"
    subprocess.run(
        [python, "-m", "tests.load.setup", str(knobs.users), str(learners_file)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return learners_file


def cpu_seconds(pid: int) -> float:
    """Return the user+system CPU seconds of a process and its descendants, counting the
    children it has already reaped (a gunicorn worker recycled by max_requests)."""
    import psutil

    root = psutil.Process(pid)
    times = root.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for process in root.children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def _ms(cell: str) -> float | None:
    """A Locust percentile cell in ms: "N/A" (a request type none of whose requests came back
    in the run, as on a busy machine in a few seconds) is None, never an error."""
    return None if cell in ("", "N/A") else float(cell)


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
            "p50_ms": _ms(row["50%"]),
            "p99_ms": _ms(row["99%"]),
        }
        if row["Name"] == "Aggregated":
            entry["name"] = "all requests"
            total = entry
        else:
            table.append(entry)
    return table, total


def _cell(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:.0f}"


def _print_table(table: list[dict], total: dict) -> None:
    print()
    print(f"{'request':34} {'count':>7} {'errors':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}")
    for entry in [*table, total]:
        print(
            f"{entry['name']:34} {entry['requests']:>7} {entry['errors']:>6} "
            f"{entry['rps']:>7.1f} {_cell(entry['p50_ms']):>7} {_cell(entry['p99_ms']):>7}"
        )


def _locust(knobs: Knobs, served: Served, env: dict[str, str], workdir: Path) -> int:
    """Run Locust headless against the served layout; return its exit code."""
    locust_env = dict(env, LOAD_CA_FILE=str(served.ca_file or ""))
    result = subprocess.run(
        [
            str(VENV_BIN / "locust"),
            "-f", str(Path(__file__).with_name("locustfile.py")),
            "--headless",
            "--users", str(knobs.users),
            "--spawn-rate", str(knobs.users),
            "--run-time", knobs.run_time,
            "--stop-timeout", "10",
            "--host", served.base_url,
            "--csv", str(workdir / "load"),
            "--only-summary",
            "--loglevel", "WARNING",
        ],
        cwd=ROOT,
        env=locust_env,
        timeout=run_seconds(knobs.run_time) + 120,
        stdout=subprocess.DEVNULL,
        stderr=(workdir / "locust.log").open("w"),
    )  # fmt: skip
    return result.returncode


def _load(knobs: Knobs, env: dict[str, str], workdir: Path, learners: Path) -> dict:
    """Serve the layout, run Locust, stop the servers; return the CPU seconds spent."""
    cpus = os.cpu_count() or 1
    with serve_layout(knobs, env, workdir, cpus) as served:
        print(f"# {served.description}; {knobs.users} learners for {knobs.run_time} ...",
              file=sys.stderr, flush=True)  # fmt: skip
        before = {
            "gunicorn": cpu_seconds(served.gunicorn.pid),
            "nginx": cpu_seconds(served.nginx.pid) if served.nginx else 0.0,
        }
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        oracle_env = dict(
            env, LOAD_LEARNERS_FILE=str(learners), LOAD_ORACLE_URL=env["DATABASE_URL"]
        )
        code = _locust(knobs, served, oracle_env, workdir)
        spent = {
            "gunicorn": cpu_seconds(served.gunicorn.pid) - before["gunicorn"],
            "nginx": (cpu_seconds(served.nginx.pid) - before["nginx"]) if served.nginx else 0.0,
        }
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent["locust"] = (children_after.ru_utime + children_after.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    spent["locust_exit"] = code
    return spent


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
    try:
        knobs = knobs_from_env(os.environ)
    except ValueError as exc:
        print(f"The load test cannot start: {exc}", file=sys.stderr)
        return 2
    scratch_url, scratch_name, maintenance_url = _scratch_url(database_url)
    workdir = Path(tempfile.mkdtemp(prefix="basislab-load-"))
    env = django_env(
        knobs, os.environ, database_url=scratch_url, workdir=workdir, secret=new_secret()
    )
    try:
        print(f"# preparing scratch database {scratch_name} ...", file=sys.stderr, flush=True)
        _recreate_database(maintenance_url, scratch_name, create=True)
        learners = _prepare(knobs, env, workdir)
        spent = _load(knobs, env, workdir, learners)
        return _report(knobs, workdir, spent)
    finally:
        _recreate_database(maintenance_url, scratch_name, create=False)
        shutil.rmtree(workdir, ignore_errors=True)


def _report(knobs: Knobs, workdir: Path, spent: dict) -> int:
    """Print the tables and the summary; return 0 when Locust counted requests and no error."""
    table, total = _summary(workdir / "load_stats.csv")
    _print_table(table, total)
    _print_cpu_per_type(workdir / "cpu")
    if total.get("errors"):
        print("\nerrors:")
        print((workdir / "load_failures.csv").read_text())
    workers = knobs.workers or "default"
    print(
        f"\n{knobs.users} learners, {knobs.run_time}, layout {knobs.layout}, gunicorn workers "
        f"{workers}, PostgreSQL: {total['rps']:.1f} requests/s, p50 {_cell(total['p50_ms'])} ms, "
        f"p99 {_cell(total['p99_ms'])} ms, {total['errors']} errors "
        f"({total['requests']} requests; locust exit {spent['locust_exit']})"
    )
    if not total["requests"]:
        print("Locust counted no request:\n" + (workdir / "locust.log").read_text()[-3000:])
        return 1
    per = 1000 / total["requests"]
    server = spent["gunicorn"] + spent["nginx"]
    print(
        f"server CPU: gunicorn {spent['gunicorn']:.1f} s ({spent['gunicorn'] * per:.1f} ms per "
        f"request), nginx {spent['nginx']:.1f} s ({spent['nginx'] * per:.1f} ms), together "
        f"{server * per:.1f} ms per request; Locust CPU: {spent['locust']:.1f} s "
        f"(the machine has {os.cpu_count()} CPUs)"
    )
    return 0 if total["errors"] == 0 else 1


class Totals:
    """One request type's requests, CPU seconds and how many requests sent each number of
    statements, added up over the workers."""

    def __init__(self) -> None:
        self.requests = 0
        self.cpu_seconds = 0.0
        self.statements: dict[int, int] = {}

    def add(self, requests: int, cpu_seconds: float, statements: dict) -> None:
        self.requests += requests
        self.cpu_seconds += cpu_seconds
        for sent, count in statements.items():
            self.statements[int(sent)] = self.statements.get(int(sent), 0) + count

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu_seconds / max(self.requests, 1)

    @property
    def mean_statements(self) -> float:
        return sum(n * c for n, c in self.statements.items()) / max(self.requests, 1)

    @property
    def median_statements(self) -> int:
        """The statements of the middle request: the typical one, warm (a worker's first request
        of a type also reads what is read once per process)."""
        seen = 0
        for sent in sorted(self.statements):
            seen += self.statements[sent]
            if 2 * seen >= self.requests:
                return sent
        return 0


def read_cpu_totals(cpu_dir: Path) -> tuple[dict[str, Totals], dict[str, Totals]]:
    """Add up the workers' totals written by tests/load/gunicorn_cpu.py; return them by the
    load test's request types and by tests/budgets.py's."""
    types: dict[str, Totals] = {}
    budgets: dict[str, Totals] = {}
    for path in sorted(cpu_dir.glob("*.json")):
        written = json.loads(path.read_text(encoding="utf-8"))
        for totals, part in ((types, written["types"]), (budgets, written["budgets"])):
            for name, (count, seconds, statements) in part.items():
                totals.setdefault(name, Totals()).add(count, seconds, statements)
    return types, budgets


def budget_lines(budgets: dict[str, Totals]) -> list[str]:
    """Return the table of tests/budgets.py's request types as measured: statements (the
    median request's, the mean, the most in one) and CPU ms each beside the budget, and what is
    over (the median's statements, the mean CPU); a budgeted type the run did not send is said
    so."""
    from tests.budgets import BUDGETS, verdict

    lines = [
        f"{'request type (tests/budgets.py)':34} {'count':>7} {'stmts':>5} {'mean':>5} "
        f"{'most':>5} {'budget':>6} {'CPU ms':>7} {'budget':>7}  verdict"
    ]
    for name, budget in BUDGETS.items():
        if name not in budgets:
            if budget.load:
                lines.append(f"{name:34} {'not sent in this run':>28}")
            continue
        got = budgets[name]
        lines.append(
            f"{name:34} {got.requests:>7} {got.median_statements:>5} {got.mean_statements:>5.1f} "
            f"{max(got.statements, default=0):>5} {budget.statements:>6} {got.cpu_ms:>7.1f} "
            f"{budget.cpu_ms:>7.1f}  {verdict(name, got.median_statements, got.cpu_ms)}"
        )
    for name in sorted(set(budgets) - set(BUDGETS)):
        lines.append(f"{name:34} {'not in tests/budgets.py':>28}")
    return lines


def _print_cpu_per_type(cpu_dir: Path) -> None:
    """Print the workers' CPU and statements per request type, and beside tests/budgets.py's
    budgets, as written by tests/load/gunicorn_cpu.py."""
    totals, budgets = read_cpu_totals(cpu_dir)
    if not totals:
        print("\nCPU per request type: no worker wrote its totals")
        return
    print(f"\n{'server CPU per HTTP request':34} {'count':>7} {'ms each':>7} {'stmts':>6}")
    for name, got in sorted(totals.items()):
        print(f"{name:34} {got.requests:>7} {got.cpu_ms:>7.1f} {got.mean_statements:>6.1f}")
    count = sum(got.requests for got in totals.values())
    seconds = sum(got.cpu_seconds for got in totals.values())
    print(f"{'all HTTP requests (inside Django)':34} {count:>7} {1000 * seconds / count:>7.1f}")
    print()
    print("\n".join(budget_lines(budgets)))


if __name__ == "__main__":
    sys.exit(main())
