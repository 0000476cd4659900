"""Grading per registered kind: every generated problem's right answer and each catalogued
mistake's answer, typed as a learner would (``tests.answers.typed``, by the answer shape), marked by
``grading.grade``.

For kinds whose answers hold ``sqrt`` or ``exp``, the exact confirmation is also timed alone,
before the answer is marked (so no approximation is cached yet): the answer's shape comparing
what was read with the value it matches (the numeric test, then the symbolic proof), with the
slowest case named. Vectors are typed there over their common denominator
(``[exp(1), 1]/(1 + exp(1))``, the form the statements offer), which SymPy does not bring to
the form of the expected value by itself, so the proof does real work; a ``sqrt`` scalar is
brought to one canonical form when it is read, so its proof is the trivial one.
``BENCH_KIND_SEEDS`` sets the problems per kind and level (default 10); seeds start past the
tests' own.
"""

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

SEEDS = int(os.environ.get("BENCH_KIND_SEEDS", "10"))
FIRST_SEED = 20_000


def _timed(call: Callable[[], object]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _irrational(value: Any) -> bool:
    """Return whether any number inside the value (nested tuples included) is not rational."""
    if isinstance(value, tuple):
        return any(_irrational(x) for x in value)
    return getattr(value, "is_Rational", True) is False


def run() -> list[dict]:
    """Time marking per kind over every level; time exact confirmations of irrational answers."""
    import grading
    from grading.spec import load_problem
    from practice.generators import GENERATORS, generate
    from tests.answers import typed

    rows = []
    for kind, generator in GENERATORS.items():
        marking: list[float] = []
        confirming: list[tuple[float, str]] = []
        for level in generator.levels:
            for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
                spec = generate(kind, seed=seed, level=level)
                shape = load_problem(spec).shape
                answers = [("right", grading.expected_answer(spec))]
                answers += [(d.mistake, v) for d, v in grading.mistaken_answers(spec)]
                for name, value in answers:
                    if _irrational(value):
                        reading = shape.read(typed(value, shape))
                        ms, ok = _timed(lambda r=reading, v=value, sh=shape: sh.matches(r, v))
                        assert ok, (kind, seed, name)
                        confirming.append((ms, f"level {level} seed {seed} {name}"))
                    text = typed(value, spec)
                    ms, _verdict = _timed(lambda s=spec, t=text: grading.grade(s, t))
                    marking.append(ms)
        rows.append(
            {
                "benchmark": "grade by kind",
                "case": f"{kind} (right answer and every mistake, all levels)",
                "n": len(marking),
                "median_ms": statistics.median(marking),
                "p99_ms": _percentile(marking, 0.99),
                "note": f"max {max(marking):.1f} ms",
            }
        )
        if confirming:
            slowest, case = max(confirming)
            times = [ms for ms, _ in confirming]
            rows.append(
                {
                    "benchmark": "exact confirmation",
                    "case": f"{kind} (sqrt/exp answers)",
                    "n": len(times),
                    "median_ms": statistics.median(times),
                    "p99_ms": _percentile(times, 0.99),
                    "note": f"slowest {slowest:.1f} ms: {case}",
                }
            )
    return rows


if __name__ == "__main__":
    from tests.benchmarks.__main__ import print_table

    print_table(run())
