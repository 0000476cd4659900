"""The production layout for real: Debian's nginx, configured from deploy/nginx/basislab.conf,
in front of gunicorn started from deploy/gunicorn.conf.py with two sync workers.

Slow clients (request headers one line a second, as in the report that found gunicorn's
workers held for 30 s) must not keep other visitors waiting. The assertions are about order,
never about a time limit: every quick visit is answered while both slow clients are still
sending their headers. The same slow clients sent to gunicorn directly hold both workers, and
the quick visit is answered only after one of them has finished (the layout this replaces).

Figures (how long the quick visits took) are printed; run with ``-s`` to see them.
"""

import os
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.deploy_layout import (
    HOST,
    NGINX,
    ROOT,
    make_certificate,
    start_gunicorn,
    start_nginx,
    stop,
    wait_for_port,
)
from tests.throwaway import free_port

pytestmark = pytest.mark.deploy

SLOW_LINES = 6  # header lines, one a second, after the request line
QUICK_VISITS = 5
SECRET = "deploy-test-" + "k9fQ2-vT7!mZ4@xL8#pR1$wN6%bC3^hJ5&dS0*" * 2


@dataclass
class Stack:
    gunicorn_port: int
    http_port: int
    https_port: int
    cert: Path
    gunicorn_log: Path
    static_root: Path
    timings: dict[str, list[float]] = field(default_factory=dict)

    def log_lines(self, needle: str, *, timeout: float = 15) -> list[str]:
        """Return gunicorn's log lines containing ``needle`` (logged just after the answer)."""
        deadline = time.monotonic() + timeout
        while True:
            lines = [line for line in self.gunicorn_log.read_text().splitlines() if needle in line]
            if lines or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)

    def quiet_since(self, needle: str) -> bool:
        """Return True when gunicorn logged no request containing ``needle``.

        A marker request sent afterwards is waited for first: once its line is in the log, an
        earlier request gunicorn had answered would be there too.
        """
        marker = f"marker-{time.monotonic_ns()}"
        status = request(self, f"/?{marker}", port=self.https_port, tls=True)[0]
        assert status == 200
        assert self.log_lines(marker), "the marker request never reached gunicorn's log"
        return not any(needle in line for line in self.gunicorn_log.read_text().splitlines())

    def tls(self, sock: socket.socket) -> ssl.SSLSocket:
        context = ssl.create_default_context(cafile=str(self.cert))
        return context.wrap_socket(sock, server_hostname=HOST)


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    """Start gunicorn (2 sync workers, DEBUG=0) and nginx on loopback ports; stop both after."""
    if not Path(NGINX).is_file():
        pytest.fail(f"nginx not found at {NGINX}: apt-get install nginx", pytrace=False)
    work = tmp_path_factory.mktemp("deploy")
    static_root = work / "static"
    cert, key = make_certificate(work)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CACHE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="basislab.settings",
        DEBUG="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS=f"{HOST},127.0.0.1",
        BASISLAB_VAR_DIR=str(work / "var"),
        DATABASE_URL=f"sqlite:///{work / 'var' / 'db.sqlite3'}",
        STATIC_ROOT=str(static_root),
        BASISLAB_TRUSTED_PROXIES="1",
        GUNICORN_WORKERS="2",
        PYTHONUNBUFFERED="1",
    )
    # As a deployment does: the schema, the course (the home page reads it), the static files.
    for command in (
        ["migrate", "--noinput", "-v0"],
        ["load_course", "courses/content/how-text-becomes-numbers"],
        ["collectstatic", "--noinput", "-v0"],
    ):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
    gunicorn_port = free_port()
    gunicorn_log = work / "gunicorn.log"
    gunicorn = start_gunicorn(env=env, bind=f"127.0.0.1:{gunicorn_port}", log=gunicorn_log)
    nginx = None
    try:
        wait_for_port(gunicorn_port, gunicorn, gunicorn_log)
        nginx = start_nginx(
            work=work,
            upstream=f"127.0.0.1:{gunicorn_port}",
            static_root=static_root,
            cert=cert,
            key=key,
        )
        yield Stack(
            gunicorn_port, nginx.http_port, nginx.https_port, cert, gunicorn_log, static_root
        )
    finally:
        stop(nginx.process if nginx else None, gunicorn)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP/1.x response (the request asked the server to close)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def request(stack: Stack, path: str, *, port: int, tls: bool, headers: str = "") -> tuple:
    """Send a whole GET at once and return (status, headers, body)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock = stack.tls(raw) if tls else raw
    with sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n{headers}Connection: close\r\n\r\n".encode()
        )
        return read_response(sock)


@dataclass
class SlowClient:
    """Sends its request line, then one header line a second; records when each step ended."""

    port: int
    stack: Stack
    tls: bool
    started: threading.Event = field(default_factory=threading.Event)
    headers_done: float = 0.0
    answered: float = 0.0
    status: int = 0
    error: BaseException | None = None

    def run(self) -> None:
        try:
            raw = socket.create_connection(("127.0.0.1", self.port), timeout=60)
            sock = self.stack.tls(raw) if self.tls else raw
            with sock:
                sock.sendall(b"GET /?slow=1 HTTP/1.1\r\n")
                self.started.set()
                for n in range(SLOW_LINES):
                    time.sleep(1)
                    line = f"Host: {HOST}\r\n" if n == 0 else f"X-Slow-{n}: {'a' * 20}\r\n"
                    sock.sendall(line.encode())
                sock.sendall(b"Connection: close\r\n\r\n")
                self.headers_done = time.monotonic()
                self.status = read_response(sock)[0]
                self.answered = time.monotonic()
        except BaseException as exc:  # reported by the test
            self.error = exc
            self.started.set()


def start_slow_clients(
    stack: Stack, *, port: int, tls: bool
) -> list[tuple[SlowClient, threading.Thread]]:
    clients = []
    for _ in range(2):
        client = SlowClient(port=port, stack=stack, tls=tls)
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        assert client.started.wait(30)
        clients.append((client, thread))
    # Both slow requests are now held by whoever accepted them.
    time.sleep(0.5)
    return clients


def test_slow_clients_do_not_block_other_visitors_behind_nginx(stack):
    slow = start_slow_clients(stack, port=stack.https_port, tls=True)
    quick: list[tuple[float, int]] = []
    for _ in range(QUICK_VISITS):
        began = time.monotonic()
        status, _headers, body = request(stack, "/", port=stack.https_port, tls=True)
        quick.append((time.monotonic(), status))
        stack.timings.setdefault("nginx", []).append(time.monotonic() - began)
        assert b"How Text Becomes Numbers" in body
    for _client, thread in slow:
        thread.join(60)

    first_slow_done = min(client.headers_done for client, _ in slow)
    for client, _ in slow:
        assert client.error is None, client.error
        assert client.status == 200  # nginx waited for them and passed them on whole
    assert [status for _, status in quick] == [200] * QUICK_VISITS
    # Every quick visit was answered while both slow clients were still sending headers.
    assert all(done < first_slow_done for done, _ in quick)
    times = stack.timings["nginx"]
    print(
        f"\nbehind nginx, 2 slow clients in flight ({SLOW_LINES} s of headers each): "
        f"home page {len(times)}x, median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )


def test_the_same_slow_clients_hold_gunicorn_when_it_faces_them_alone(stack):
    slow = start_slow_clients(stack, port=stack.gunicorn_port, tls=False)
    began = time.monotonic()
    status, _headers, _body = request(
        stack, "/", port=stack.gunicorn_port, tls=False, headers="X-Forwarded-Proto: https\r\n"
    )
    done = time.monotonic()
    for _client, thread in slow:
        thread.join(60)

    first_slow_done = min(client.headers_done for client, _ in slow)
    assert status == 200
    # Both sync workers were reading slow headers: the visit waited for one of them.
    assert done > first_slow_done
    print(f"\ngunicorn alone, same slow clients: home page after {(done - began):.1f} s")


def test_nginx_forwards_proto_and_appends_the_address_it_saw(stack):
    status, _headers, _body = request(
        stack,
        "/?probe=forged",
        port=stack.https_port,
        tls=True,
        headers="X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: http\r\n",
    )

    assert status == 200  # not a redirect to https: nginx overwrote the forged proto
    lines = stack.log_lines("probe=forged")
    assert len(lines) == 1
    # gunicorn logs X-Forwarded-For first: the forged entry, then the address nginx saw, which
    # is the one basislab.client_ip reads with BASISLAB_TRUSTED_PROXIES=1.
    assert lines[0].startswith("203.0.113.9, 127.0.0.1 ")


def test_plain_http_moves_to_https(stack):
    status, headers, _body = request(stack, "/course/", port=stack.http_port, tls=False)

    assert status == 301
    assert headers["location"] == f"https://{HOST}/course/"


def test_static_files_are_served_by_nginx_with_a_long_cache(stack):
    css = next((stack.static_root / "css").glob("site.*.css"))
    path = f"/static/css/{css.name}"

    status, headers, body = request(stack, path, port=stack.https_port, tls=True)

    assert status == 200
    assert body == css.read_bytes()
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert stack.quiet_since(path)  # gunicorn never saw it


def test_gunicorn_refuses_an_overlong_request_line_and_too_many_headers(stack):
    long_line = request(stack, "/?" + "a" * 5000, port=stack.gunicorn_port, tls=False)
    many = "".join(f"X-Extra-{n}: 1\r\n" for n in range(60))
    many_headers = request(stack, "/", port=stack.gunicorn_port, tls=False, headers=many)

    assert long_line[0] == 414  # URI Too Long: past limit_request_line
    assert many_headers[0] == 431  # Request Header Fields Too Large: past limit_request_fields


def test_a_header_past_nginx_limits_is_refused_before_gunicorn(stack):
    status, _headers, _body = request(
        stack, "/?probe=huge", port=stack.https_port, tls=True, headers=f"X-Huge: {'a' * 9000}\r\n"
    )

    assert status == 400
    assert stack.quiet_since("probe=huge")


def test_nginx_does_not_announce_its_version(stack):
    redirect = request(stack, "/", port=stack.http_port, tls=False)
    page = request(stack, "/", port=stack.https_port, tls=True)
    refused = request(
        stack, "/?probe=huge", port=stack.https_port, tls=True, headers=f"X-Big: {'a' * 9000}\r\n"
    )

    for status, headers, _body in (redirect, page, refused):
        assert headers["server"] == "nginx", (status, headers["server"])
    assert b"nginx/" not in refused[2]  # nginx's own error page names no version either
