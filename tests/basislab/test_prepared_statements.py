"""PostgreSQL plans a statement once per connection: server-side binding and psycopg's prepared
statements (basislab/settings.py, ``DATABASE_PREPARED_STATEMENTS``), checked on a real server.

Each case starts Django in a subprocess with its own environment, as a worker would, and asks
the server which statements the connection has prepared (``pg_prepared_statements``).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import postgres_server

postgres_url = postgres_server.postgres_url

ROOT = Path(__file__).resolve().parents[2]

# Run one statement six times (psycopg prepares it at the fifth), then report the options and
# the statements this connection holds prepared on the server.
PROBE = """
import json
from django.conf import settings
from django.db import connection
options = settings.DATABASES["default"].get("OPTIONS", {})
prepared = None
if connection.vendor == "postgresql":
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute("SELECT count(*) FROM pg_class WHERE relpages >= %s", [0])
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
print(json.dumps({"options": options, "prepared": prepared}))
"""


def _django(tmp_path: Path, code: str, **env: str) -> subprocess.CompletedProcess:
    """Run `code` in a new Python with the site's settings and this environment added."""
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    environment.pop("DATABASE_PREPARED_STATEMENTS", None)
    environment.update(
        DJANGO_SETTINGS_MODULE="basislab.settings", BASISLAB_VAR_DIR=str(tmp_path), **env
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _probe(tmp_path: Path, **env: str) -> dict:
    result = _django(tmp_path, PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_postgresql_prepares_a_statement_run_again_and_again(tmp_path, postgres_url):
    found = _probe(tmp_path, DATABASE_URL=postgres_url)
    assert found["options"] == {"server_side_binding": True, "prepare_threshold": 5}
    assert any("pg_class" in statement for statement in found["prepared"])


def test_prepared_statements_can_be_turned_off_for_a_pooler(tmp_path, postgres_url):
    found = _probe(tmp_path, DATABASE_URL=postgres_url, DATABASE_PREPARED_STATEMENTS="0")
    assert "server_side_binding" not in found["options"]
    assert found["prepared"] == []


def test_sqlite_gets_no_postgresql_options(tmp_path):
    found = _probe(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert found == {"options": {}, "prepared": None}


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_a_value_that_is_not_on_or_off_is_refused_at_start_up(tmp_path, postgres_url, value):
    result = _django(
        tmp_path,
        "from django.conf import settings; settings.DATABASES",
        DATABASE_URL=postgres_url,
        DATABASE_PREPARED_STATEMENTS=value,
    )
    assert result.returncode != 0
    assert "DATABASE_PREPARED_STATEMENTS" in result.stderr
