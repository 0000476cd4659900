"""Gunicorn configuration of the load test's production layout: deploy/gunicorn.conf.py as it
is, plus the load test's hooks (tests/load/gunicorn_cpu.py).

Started by ``tests/load/layout.py`` as ``gunicorn -c tests/load/gunicorn_production.py`` with
GUNICORN_BIND (a unix socket nginx reaches) and, when LOAD_WORKERS is set, GUNICORN_WORKERS.
Gunicorn takes one configuration file, so this one runs deploy's and keeps every name it sets;
deploy's ``post_fork`` still runs in each worker.
"""

import runpy
from pathlib import Path

from tests.load import gunicorn_cpu

_deploy = runpy.run_path(str(Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"))
globals().update({name: value for name, value in _deploy.items() if not name.startswith("__")})

pre_request = gunicorn_cpu.pre_request
post_request = gunicorn_cpu.post_request
worker_exit = gunicorn_cpu.worker_exit


def post_fork(server: object, worker: object) -> None:
    """Run deploy's post_fork (the grader's confirmation process), then the load test's."""
    _deploy["post_fork"](server, worker)
    gunicorn_cpu.post_fork(server, worker)
