"""The worker's side of `grading.confirm`: a supervisor process (`python -m
grading.confirm_worker`) that imports SymPy once, forks a computing process capped in memory
and CPU time, passes each job on, and kills and re-forks the computing process when it does
not answer within the job's time limit.

The protocol on the supervisor's stdin and stdout: the parent writes `HEADER` (differences,
bytes of the pickle, limit in ms) and the pickle; the supervisor replies one byte per
difference (`1` zero, `0` not zero, `?` no proof) or `TIMED_OUT` per difference, after one
`READY` byte once it has started.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import select
import signal
import struct
import sys
import time

import sympy

from .proof import exactly_zero

MEMORY_LIMIT_BYTES = 1 << 30  # address space a worker may add to what it has after start-up
CPU_BACKSTOP_SECONDS = 20  # CPU seconds per confirmation, should a parent die mid-way

HEADER = struct.Struct("!III")  # differences, bytes of the pickle, time limit in ms
_JOB = struct.Struct("!II")  # differences, bytes of the pickle
READY = b"R"
TIMED_OUT = b"T"


def _limit_memory() -> None:
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * page
    except OSError:
        in_use = 1 << 30
    limit = in_use + MEMORY_LIMIT_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _limit_cpu() -> None:
    """Let the coming confirmation use CPU_BACKSTOP_SECONDS more of CPU time (the soft limit
    only: SIGXCPU ends the process should no one be left to kill it)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = used + CPU_BACKSTOP_SECONDS
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _decide(diff: sympy.Expr) -> bytes:
    try:
        result = exactly_zero(diff)
    except (ArithmeticError, ValueError, TypeError, RecursionError, MemoryError):
        return b"?"
    return b"1" if result is True else b"0" if result is False else b"?"


_WARM_UP = (
    1 / (sympy.sqrt(2) + 1) - sympy.sqrt(2) + 1,
    sympy.E / (sympy.E + 1) - 1 / (1 + sympy.exp(-1)),
    sympy.pi * (sympy.pi + 1) - sympy.pi**2 - sympy.pi,
)


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return data
        data += chunk
    return data


def _compute(requests: int, replies: int) -> None:
    """Answer jobs from the supervisor until end of input (the computing process)."""
    _limit_memory()
    while True:
        header = _read_exactly(requests, _JOB.size)
        if len(header) < _JOB.size:
            os._exit(0)
        count, size = _JOB.unpack(header)
        payload = _read_exactly(requests, size)
        _limit_cpu()
        try:
            diffs = pickle.loads(payload)  # noqa: S301 (written by this worker's parent)
            reply = b"".join(_decide(diff) for diff in diffs)
        except MemoryError:
            reply = b"?" * count
        os.write(replies, reply)


class _Computer:
    """Hold the supervisor's forked computing process: a copy of the supervisor made in a few
    milliseconds, so a killed one is replaced at once."""

    def __init__(self, inherited: tuple[int, ...] = ()) -> None:
        to_child, self.requests = os.pipe()
        self.replies, from_child = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the computing process
            # Only its own two pipes stay open: the parent's pipes then close when the
            # supervisor exits, even while this process is still busy.
            for fd in (self.requests, self.replies, *inherited):
                os.close(fd)
            try:
                _compute(to_child, from_child)
            finally:
                os._exit(0)
        os.close(to_child)
        os.close(from_child)

    def ask(self, count: int, payload: bytes, timeout: float) -> bytes | None:
        try:
            os.write(self.requests, _JOB.pack(count, len(payload)) + payload)
        except OSError:
            return None
        poller = select.poll()
        poller.register(self.replies, select.POLLIN)
        deadline = time.monotonic() + timeout
        data = b""
        while len(data) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not poller.poll(remaining * 1000):
                return None
            chunk = os.read(self.replies, count - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.requests)
        os.close(self.replies)


def serve() -> None:
    """Supervise one computing process and enforce the time limit (the worker's main loop):
    read a job from the parent, pass it on, and kill and re-fork the computing process when
    it does not answer in time. Ends, with its computing process, at end of input."""
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # anything printed goes to stderr, never into the replies
    requests = sys.stdin.fileno()
    for diff in _WARM_UP:  # load SymPy's code paths once, so every forked copy has them
        _decide(diff)
    inherited = (requests, replies.fileno())
    computer = _Computer(inherited)
    replies.write(READY)
    try:
        while True:
            header = _read_exactly(requests, HEADER.size)
            if len(header) < HEADER.size:
                return
            count, size, timeout_ms = HEADER.unpack(header)
            payload = _read_exactly(requests, size)
            reply = computer.ask(count, payload, timeout_ms / 1000)
            if reply is None:  # past the limit (or dead of its memory cap): a fresh copy
                computer.kill()
                computer = _Computer(inherited)
                reply = TIMED_OUT * count
            replies.write(reply)
    finally:
        computer.kill()


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):  # the parent went away
        serve()
