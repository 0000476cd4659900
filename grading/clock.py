"""An answer's clocks, all counting CPU time, so that a busy machine does not change a verdict.

Every bound on the work of one answer is a size or a count checked before the work runs
(`grading.bounds`, `grading.proof.check_confirmable`). The clocks are backstops behind them,
and they count CPU time, not wall time: on a machine whose cores are shared with other work a
process waits for a core longer, but the CPU time an answer needs stays the same, so the same
answer gets the same verdict on a quiet and a loaded machine.

- The marking clock (`bounds.TIME_BUDGET_SECONDS` of this thread's CPU time, `cpu_now`), read
  between the steps of reading and marking an answer.
- The confirmation budget (`CONFIRM_SECONDS` of the confirmation worker's CPU time), shared by
  the exact proofs of one answer: each proof reports the CPU time it used (`spent`), and the
  worker's computing process is stopped by the kernel when it passes what is left
  (`ITIMER_PROF`, `grading.confirm_worker`).
- One wall-clock limit, the last resort: `WALL_LIMIT_SECONDS` for one confirmation, far above
  what any answer within the bounds needs (tens of milliseconds of CPU). Reaching it means the
  server is too busy to give the worker a core, not that the answer is complex, and the answer
  is told so (`grading.confirm`).

A process starts its confirmation worker once (about a second of importing SymPy, longer on a
busy machine) and two answers may want the same worker at once; those waits use no CPU time of
the answer's, and are recorded (`waited`, `paused`) for diagnostics only. Per thread, reset at
the start of each answer.
"""

from __future__ import annotations

import threading
import time

# This thread's CPU time in seconds: waiting for a core, for a worker, or for I/O is not in it.
cpu_now = time.thread_time

CONFIRM_SECONDS = 0.5  # CPU seconds of the worker for all of one answer's exact proofs
WALL_LIMIT_SECONDS = 30.0  # wall seconds of one confirmation: the last resort, "server busy"

_local = threading.local()


def answer_started() -> None:
    """Start counting the waits of a new answer (this thread)."""
    _local.waited = 0.0


def waited(seconds: float) -> None:
    """Add a wait for a worker to this thread's current answer."""
    _local.waited = getattr(_local, "waited", 0.0) + max(0.0, seconds)


def paused() -> float:
    """Return the wall seconds this thread's current answer spent waiting for a worker."""
    return getattr(_local, "waited", 0.0)


_budget = threading.local()


class _Budget:
    """The block of `confirmation_budget` (a class: every answer enters one, and a
    generator-based context manager costs a few µs more)."""

    __slots__ = ("previous", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.previous: float | None = None

    def __enter__(self) -> None:
        self.previous = getattr(_budget, "left", None)
        _budget.left = self.seconds

    def __exit__(self, *exc: object) -> None:
        _budget.left = self.previous


def confirmation_budget(seconds: float = CONFIRM_SECONDS) -> _Budget:
    """Share `seconds` of the worker's CPU time among every exact confirmation made inside the
    block (one answer: its comparison with the right value and with each mistaken one)."""
    return _Budget(seconds)


def confirmation_remaining() -> float:
    """Return the worker CPU seconds left of this thread's confirmation budget (all of
    CONFIRM_SECONDS outside a block)."""
    left = getattr(_budget, "left", None)
    return CONFIRM_SECONDS if left is None else min(CONFIRM_SECONDS, left)


def spent(seconds: float) -> None:
    """Take the worker CPU seconds a confirmation used from this thread's budget."""
    left = getattr(_budget, "left", None)
    if left is not None:
        _budget.left = left - max(0.0, seconds)
