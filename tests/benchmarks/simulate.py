"""The learner simulator: `make simulate` or `python -m tests.benchmarks.simulate [flags]`.

Runs a cohort of synthetic learners (hidden memory that is not FSRS, ``tests/simulate/memory``)
through the real services under a controlled clock, once per review policy, each arm from a
clean slate with the same learners, and prints a table per hidden memory family with the
issue's targets checked. Flags: ``--learners`` (30), ``--days`` (60), ``--seed`` (``1,7``),
``--family`` (``today``, ``shown``, ``power`` or ``all``), ``--arms`` (indexes into the arm list,
default the old policy and the site's defaults), ``--jobs``, ``--markdown``, ``--save`` (the
tallies as JSON), ``--quick`` (2 learners x 4 days, for a smoke run). A throwaway database:
SQLite in memory, or PostgreSQL when ``DATABASE_URL`` names it (a test database beside it,
dropped at the end).
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
    """Return one printable row per tally; the first tally of each seed is that seed's
    baseline (the old policy) for the change in reviews."""
    from practice.review.scheduling import MAXIMUM_INTERVAL_DAYS
    from tests.simulate.measures import LAST_DAYS, base_rate_log_loss, log_loss, rmse_bins

    bases: dict[int, float] = {}
    rows = []
    for t in tallies:
        per = t.explicit_reviews / max(1, t.learners)
        base = bases.setdefault((t.seed, t.learners), per)
        fitted = t.longest_fitted_interval
        rows.append(
            {
                "seed": str(t.seed),
                "learners": str(t.learners),
                "arm": t.arm,
                "reviews/learner": _fmt(per, 1),
                "vs old": f"{(per - base) / base:+.0%}" if base else "-",
                f"avoid last {LAST_DAYS} d": _fmt(t.daily_avoid.mean_last(), 4),
                "end avoid": _fmt(sum(t.end_avoid) / len(t.end_avoid), 4) if t.end_avoid else "-",
                "practice mistakes/problem": _fmt(
                    t.practice_mistakes / t.practice_problems if t.practice_problems else None
                ),
                "pred LL": _fmt(log_loss(t.predictions)),
                "mean-guess LL": _fmt(base_rate_log_loss(t.predictions)),
                "pred RMSE": _fmt(rmse_bins(t.predictions)),
                "above target": _fmt(t.above_target_reviews / t.catalogued_reviews, 2)
                if t.catalogued_reviews
                else "-",
                "held share": _fmt(t.held_reviews / t.catalogued_reviews, 2)
                if t.catalogued_reviews
                else "-",
                f"longest fitted d (max {MAXIMUM_INTERVAL_DAYS})": _fmt(fitted, 0),
                "longest logged d": _fmt(t.longest_logged_interval, 0),
                "review min/learner": _fmt(t.review_seconds / 60 / max(1, t.learners), 1),
                "credit logs": str(t.implicit_logs),
                "sets (adopted)": f"{t.parameter_sets} ({t.adopted_sets})",
            }
        )
    return rows


def verdicts(old, site) -> list[tuple[str, bool, str]]:
    """Return the issue's targets for one family and seed: (target, met, the figures)."""
    from practice.review.scheduling import MAXIMUM_INTERVAL_DAYS
    from tests.simulate.measures import base_rate_log_loss, log_loss

    def per(t) -> float:
        return t.explicit_reviews / max(1, t.learners)

    def mistakes(t) -> float:
        return t.practice_mistakes / max(1, t.practice_problems)

    cut = 1 - per(site) / per(old) if per(old) else 0.0
    old_avoid, site_avoid = old.daily_avoid.mean_last(), site.daily_avoid.mean_last()
    ll, guess = log_loss(site.predictions), base_rate_log_loss(site.predictions)
    above = site.above_target_reviews / max(1, site.catalogued_reviews)
    fitted = [t.longest_fitted_interval for t in (old, site) if t.longest_fitted_interval]
    logged = max(old.longest_logged_interval, site.longest_logged_interval)
    longest = max([logged, *fitted])
    return [
        (
            "at least 30% fewer explicit reviews",
            cut >= 0.3,
            f"{cut:.0%} fewer" if cut >= 0 else f"{-cut:.0%} more",
        ),
        (
            "retention over the last 30 days equal or better",
            site_avoid is not None and old_avoid is not None and site_avoid >= old_avoid,
            f"{_fmt(site_avoid, 4)} against {_fmt(old_avoid, 4)}",
        ),
        (
            "no more practice mistakes",
            mistakes(site) <= mistakes(old),
            f"{mistakes(site):.3f} against {mistakes(old):.3f} a problem",
        ),
        (
            "log loss lower than a constant guess",
            ll is not None and guess is not None and ll < guess,
            f"{_fmt(ll)} against {_fmt(guess)}",
        ),
        ("under 25% of reviews above desired retention", above < 0.25, f"{above:.2f}"),
        (
            f"no interval over {MAXIMUM_INTERVAL_DAYS} days",
            longest <= MAXIMUM_INTERVAL_DAYS,
            f"longest {longest:.0f} days",
        ),
    ]


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


def _run_here(args: argparse.Namespace, jobs: list[tuple[str, int, int]]) -> list:
    """Run the (family, seed, arm) jobs in this process on a throwaway database; return
    their tallies."""
    # The eager tasks log every run at INFO: thousands of lines that say nothing here.
    logging.getLogger("celery").setLevel(logging.WARNING)
    drop = _prepare_database()
    try:
        from tests.simulate.cohort import course_ideas, run_arm
        from tests.simulate.measures import ARMS

        ideas = course_ideas()
        tallies = []
        for family, seed, index in jobs:
            started = time.perf_counter()
            tally = run_arm(
                ARMS[index],
                learners=args.learners,
                days=args.days,
                seed=seed,
                ideas=ideas,
                family=family,
            )
            tally.seed = seed
            tallies.append(tally)
            print(
                f"# {family} seed {seed} {tally.arm}: {time.perf_counter() - started:.1f} s, "
                f"{tally.attempts} attempts, logs {tally.logs_by_origin}",
                file=sys.stderr,
                flush=True,
            )
        return tallies
    finally:
        drop()


def _run_in_children(args: argparse.Namespace, jobs: list[tuple[str, int, int]]) -> list:
    """Run each job in a child process (``--jobs`` at a time), each with its own database;
    return their tallies in job order."""
    from tests.simulate.measures import Tally

    pending = list(enumerate(jobs))
    running: list[tuple[int, subprocess.Popen]] = []
    results: dict[int, Tally] = {}
    while pending or running:
        while pending and len(running) < args.jobs:
            n, (family, seed, index) = pending.pop(0)
            command = [
                sys.executable, "-m", "tests.benchmarks.simulate", "--child",
                "--learners", str(args.learners), "--days", str(args.days),
                "--seed", str(seed), "--arms", str(index), "--family", family,
            ]  # fmt: skip
            running.append((n, subprocess.Popen(command, stdout=subprocess.PIPE, text=True)))
        n, child = running.pop(0)
        out, _ = child.communicate()
        if child.returncode != 0:
            # The others still run: one failure (its traceback on stderr) loses one row.
            print(f"# job {jobs[n]} failed with exit status {child.returncode}", file=sys.stderr)
            continue
        (data,) = json.loads(out)
        results[n] = Tally.from_dict(data)
        if args.save:
            with open(f"{args.save}.partial", "a") as partial:
                partial.write(json.dumps(data) + "\n")
    failed = [jobs[n] for n in range(len(jobs)) if n not in results]
    if failed:
        raise SystemExit(f"failed jobs (family, seed, arm): {failed}")
    return [results[n] for n in range(len(jobs))]


def report(tallies: list, families: list[str], *, markdown: bool = False) -> None:
    """Print a table per family, and the targets of the old policy (each seed's first arm)
    against the site's defaults (the arm whose settings are the site's) per seed."""
    from tests.simulate.measures import site_arm

    site = site_arm().name
    for family in families:
        rows = [t for t in tallies if t.family == family]
        print(f"\n## family {family}\n")
        table = rows_of(rows)
        (print_markdown if markdown else print_rows)(table)
        for seed, learners in dict.fromkeys((t.seed, t.learners) for t in rows):
            of_seed = [t for t in rows if (t.seed, t.learners) == (seed, learners)]
            sites = [t for t in of_seed if t.arm == site]
            if len(of_seed) < 2 or not sites or of_seed[0].arm == site:
                continue
            print(f"\n{family}, seed {seed}, {learners} learners: {site} against {of_seed[0].arm}")
            for target, met, figures in verdicts(of_seed[0], sites[0]):
                print(f"- {target}: {'met' if met else 'NOT met'} ({figures})")


def print_markdown(rows: list[dict[str, str]]) -> None:
    """Print the rows as a Markdown table."""
    if not rows:
        return
    print("| " + " | ".join(rows[0]) + " |")
    print("|" + "---|" * len(rows[0]))
    for r in rows:
        print("| " + " | ".join(r.values()) + " |")


def _loaded(path: str) -> list:
    """Return the tallies a ``--save`` file (one JSON list) or its ``.partial`` (a JSON object a
    line) holds."""
    from tests.simulate.measures import Tally

    with open(path) as saved:
        text = saved.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [Tally.from_dict(item) for item in (data if isinstance(data, list) else [data])]


def main(argv: list[str]) -> int:
    """Parse the flags, run the jobs on throwaway databases, print the tables."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")
    from tests.simulate.measures import ARMS, site_arm
    from tests.simulate.memory import FAMILIES

    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.simulate")
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", default="1,7", help="comma-separated seeds (default 1,7)")
    parser.add_argument(
        "--family",
        default="all",
        choices=[*FAMILIES, "all"],
        help="the hidden memory (default all, one table each)",
    )
    parser.add_argument(
        "--arms",
        default="",
        help="comma-separated arm indexes (default the old policy and the site's)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="runs side by side")
    parser.add_argument("--quick", action="store_true", help="2 learners x 4 days, one process")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--save", help="write every tally to this JSON file")
    parser.add_argument(
        "--load",
        nargs="+",
        metavar="JSON",
        help="report the tallies saved in these files, run nothing",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.learners, args.days, args.jobs = 2, 4, 1
    if args.learners < 1 or args.days < 1 or args.jobs < 1:
        parser.error("--learners, --days and --jobs must be at least 1")
    try:
        seeds = [int(seed) for seed in args.seed.split(",")]
    except ValueError:
        parser.error("--seed takes whole numbers, comma-separated")
    default_arms = [0, ARMS.index(site_arm())]
    try:
        indexes = [int(i) for i in args.arms.split(",")] if args.arms else default_arms
        if any(not 0 <= i < len(ARMS) for i in indexes):
            raise IndexError
    except (ValueError, IndexError):
        parser.error(f"--arms takes indexes 0 to {len(ARMS) - 1}, comma-separated")
    families = list(FAMILIES) if args.family == "all" else [args.family]
    if args.load:
        tallies = [t for path in args.load for t in _loaded(path)]
        report(
            tallies,
            [f for f in families if any(t.family == f for t in tallies)],
            markdown=args.markdown,
        )
        return 0
    jobs = [(family, seed, index) for family in families for seed in seeds for index in indexes]
    if args.child:
        print(json.dumps([dataclasses.asdict(t) for t in _run_here(args, jobs)]))
        return 0
    started = time.perf_counter()
    if args.jobs == 1 or len(jobs) == 1:
        tallies = _run_here(args, jobs)
    else:
        tallies = _run_in_children(args, jobs)
    if args.save:
        with open(args.save, "w") as out:
            json.dump([dataclasses.asdict(t) for t in tallies], out)
    print(
        f"# {args.learners} learners x {args.days} days, seeds {args.seed}, "
        f"{time.perf_counter() - started:.0f} s; 'vs old' compares with each seed's first arm"
    )
    report(tallies, families, markdown=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
