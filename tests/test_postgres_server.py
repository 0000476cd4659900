"""The PostgreSQL of the backup test (tests/postgres_server.py): the configured one, the local
one when it answers, else a throwaway cluster that starts, answers, and is gone afterwards, even
when the tests fail and even when the test run is killed.

These tests never stop the machine's own server: they point the probe
(``BASISLAB_TEST_POSTGRES_PROBE``) at a closed port instead."""

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from tests.postgres_server import (
    DEFAULT_URL,
    OUT_OF_REACH_PARENT,
    ROOT,
    ThrowawayPostgres,
    answers,
    cluster_parent,
    configured_url,
    probe_url,
)

FAILING_TEST = """
from pathlib import Path

import psycopg

def test_fails_while_using_postgres(postgres_url):
    with psycopg.connect(postgres_url) as connection:
        data = connection.execute("SHOW data_directory").fetchone()[0]
    pid = Path(data, "postmaster.pid").read_text().split()[0]
    print(f"POSTGRES-PID {pid} URL {postgres_url} DATA {data}", flush=True)
    assert False, "this test fails on purpose"
"""

HANGING_TEST = """
import time
from pathlib import Path

import psycopg

def test_hangs_while_using_postgres(postgres_url):
    connection = psycopg.connect(postgres_url)
    data = connection.execute("SHOW data_directory").fetchone()[0]
    pid = Path(data, "postmaster.pid").read_text().split()[0]
    Path(__file__).with_name("pid").write_text(pid)
    time.sleep(600)
"""


def closed_port_url() -> str:
    """Return a PostgreSQL URL on a loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"postgres://postgres@127.0.0.1:{port}/postgres"


def alive(pid: int) -> bool:
    """Return True while the process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_gone(pid: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def owner(pid: int) -> str:
    return pwd.getpwuid(os.stat(f"/proc/{pid}").st_uid).pw_name


def pytest_env() -> dict[str, str]:
    """Return an environment with no configured PostgreSQL and a probe that finds none."""
    env = {k: v for k, v in os.environ.items() if k != "BASISLAB_BACKUP_TEST_POSTGRES"}
    env["BASISLAB_TEST_POSTGRES_PROBE"] = closed_port_url()
    env["PYTHONPATH"] = str(ROOT)
    return env


def pytest_command(test_file: Path) -> list[str]:
    # The PostgreSQL fixture as a plugin; Django is not needed to start PostgreSQL.
    return [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:django",
        "-p", "tests.postgres_server", "-q", "-s", "--rootdir", str(test_file.parent),
        "-c", os.devnull, str(test_file),
    ]  # fmt: skip


def test_the_configured_server_comes_first_then_the_probe():
    assert configured_url({}) is None
    assert configured_url({"BASISLAB_BACKUP_TEST_POSTGRES": ""}) is None
    assert configured_url({"BASISLAB_BACKUP_TEST_POSTGRES": "postgres://a@b/c"}) == (
        "postgres://a@b/c"
    )
    assert probe_url({}) == DEFAULT_URL
    closed = closed_port_url()
    assert probe_url({"BASISLAB_TEST_POSTGRES_PROBE": closed}) == closed
    assert not answers(closed, timeout=2)


def test_the_cluster_goes_under_var_unless_the_server_user_cannot_reach_it():
    var = ROOT / "var" / "test-postgres"
    chosen = cluster_parent()  # creates var/test-postgres
    if os.geteuid() != 0:  # the server runs as this user
        assert chosen == var
        return
    # As root, the server runs as `postgres`: it must get through every folder above var/.
    reachable = all(
        folder.stat().st_mode & 0o001 for folder in [var, *var.parents] if folder != Path("/")
    )
    assert chosen == (var if reachable else OUT_OF_REACH_PARENT)


def test_a_throwaway_server_with_a_long_path_answers_over_tcp_only():
    # A Unix socket's path is limited to 107 bytes: a clone's long path must not matter.
    long = cluster_parent() / ("long-" + "x" * 120) / f"check-{os.getpid()}"
    server = ThrowawayPostgres(long)
    url = server.start()
    try:
        with psycopg.connect(url) as connection:
            sockets = connection.execute("SHOW unix_socket_directories").fetchone()[0]
        socket_files = list(server.directory.glob("**/.s.PGSQL.*"))
    finally:
        server.stop()
        shutil.rmtree(long.parent, ignore_errors=True)
    assert len(str(server.directory / ".s.PGSQL.65535")) > 107
    assert sockets == ""
    assert socket_files == []


def test_a_throwaway_server_answers_where_asked_and_is_gone_after_stop():
    server = ThrowawayPostgres(cluster_parent() / f"check-{os.getpid()}")
    url = server.start()
    try:
        assert url.startswith("postgres://postgres@127.0.0.1:")
        with psycopg.connect(url, autocommit=True) as connection:
            setting = {
                name: connection.execute(f"SHOW {name}").fetchone()[0]
                for name in ("data_directory", "fsync", "listen_addresses", "port")
            }
            connection.execute("CREATE DATABASE scratch")  # the backup test creates two
        pid = int((server.data / "postmaster.pid").read_text().split()[0])
        assert alive(pid)
        # PostgreSQL refuses root: as root the server runs as Debian's `postgres` user.
        assert owner(pid) == ("postgres" if os.geteuid() == 0 else pwd.getpwuid(os.getuid())[0])
    finally:
        server.stop()

    assert setting == {
        "data_directory": str(server.data),
        "fsync": "off",
        "listen_addresses": "127.0.0.1",
        "port": str(server.port),
    }
    assert wait_gone(pid)
    assert not server.directory.exists()
    assert not answers(url, timeout=2)


def test_a_directory_the_server_user_cannot_reach_moves_the_cluster_to_tmp():
    # A clone under /root is mode 700: as root, the postgres user cannot reach var/ there.
    private = ROOT / "var" / f"test-postgres-private-{os.getpid()}"
    private.mkdir(mode=0o700, parents=True)
    private.chmod(0o700)
    asked = private / "cluster"
    server = ThrowawayPostgres(asked)
    try:
        url = server.start()
        with psycopg.connect(url) as connection:
            data = connection.execute("SHOW data_directory").fetchone()[0]
    finally:
        server.stop()
        shutil.rmtree(private)

    if os.geteuid() == 0:
        assert server.directory == OUT_OF_REACH_PARENT / "cluster"
    else:  # the server runs as this user, who can reach it
        assert server.directory == asked
    assert data == str(server.directory / "data")
    assert not server.directory.exists()
    assert not answers(url, timeout=2)


def test_the_server_is_stopped_and_removed_when_the_tests_using_it_fail(tmp_path):
    test_file = tmp_path / "test_fails.py"
    test_file.write_text(FAILING_TEST)

    result = subprocess.run(
        pytest_command(test_file),
        cwd=ROOT,
        env=pytest_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )

    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "1 failed" in output
    pid, _, url, _, data = output.split("POSTGRES-PID ", 1)[1].split()[:5]
    assert url != DEFAULT_URL  # the throwaway one, not the machine's
    directory = Path(data).parent
    assert directory.parent == cluster_parent()
    assert wait_gone(int(pid)), f"postgres {pid} still runs after the failed run"
    assert not answers(url, timeout=2)
    assert not directory.exists()


def test_the_server_dies_with_a_test_run_that_is_killed(tmp_path):
    test_file = tmp_path / "test_hangs.py"
    test_file.write_text(HANGING_TEST)
    pid_file = tmp_path / "pid"
    run = subprocess.Popen(
        pytest_command(test_file),
        cwd=ROOT,
        env=pytest_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300
        while not pid_file.exists() and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
        assert pid_file.exists(), "the hanging test never reached PostgreSQL"
        pid = int(pid_file.read_text())
        assert alive(pid)

        run.send_signal(signal.SIGKILL)  # no teardown runs: only the parent-death signal
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()

    assert wait_gone(pid), f"postgres {pid} outlived the killed test run"
    left = cluster_parent() / str(run.pid)
    assert left.is_dir()  # the killed run could not remove it; the next run's fixture does
    shutil.rmtree(left)
