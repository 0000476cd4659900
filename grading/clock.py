"""The one pause in an answer's clocks: waiting for a confirmation worker to be free or ready.

A process starts its confirmation worker once (about a second of importing SymPy, longer on a
busy machine) and two answers may want the same worker at once. That wait is the server's cost,
not the answer's: neither the marking clock (`marking`, one second) nor the confirmation budget
(`compare`, half a second) counts it, or the first exact answer of a fresh process would be
refused as too complex. Per thread, reset at the start of each answer.
"""

from __future__ import annotations

import threading

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
