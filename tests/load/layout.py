"""What the load test serves and how: its environment knobs, the app's environment, and the two
layouts it can start.

- ``production`` (the default): nginx from deploy/nginx/basislab.conf with a throwaway
  self-signed certificate, HTTPS on a loopback port, in front of gunicorn started from
  deploy/gunicorn.conf.py (through ``gunicorn_production.py``, which adds the CPU hooks) on a
  unix socket, ``DEBUG=0``, as deploy/basislab.env.example configures a site.
- ``debug-http``: the layout this test used first, kept to compare with: gunicorn alone over
  plain HTTP, ``DEBUG=1`` (the session cookie is then not marked secure).
"""

import secrets
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests import deploy_layout
from tests.throwaway import free_port

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
LAYOUTS = ("production", "debug-http")
# A learner previews twice per answer, every second or two: about 100 a minute, past the
# site's 60/m. The load test measures the server, not the limit, unless told otherwise.
LOAD_PREVIEW_RATE = "600/m"
LOOPBACK = deploy_layout.LOOPBACK


@dataclass(frozen=True)
class Knobs:
    """The load test's settings, read from the environment by `knobs_from_env`."""

    layout: str = "production"
    users: int = 50
    run_time: str = "60s"
    workers: int | None = None  # None: the layout's default
    profile_dir: Path | None = None
    preview_rate: str = LOAD_PREVIEW_RATE


def _positive(environ: Mapping[str, str], name: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name}={raw!r}: a whole number of at least 1")
    return int(raw)


def run_seconds(run_time: str) -> int:
    """Return Locust's ``--run-time`` (``90``, ``30s``, ``2m``, ``1h``) in seconds."""
    units = {"s": 1, "m": 60, "h": 3600}
    text = run_time.strip()
    number, unit = (text[:-1], units[text[-1]]) if text and text[-1] in units else (text, 1)
    try:
        seconds = float(number) * unit
    except ValueError:
        raise ValueError(
            f"LOAD_RUN_TIME={run_time!r}: use 60s, 2m or a number of seconds"
        ) from None
    if seconds <= 0:
        raise ValueError(f"LOAD_RUN_TIME={run_time!r}: must be more than nothing")
    return int(seconds)


def knobs_from_env(environ: Mapping[str, str]) -> Knobs:
    """Read LOAD_LAYOUT, LOAD_USERS, LOAD_RUN_TIME, LOAD_WORKERS, LOAD_PROFILE_DIR and
    PRACTICE_PREVIEW_RATE; raise ValueError naming the variable that is not understood."""
    layout = environ.get("LOAD_LAYOUT", "").strip() or "production"
    if layout not in LAYOUTS:
        raise ValueError(f"LOAD_LAYOUT={layout!r}: use {' or '.join(LAYOUTS)}")
    run_time = environ.get("LOAD_RUN_TIME", "").strip() or "60s"
    run_seconds(run_time)
    profile = environ.get("LOAD_PROFILE_DIR", "").strip()
    return Knobs(
        layout=layout,
        users=_positive(environ, "LOAD_USERS") or 50,
        run_time=run_time,
        workers=_positive(environ, "LOAD_WORKERS"),
        profile_dir=Path(profile).resolve() if profile else None,
        preview_rate=environ.get("PRACTICE_PREVIEW_RATE", "").strip() or LOAD_PREVIEW_RATE,
    )


def django_env(
    knobs: Knobs, base: Mapping[str, str], *, database_url: str, workdir: Path, secret: str
) -> dict[str, str]:
    """Return the app's environment for the layout: the caller's environment with the scratch
    database, the preview rate, and the layout's own settings (used to prepare and to serve)."""
    env = dict(base)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="basislab.settings",
        LOG_LEVEL="WARNING",
        DATABASE_CONN_MAX_AGE="60",
        PYTHONPATH=str(ROOT),
        PRACTICE_PREVIEW_RATE=knobs.preview_rate,
    )
    if knobs.layout == "debug-http":
        env["DEBUG"] = "1"
        return env
    env.update(
        DEBUG="0",
        SECRET_KEY=secret,
        ALLOWED_HOSTS=LOOPBACK,
        STATIC_ROOT=str(workdir / "static"),
        # nginx is the one proxy in front, as in deploy/basislab.env.example.
        BASISLAB_TRUSTED_PROXIES="1",
        GUNICORN_LOG_LEVEL="warning",
        PYTHONUNBUFFERED="1",
    )
    env.pop("GUNICORN_WORKERS", None)
    if knobs.workers is not None:
        env["GUNICORN_WORKERS"] = str(knobs.workers)
    return env


def new_secret() -> str:
    """Return a throwaway SECRET_KEY (the learners' sessions are signed with it)."""
    return secrets.token_urlsafe(48)


def debug_http_command(knobs: Knobs, port: int, cpus: int) -> list[str]:
    """Return the debug-http layout's gunicorn command: options on the command line, the CPU
    hooks as its configuration, 2 workers per CPU unless LOAD_WORKERS says."""
    workers = knobs.workers or 2 * cpus
    return [
        str(Path(sys.executable).parent / "gunicorn"),
        "basislab.wsgi:application",
        "--bind", f"{LOOPBACK}:{port}",
        "--workers", str(workers),
        "--timeout", "30",
        "--log-level", "warning",
        "--config", str(HERE / "gunicorn_cpu.py"),
    ]  # fmt: skip


@dataclass
class Served:
    """The running layout: the address Locust loads, the processes whose CPU is counted, and
    the certificate a client trusts (None over plain HTTP)."""

    base_url: str
    gunicorn: subprocess.Popen
    nginx: subprocess.Popen | None
    ca_file: Path | None
    description: str


def wait_until_serving(url: str, process: subprocess.Popen, *, cafile: Path | None) -> None:
    """Wait until ``url`` answers 200 (trusting ``cafile`` over HTTPS); raise if the server
    exits first or does not answer within 60 s."""
    import ssl

    context = ssl.create_default_context(cafile=str(cafile)) if cafile else None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited before serving")
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within 60 s")


@contextmanager
def serve(knobs: Knobs, env: dict[str, str], workdir: Path, cpus: int) -> Iterator[Served]:
    """Start the layout on loopback with the app's environment; stop it on leaving (gunicorn's
    workers write their CPU totals into ``workdir/cpu`` as they exit)."""
    cpu_dir = workdir / "cpu"
    cpu_dir.mkdir(exist_ok=True)
    env = dict(env, LOAD_CPU_DIR=str(cpu_dir))
    if knobs.profile_dir is not None:
        knobs.profile_dir.mkdir(parents=True, exist_ok=True)
        (knobs.profile_dir / "profiled-worker").unlink(missing_ok=True)  # an earlier run's
        env["LOAD_PROFILE_DIR"] = str(knobs.profile_dir)
    log = workdir / "gunicorn.log"
    if knobs.layout == "debug-http":
        port = free_port()
        server = subprocess.Popen(
            debug_http_command(knobs, port, cpus),
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            base = f"http://{LOOPBACK}:{port}"
            wait_until_serving(f"{base}/", server, cafile=None)
            yield Served(base, server, None, None, f"gunicorn alone over http on {base}, DEBUG=1")
        finally:
            deploy_layout.stop(server)
        return
    with _serve_production(env, workdir, log) as served:
        yield served


@contextmanager
def _serve_production(env: dict[str, str], workdir: Path, log: Path) -> Iterator[Served]:
    nginx_dir = workdir / "nginx"
    nginx_dir.mkdir()
    cert, key = deploy_layout.make_certificate(nginx_dir)
    socket_path = workdir / "gunicorn.sock"
    # nginx first: Django must trust the origin the learners' browsers would send, whose port
    # nginx is given. nginx waits for its upstream without complaint until then.
    nginx = deploy_layout.start_nginx(
        work=nginx_dir,
        upstream=f"unix:{socket_path}",
        static_root=workdir / "static",
        cert=cert,
        key=key,
        worker_processes="auto",  # Debian's nginx.conf
    )
    gunicorn = None
    try:
        base = f"https://{LOOPBACK}:{nginx.https_port}"
        gunicorn = deploy_layout.start_gunicorn(
            env=dict(env, CSRF_TRUSTED_ORIGINS=base),
            bind=f"unix:{socket_path}",
            log=log,
            config=HERE / "gunicorn_production.py",
        )
        deploy_layout.wait_for_socket(socket_path, gunicorn, log)
        wait_until_serving(f"{base}/", gunicorn, cafile=cert)
        description = (
            f"nginx (HTTPS, {base}) in front of gunicorn (deploy/gunicorn.conf.py), DEBUG=0"
        )
        yield Served(base, gunicorn, nginx.process, cert, description)
    finally:
        deploy_layout.stop(gunicorn, nginx.process)
