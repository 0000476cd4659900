"""The learner simulator: `make simulate` or `python -m tests.benchmarks.simulate [flags]`.

Runs a cohort of synthetic learners (hidden memory that is not FSRS, ``tests/simulate/memory``)
through the real services under a controlled clock, once per review policy, each arm from a
clean slate with the same learners, and prints one table. Flags: ``--learners``, ``--days``,
``--seed``, ``--arms`` (indexes into the arm list, e.g. ``0,4``), ``--quick`` (2 learners x 4
days, for a smoke run). A throwaway database: SQLite in memory, or PostgreSQL when
``DATABASE_URL`` names it (a test database beside it, dropped at the end).
Assumptions and the last measured table: docs/simulation.md.
"""

import argparse
import dataclasses
import json
import logging
import os
import subprocess
import sys
import time


def _prepare_database():  # -> a function that drops it
    import django
    from django.conf import settings

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")
    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    if connection.vendor == "sqlite":
        # In memory: nothing outlives the run, and no fsync slows it.
        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = ""
    else:
        # Beside the configured database, one per process: arms run side by side.
        name = settings.DATABASES["default"]["NAME"]
        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = (
            f"{name}_simulate_{os.getpid()}"
        )
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)

    def drop() -> None:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()

    return drop


def _fmt(value: object, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def rows_of(tallies: list) -> list[dict[str, str]]:
    """Return one printable row per arm (the first arm is the baseline for the change)."""
    from tests.simulate.measures import LAST_DAYS, base_rate_log_loss, log_loss, rmse_bins

    base = tallies[0].explicit_reviews / max(1, tallies[0].learners) if tallies else 0
    rows = []
    for t in tallies:
        per = t.explicit_reviews / max(1, t.learners)
        rows.append(
            {
                "arm": t.arm,
                "reviews/learner": _fmt(per, 1),
                "vs today": f"{(per - base) / base:+.0%}" if base else "-",
                "review min/learner": _fmt(t.review_seconds / 60 / max(1, t.learners), 1),
                "total min/learner": _fmt(t.seconds / 60 / max(1, t.learners), 1),
                "held share": _fmt(t.held_reviews / t.catalogued_reviews, 2)
                if t.catalogued_reviews
                else "-",
                "end avoid": _fmt(sum(t.end_avoid) / len(t.end_avoid), 4) if t.end_avoid else "-",
                "end recall": (
                    _fmt(sum(t.end_recall) / len(t.end_recall), 4) if t.end_recall else "-"
                ),
                f"avoid last {LAST_DAYS} d": _fmt(t.daily_avoid.mean_last(), 4),
                "pred logloss": _fmt(log_loss(t.predictions)),
                "mean-guess LL": _fmt(base_rate_log_loss(t.predictions)),
                "pred rmse": _fmt(rmse_bins(t.predictions)),
                "credit logs": str(t.implicit_logs),
                "held-out LL default/fitted": (
                    f"{_fmt(t.default_log_loss)}/{_fmt(t.fitted_log_loss)}"
                ),
                "held-out RMSE default/fitted": f"{_fmt(t.default_rmse)}/{_fmt(t.fitted_rmse)}",
                "sets (adopted)": f"{t.parameter_sets} ({t.adopted_sets})",
            }
        )
    return rows


def print_rows(rows: list[dict[str, str]]) -> None:
    """Print the rows as an aligned text table."""
    if not rows:
        return
    columns = list(rows[0])
    widths = [max(len(c), *(len(r[c]) for r in rows)) for c in columns]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(r[c].ljust(w) for c, w in zip(columns, widths, strict=True)))


def _run_here(args: argparse.Namespace, indexes: list[int]) -> list:
    """Run the arms in this process on a throwaway database; return their tallies."""
    # The eager tasks log every run at INFO: thousands of lines that say nothing here.
    logging.getLogger("celery").setLevel(logging.WARNING)
    drop = _prepare_database()
    try:
        from tests.simulate.cohort import course_ideas, run_arm
        from tests.simulate.measures import ARMS

        ideas = course_ideas()
        tallies = []
        for index in indexes:
            started = time.perf_counter()
            tally = run_arm(
                ARMS[index], learners=args.learners, days=args.days, seed=args.seed, ideas=ideas
            )
            tallies.append(tally)
            print(
                f"# {tally.arm}: {time.perf_counter() - started:.1f} s, "
                f"{tally.attempts} attempts, logs {tally.logs_by_origin}",
                file=sys.stderr,
                flush=True,
            )
        return tallies
    finally:
        drop()


def _run_in_children(args: argparse.Namespace, indexes: list[int]) -> list:
    """Run each arm in a child process (``--jobs`` at a time), each with its own database;
    return their tallies in arm order."""
    from tests.simulate.measures import Tally

    pending = list(indexes)
    running: list[tuple[int, subprocess.Popen]] = []
    results: dict[int, Tally] = {}
    while pending or running:
        while pending and len(running) < args.jobs:
            index = pending.pop(0)
            command = [
                sys.executable, "-m", "tests.benchmarks.simulate", "--child",
                "--learners", str(args.learners), "--days", str(args.days),
                "--seed", str(args.seed), "--arms", str(index),
            ]  # fmt: skip
            running.append((index, subprocess.Popen(command, stdout=subprocess.PIPE, text=True)))
        index, child = running.pop(0)
        out, _ = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"arm {index} failed with exit status {child.returncode}")
        (data,) = json.loads(out)
        results[index] = Tally.from_dict(data)
    return [results[index] for index in indexes]


def main(argv: list[str]) -> int:
    """Parse the flags, run the arms on throwaway databases, print the table."""
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.simulate")
    parser.add_argument("--learners", type=int, default=4)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arms", default="", help="comma-separated arm indexes (default all)")
    parser.add_argument("--jobs", type=int, default=2, help="arms run side by side")
    parser.add_argument("--quick", action="store_true", help="2 learners x 4 days, one process")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.learners, args.days, args.jobs = 2, 4, 1
    if args.learners < 1 or args.days < 1 or args.jobs < 1:
        parser.error("--learners, --days and --jobs must be at least 1")
    from tests.simulate.measures import ARMS

    try:
        indexes = [int(i) for i in args.arms.split(",")] if args.arms else list(range(len(ARMS)))
        arms = [ARMS[i] for i in indexes]
    except (ValueError, IndexError):
        parser.error(f"--arms takes indexes 0 to {len(ARMS) - 1}, comma-separated")
    if args.child:
        print(json.dumps([dataclasses.asdict(t) for t in _run_here(args, indexes)]))
        return 0
    started = time.perf_counter()
    if args.jobs == 1 or len(arms) == 1:
        tallies = _run_here(args, indexes)
    else:
        tallies = _run_in_children(args, indexes)
    print(
        f"# {args.learners} learners x {args.days} days, seed {args.seed}, "
        f"{time.perf_counter() - started:.0f} s; 'vs today' compares with the first arm"
    )
    print_rows(rows_of(tallies))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
