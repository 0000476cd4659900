"""The Celery application: configured from Django settings, tasks found in the apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings")

app = Celery("basislab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
