"""Problem generation and rendering: time per problem, with the re-draws it took.

Generation is timed end to end per problem — every candidate drawn, checked against the grading
engine's catalog (``validate_spec``, ``expected_answer``, ``mistaken_answers``) and re-drawn until
diagnosable — for each kind and level over consecutive seeds, then for targeted variants (every
mistake of the kind, every level). The ``redraws`` column is the mean re-draw count per problem
(its maximum in ``note``). Rendering is timed on level-1 problems: the Markdown statement, the
statement through ``courses.mathml.render_markdown`` to HTML with MathML, and the SVG picture
with a learner's answer. ``BENCH_GENERATOR_SEEDS`` sets the problems per case (default 40).
"""

import os
import statistics
import time
from collections.abc import Callable

SEEDS = int(os.environ.get("BENCH_GENERATOR_SEEDS", "40"))
# Offset so the benchmark does not reuse the seeds the tests warm up on (and grading caches).
FIRST_SEED = 10_000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _row(benchmark: str, case: str, times_ms: list[float], **extra) -> dict:
    return {
        "benchmark": benchmark,
        "case": case,
        "n": len(times_ms),
        "median_ms": statistics.median(times_ms),
        "p99_ms": _percentile(times_ms, 0.99),
        **extra,
    }


def _timed(call: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def _generation_rows() -> list[dict]:
    from grading.kinds import MISTAKES_BY_KIND
    from practice.generators import GENERATORS, generate

    rows = []
    for kind, generator in GENERATORS.items():
        for level in generator.levels:
            times, redraws = [], []
            for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
                ms, spec = _timed(lambda s=seed, lv=level, k=kind: generate(k, seed=s, level=lv))
                times.append(ms)
                redraws.append(spec["generator"]["redraws"])
            rows.append(
                _row(
                    "generate",
                    f"{kind} level {level}",
                    times,
                    redraws=round(statistics.mean(redraws), 2),
                    note=f"max {max(redraws)} re-draws",
                )
            )
        times, redraws = [], []
        per_target = max(1, SEEDS // (len(MISTAKES_BY_KIND[kind]) * len(generator.levels)))
        for target in MISTAKES_BY_KIND[kind]:
            for level in generator.levels:
                for seed in range(FIRST_SEED, FIRST_SEED + per_target):
                    ms, spec = _timed(
                        lambda s=seed, lv=level, t=target, k=kind: generate(
                            k, seed=s, level=lv, target=t
                        )
                    )
                    times.append(ms)
                    redraws.append(spec["generator"]["redraws"])
        rows.append(
            _row(
                "generate targeted",
                f"{kind} (every mistake, every level)",
                times,
                redraws=round(statistics.mean(redraws), 2),
                note=f"max {max(redraws)} re-draws",
            )
        )
    return rows


def _rendering_rows() -> list[dict]:
    import grading
    from courses.mathml import render_markdown
    from practice.generators import GENERATORS, generate, render_statement, render_svg

    rows = []
    for kind in GENERATORS:
        specs = [generate(kind, seed=s, level=1) for s in range(FIRST_SEED, FIRST_SEED + SEEDS)]
        # a wrong answer of the kind's own shape to draw beside the right one: its first mistake
        answers = [grading.mistaken_answers(spec)[0][1] for spec in specs]
        cases = [
            ("render_statement", lambda spec, _answer: render_statement(spec)),
            ("statement to HTML", lambda spec, _answer: render_markdown(render_statement(spec))),
            ("render_svg", lambda spec, answer: render_svg(spec, answer=answer)),
        ]
        for name, call in cases:
            times = [
                _timed(lambda s=spec, a=answer, c=call: c(s, a))[0]
                for spec, answer in zip(specs, answers, strict=True)
            ]
            rows.append(_row(name, f"{kind} level 1", times))
    return rows


def run() -> list[dict]:
    """Time generation (with re-draws) per kind and level, then rendering per kind."""
    return _generation_rows() + _rendering_rows()


if __name__ == "__main__":
    from tests.benchmarks.__main__ import print_table

    print_table(run())
