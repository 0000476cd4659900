"""An answer's clocks: the confirmation budget (half a second of worker time shared by the
exact proofs of one answer) and the one pause in them, waiting for a confirmation worker to be
free or ready.

A process starts its confirmation worker once (about a second of importing SymPy, longer on a
busy machine) and two answers may want the same worker at once. That wait is the server's cost,
not the answer's: neither the marking clock (`marking`, one second) nor the confirmation budget
counts it, or the first exact answer of a fresh process would be refused as too complex. Per
thread, reset at the start of each answer.
"""

from __future__ import annotations

import threading
import time

_local = threading.local()


def answer_started() -> None:
    """Start counting the waits of a new answer (this thread)."""
    _local.waited = 0.0


def waited(seconds: float) -> None:
    """Add a wait for a worker to this thread's current answer."""
    _local.waited = getattr(_local, "waited", 0.0) + max(0.0, seconds)


def paused() -> float:
    """Return the seconds this thread's current answer spent waiting for a worker."""
    return getattr(_local, "waited", 0.0)


CONFIRM_SECONDS = 0.5
_budget = threading.local()


class _Budget:
    """The block of `confirmation_budget` (a class: every answer enters one, and a
    generator-based context manager costs a few µs more)."""

    __slots__ = ("previous", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.previous: float | None = None

    def __enter__(self) -> None:
        self.previous = getattr(_budget, "deadline", None)
        _budget.deadline = time.monotonic() + self.seconds

    def __exit__(self, *exc: object) -> None:
        _budget.deadline = self.previous


def confirmation_budget(seconds: float = CONFIRM_SECONDS) -> _Budget:
    """Share `seconds` of worker time among every exact confirmation made inside the block
    (one answer: its comparison with the right value and with each mistaken one)."""
    return _Budget(seconds)


def confirmation_remaining() -> float:
    """Return the seconds left of this thread's confirmation budget (all of CONFIRM_SECONDS
    outside a block); the waits for a worker are not counted."""
    deadline = getattr(_budget, "deadline", None)
    if deadline is None:
        return CONFIRM_SECONDS
    # Waiting for a worker to start is not the answer's time.
    return min(CONFIRM_SECONDS, deadline + paused() - time.monotonic())
