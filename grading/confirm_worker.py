"""The worker's side of `grading.confirm`: a supervisor process (`python -m
grading.confirm_worker`) that imports SymPy once, forks a computing process capped in memory
and CPU time, passes each job on, and re-forks the computing process when it is stopped.

Each job has two limits. Its CPU limit (the answer's budget left, `grading.clock`) is the
computing process's own: a profiling timer (`ITIMER_PROF`, CPU time of the process) whose
signal, left at its default action, ends the process in the kernel whatever the computation
is doing (no Python handler, which a long call into C would never let run). Its wall limit is
the last resort, far above the CPU limit, for a machine too busy to give the process a core:
the supervisor then kills it (SIGKILL). CPU time does not grow with the machine's load, so the
same answer meets or misses its CPU limit on a quiet and on a busy machine alike.

The protocol on the supervisor's stdin and stdout: the parent writes `HEADER` (differences,
bytes of the pickle, CPU limit in ms, wall limit in ms) and the pickle; the supervisor replies
one byte per difference (`1` zero, `0` not zero, `?` no proof), or `TIMED_OUT` per difference
(past the CPU limit, or the computing process died of its memory cap), or `BUSY` per difference
(past the wall limit), then `USED` (the CPU ms the job took), after one `READY` byte once it
has started.
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

HEADER = struct.Struct("!IIII")  # differences, bytes of the pickle, CPU and wall limits in ms
USED = struct.Struct("!I")  # CPU ms the job took, after the reply's bytes
_JOB = struct.Struct("!III")  # differences, bytes of the pickle, CPU limit in ms
READY = b"R"
TIMED_OUT = b"T"
BUSY = b"B"


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
    signal.signal(signal.SIGPROF, signal.SIG_DFL)  # the CPU limit's signal ends the process
    os.write(replies, READY)  # capped: the supervisor may now send work
    while True:
        header = _read_exactly(requests, _JOB.size)
        if len(header) < _JOB.size:
            os._exit(0)
        count, size, cpu_ms = _JOB.unpack(header)
        payload = _read_exactly(requests, size)
        _limit_cpu()
        started = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, max(cpu_ms, 1) / 1000)
        try:
            diffs = pickle.loads(payload)  # noqa: S301 (written by this worker's parent)
            reply = b"".join(_decide(diff) for diff in diffs)
        except MemoryError:
            reply = b"?" * count
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        used = round((time.process_time() - started) * 1000)
        os.write(replies, reply + USED.pack(used))


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
        # Wait until the computing process has capped its own address space: no job (and no
        # READY to the parent) before that.
        if _read_exactly(self.replies, 1) != READY:
            raise RuntimeError("the computing process ended before it was ready")

    def ask(self, count: int, payload: bytes, cpu_ms: int, wall_ms: int) -> bytes:
        """Return the computing process's reply, `TIMED_OUT` when it stopped (its CPU limit or
        its memory cap), or `BUSY` past the wall limit (each per difference, then `USED`)."""
        try:
            os.write(self.requests, _JOB.pack(count, len(payload), cpu_ms) + payload)
        except OSError:
            return TIMED_OUT * count + USED.pack(cpu_ms)
        poller = select.poll()
        poller.register(self.replies, select.POLLIN)
        deadline = time.monotonic() + wall_ms / 1000
        size = count + USED.size
        data = b""
        while len(data) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not poller.poll(remaining * 1000):
                return BUSY * count + USED.pack(0)
            chunk = os.read(self.replies, size - len(data))
            if not chunk:  # it died: the CPU limit's signal, or the memory cap
                return TIMED_OUT * count + USED.pack(cpu_ms)
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
            count, size, cpu_ms, wall_ms = HEADER.unpack(header)
            payload = _read_exactly(requests, size)
            reply = computer.ask(count, payload, cpu_ms, wall_ms)
            if reply[:1] in (TIMED_OUT, BUSY):  # stopped, or to be stopped: a fresh copy
                computer.kill()
                computer = _Computer(inherited)
            replies.write(reply)
    finally:
        computer.kill()


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):  # the parent went away
        serve()
