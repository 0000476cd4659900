"""The production layout on loopback, shared by the deploy tests (tests/deploy/) and the load
test (tests/load/): Debian's nginx configured from deploy/nginx/basislab.conf, with a throwaway
self-signed certificate, in front of gunicorn started from deploy/gunicorn.conf.py.

Only what a machine's paths and ports require is changed in deploy/'s nginx site
(`render_site`), and each change fails loudly when the file no longer has the line it replaces,
so both tests keep measuring the file that is deployed.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.throwaway import free_port

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
NGINX = os.environ.get("BASISLAB_NGINX", "/usr/sbin/nginx")
HOST = "practice.example.org"
LOOPBACK = "127.0.0.1"


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Wait until something accepts on the loopback port; fail with the log if the process
    died or nothing listens in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"exited with {process.returncode}:\n{_read(log)}")
        with socket.socket() as sock:
            if sock.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after {timeout} s:\n{_read(log)}")


def wait_for_socket(path: Path, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Wait until a unix socket accepts connections; fail with the log as `wait_for_port`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"exited with {process.returncode}:\n{_read(log)}")
        if path.exists():
            with socket.socket(socket.AF_UNIX) as sock:
                if sock.connect_ex(str(path)) == 0:
                    return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {path} after {timeout} s:\n{_read(log)}")


def _read(log: Path) -> str:
    return log.read_text() if log.exists() else "(no log)"


def replace_once(text: str, old: str, new: str) -> str:
    """Replace a line of deploy/'s file, failing loudly when the file no longer has it."""
    assert text.count(old) == 1, f"deploy/nginx/basislab.conf has no single {old!r}"
    return text.replace(old, new)


def render_site(
    *, http_port: int, https_port: int, upstream: str, static_root: Path, cert: Path, key: Path
) -> str:
    """Return deploy/nginx/basislab.conf with loopback ports, the given upstream (``host:port``
    or ``unix:/path``), static root and certificate; every other line as deployed."""
    text = (DEPLOY / "nginx" / "basislab.conf").read_text()
    text = replace_once(text, "    listen 80;\n", f"    listen {LOOPBACK}:{http_port};\n")
    text = replace_once(text, "    listen [::]:80;\n", "")
    text = replace_once(
        text, "    listen 443 ssl http2;\n", f"    listen {LOOPBACK}:{https_port} ssl http2;\n"
    )
    text = replace_once(text, "    listen [::]:443 ssl http2;\n", "")
    text = replace_once(
        text,
        "server unix:/run/basislab/gunicorn.sock fail_timeout=0;",
        f"server {upstream} fail_timeout=0;",
    )
    text = replace_once(text, "alias /srv/basislab/staticfiles/;", f"alias {static_root}/;")
    text = replace_once(text, "/etc/letsencrypt/live/practice.example.org/fullchain.pem", str(cert))
    text = replace_once(text, "/etc/letsencrypt/live/practice.example.org/privkey.pem", str(key))
    return text


def main_config(*, site: Path, work: Path, worker_processes: str = "1") -> str:
    """Return a whole nginx.conf of the caller's own: Debian's mime types, the site, logs and
    temporary directories under ``work``."""
    # Started by root, nginx's workers would run as nobody and could not read a private
    # temporary directory; they keep root's rights here (loopback only, a test).
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {name}_temp_path {work / name};" for name in ("client_body", "proxy", "fastcgi")
    )
    return f"""{user}daemon off;
master_process on;
worker_processes {worker_processes};
pid {work / "nginx.pid"};
error_log {work / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {work / "access.log"};
{temp}
    uwsgi_temp_path {work / "uwsgi"};
    scgi_temp_path {work / "scgi"};
    include {site};
}}
"""


def make_certificate(directory: Path, *, host: str = HOST) -> tuple[Path, Path]:
    """Write a throwaway self-signed certificate for ``host`` and 127.0.0.1 (two days), and
    return (certificate, key); a client trusts it by naming the certificate as its CA file."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", f"/CN={host}", "-addext", f"subjectAltName=DNS:{host},IP:{LOOPBACK}",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


def start_gunicorn(*, env: dict[str, str], bind: str, log: Path, config: Path = GUNICORN_CONF):
    """Start gunicorn from a configuration file (deploy/'s by default) bound to ``bind`` (the
    configuration's GUNICORN_BIND), its output in ``log``; return the process."""
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", str(config)],
        cwd=ROOT,
        env={**env, "GUNICORN_BIND": bind},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def gunicorn_printed_config(config: Path, **environ: str) -> dict[str, str]:
    """Return the settings gunicorn prints for a configuration file (``--check-config
    --print-config``, the test's environment plus ``environ``), by name; fail with its output
    when gunicorn refuses the file."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    result = subprocess.run(
        [gunicorn, "--check-config", "--print-config", "-c", str(config)],
        cwd=ROOT,
        env={**env, **environ},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    printed = re.findall(r"^(\w+)\s+=\s+(.*)$", result.stdout, flags=re.M)
    return {name: value.strip() for name, value in printed}


@dataclass
class Nginx:
    """A running nginx of `start_nginx`: its process, loopback ports and files."""

    process: subprocess.Popen
    http_port: int
    https_port: int
    work: Path

    @property
    def access_log(self) -> Path:
        return self.work / "access.log"


def start_nginx(
    *,
    work: Path,
    upstream: str,
    static_root: Path,
    cert: Path,
    key: Path,
    worker_processes: str = "1",
) -> Nginx:
    """Render deploy/'s site for loopback ports in ``work``, check it with ``nginx -t``, start
    nginx and wait until it accepts on the HTTPS port."""
    if not Path(NGINX).is_file():
        raise FileNotFoundError(f"nginx not found at {NGINX}: apt-get install nginx")
    http_port, https_port = free_port(), free_port()
    site = work / "basislab.conf"
    site.write_text(
        render_site(
            http_port=http_port,
            https_port=https_port,
            upstream=upstream,
            static_root=static_root,
            cert=cert,
            key=key,
        )
    )
    conf = work / "nginx.conf"
    conf.write_text(main_config(site=site, work=work, worker_processes=worker_processes))
    error_log = str(work / "error.log")
    check = subprocess.run(
        [NGINX, "-t", "-c", str(conf), "-e", error_log], capture_output=True, text=True, timeout=30
    )
    if check.returncode != 0:
        raise AssertionError(f"nginx -t refused {conf}:\n{check.stderr}")
    output = work / "nginx.out"
    process = subprocess.Popen(
        [NGINX, "-c", str(conf), "-e", error_log],
        stdout=output.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for_port(https_port, process, output)
    except BaseException:
        stop(process)
        raise
    return Nginx(process, http_port, https_port, work)


def stop(*processes: subprocess.Popen | None, timeout: float = 30) -> None:
    """Stop each running process (SIGTERM: gunicorn's workers and nginx finish what they are
    doing), killing one that has not exited after ``timeout`` seconds."""
    for process in processes:
        if process is None or process.poll() is not None:
            continue
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # Started in a session of its own (see above): its workers go with it.
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
