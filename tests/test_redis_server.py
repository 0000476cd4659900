"""The throwaway Redis of the worker tests (tests/redis_server.py): started, answering, and
gone afterwards, even when the tests fail and even when the test run is killed."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests.redis_server import ROOT, ThrowawayRedis

FAILING_TEST = """
import redis

def test_fails_while_using_redis(redis_url):
    pid = redis.Redis.from_url(redis_url).info()["process_id"]
    print(f"REDIS-PID {pid}", flush=True)
    assert False, "this test fails on purpose"
"""

HANGING_TEST = """
import time
from pathlib import Path

import redis

def test_hangs_while_using_redis(redis_url):
    pid = redis.Redis.from_url(redis_url).info()["process_id"]
    Path(__file__).with_name("pid").write_text(str(pid))
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Return True while the process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_gone(pid: int, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def pytest_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def pytest_command(test_file: Path) -> list[str]:
    # The throwaway-Redis fixture as a plugin; Django is not needed to start Redis.
    return [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:django",
        "-p", "tests.redis_server", "-q", "-s", "--rootdir", str(test_file.parent),
        "-c", os.devnull, str(test_file),
    ]  # fmt: skip


def test_a_throwaway_server_answers_under_var_and_is_gone_after_stop(tmp_path):
    server = ThrowawayRedis(ROOT / "var" / "test-redis" / f"check-{os.getpid()}")
    url = server.start()
    try:
        client = redis.Redis.from_url(url)
        assert client.ping()
        assert client.config_get("dir")["dir"] == str(server.directory)
        assert client.config_get("save")["save"] == ""
        pid = client.info()["process_id"]
        client.close()
    finally:
        server.stop()

    assert wait_gone(pid)
    assert not server.directory.exists()
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()


def test_the_server_is_stopped_when_the_tests_using_it_fail(tmp_path):
    test_file = tmp_path / "test_fails.py"
    test_file.write_text(FAILING_TEST)

    result = subprocess.run(
        pytest_command(test_file),
        cwd=ROOT,
        env=pytest_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )

    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "1 failed" in output
    pid = int(output.split("REDIS-PID ", 1)[1].split()[0])
    assert wait_gone(pid), f"redis-server {pid} still runs after the failed run"


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
        deadline = time.monotonic() + 120
        while not pid_file.exists() and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
        assert pid_file.exists(), "the hanging test never reached Redis"
        pid = int(pid_file.read_text())
        assert alive(pid)

        run.send_signal(signal.SIGKILL)  # no teardown runs: only the parent-death signal
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()

    assert wait_gone(pid), f"redis-server {pid} outlived the killed test run"
    left = ROOT / "var" / "test-redis" / str(run.pid)
    assert left.is_dir()  # the killed run could not remove it; the next run's fixture does
    shutil.rmtree(left)
