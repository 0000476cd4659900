"""Run the benchmarks and print one table: `python -m tests.benchmarks [bench_module ...]`.

Each `tests/benchmarks/bench_*.py` module has `run() -> list[dict]`; each dict is one row with
`benchmark`, `case`, `median_ms`, `p99_ms` and optional extras (`n`, `ratio`, `note`; for a
request type of tests/budgets.py, `statements` and `cpu_ms` beside `budget_statements` and
`budget_cpu_ms`, and `budget`: "ok" or what is over). Nothing is asserted here: the statement
budgets are tests/test_budgets.py's, and timing on a shared machine is only reported.
"""

import importlib
import os
import pkgutil
import sys
import time
from pathlib import Path

COLUMNS = (
    "benchmark",
    "case",
    "n",
    "median_ms",
    "p99_ms",
    "ratio",
    "cpu_ratio",
    "statements",
    "budget_statements",
    "cpu_ms",
    "budget_cpu_ms",
    "budget",
    "note",
)


def _format(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}" if value < 100 else f"{value:.1f}"
    return str(value)


def print_table(rows: list[dict]) -> None:
    """Print rows as an aligned text table with the known columns first."""
    extra = sorted({key for row in rows for key in row} - set(COLUMNS))
    columns = [c for c in COLUMNS if any(c in row for row in rows)] + extra
    cells = [[_format(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in cells:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)))


def main(argv: list[str]) -> int:
    """Import the named (or all) benchmark modules, run them, print the table."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")
    here = Path(__file__).parent
    names = argv or sorted(
        m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_")
    )
    rows: list[dict] = []
    for name in names:
        module = importlib.import_module(f"tests.benchmarks.{name}")
        started = time.perf_counter()
        print(f"# {name} ...", file=sys.stderr, flush=True)
        rows.extend(module.run())
        print(f"# {name} took {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
