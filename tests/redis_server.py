"""The Redis the worker tests use: the configured one, or a throwaway server of their own.

``CELERY_BROKER_URL`` naming Redis (CI, ``.ci/run``) is used as it is. Otherwise the first
test that needs Redis starts Debian's ``redis-server`` on a free loopback port, with its
directory, log and nothing else under ``var/test-redis/<pid>/`` (no persistence), and the end
of the test session stops it, whether the tests passed or failed. It is started with
a parent-death signal (util-linux's ``setpriv --pdeathsig``, essential on Debian), so even a
test run killed outright (SIGKILL) takes it down.

The fixture ``redis_url`` (session scope) gives the URL; ``current_url()`` gives it to code
that is not a fixture, once the fixture has run.
"""

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.throwaway import die_with_parent, free_port, remove_stale, stop_process, tail

ROOT = Path(__file__).resolve().parents[1]
_session_url: str | None = None


def configured_url() -> str | None:
    """Return ``CELERY_BROKER_URL`` when it names Redis, else None."""
    url = os.environ.get("CELERY_BROKER_URL", "")
    return url if url.startswith(("redis://", "rediss://")) else None


class ThrowawayRedis:
    """A ``redis-server`` of the test run's own on a loopback port; ``stop()`` removes it."""

    def __init__(self, directory: Path, *, binary: str = "redis-server") -> None:
        self.directory = directory
        self.binary = binary
        self.process: subprocess.Popen | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, *, attempts: int = 5, timeout: float = 20) -> str:
        """Start the server and wait until it answers PING; return its URL."""
        executable = shutil.which(self.binary)
        if executable is None:
            raise RuntimeError(
                f"{self.binary} not found: `apt-get install redis-server` (make test installs "
                "it when run as root), or set CELERY_BROKER_URL=redis://..."
            )
        self.directory.mkdir(parents=True, exist_ok=True)
        log = self.directory / "redis.log"
        for _ in range(attempts):
            self.port = free_port()
            # Settings as arguments, no config file: loopback only, nothing written to disk
            # but the log, no daemonizing (this process owns it).
            self.process = subprocess.Popen(
                [
                    *die_with_parent("SIGTERM"),
                    executable,
                    "--port", str(self.port),
                    "--bind", "127.0.0.1",
                    "--save", "",
                    "--appendonly", "no",
                    "--dir", str(self.directory),
                    "--logfile", str(log),
                    "--daemonize", "no",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            if self._answers(timeout):
                return self.url
            self.stop(remove=False)  # most likely the port was taken meanwhile: try another
        raise RuntimeError(f"redis-server did not start; its log:\n{tail(log)}")

    def _answers(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        try:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    return False
                try:
                    if client.ping():
                        return True
                except redis.ConnectionError:
                    time.sleep(0.05)
            return False
        finally:
            client.close()

    def stop(self, *, remove: bool = True) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s) and remove its directory."""
        stop_process(self.process, first=signal.SIGTERM, timeout=10)
        if remove:
            shutil.rmtree(self.directory, ignore_errors=True)


def current_url() -> str:
    """Return the Redis URL of this session; the fixture ``redis_url`` must have run."""
    if _session_url is None:
        raise RuntimeError("no Redis yet: request the `redis_url` fixture (tests/redis_server.py)")
    return _session_url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Yield the configured Redis, or start a throwaway one and stop it when the session ends."""
    global _session_url
    configured = configured_url()
    if configured is not None:
        _session_url = configured
        yield configured
        return
    parent = ROOT / "var" / "test-redis"
    remove_stale(parent)
    server = ThrowawayRedis(parent / str(os.getpid()))
    try:
        _session_url = server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield _session_url
    finally:
        server.stop()
        _session_url = None
