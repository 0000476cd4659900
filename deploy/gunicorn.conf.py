"""Gunicorn settings for production, behind nginx (deploy/nginx/basislab.conf).

Start: ``gunicorn -c deploy/gunicorn.conf.py basislab.wsgi`` (deploy/systemd/basislab-web.service).
Sync workers are right here only because nginx stands in front: it reads each request whole
(headers and body, with its own timeouts) before handing it on, and buffers the response, so a
worker is never held by a slow client. Never expose this server to the internet directly.
Every value can be overridden from the environment (GUNICORN_BIND, GUNICORN_WORKERS, ...).
"""

import ipaddress
import multiprocessing
import os


def _int(name: str, default: int) -> int:
    """Read an integer from the environment, naming the variable when it is not one."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"{name}={raw!r} is not an integer") from exc


def _truthy(name: str) -> bool:
    """Read a yes/no variable: 1/true/yes/on is yes, unset or 0/false/no/off is no."""
    raw = os.environ.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{name}={raw!r}: use 1 or 0")


def is_private_bind(address: str) -> bool:
    """Return True for a bind only this machine can reach: a unix socket, an inherited file
    descriptor, or a loopback host:port (``localhost``, 127.0.0.0/8, ``[::1]``)."""
    if address.startswith(("unix:", "fd://")):
        return True
    host = address.rpartition(":")[0] if ":" in address else address
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name (or 0.0.0.0 / ::) may well be reachable from outside


def refuse_public_bind(addresses: list[str], *, proxy_in_front: bool) -> None:
    """Raise unless every address is private or a proxy is declared in front.

    Sync workers facing the internet are held by any slow client (five trickling clients held
    five workers 14.5 s in the security review); nginx in front reads requests whole first.
    """
    public = [a for a in addresses if not is_private_bind(a)]
    if public and not proxy_in_front:
        raise RuntimeError(
            f"refusing to bind {', '.join(public)}: gunicorn's sync workers must sit behind "
            "nginx (deploy/nginx/basislab.conf). Bind a unix socket or a loopback address, or "
            "set GUNICORN_PROXY_IN_FRONT=1 when a proxy on another machine is the only way in."
        )


wsgi_app = "basislab.wsgi:application"
# A unix socket only nginx can reach (systemd's RuntimeDirectory=basislab); a loopback
# host:port works too. Any other address is refused unless GUNICORN_PROXY_IN_FRONT=1.
bind = [
    address.strip()
    for address in os.environ.get("GUNICORN_BIND", "unix:/run/basislab/gunicorn.sock").split(",")
    if address.strip()
]
refuse_public_bind(bind, proxy_in_front=_truthy("GUNICORN_PROXY_IN_FRONT"))
# gunicorn's control socket (gunicornc) would default to ~/.gunicorn/, shared by every gunicorn
# the user runs: inside systemd's RuntimeDirectory (owner-only) when there is one, else off.
_runtime_dir = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
control_socket_disable = not _runtime_dir
if _runtime_dir:
    control_socket = os.path.join(_runtime_dir, "gunicorn.ctl")
    control_socket_mode = 0o600
# Sync workers: answers are CPU-bound (SymPy, rendering) and short. 2 per CPU + 1.
workers = _int("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1)
worker_class = "sync"
# A request that takes longer than this is killed (the grader bounds its own work to ~1 s).
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
# nginx talks HTTP/1.0 to the upstream and closes; keep-alive matters little here.
keepalive = 2
# Request line and header limits (gunicorn's defaults, written down): a longer URL or more
# headers get 400 before Django is involved. nginx refuses earlier still
# (large_client_header_buffers 4 8k).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
# Recycle workers now and then, so a slow leak cannot grow without bound.
max_requests = _int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = 200
# Import the app before forking: workers share its memory and start at once.
preload_app = True
# X-Forwarded-* only from nginx on this machine (Django itself reads X-Forwarded-Proto through
# SECURE_PROXY_SSL_HEADER and X-Forwarded-For through BASISLAB_TRUSTED_PROXIES).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = "-"
# The forwarded chain first (nginx appends the address it saw), then the usual fields.
access_log_format = (
    '%({x-forwarded-for}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
)
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
proc_name = "basislab-web"


def post_fork(server: object, worker: object) -> None:
    """Start the worker's exact-confirmation process (grading.confirm) in the background now,
    so that no learner's answer waits the second it takes to start (see README, Grading)."""
    from grading.confirm import prestart

    prestart()
