"""Settings for the test suite: PostgreSQL and Redis when named by URL, SQLite otherwise."""

import os
import tempfile
from pathlib import Path

from .settings import *  # noqa: F403
from .settings import DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files from the app directories without a collectstatic run.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Test hook: the Celery queue a worker subprocess started by a test consumes and sends to
# (tests/review/test_worker_kill.py names one of its own so runs sharing a Redis database never
# take each other's messages). Under pytest-xdist each worker process of the suite has a queue of
# its own too (celery-gw0, celery-gw1, ...): CI's one Redis database is shared by the workers, and
# one's embedded Celery worker must never run the tasks another's tests sent. Test settings only;
# production keeps Celery's "celery".
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("BASISLAB_TEST_CELERY_QUEUE") or (
    f"celery-{os.environ['PYTEST_XDIST_WORKER']}"
    if os.environ.get("PYTEST_XDIST_WORKER")
    else "celery"
)

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file instead of memory: tests/review/test_worker_kill.py runs a Celery worker as a
    # subprocess, which cannot see an in-memory database. One file per test run (the pid), so
    # runs side by side never clobber each other; Django deletes it when the run ends. Without
    # fsync it costs the suite no noticeable time over memory.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"basislab-test-{os.getpid()}.sqlite3")
    }
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA synchronous=OFF"
