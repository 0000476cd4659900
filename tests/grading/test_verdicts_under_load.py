"""The same answer gets the same verdict on a quiet and on a loaded machine.

The grader's clocks count CPU time, and the one wall-clock limit is far above what any answer
within the bounds needs (grading/clock.py). This grades a corpus twice: here, and in a process
of its own given a low priority (``nice``) while a busy process spins on every core, so each of
its steps waits for a core longer than it computes, and whose wall clocks (``time.monotonic``,
``time.perf_counter``) run 50 times fast on top of that: a machine whose every step seems to
take 50 times as long (the grader's earlier wall-clock budgets, half a second for confirmations
and one for marking, then turned right answers and diagnosed mistakes into "invalid"). The
corpus: every near-miss
answer (tests/grading/test_near_miss.py; most end in an exact confirmation or a bound), the
right values typed in another exact form (each confirmed in the worker), and the clearest answer
of every targeted mistake of content_weights at every level, the kind whose values hold exp
(the answers that once came back invalid on a loaded machine).
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import grading
from grading.confirm import start
from practice.generators import GENERATORS, generate
from tests.answers import typed
from tests.generators.test_targets import biggest_gap
from tests.grading.test_near_miss import CORPUS, DISGUISE, SPECS, _final, _written

ROOT = Path(__file__).resolve().parents[2]
NICENESS = 5  # a quarter of a core's share against one busy process at the default priority
WALL_SPEED = 50  # how much faster the loaded process's wall clocks run


def corpus() -> list[tuple[dict, str]]:
    """Return (spec, answer) pairs: the near misses, right values in another exact form, and
    content_weights' targeted mistakes."""
    items = [(SPECS[kind](), text) for kind, text in CORPUS]
    for kind, make in SPECS.items():
        spec = make()
        items.append((spec, _final(spec, "0", DISGUISE)))
        if kind != "lookup":
            items.append((spec, _written(spec, "0", DISGUISE)))
    generator = GENERATORS["content_weights"]
    for target in generator.mistakes:
        for level in generator.levels:
            spec = generate("content_weights", seed=0, level=level, target=target)
            right = grading.expected_answer(spec)
            variants = [d for d, _ in grading.mistaken_answers(spec) if d.mistake == target]
            gaps = [biggest_gap(grading.apply_mistake(spec, d), right) for d in variants]
            clearest = variants[gaps.index(max(gaps))]
            items.append((spec, typed(grading.apply_mistake(spec, clearest), spec)))
    return items


def verdicts() -> dict:
    """Grade the corpus; return each verdict's status, diagnosis and message, and the CPU and
    wall seconds the grading took."""
    start(wait=True)  # the worker's start-up is no answer's
    items = corpus()

    def real() -> float:  # the wall clock, whatever time.monotonic and perf_counter say
        return time.clock_gettime(time.CLOCK_MONOTONIC)

    cpu, wall = time.process_time(), real()
    found = []
    for spec, text in items:
        verdict = grading.grade(spec, text)
        diagnosis = verdict.diagnosis
        found.append(
            [
                verdict.status,
                diagnosis and diagnosis.mistake,
                diagnosis and list(diagnosis.terms),
                verdict.message,
            ]
        )
    return {
        "verdicts": found,
        "cpu": time.process_time() - cpu,
        "wall": real() - wall,
    }


LOADED = f"""
import json, os, time
os.nice({NICENESS})
_monotonic, _perf_counter = time.monotonic, time.perf_counter
time.monotonic = lambda: _monotonic() * {WALL_SPEED}
time.perf_counter = lambda: _perf_counter() * {WALL_SPEED}
from tests.grading.test_verdicts_under_load import verdicts
print(json.dumps(verdicts()))
"""


def test_every_verdict_is_the_same_with_every_core_busy():
    quiet = verdicts()["verdicts"]
    assert len(quiet) > 250
    statuses = {status for status, *_ in quiet}
    assert statuses == {"correct", "incorrect", "invalid"}  # all three, the bounds' included

    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        loaded = subprocess.run(
            [sys.executable, "-c", LOADED],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    result = json.loads(loaded.stdout.strip().splitlines()[-1])
    # The load was real: the grading waited for a core far longer than it computed.
    assert result["wall"] > 2 * result["cpu"], result
    changed = [
        (text, before, after)
        for (_, text), before, after in zip(corpus(), quiet, result["verdicts"], strict=True)
        if before != after
    ]
    assert changed == []
