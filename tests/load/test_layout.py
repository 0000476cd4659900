"""The load test's knobs and layouts: what the environment selects, what the app is given,
and that the production layout's gunicorn is deploy's configuration with the load test's hooks.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.budgets import BUDGETS
from tests.deploy_layout import gunicorn_printed_config
from tests.load import gunicorn_cpu
from tests.load.layout import (
    LOAD_PREVIEW_RATE,
    Knobs,
    debug_http_command,
    django_env,
    knobs_from_env,
    run_seconds,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_production_layout_is_the_default():
    knobs = knobs_from_env({})

    assert knobs == Knobs(layout="production", users=50, run_time="60s", workers=None)
    assert knobs.preview_rate == LOAD_PREVIEW_RATE == "600/m"


def test_every_knob_is_read_from_the_environment(tmp_path):
    knobs = knobs_from_env(
        {
            "LOAD_LAYOUT": "debug-http",
            "LOAD_USERS": "7",
            "LOAD_RUN_TIME": "2m",
            "LOAD_WORKERS": "3",
            "LOAD_PROFILE_DIR": str(tmp_path / "profiles"),
            "PRACTICE_PREVIEW_RATE": "30/s",
        }
    )

    assert knobs == Knobs("debug-http", 7, "2m", 3, tmp_path / "profiles", "30/s")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOAD_LAYOUT", "plain"),
        ("LOAD_USERS", "0"),
        ("LOAD_USERS", "many"),
        ("LOAD_WORKERS", "-2"),
        ("LOAD_RUN_TIME", "soon"),
        ("LOAD_RUN_TIME", "0s"),
    ],
)
def test_a_knob_not_understood_is_named(name, value):
    with pytest.raises(ValueError, match=name):
        knobs_from_env({name: value})


def test_run_time_is_read_as_locust_reads_it():
    assert [run_seconds(t) for t in ("90", "30s", "2m", "1h")] == [90, 30, 120, 3600]


def test_the_production_environment_is_deploys(tmp_path):
    base = {"GUNICORN_WORKERS": "9", "DJANGO_ALLOW_ASYNC_UNSAFE": "1", "CACHE_URL": "redis://x/1"}

    env = django_env(
        knobs_from_env({}), base, database_url="postgres://db/x_load", workdir=tmp_path, secret="s"
    )

    assert env["DEBUG"] == "0"
    assert env["SECRET_KEY"] == "s"
    assert env["ALLOWED_HOSTS"] == "127.0.0.1"
    assert env["BASISLAB_TRUSTED_PROXIES"] == "1"
    assert env["STATIC_ROOT"] == str(tmp_path / "static")
    assert env["DATABASE_URL"] == "postgres://db/x_load"
    assert env["PRACTICE_PREVIEW_RATE"] == "600/m"
    assert env["CACHE_URL"] == "redis://x/1"  # the caller's cache is used as given
    # deploy's worker count unless LOAD_WORKERS says; never one left over in the environment.
    assert "GUNICORN_WORKERS" not in env
    assert "DJANGO_ALLOW_ASYNC_UNSAFE" not in env


def test_load_workers_becomes_gunicorns_workers(tmp_path):
    knobs = knobs_from_env({"LOAD_WORKERS": "3", "PRACTICE_PREVIEW_RATE": "60/m"})

    env = django_env(knobs, {}, database_url="postgres://db/x", workdir=tmp_path, secret="s")

    assert env["GUNICORN_WORKERS"] == "3"
    assert env["PRACTICE_PREVIEW_RATE"] == "60/m"  # the caller's rate is kept


def test_the_debug_http_layout_is_the_old_one(tmp_path):
    knobs = knobs_from_env({"LOAD_LAYOUT": "debug-http"})

    env = django_env(knobs, {}, database_url="postgres://db/x", workdir=tmp_path, secret="s")
    command = debug_http_command(knobs, 8123, cpus=2)

    assert env["DEBUG"] == "1"
    assert "SECRET_KEY" not in env
    assert command[command.index("--bind") + 1] == "127.0.0.1:8123"
    assert command[command.index("--workers") + 1] == "4"  # 2 per CPU
    assert command[-1].endswith("tests/load/gunicorn_cpu.py")
    three = debug_http_command(Knobs(workers=3), 8123, cpus=2)
    assert three[three.index("--workers") + 1] == "3"  # LOAD_WORKERS when given


def _settings_value(name: str, **environ: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"PRACTICE_PREVIEW_RATE"}}
    env.update(DJANGO_SETTINGS_MODULE="basislab.settings", DEBUG="1", **environ)
    code = f"from django.conf import settings; print(settings.{name})"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_preview_rate_is_raised_only_by_the_environment():
    assert _settings_value("PRACTICE_PREVIEW_RATE") == "60/m"
    assert _settings_value("PRACTICE_PREVIEW_RATE", PRACTICE_PREVIEW_RATE="600/m") == "600/m"


def test_the_production_gunicorn_is_deploys_configuration_with_the_hooks(tmp_path):
    printed = gunicorn_printed_config(
        ROOT / "tests" / "load" / "gunicorn_production.py",
        GUNICORN_BIND="127.0.0.1:0", GUNICORN_WORKERS="3", BASISLAB_VAR_DIR=str(tmp_path),
        PYTHONPATH=str(ROOT),
    )  # fmt: skip
    assert printed["workers"] == "3"
    assert printed["worker_class"] == "sync"
    assert printed["bind"] == "['127.0.0.1:0']"
    assert printed["preload_app"] == "True"
    assert printed["max_requests"] == "2000"
    assert printed["limit_request_line"] == "4094"
    for hook in ("post_fork", "pre_request", "post_request", "worker_exit"):
        assert printed[hook] == f"<{hook}()>", hook  # the load test's, not gunicorn's default


def test_requests_are_named_as_the_load_test_names_them():
    assert gunicorn_cpu.request_type("GET", "/course/3/problems/14/") == "open: problem page"
    assert gunicorn_cpu.request_type("POST", "/course/3/problems/14/") == "submit: grade and store"
    assert gunicorn_cpu.request_type("POST", "/course/3/problems/14/preview/") == "preview (htmx)"
    assert gunicorn_cpu.request_type("GET", "/course/3/attempts/9/") == "submit: verdict page"
    assert gunicorn_cpu.request_type("GET", "/") == "other"


def test_one_worker_claims_the_profile_directory(tmp_path):
    assert gunicorn_cpu.claim_profile(tmp_path) is True
    assert gunicorn_cpu.claim_profile(tmp_path) is False
    assert (tmp_path / "profiled-worker").read_text() == str(os.getpid())


def test_requests_are_named_by_their_budgets_request_type():
    answer = "submit, first wrong answer"
    assert gunicorn_cpu.budget_name("POST", "/course/3/problems/14/", answer) == answer
    assert gunicorn_cpu.budget_name("POST", "/course/3/problems/14/", None) is None
    assert gunicorn_cpu.budget_name("GET", "/course/3/problems/14/", None) == "problem page"
    assert gunicorn_cpu.budget_name("GET", "/course/3/attempts/9/", None) == "Verdict page"
    assert gunicorn_cpu.budget_name("GET", "/course/3/attempts/9/", answer) == "Verdict page"
    solved = gunicorn_cpu.budget_name("GET", "/course/3/attempts/9/", "submit, right after wrong")
    assert solved == "Verdict page, problem solved"
    assert BUDGETS[solved].load
    assert gunicorn_cpu.budget_name("GET", "/", None) is None
    for name in gunicorn_cpu.BUDGET_NAMES.values():
        assert BUDGETS[name].load, name


@pytest.mark.django_db
def test_a_connections_statements_are_counted_with_its_transactions():
    from django.db import connections

    connection = connections.create_connection("default")  # the hooks' own, not the test's
    try:
        gunicorn_cpu.count_statements(connection)
        before = gunicorn_cpu._statements[0]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        assert gunicorn_cpu._statements[0] - before == 1
        connection.set_autocommit(False)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.execute("SELECT 2")
        connection.commit()
        connection.set_autocommit(True)
        assert gunicorn_cpu._statements[0] - before == 1 + 4  # BEGIN, two, COMMIT
    finally:
        connection.close()


def test_the_workers_totals_are_added_up_and_judged_by_their_budgets(tmp_path):
    from tests.load.__main__ import budget_lines, read_cpu_totals

    budget = BUDGETS["Verdict page"].statements
    # Two workers; each one's first Verdict page read once-per-process content (one more).
    for pid, statements in {1: {budget + 1: 1, budget: 2}, 2: {budget + 1: 1}}.items():
        written = {
            "types": {"submit: verdict page": [sum(statements.values()), 0.01, statements]},
            "budgets": {"Verdict page": [sum(statements.values()), 0.01, statements]},
        }
        (tmp_path / f"{pid}.json").write_text(json.dumps(written), encoding="utf-8")

    types, budgets = read_cpu_totals(tmp_path)

    got = types["submit: verdict page"]
    assert (got.requests, got.statements) == (4, {budget + 1: 2, budget: 2})
    assert got.cpu_ms == pytest.approx(5.0)  # 0.02 s over 4 requests
    assert got.median_statements == budget
    assert got.mean_statements == budget + 0.5
    lines = budget_lines(budgets)
    (line,) = [line for line in lines if line.startswith("Verdict page ")]
    assert line.endswith("  ok"), line  # the typical request is within its budget
    assert any(line.startswith("problem page ") and "not sent" in line for line in lines)
    budgets["Verdict page"].add(3, 0.0, {budget + 1: 3})  # now most are over
    (line,) = [line for line in budget_lines(budgets) if line.startswith("Verdict page ")]
    assert line.endswith("OVER: statements"), line
