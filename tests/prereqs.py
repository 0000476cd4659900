"""Make sure the programs the test suite drives are installed; ``make test`` runs this first.

    python -m tests.prereqs

Beyond Python packages the suite drives these Debian programs, and redis-server when no Redis is
configured:

- ``chromium`` (the browser tests, through Playwright; ``BASISLAB_CHROMIUM`` names another),
- ``nginx`` (tests/deploy: the production proxy in front of gunicorn; ``BASISLAB_NGINX``),
- ``openssl`` (tests/deploy: a throwaway certificate for nginx's TLS server block),
- ``pg_dump`` and ``pg_restore`` (``postgresql-client``; tests/deploy/test_backup.py),
- the PostgreSQL server (``postgresql``: ``/usr/lib/postgresql/<version>/bin/postgres``) when
  ``BASISLAB_BACKUP_TEST_POSTGRES`` is not set and no server answers at 127.0.0.1:5432: the
  backup test then starts a throwaway cluster of its own under ``var/``
  (tests/postgres_server.py). ``postgresql-client`` is installed with it, so pg_dump and
  pg_restore are the same Debian package version as the server,
- ``redis-server`` when ``CELERY_BROKER_URL`` does not name Redis: the worker tests then start a
  throwaway server of their own under ``var/`` (tests/redis_server.py).

What is missing is installed with apt-get when running as root (with services kept from
starting: a temporary ``policy-rc.d``, so installing redis-server, nginx or postgresql leaves no
daemon running; Debian's postgresql still creates its ``main`` cluster, stopped); otherwise the
command to run is printed and the exit status is 1. Nothing is ever skipped instead.
"""

import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.postgres_server import answers, configured_url, probe_url

POLICY_RC_D = Path("/usr/sbin/policy-rc.d")
# Exit status 101 tells Debian's invoke-rc.d and deb-systemd-invoke not to start a service.
SERVER_BINARY = "/usr/lib/postgresql/*/bin/postgres"
DENY_STARTS = "#!/bin/sh\n# Written by tests/prereqs.py while it installs packages.\nexit 101\n"


@dataclass(frozen=True)
class Program:
    """A program the suite runs: where it is looked for and which Debian package has it."""

    package: str
    path: str

    def present(self) -> bool:
        """Return True when the program is installed where the suite looks for it."""
        if "*" in self.path:
            return any(os.access(path, os.X_OK) for path in glob.glob(self.path))
        if "/" in self.path:
            return os.access(self.path, os.X_OK)
        return shutil.which(self.path) is not None


def postgres_wanted(environ: dict[str, str]) -> bool:
    """Return True when the backup test will start a throwaway PostgreSQL: none is configured
    and none answers at the local address (tests/postgres_server.py)."""
    return configured_url(environ) is None and not answers(probe_url(environ))


def needed(environ: dict[str, str], *, postgres_server: bool | None = None) -> list[Program]:
    """Return the programs this run of the suite needs, given the environment; whether a
    PostgreSQL server is needed is probed unless ``postgres_server`` says it."""
    programs = [
        Program("chromium", environ.get("BASISLAB_CHROMIUM", "/usr/bin/chromium")),
        Program("nginx", environ.get("BASISLAB_NGINX", "/usr/sbin/nginx")),
        Program("openssl", "openssl"),
        # tests/deploy/test_backup.py: the nightly dump (pg_dump) and the restore (pg_restore).
        Program("postgresql-client", "pg_dump"),
        Program("postgresql-client", "pg_restore"),
    ]
    if not environ.get("CELERY_BROKER_URL", "").startswith(("redis://", "rediss://")):
        programs.append(Program("redis-server", "redis-server"))
    if postgres_wanted(environ) if postgres_server is None else postgres_server:
        # initdb comes with it; the tests run it as the `postgres` user it creates when root.
        programs.append(Program("postgresql", SERVER_BINARY))
    return programs


def install_command(packages: list[str]) -> list[str]:
    """Return the apt-get command that installs the packages."""
    return ["apt-get", "install", "-y", "-qq", *packages]


def advice(packages: list[str]) -> str:
    """Return the message for a user who cannot install: what is missing and how to add it."""
    return (
        f"make test needs {', '.join(packages)}, which {'is' if len(packages) == 1 else 'are'} "
        f"not installed. Install with:\n    sudo {' '.join(install_command(packages))}\n"
        "(Debian or Ubuntu; run as root, make test installs them itself.)"
    )


def install(packages: list[str]) -> None:
    """Install the packages with apt-get, keeping their services from starting."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    wrote_policy = False
    if not POLICY_RC_D.exists():
        POLICY_RC_D.write_text(DENY_STARTS)
        POLICY_RC_D.chmod(0o755)
        wrote_policy = True
    try:
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(install_command(packages), check=True, env=env)
    finally:
        if wrote_policy:
            POLICY_RC_D.unlink()


def main(environ: dict[str, str] | None = None, *, is_root: bool | None = None) -> int:
    """Check (and as root install) what the suite needs; return the exit status."""
    environ = dict(os.environ) if environ is None else environ
    is_root = os.geteuid() == 0 if is_root is None else is_root
    missing = [program for program in needed(environ) if not program.present()]
    if not missing:
        return 0
    packages = list(dict.fromkeys(program.package for program in missing))
    if "postgresql" in packages and "postgresql-client" not in packages:
        packages.append("postgresql-client")  # pg_dump of the same package version as the server
    if not is_root or shutil.which("apt-get") is None:
        print(advice(packages), file=sys.stderr)
        return 1
    print(f"Installing {', '.join(packages)} with apt-get (services not started).", flush=True)
    install(packages)
    still = [program.package for program in missing if not program.present()]
    if still:
        print(f"apt-get ran, but {', '.join(still)} is still missing.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
