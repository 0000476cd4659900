"""deploy/gunicorn.conf.py refuses an address the internet could reach unless a proxy is declared
in front, and keeps gunicorn's control socket out of the shared ``~/.gunicorn/``."""

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.deploy

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "deploy" / "gunicorn.conf.py"


def load(monkeypatch, **environ: str) -> dict:
    """Execute the configuration file with the given environment; return its names."""
    for name in ("GUNICORN_BIND", "GUNICORN_PROXY_IN_FRONT", "RUNTIME_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def check_config(tmp_path, **environ: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    for name in ("GUNICORN_PROXY_IN_FRONT", "RUNTIME_DIRECTORY"):
        env.pop(name, None)
    env.update(BASISLAB_VAR_DIR=str(tmp_path), **environ)
    return subprocess.run(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "--check-config",
            "--print-config",
            "-c",
            str(CONF),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "address",
    [
        "unix:/run/basislab/gunicorn.sock",
        "127.0.0.1:8000",
        "127.0.0.9:80",
        "localhost:8000",
        "[::1]:8000",
        "fd://3",
    ],
)
def test_private_addresses_are_accepted(monkeypatch, address):
    assert load(monkeypatch, GUNICORN_BIND=address)["bind"] == [address]


@pytest.mark.parametrize(
    "address", ["0.0.0.0:8000", "[::]:8000", "192.0.2.10:8000", "practice.example.org:80"]
)
def test_a_reachable_address_is_refused_without_a_proxy_in_front(monkeypatch, address):
    with pytest.raises(RuntimeError, match="must sit behind") as refused:
        load(monkeypatch, GUNICORN_BIND=address)
    assert address in str(refused.value)
    assert "GUNICORN_PROXY_IN_FRONT=1" in str(refused.value)


def test_one_reachable_address_among_several_is_refused(monkeypatch):
    with pytest.raises(RuntimeError, match=r"0\.0\.0\.0:8000"):
        load(monkeypatch, GUNICORN_BIND="127.0.0.1:8000,0.0.0.0:8000")


def test_a_declared_proxy_allows_a_reachable_address(monkeypatch):
    names = load(monkeypatch, GUNICORN_BIND="0.0.0.0:8000", GUNICORN_PROXY_IN_FRONT="1")
    assert names["bind"] == ["0.0.0.0:8000"]


def test_an_unreadable_proxy_flag_is_an_error_naming_it(monkeypatch):
    with pytest.raises(ValueError, match="GUNICORN_PROXY_IN_FRONT='maybe'"):
        load(monkeypatch, GUNICORN_BIND="0.0.0.0:8000", GUNICORN_PROXY_IN_FRONT="maybe")


def test_the_control_socket_lives_in_the_runtime_directory_or_is_off(monkeypatch, tmp_path):
    under_systemd = load(monkeypatch, RUNTIME_DIRECTORY=str(tmp_path))
    assert under_systemd["control_socket"] == str(tmp_path / "gunicorn.ctl")
    assert under_systemd["control_socket_mode"] == 0o600
    assert under_systemd["control_socket_disable"] is False

    by_hand = load(monkeypatch)
    assert by_hand["control_socket_disable"] is True
    assert "control_socket" not in by_hand


def test_gunicorn_itself_refuses_a_public_bind_and_takes_the_socket_setting(tmp_path):
    refused = check_config(tmp_path, GUNICORN_BIND="0.0.0.0:8000")
    assert refused.returncode != 0
    assert "must sit behind" in refused.stdout + refused.stderr

    accepted = check_config(tmp_path, GUNICORN_BIND="127.0.0.1:0", RUNTIME_DIRECTORY=str(tmp_path))
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    printed = dict(re.findall(r"^(\w+)\s+=\s+(.*)$", accepted.stdout, flags=re.M))
    assert printed["control_socket"] == str(tmp_path / "gunicorn.ctl")
    assert printed["control_socket_disable"] == "False"
