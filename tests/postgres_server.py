"""The PostgreSQL the backup test uses: the configured one, the local one, or a throwaway one.

In this order:

1. ``BASISLAB_BACKUP_TEST_POSTGRES`` when set (a URL naming a database the test may create and
   drop databases from) is used as it is;
2. else the local server, ``postgres://postgres@127.0.0.1:5432/postgres`` (CI's, ``.ci/run``),
   when it answers;
3. else a throwaway cluster of the test run's own: Debian's ``initdb`` and ``postgres`` (from
   the newest ``/usr/lib/postgresql/<version>/bin``), data under ``var/test-postgres/<pid>/``,
   a free loopback port, trust authentication, superuser ``postgres``, no fsync, and no Unix
   socket (clients come over TCP: a socket's path is limited to 107 bytes, which a clone's long
   path would pass). It is started with a parent-death signal (util-linux's ``setpriv
   --pdeathsig``) so even a test run killed outright (SIGKILL) takes it down, and the end of the
   test session stops it and removes its directory, whether the tests passed or failed.
   PostgreSQL refuses to run as root: as root it runs as the ``postgres`` system user Debian's
   package creates (``setpriv --reuid``; its directory is chowned to that user), and when that
   user cannot reach ``var/`` (a clone under ``/root``, mode 700) the cluster goes to
   ``$TMPDIR/basislab-test-postgres/<pid>/`` instead; ``cluster_parent()`` says which.

Test hook: ``BASISLAB_TEST_POSTGRES_PROBE`` replaces the URL of step 2. Pointing it at a closed
port (``postgres://postgres@127.0.0.1:1/postgres``) makes a machine that has a local server take
the throwaway path, which is how that path is exercised where a server runs.

The fixture ``postgres_url`` (session scope) gives the URL.
"""

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.throwaway import die_with_parent, free_port, remove_stale, stop_process, tail

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"
SERVER_USER = "postgres"  # Debian's system user for PostgreSQL, and the cluster's superuser
BINARIES = Path("/usr/lib/postgresql")
# Where the cluster goes when root runs the tests from a directory the postgres user cannot reach.
OUT_OF_REACH_PARENT = Path(tempfile.gettempdir()) / "basislab-test-postgres"


def configured_url(environ: dict[str, str] | None = None) -> str | None:
    """Return ``BASISLAB_BACKUP_TEST_POSTGRES`` when it is set, else None."""
    environ = os.environ if environ is None else environ
    return environ.get("BASISLAB_BACKUP_TEST_POSTGRES") or None


def probe_url(environ: dict[str, str] | None = None) -> str:
    """Return the local server's URL to try: ``BASISLAB_TEST_POSTGRES_PROBE`` or the default."""
    environ = os.environ if environ is None else environ
    return environ.get("BASISLAB_TEST_POSTGRES_PROBE") or DEFAULT_URL


def answers(url: str, *, timeout: int = 3) -> bool:
    """Return True when a PostgreSQL server at the URL accepts a connection and a query."""
    try:
        with psycopg.connect(url, connect_timeout=timeout) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def server_bin() -> Path | None:
    """Return the newest ``/usr/lib/postgresql/<version>/bin`` with initdb and postgres."""
    found = [
        directory
        for directory in BINARIES.glob("*/bin")
        if (directory / "initdb").is_file() and (directory / "postgres").is_file()
    ]
    return max(found, key=lambda d: int(d.parent.name), default=None) if found else None


def _as_server_user() -> list[str]:
    """Return the command prefix that drops root to the ``postgres`` user (nothing otherwise)."""
    if os.geteuid() != 0:
        return []
    return [shutil.which("setpriv") or "setpriv", "--reuid", SERVER_USER, "--regid", SERVER_USER,
            "--init-groups"]  # fmt: skip


def _writable_by(drop: list[str], directory: Path) -> bool:
    """Return True when the user the prefix switches to can write in the directory."""
    check = subprocess.run([*drop, "test", "-w", str(directory)], stdin=subprocess.DEVNULL)
    return check.returncode == 0


def cluster_parent() -> Path:
    """Return the folder the session's throwaway cluster goes in: ``var/test-postgres`` when
    the user the server runs as can write there, else ``$TMPDIR/basislab-test-postgres`` (root
    running the tests from a clone under ``/root``, which the ``postgres`` user cannot reach)."""
    parent = ROOT / "var" / "test-postgres"
    parent.mkdir(parents=True, exist_ok=True)
    drop = _as_server_user()
    if not drop:
        return parent
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        return parent  # start() then fails, saying the user is missing
    # The cluster's own folder is chowned to the server user; it must only get there.
    reach = subprocess.run([*drop, "test", "-x", str(parent)], stdin=subprocess.DEVNULL)
    return parent if reach.returncode == 0 else OUT_OF_REACH_PARENT


class ThrowawayPostgres:
    """A PostgreSQL cluster of the test run's own on a loopback port; ``stop()`` removes it."""

    def __init__(self, directory: Path, *, bin_dir: Path | None = None) -> None:
        self.directory = directory
        self.bin_dir = bin_dir
        self.process: subprocess.Popen | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"postgres://{SERVER_USER}@127.0.0.1:{self.port}/postgres"

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def log(self) -> Path:
        return self.directory / "postgres.log"

    def start(self, *, attempts: int = 5, timeout: float = 60) -> str:
        """Create the cluster, start the server and wait until it answers; return its URL."""
        bin_dir = self.bin_dir or server_bin()
        if bin_dir is None:
            raise RuntimeError(
                "no PostgreSQL server under /usr/lib/postgresql: `apt-get install postgresql` "
                "(make test installs it when run as root), or set "
                "BASISLAB_BACKUP_TEST_POSTGRES=postgres://..."
            )
        drop = _as_server_user()
        if drop:
            try:
                server_user = pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise RuntimeError(
                    "PostgreSQL refuses to run as root and there is no `postgres` user to run "
                    "it as: `apt-get install postgresql` creates it"
                ) from None
        self.directory.mkdir(parents=True, exist_ok=True)
        if drop:
            os.chown(self.directory, server_user.pw_uid, server_user.pw_gid)
            if not _writable_by(drop, self.directory):
                # A clone under /root (mode 700) is out of the postgres user's reach: the
                # cluster goes to the temporary directory instead, removed all the same.
                shutil.rmtree(self.directory, ignore_errors=True)
                self.directory = OUT_OF_REACH_PARENT / self.directory.name
                self.directory.mkdir(parents=True, exist_ok=True)
                os.chown(self.directory, server_user.pw_uid, server_user.pw_gid)
        initdb = subprocess.run(
            [
                *drop, str(bin_dir / "initdb"),
                "--pgdata", str(self.data),
                "--username", SERVER_USER,
                "--auth", "trust",
                "--encoding", "UTF8",
                "--no-locale",
                "--no-sync",
            ],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )  # fmt: skip
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{initdb.stdout}{initdb.stderr}")
        for _ in range(attempts):
            self.port = free_port()
            with self.log.open("ab") as log:
                # Fast shutdown (SIGINT) when this process dies: a smart one (SIGTERM) would
                # wait for clients that may never leave.
                self.process = subprocess.Popen(
                    [
                        *drop,
                        *die_with_parent("SIGINT"),
                        str(bin_dir / "postgres"),
                        "-D", str(self.data),
                        "-p", str(self.port),
                        "-c", "listen_addresses=127.0.0.1",
                        "-c", "unix_socket_directories=",
                        "-c", "fsync=off",
                        "-c", "synchronous_commit=off",
                        "-c", "full_page_writes=off",
                        "-c", "logging_collector=off",
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                )  # fmt: skip
            if self._answers(timeout):
                return self.url
            self.stop(remove=False)  # most likely the port was taken meanwhile: try another
        raise RuntimeError(f"postgres did not start; its log:\n{tail(self.log)}")

    def _answers(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            if answers(self.url, timeout=2):
                return True
            time.sleep(0.1)
        return False

    def stop(self, *, remove: bool = True) -> None:
        """Stop the server (fast shutdown, then SIGKILL after 30 s) and remove its directory."""
        stop_process(self.process, first=signal.SIGINT, timeout=30)
        if remove:
            shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """Yield the configured or local PostgreSQL, or start a throwaway one for the session."""
    configured = configured_url()
    if configured is not None:
        yield configured
        return
    local = probe_url()
    if answers(local):
        yield local
        return
    parent = cluster_parent()
    remove_stale(ROOT / "var" / "test-postgres")
    remove_stale(OUT_OF_REACH_PARENT)
    server = ThrowawayPostgres(parent / str(os.getpid()))
    try:
        url = server.start()
    except RuntimeError as exc:
        server.stop()
        pytest.fail(str(exc), pytrace=False)
    try:
        yield url
    finally:
        server.stop()
