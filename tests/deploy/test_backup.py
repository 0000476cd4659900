"""Backups restore: deploy/backup/basislab-backup dumps a PostgreSQL database with a learner's
copy, attempts and review state; pg_restore puts it in a scratch database; the app serves the
same copy, history and review queue from the restored one.

Needs PostgreSQL: the fixture ``postgres_url`` (tests/postgres_server.py) gives
``BASISLAB_BACKUP_TEST_POSTGRES``, else the local server when it answers, else a throwaway
cluster of the run's own. And pg_dump / pg_restore (Debian's postgresql-client; ``python -m
tests.prereqs`` installs it). Its databases are named after this process and dropped at the end.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.postgres_server import DEFAULT_URL

pytestmark = pytest.mark.deploy

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "backup" / "basislab-backup"


def _url(server: str, name: str) -> str:
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def databases(postgres_url):
    """Create a source and a scratch database; drop both afterwards."""
    for program in ("pg_dump", "pg_restore"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} not found: apt-get install postgresql-client", pytrace=False)
    try:
        admin = psycopg.connect(postgres_url, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"no PostgreSQL at {postgres_url} ({exc}); set BASISLAB_BACKUP_TEST_POSTGRES",
            pytrace=False,
        )
    names = [f"basislab_backup_test_{os.getpid()}_{role}" for role in ("source", "restored")]
    with admin:
        for name in names:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield [_url(postgres_url, name) for name in names]
        finally:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _env(database_url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="basislab.settings_test",
        BASISLAB_VAR_DIR=str(tmp_path / "var"),
        **extra,
    )
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_a_nightly_dump_restores_to_the_same_learner_pages(databases, tmp_path):
    source, restored = databases
    manage = [sys.executable, "manage.py"]
    _run([*manage, "migrate", "--noinput", "-v0"], _env(source, tmp_path))
    _run([sys.executable, "-m", "tests.deploy.backup_probe", "populate"], _env(source, tmp_path))
    served = json.loads(
        _run(
            [sys.executable, "-m", "tests.deploy.backup_probe", "snapshot"],
            _env(source, tmp_path),
        ).stdout
    )
    # Older dumps than the retention keeps: only the newest two stay after the run.
    backups = tmp_path / "backups"
    backups.mkdir()
    for old in ("20250101T031500Z", "20250102T031500Z", "20250103T031500Z"):
        (backups / f"basislab-{old}.dump").write_bytes(b"old")
    (backups / "notes.txt").write_text("not a dump: left alone")

    dumped = _run(
        [str(SCRIPT)],
        _env(source, tmp_path, BASISLAB_BACKUP_DIR=str(backups), BASISLAB_BACKUP_KEEP="2"),
    )

    dumps = sorted(p.name for p in backups.glob("basislab-*.dump"))
    assert len(dumps) == 2 and dumps[0] == "basislab-20250103T031500Z.dump"
    newest = backups / dumps[1]
    assert newest.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert oct(newest.stat().st_mode & 0o777) == "0o600"
    assert (backups / "notes.txt").exists()
    assert not list(backups.glob(".*partial"))
    assert f"wrote {newest}" in dumped.stdout

    # The documented restore (docs/operations.md), into the scratch database.
    _run(
        ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(newest)],
        dict(os.environ),
    )
    again = json.loads(
        _run(
            [sys.executable, "-m", "tests.deploy.backup_probe", "snapshot"],
            _env(restored, tmp_path),
        ).stdout
    )

    assert len(served["copy"]["attempts"]) == 6
    assert served["review"]["items"], served["review"]
    assert "Keep the self term" in json.dumps(served["copy"]["notes"])
    assert "/items/" in served["queue"]  # due review items, each a link
    assert served["history"].count('<li class="attempt attempt--') == 6
    assert again == served


def test_the_script_refuses_a_database_it_cannot_dump(tmp_path):
    for url, message in (
        ("sqlite:///var/db.sqlite3", "is not PostgreSQL"),
        ("", "DATABASE_URL must name"),
    ):
        env = {**os.environ, "DATABASE_URL": url, "BASISLAB_BACKUP_DIR": str(tmp_path)}
        result = subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode != 0
        assert message in result.stderr
    # Refused before any connection: no server is needed for it.
    bad_keep = {**os.environ, "DATABASE_URL": DEFAULT_URL, "BASISLAB_BACKUP_KEEP": "none"}
    result = subprocess.run([str(SCRIPT)], env=bad_keep, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "BASISLAB_BACKUP_KEEP=none" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_timer_runs_the_service_nightly():
    timer = (ROOT / "deploy" / "systemd" / "basislab-backup.timer").read_text()
    service = (ROOT / "deploy" / "systemd" / "basislab-backup.service").read_text()

    assert "OnCalendar=*-*-* 03:15:00 UTC" in timer
    assert "Persistent=true" in timer
    assert "Unit=basislab-backup.service" in timer
    assert "Type=oneshot" in service
    assert "ExecStart=/srv/basislab/app/deploy/backup/basislab-backup" in service
    assert "EnvironmentFile=/etc/basislab/env" in service
    assert os.access(SCRIPT, os.X_OK)
