"""What the test run's throwaway servers share (``tests/redis_server.py``,
``tests/postgres_server.py``): a free loopback port, a parent-death signal, a stop that
escalates to SIGKILL, the tail of a log, and the removal of directories left by killed runs."""

import shutil
import signal
import socket
import subprocess
from pathlib import Path


def free_port() -> int:
    """Return a loopback port nothing listens on at this moment."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def die_with_parent(signal_name: str) -> list[str]:
    """Return the command prefix that sends the server ``signal_name`` when this process dies
    (util-linux's ``setpriv --pdeathsig``; empty where setpriv is missing)."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", signal_name] if setpriv else []


def stop_process(
    process: subprocess.Popen | None, *, first: signal.Signals, timeout: float
) -> None:
    """Send a running server ``first``, then SIGKILL once ``timeout`` seconds have passed."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(first)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def tail(path: Path, lines: int = 20) -> str:
    """Return the last lines of a log, or say there is none."""
    return "\n".join(path.read_text().splitlines()[-lines:]) if path.exists() else "(no log)"


def remove_stale(parent: Path) -> None:
    """Remove the directories of earlier runs whose process is gone (a run killed outright
    cannot remove its own; its server died with it)."""
    if not parent.is_dir():
        return
    for directory in parent.iterdir():
        if directory.name.isdigit() and not Path(f"/proc/{directory.name}").exists():
            shutil.rmtree(directory, ignore_errors=True)
