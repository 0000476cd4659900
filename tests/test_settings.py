"""Settings from the environment: production checks pass, and unsafe production is refused."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRONG_KEY = "k" * 20 + "9fQ2-vT7!mZ4@xL8#pR1$wN6%bC3^hJ5&dS0*"


def manage(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE must not leak into a production check.
    unset = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    clean.update(DJANGO_SETTINGS_MODULE="basislab.settings", BASISLAB_VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_debug_off(tmp_path):
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        tmp_path=tmp_path,
        DEBUG="0",
        SECRET_KEY=STRONG_KEY,
        ALLOWED_HOSTS="practice.example.org",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_debug_off_without_a_secret_key_is_refused(tmp_path):
    result = manage("check", tmp_path=tmp_path, DEBUG="0", ALLOWED_HOSTS="practice.example.org")

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG=0" in result.stderr


def test_a_boolean_that_is_not_one_is_refused(tmp_path):
    result = manage("check", tmp_path=tmp_path, DEBUG="maybe")

    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_a_site_retention_is_read_as_a_number_and_checked_against_the_learners_range(tmp_path):
    not_a_number = manage("check", tmp_path=tmp_path, REVIEW_DESIRED_RETENTION="high")
    assert not_a_number.returncode != 0
    assert "REVIEW_DESIRED_RETENTION='high' is not a number" in not_a_number.stderr

    too_high = manage("check", tmp_path=tmp_path, REVIEW_DESIRED_RETENTION="0.99")
    assert too_high.returncode != 0
    assert "review.E001" in too_high.stderr + too_high.stdout

    fine = manage("check", tmp_path=tmp_path, REVIEW_DESIRED_RETENTION="0.9")
    assert fine.returncode == 0, fine.stdout + fine.stderr


def test_production_settings_hash_passwords_with_argon2():
    from basislab import settings as production

    assert production.PASSWORD_HASHERS[0].endswith("Argon2PasswordHasher")
    assert production.CELERY_TASK_ACKS_LATE is True
    assert production.CELERY_WORKER_PREFETCH_MULTIPLIER == 1


def test_a_session_engine_a_server_cannot_end_is_refused(tmp_path):
    result = manage(
        "check", tmp_path=tmp_path, SESSION_ENGINE="django.contrib.sessions.backends.signed_cookies"
    )

    assert result.returncode != 0
    assert (
        "SESSION_ENGINE must be one of django.contrib.sessions.backends.cached_db, "
        "django.contrib.sessions.backends.db" in result.stderr
    )
