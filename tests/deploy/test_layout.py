"""deploy/'s files hold together: the units start what the README says, the environment example
names only settings the project reads, and gunicorn accepts its configuration."""

import configparser
import re
from pathlib import Path

import pytest

from tests.deploy_layout import gunicorn_printed_config

pytestmark = pytest.mark.deploy

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(DEPLOY / "systemd" / name)
    return parser


def test_each_unit_starts_its_own_process_from_the_shared_environment():
    web, worker, beat = (unit(f"basislab-{name}.service") for name in ("web", "worker", "beat"))

    assert web["Service"]["ExecStart"].endswith("gunicorn -c deploy/gunicorn.conf.py")
    assert " worker " in worker["Service"]["ExecStart"]
    assert "--beat" not in worker["Service"]["ExecStart"]  # beat runs once, in its own unit
    assert " beat " in beat["Service"]["ExecStart"]
    for parsed in (web, worker, beat):
        assert parsed["Service"]["EnvironmentFile"] == "/etc/basislab/env"
        assert parsed["Service"]["User"] == "basislab"
        assert parsed["Install"]["WantedBy"] == "multi-user.target"


def test_the_environment_example_names_only_settings_the_project_reads():
    example = (DEPLOY / "basislab.env.example").read_text()
    names = re.findall(r"^([A-Z_]+)=", example, flags=re.M)
    settings_source = (ROOT / "basislab" / "settings.py").read_text()
    read = set(re.findall(r'env_(?:str|int|bool|list)\(\s*"([A-Z_]+)"', settings_source))

    assert set(names) <= read
    assert "BASISLAB_TRUSTED_PROXIES=1" in example
    assert "DEBUG=0" in example


def test_gunicorn_accepts_the_configuration(tmp_path):
    printed = gunicorn_printed_config(
        DEPLOY / "gunicorn.conf.py", GUNICORN_BIND="127.0.0.1:0", BASISLAB_VAR_DIR=str(tmp_path)
    )
    assert printed["worker_class"] == "sync"
    assert printed["timeout"] == "30"
    assert printed["limit_request_line"] == "4094"
    assert printed["limit_request_fields"] == "50"
    # The post_fork hook is the configuration's own (gunicorn's default prints as a class
    # method), and it pre-starts the grader's confirmation process.
    assert printed["post_fork"] == "<post_fork()>"
    assert "prestart()" in (DEPLOY / "gunicorn.conf.py").read_text()


def test_every_nginx_server_block_hides_the_version():
    site = (DEPLOY / "nginx" / "basislab.conf").read_text()
    blocks = re.split(r"^server \{", site, flags=re.M)[1:]
    assert len(blocks) == 2
    for block in blocks:
        assert re.search(r"^\s+server_tokens off;", block, flags=re.M)
