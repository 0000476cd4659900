"""Planted mistakes in kinds written apart from the course (tests/benchmarks/planted/).

Each `planted/kinds/<kind>.yaml` is a declared kind written for this benchmark only (not the
course's `kinds/`, not tests/declared/builtin); `planted/mistakes.py` lists, per kind, the
systematic mistakes a learner makes, each computed from the problem's parameters by its own
NumPy / Fraction code, with the derived mistake (rule and terms) that names it rightly. For
every level and `BENCH_PLANTED_SEEDS` seeds (default 40) the kind's problem is generated, each
planted answer is typed as a learner types it (exact through `tests.answers.typed` when it is
rational, else as decimals, `practice.kind_check.decimal`) and graded by `grading.grade`:

- **named**: the verdict names one of the planted mistake's right names (code and terms);
- **wrong name**: it names another mistake;
- **unnamed**: incorrect, no mistake named (the engine has no rule for it: missed);
- **marked right** / **invalid**: a wrong answer graded correct, or not read (neither should
  happen; both count against the named share).

A planted answer that equals the right answer on a problem is no wrong answer there and is left
out (counted as `right_here`). Two arbitrary wrong answers per problem (the right answer
shifted by 7/3 in every coordinate, and scaled by 13/7) are graded too: one of them named is a
wrong name unless the named mistake's own answer on that problem is exactly what was typed.

Goals (issue 39): named / planted wrong answers >= 90%; wrong names / all wrong answers graded
(planted and arbitrary) <= 2%; grading time per answer within 2x of a built-in kind, timed in
the same run and compared as ratios of medians, two ways: the same typed answers on the same
problems graded by the built-in `weighted_sum` and by its declared version
(tests/declared/builtin/kinds/builtin_weighted_sum.yaml), and each planted kind against a
built-in kind of its answer type (`weighted_sum` for rational answers, `cosine_similarity` for
answers with a root, both typed as the planted answers are).
`run()` prints one table per kind (a row per planted mistake) and returns the summary rows.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

SEEDS = int(os.environ.get("BENCH_PLANTED_SEEDS", "40"))
FIRST_SEED = 30_000
KINDS = Path(__file__).resolve().parent / "planted" / "kinds"
# the built-in kind each planted kind's time is compared with: of rational answers, or of
# answers with a root (typed as decimals by both)
REFERENCES = {"exact": "weighted_sum", "irrational": "cosine_similarity"}
GOAL_NAMED = 0.90
GOAL_WRONG_NAME = 0.02
GOAL_RATIO = 2.0
OUTCOMES = ("named", "wrong_name", "unnamed", "marked_right", "invalid")


@dataclass
class Tally:
    """Outcomes of graded wrong answers, and the grading times (ms)."""

    outcomes: Counter = field(default_factory=Counter)
    right_here: int = 0  # planted answers equal to the right answer on their problem
    strays: int = 0
    stray_wrong_names: int = 0
    coinciding: int = 0  # wrong names where the answer is exactly the named mistake's
    named_as: Counter = field(default_factory=Counter)  # the wrong names given, "code [terms]"
    times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.outcomes.update(other.outcomes)
        self.right_here += other.right_here
        self.strays += other.strays
        self.stray_wrong_names += other.stray_wrong_names
        self.coinciding += other.coinciding
        self.named_as.update(other.named_as)
        self.times.extend(other.times)

    @property
    def planted(self) -> int:
        return sum(self.outcomes.values())

    def named_share(self) -> float:
        return self.outcomes["named"] / self.planted if self.planted else math.nan

    def wrong_name_share(self) -> float:
        wrong = self.planted + self.strays
        names = self.outcomes["wrong_name"] + self.stray_wrong_names
        return names / wrong if wrong else math.nan


# ---- values and typing ----------------------------------------------------------------------


def is_exact(value: Any) -> bool:
    """Return whether a value (or every coordinate) is a rational number (a Fraction, an int
    or SymPy's Rational), not a float or an irrational number."""
    if isinstance(value, tuple | list):
        return all(is_exact(x) for x in value)
    return isinstance(value, Fraction | int) or getattr(value, "is_Rational", False) is True


def floats(value: Any) -> list[float]:
    return [float(x) for x in value] if isinstance(value, tuple | list) else [float(value)]


def same(a: Any, b: Any) -> bool:
    """Return whether two answer values are equal (exactly, or to 1e-9 when either is a float
    or an irrational number)."""
    if is_exact(a) and is_exact(b):
        return floats(a) == floats(b) and _fractions(a) == _fractions(b)
    x, y = floats(a), floats(b)
    return len(x) == len(y) and all(
        math.isclose(u, v, rel_tol=1e-9, abs_tol=1e-12) for u, v in zip(x, y, strict=True)
    )


def _fractions(value: Any) -> list[Fraction]:
    items = value if isinstance(value, tuple | list) else [value]
    return [Fraction(str(x)) for x in items]


def typed(value: Any, shape: Any) -> str:
    """Return the text a learner types: exact for a rational value, else decimals."""
    from practice.kind_check import decimal
    from tests.answers import typed as typed_exact

    if is_exact(value):
        return typed_exact(tuple(value) if isinstance(value, list) else value, shape)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(decimal(x) for x in value) + "]"
    return decimal(value)


def strays(right: Any) -> list[Any]:
    """Two arbitrary wrong answers: the right one shifted by 7/3, and scaled by 13/7."""

    def shift(x):
        return x + Fraction(7, 3) if is_exact(x) else float(x) + 7 / 3

    def scale(x):
        return x * Fraction(13, 7) if is_exact(x) else float(x) * 13 / 7

    if isinstance(right, tuple | list):
        return [tuple(shift(x) for x in right), tuple(scale(x) for x in right)]
    return [shift(right), scale(right)]


def outcome(verdict: Any, names: frozenset) -> str:
    """Return what the grader made of a planted wrong answer (see the module's list)."""
    import grading

    if verdict.status == grading.Status.CORRECT:
        return "marked_right"
    if verdict.status == grading.Status.INVALID:
        return "invalid"
    d = verdict.diagnosis
    if d is None:
        return "unnamed"
    return "named" if (d.mistake, tuple(d.terms)) in names else "wrong_name"


def _timed(call):
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


# ---- one kind -------------------------------------------------------------------------------


def grade_problem(spec: dict, planted: list, right_of) -> dict[str, Tally]:
    """Grade every planted mistake's answers (and two arbitrary ones, under "") on one problem;
    return a Tally per planted code."""
    import grading
    from grading.spec import load_problem

    from .planted.mistakes import params

    p = params(spec)
    shape = load_problem(spec).shape
    right = right_of(p)
    assert same(right, grading.expected_answer(spec)), (spec, right)
    catalogue = {(d.mistake, tuple(d.terms)): v for d, v in grading.mistaken_answers(spec)}
    out: dict[str, Tally] = {}
    for item in planted:
        tally = out.setdefault(item.code, Tally())
        for value, names in item.cases(p):
            if same(value, right):
                tally.right_here += 1
                continue
            text = typed(value, shape)
            ms, verdict = _timed(lambda t=text: grading.grade(spec, t))
            tally.times.append(ms)
            got = outcome(verdict, names)
            tally.outcomes[got] += 1
            if got == "wrong_name":
                d = verdict.diagnosis
                listed = catalogue.get((d.mistake, tuple(d.terms)))
                tally.coinciding += listed is not None and same(listed, value)
                tally.named_as[f"{d.mistake} {list(d.terms)}"] += 1
    stray = out.setdefault("", Tally())
    for value in strays(right):
        verdict = grading.grade(spec, typed(value, shape))
        stray.strays += 1
        d = verdict.diagnosis
        if d is not None:
            listed = catalogue.get((d.mistake, tuple(d.terms)))
            stray.stray_wrong_names += not (listed is not None and same(listed, value))
    return out


def run_kind(name: str, seeds: int, first_seed: int = FIRST_SEED) -> dict[str, Tally]:
    """Generate `seeds` problems per level of a planted kind and grade its planted mistakes;
    the kind must be registered (`practice.kind_check.registered`)."""
    from practice.generators import GENERATORS, generate

    from .planted.mistakes import PLANTED, RIGHT

    planted = [item for item in PLANTED if item.kind == name]
    tallies: dict[str, Tally] = {item.code: Tally() for item in planted}
    tallies[""] = Tally()
    for level in GENERATORS[name].levels:
        for seed in range(first_seed, first_seed + seeds):
            spec = generate(name, seed=seed, level=level)
            for code, tally in grade_problem(spec, planted, RIGHT[name]).items():
                tallies[code].add(tally)
    return tallies


def reference_times(kind: str, seeds: int, first_seed: int = FIRST_SEED) -> list[float]:
    """Grade a built-in kind's right answer and every catalogued mistake's, typed as the planted
    answers are (`typed`), on `seeds` problems per level; return the times (ms)."""
    import grading
    from grading.spec import load_problem
    from practice.generators import GENERATORS, generate

    times = []
    for level in GENERATORS[kind].levels:
        for seed in range(first_seed, first_seed + seeds):
            spec = generate(kind, seed=seed, level=level)
            shape = load_problem(spec).shape
            values = [grading.expected_answer(spec)]
            values += [v for _d, v in grading.mistaken_answers(spec)]
            for value in values:
                text = typed(value, shape)
                ms, _ = _timed(lambda s=spec, t=text: grading.grade(s, t))
                times.append(ms)
    return times


def like_for_like(seeds: int, first_seed: int = FIRST_SEED) -> tuple[list[float], list[float]]:
    """Grade the same typed answers (the right one and every catalogued mistake's, as vectors)
    on the same problems with the built-in `weighted_sum` and with its declared version
    (tests/declared/builtin/kinds/builtin_weighted_sum.yaml, given the same numbers),
    alternately; return the two lists of times (ms): the cost of a declared kind itself."""
    import grading
    from grading.declared import read_kind_file
    from practice.generators import GENERATORS, generate
    from practice.kind_check import registered
    from tests.answers import typed as typed_exact
    from tests.declared.test_builtin_equivalence import PARAMS, kind_path

    python, declared = [], []
    with registered(read_kind_file(kind_path(REFERENCES["exact"]))) as kind:
        for level in GENERATORS[REFERENCES["exact"]].levels:
            for seed in range(first_seed, first_seed + seeds):
                spec = generate(REFERENCES["exact"], seed=seed, level=level)
                mine = {"kind": kind.name, "params": PARAMS[REFERENCES["exact"]](spec)}
                values = [grading.expected_answer(spec)]
                values += [v for _d, v in grading.mistaken_answers(spec)]
                for value in values:
                    text = typed_exact(value, spec)
                    ms, _ = _timed(lambda s=spec, t=text: grading.grade(s, t))
                    python.append(ms)
                    ms, _ = _timed(lambda s=mine, t=text: grading.grade(s, t))
                    declared.append(ms)
    return python, declared


def answer_type(name: str) -> str:
    """Return "exact" when the registered kind's right answer is rational, else "irrational"."""
    import grading
    from practice.generators import generate

    right = grading.expected_answer(generate(name, seed=FIRST_SEED, level=1))
    return "exact" if is_exact(right) else "irrational"


def kind_names() -> list[str]:
    return sorted(path.stem for path in KINDS.glob("*.yaml"))


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def goals(named: float, wrong: float, slowest_ratio: float) -> tuple[bool, bool, bool]:
    """Return whether each goal is met: the named share, the wrong-name share, the time."""
    return named >= GOAL_NAMED, wrong <= GOAL_WRONG_NAME, slowest_ratio <= GOAL_RATIO


def _share(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _row(case: str, tally: Tally, **extra) -> dict:
    o = tally.outcomes
    return {
        "case": case,
        "n": tally.planted,
        "named": o["named"],
        "wrong_name": o["wrong_name"] + tally.stray_wrong_names,
        "unnamed": o["unnamed"],
        "marked_right": o["marked_right"] + o["invalid"],
        "right_here": tally.right_here,
        "named_share": _share(tally.named_share()),
        **extra,
    }


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[int(0.99 * (len(ordered) - 1))]


def run(seeds: int = SEEDS) -> list[dict]:
    """Grade every planted kind's planted mistakes; print a table per kind; return the
    summary rows (the references, one per kind, the totals, one per goal)."""
    import django

    django.setup()
    from grading.declared import read_kind_file
    from practice.kind_check import registered
    from tests.benchmarks.__main__ import print_table

    from .planted.mistakes import PLANTED

    medians = {}
    summary: list[dict] = []
    for of, kind in REFERENCES.items():
        times = reference_times(kind, seeds)
        medians[of] = statistics.median(times)
        summary.append(
            {
                "benchmark": "planted mistakes",
                "case": f"reference ({of} answers): built-in {kind}, right and catalogued",
                "n": len(times),
                "median_ms": medians[of],
                "p99_ms": _p99(times),
            }
        )
    python, declared = like_for_like(seeds)
    same_ratio = statistics.median(declared) / statistics.median(python)
    summary.append(
        {
            "benchmark": "planted mistakes",
            "case": f"same answers: declared builtin_{REFERENCES['exact']} / built-in",
            "n": len(declared),
            "median_ms": statistics.median(declared),
            "p99_ms": _p99(declared),
            "ratio": same_ratio,
            "note": f"built-in {statistics.median(python):.3f} ms median, same problems",
        }
    )
    total = Tally()
    ratios = {}
    with ExitStack() as stack:
        for name in kind_names():
            stack.enter_context(registered(read_kind_file(KINDS / f"{name}.yaml")))
            of = answer_type(name)
            tallies = run_kind(name, seeds)
            kind_total = Tally()
            rows = []
            for item in (item for item in PLANTED if item.kind == name):
                tally = tallies[item.code]
                kind_total.add(tally)
                wrong = ", ".join(f"{k} x{v}" for k, v in tally.named_as.most_common(3))
                note = item.what + (f"; named as {wrong}" if wrong else "")
                rows.append(_row(f"{item.code} ({item.category})", tally, note=note))
            stray = tallies[""]
            kind_total.add(stray)
            rows.append(
                _row(
                    "arbitrary wrong answers",
                    stray,
                    n=stray.strays,
                    named_share="",
                    note="a wrong name: a mistake named whose answer is not what was typed",
                )
            )
            print(f"\n## planted mistakes: {name} ({seeds} seeds per level)")
            print_table(rows)
            total.add(kind_total)
            median = statistics.median(kind_total.times)
            ratios[name] = median / medians[of]
            summary.append(
                {
                    "benchmark": "planted mistakes",
                    "case": f"{name} ({of} answers)",
                    "n": kind_total.planted,
                    "median_ms": median,
                    "p99_ms": _p99(kind_total.times),
                    "ratio": ratios[name],
                    "named_share": _share(kind_total.named_share()),
                    "wrong_name_share": _share(kind_total.wrong_name_share()),
                    "note": f"time against {REFERENCES[of]}",
                }
            )
    print()
    named, wrong = total.named_share(), total.wrong_name_share()
    worst = max(ratios, key=ratios.get)
    named_met, wrong_met, time_met = goals(named, wrong, ratios[worst])
    summary += [
        {
            "benchmark": "planted mistakes",
            "case": f"all {len(ratios)} kinds, {len(PLANTED)} planted mistakes",
            "n": total.planted,
            "median_ms": statistics.median(total.times),
            "ratio": statistics.median(total.times) / medians["exact"],
            "named_share": _share(named),
            "wrong_name_share": _share(wrong),
            "note": (
                f"{total.outcomes['unnamed']} unnamed, {total.outcomes['wrong_name']} wrong "
                f"names ({total.coinciding} equal to the named mistake's answer), "
                f"{total.right_here} right on their problem; ratio against {REFERENCES['exact']}"
            ),
        },
        {
            "benchmark": "planted mistakes",
            "case": f"goal: named with the right rule and terms >= {GOAL_NAMED:.0%}",
            "named_share": _share(named),
            "note": met(named_met),
        },
        {
            "benchmark": "planted mistakes",
            "case": f"goal: wrong answers given a wrong name <= {GOAL_WRONG_NAME:.0%}",
            "n": total.planted + total.strays,
            "wrong_name_share": _share(wrong),
            "note": met(wrong_met),
        },
        {
            "benchmark": "planted mistakes",
            "case": f"goal: time per answer within {GOAL_RATIO:g}x, the same answers",
            "ratio": same_ratio,
            "note": met(same_ratio <= GOAL_RATIO),
        },
        {
            "benchmark": "planted mistakes",
            "case": f"goal: time per answer within {GOAL_RATIO:g}x, each planted kind",
            "ratio": ratios[worst],
            "note": f"{met(time_met)} (slowest: {worst}, against a kind of its answer type)",
        },
    ]
    return summary


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")
    from tests.benchmarks.__main__ import print_table

    print_table(run())
