"""Run exact confirmations in a worker process: a hard time limit and a memory cap.

Only an answer whose equality with a right (or mistaken) value needs an exact symbolic proof
comes here (`compare._confirm`, after the bounds of `proof.check_confirmable`); rational
answers and every answer decided numerically never start or touch a worker.

A worker is a fresh interpreter (`python -m grading.confirm_worker`, started with
`subprocess.Popen`, i.e. fork + exec): nothing of Django, of the parent's threads, locks or
database connections is inherited, and `multiprocessing`'s rules for daemonic processes
(Celery's prefork children) do not apply. The worker is a supervisor: it imports SymPy once
and forks a computing process, which caps its own address space (`resource.setrlimit`,
RLIMIT_AS) and CPU time (RLIMIT_CPU, a backstop) and does the symbolic work. The parent sends
pickled SymPy differences, a CPU-time limit (what is left of the answer's budget,
`grading.clock`) and a wall-time limit (`clock.WALL_LIMIT_SECONDS`, the last resort) on the
worker's stdin; the supervisor passes them on and waits for one byte per difference (`1` zero,
`0` not zero, `?` no proof) and the CPU time used, which the parent takes from the answer's
budget. A computing process past its CPU limit is ended by the kernel (`ITIMER_PROF`); the
supervisor forks a fresh copy (milliseconds, not the half second of a new interpreter) and
replies `T`: the answer is then `invalid` as too complex (`proof.TooComplex`, bound `time`),
on a quiet and a busy machine alike, since CPU time does not depend on the load. Past the wall
limit (a machine too busy to give the process a core for tens of seconds) the supervisor kills
it and replies `B`: the answer is then `invalid` with a message saying the server is busy and
to submit it again (bound `busy`), never that it is too complex. The parent never unpickles
anything a worker sends, and replaces a supervisor that fails to reply within the wall limit
plus a grace period (also reported as the server being busy).

The pool is per process and lazy: nothing starts until an answer first needs a confirmation,
which then waits for the worker to be ready (its start-up, about 0.5-1 s of importing SymPy,
is not counted against the time limit); `prestart()` (returns at once) or `start()` (waits)
start it ahead, e.g. from a server's post-fork hook. A process that
forks (gunicorn `preload_app`, Celery's prefork pool) forgets its parent's workers in the
child, which starts its own when needed. Workers exit at end of input: `atexit` closes their
pipes, and the pipes close all the same when the parent is killed. Thread-safe: a worker
serves one confirmation at a time, up to `POOL_SIZE` workers per process, more callers wait.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

import sympy

from . import clock
from .confirm_worker import BUSY, HEADER, READY, TIMED_OUT, USED
from .proof import TooComplex

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = clock.CONFIRM_SECONDS  # CPU seconds of one confirmation, at most
START_TIMEOUT_SECONDS = 60.0
POOL_SIZE = 2

_RESULTS = {ord("1"): True, ord("0"): False, ord("?"): None}
_GRACE_SECONDS = 2.0  # beyond the limit, for the supervisor to say it stopped the work
_ROOT = str(Path(__file__).resolve().parent.parent)


class _Worker:
    """Hold one worker process and its two pipes."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grading.confirm_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=_ROOT,
            close_fds=True,
            start_new_session=True,  # a Ctrl-C meant for the server does not reach it
            bufsize=0,
        )
        self.ready = False

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self, size: int, deadline: float) -> bytes | None:
        """Read exactly `size` bytes, or return None at the deadline or at end of output."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        data = b""
        while len(data) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not poller.poll(remaining * 1000):
                return None
            chunk = os.read(fd, size - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def wait_ready(self, timeout: float) -> bool:
        if not self.ready:
            self.ready = self._read(1, time.monotonic() + timeout) == READY
        return self.ready

    def ask(self, count: int, payload: bytes, cpu: float, wall: float) -> bytes | None:
        """Send a job; return the reply, or None when the supervisor itself fails to reply."""
        assert self.process.stdin is not None
        cpu_ms, wall_ms = max(1, round(cpu * 1000)), max(1, round(wall * 1000))
        try:
            self.process.stdin.write(HEADER.pack(count, len(payload), cpu_ms, wall_ms) + payload)
        except (BrokenPipeError, OSError):
            return None
        return self._read(count + USED.size, time.monotonic() + wall + _GRACE_SECONDS)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._close_pipes()

    def close(self) -> None:
        """Close its input (the worker exits at end of input); kill it if it lingers."""
        self._close_pipes()
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.kill()

    def _close_pipes(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


class ConfirmPool:
    """Hold up to `size` workers of one process; `confirm` borrows one per call."""

    def __init__(self, size: int = POOL_SIZE) -> None:
        self.size = size
        self.owner = os.getpid()
        self._condition = threading.Condition()
        self._idle: list[_Worker] = []
        self._count = 0
        self._closed = False

    def prestart(self) -> None:
        """Start one worker if there is none (returns at once; the worker gets ready alone)."""
        with self._condition:
            if self._count == 0 and not self._closed:
                self._idle.append(_Worker())
                self._count += 1

    def _take(self) -> _Worker:
        with self._condition:
            while True:
                if self._closed:
                    raise RuntimeError("the confirmation pool is closed")
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        return worker
                    worker.kill()  # died (a memory cap met): reap it, start another
                    self._count -= 1
                if self._count < self.size:
                    self._count += 1
                    return _Worker()
                self._condition.wait()

    def _give(self, worker: _Worker) -> None:
        with self._condition:
            if self._closed:
                worker.close()
                self._count -= 1
            else:
                self._idle.append(worker)
            self._condition.notify()

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        with self._condition:
            if self._closed:
                self._count -= 1
            else:
                self._idle.append(_Worker())  # starts now, ready for the next confirmation
            self._condition.notify()

    def confirm(
        self,
        diffs: list[sympy.Expr],
        timeout: float = TIMEOUT_SECONDS,
        wall: float = clock.WALL_LIMIT_SECONDS,
    ) -> list[bool | None]:
        """Return, for each difference, True (exactly 0), False (not 0) or None (no proof);
        raise TooComplex when the work needs more than `timeout` seconds of CPU time (bound
        `time`), or the worker does not answer within `wall` seconds (bound `busy`)."""
        payload = pickle.dumps(diffs, protocol=pickle.HIGHEST_PROTOCOL)
        waiting_since = time.monotonic()
        worker = self._take()
        try:
            ready = worker.wait_ready(START_TIMEOUT_SECONDS)
            # The wait for a free, started worker is the server's cost, not the answer's.
            clock.waited(time.monotonic() - waiting_since)
            if not ready:
                logger.error("confirmation worker %d did not start", worker.pid)
                self._replace(worker)
                raise TooComplex(
                    "the answer could not be confirmed exactly just now; please submit it again",
                    bound="worker",
                )
            started = time.monotonic()
            reply = worker.ask(len(diffs), payload, timeout, wall)
        except TooComplex:
            raise
        except BaseException:
            self._replace(worker)
            raise
        if reply is None:  # the supervisor itself is gone or stuck: replace it
            logger.error("confirmation worker %d failed; replaced", worker.pid)
            self._replace(worker)
        else:
            self._give(worker)
        if reply is None or BUSY[0] in reply[: len(diffs)]:
            logger.error(
                "exact confirmation stopped at the wall limit after %.2f s (limit %g s): the "
                "machine is too busy",
                time.monotonic() - started,
                wall,
            )
            raise TooComplex(
                "the server is too busy to check this answer just now; please submit it again",
                bound="busy",
            )
        answers, (used_ms,) = reply[: len(diffs)], USED.unpack(reply[len(diffs) :])
        clock.spent(used_ms / 1000)
        if TIMED_OUT[0] in answers:
            logger.warning(
                "exact confirmation stopped after %.2f s of CPU time (limit %g s); its process "
                "was replaced",
                used_ms / 1000,
                timeout,
            )
            raise TooComplex(
                f"the answer was too complex to confirm within the limit of {timeout:g} s of "
                "computing; write it in a simpler form",
                bound="time",
            )
        return [_RESULTS.get(byte) for byte in answers]

    def pids(self) -> list[int]:
        """Return the process ids of the idle workers (for tests and diagnostics)."""
        with self._condition:
            return [worker.pid for worker in self._idle]

    def close(self) -> None:
        """Stop every idle worker; workers still busy stop when they are given back."""
        with self._condition:
            self._closed = True
            idle, self._idle = self._idle, []
            self._count -= len(idle)
        for worker in idle:
            worker.close()

    def forget(self) -> None:
        """Drop, without stopping them, workers inherited from the parent of a fork."""
        for worker in self._idle:
            worker._close_pipes()
            worker.process.returncode = 0  # not this process's child: never wait for it
        self._idle = []
        self._count = 0
        self._closed = True


_lock = threading.Lock()
_pool: ConfirmPool | None = None


def pool() -> ConfirmPool:
    """Return this process's pool, creating it (without starting a worker) on first use."""
    global _pool
    with _lock:
        if _pool is None or _pool.owner != os.getpid():
            _pool = ConfirmPool()
        return _pool


def prestart() -> None:
    """Start a worker in the background if this process has none (returns at once)."""
    pool().prestart()


def start(*, wait: bool = True) -> None:
    """Start a worker now and, with `wait`, block until it is ready (for a server's post-fork
    hook or a test's set-up, so that no answer waits for the start-up)."""
    current = pool()
    current.prestart()
    if wait:
        worker = current._take()
        try:
            worker.wait_ready(START_TIMEOUT_SECONDS)
        finally:
            current._give(worker)


def confirm_zero(
    diffs: list[sympy.Expr],
    *,
    timeout: float = TIMEOUT_SECONDS,
    wall: float = clock.WALL_LIMIT_SECONDS,
) -> list[bool | None]:
    """Return, for each difference, whether it is exactly 0 (None: no proof was found), from a
    worker process stopped after `timeout` seconds of CPU time or, the last resort, `wall`
    seconds (then TooComplex is raised, with the bound `time` or `busy`)."""
    return pool().confirm(diffs, timeout, wall)


def shutdown() -> None:
    """Stop this process's workers (at exit, and for tests)."""
    global _pool
    with _lock:
        current, _pool = _pool, None
    if current is not None and current.owner == os.getpid():
        current.close()


def _after_fork_in_child() -> None:
    global _pool
    if _pool is not None:
        _pool.forget()
    _pool = None


os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(shutdown)
