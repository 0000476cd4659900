"""What ``make test`` installs before the suite (tests/prereqs.py): nothing when all is there,
a clear command when it cannot install, Redis only when none is configured."""

import os

from tests import prereqs
from tests.prereqs import advice, install_command, main, needed, postgres_wanted
from tests.test_postgres_server import closed_port_url


def packages(environ: dict[str, str]) -> list[str]:
    return [program.package for program in needed(environ)]


def test_redis_server_is_needed_only_when_no_redis_is_configured():
    assert "redis-server" in packages({})
    assert "redis-server" in packages({"CELERY_BROKER_URL": "filesystem://"})
    assert "redis-server" not in packages({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"})
    assert {"chromium", "nginx", "openssl", "postgresql-client"} <= set(packages({}))


def test_everything_this_run_needs_is_present_so_nothing_is_done():
    # make test ran tests.prereqs before the suite, with this environment.
    assert main(dict(os.environ), is_root=False) == 0


def test_a_user_who_cannot_install_is_told_the_exact_command(tmp_path, capsys):
    environ = {
        "BASISLAB_CHROMIUM": str(tmp_path / "no-chromium"),
        "BASISLAB_NGINX": str(tmp_path / "no-nginx"),
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3",
    }

    status = main(environ, is_root=False)

    assert status == 1
    err = capsys.readouterr().err
    assert "make test needs chromium, nginx, which are not installed" in err
    assert "sudo apt-get install -y -qq chromium nginx" in err


def test_the_install_command_is_apt_get():
    assert install_command(["redis-server"]) == ["apt-get", "install", "-y", "-qq", "redis-server"]
    assert "sudo apt-get install -y -qq redis-server" in advice(["redis-server"])


def test_a_postgresql_server_is_needed_only_when_none_is_configured_or_answers():
    assert "postgresql" in packages_with_server({}, server=True)
    assert "postgresql" not in packages_with_server({}, server=False)
    closed = closed_port_url()
    assert postgres_wanted({"BASISLAB_TEST_POSTGRES_PROBE": closed})
    assert not postgres_wanted(
        {"BASISLAB_TEST_POSTGRES_PROBE": closed, "BASISLAB_BACKUP_TEST_POSTGRES": closed}
    )


def test_a_missing_server_is_installed_with_its_client_of_the_same_version(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(prereqs, "SERVER_BINARY", str(tmp_path / "*" / "bin" / "postgres"))
    environ = {
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3",
        "BASISLAB_TEST_POSTGRES_PROBE": closed_port_url(),
    }

    status = main(environ, is_root=False)

    assert status == 1
    err = capsys.readouterr().err
    assert "sudo apt-get install -y -qq postgresql postgresql-client" in err
    (tmp_path / "15" / "bin").mkdir(parents=True)
    (tmp_path / "15" / "bin" / "postgres").write_text("#!/bin/sh\n")
    (tmp_path / "15" / "bin" / "postgres").chmod(0o755)
    assert main(environ, is_root=False) == 0


def packages_with_server(environ: dict[str, str], *, server: bool) -> list[str]:
    return [program.package for program in needed(environ, postgres_server=server)]
