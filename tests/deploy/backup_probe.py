"""Fill a database with a learner's work, or read back what the app serves them, as JSON.

    python -m tests.deploy.backup_probe populate   # in the database DATABASE_URL names
    python -m tests.deploy.backup_probe snapshot   # print the learner's pages and exports

Run by tests/deploy/test_backup.py once against the database it dumps and once against the
copy restored from the dump; the two snapshots must be the same.
"""

import json
import os
import re
import sys
import uuid
from datetime import UTC, datetime

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from courses.models import CourseCopy  # noqa: E402
from courses.services import copy_get_or_create, course_load, note_save  # noqa: E402
from practice import services  # noqa: E402
from practice.review.models import ReviewItem  # noqa: E402
from tests.answers import right_answer, wrong_answer  # noqa: E402
from tests.conftest import FIXTURE_COURSE_DIR  # noqa: E402

USERNAME = "backup-learner"
# Due long ago: the queue shows the items as due, the same on every later day.
DUE = datetime(2026, 1, 1, 6, 0, tzinfo=UTC)
_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def populate() -> None:
    """Make a learner with a copy, attempts (right and wrong), a note and due review items."""
    version = course_load(directory=FIXTURE_COURSE_DIR).version
    user = get_user_model().objects.create_user(
        username=USERNAME, email="backup@example.org", password="violet-harbour-tangent-42"
    )
    copy = copy_get_or_create(user=user, course_slug=version.course.slug)
    for kind in ("weighted_sum", "contrast", "lookup"):
        idea = "one-row" if kind == "lookup" else "weighted-sum"
        problem = services.problem_open(
            copy=copy, page_slug="first-page", idea_slug=idea, kind=kind
        )
        for text in (wrong_answer(problem)[1], right_answer(problem)):
            services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())
    note_save(copy=copy, page_slug="first-page", text="Keep the self term: w_ii x_i.")
    ReviewItem.objects.filter(copy=copy).update(due=DUE)


def snapshot() -> dict:
    """Return what the app serves the learner: both exports, history and the review queue."""
    setup_test_environment()  # the test client's host
    user = get_user_model().objects.get(username=USERNAME)
    copy = CourseCopy.objects.get(owner=user)
    client = Client()
    client.force_login(user)

    def page(name: str) -> str:
        response = client.get(reverse(name, kwargs={"copy_id": copy.pk}))
        assert response.status_code == 200, (name, response.status_code)
        return _TOKEN.sub("<token>", response.content.decode())

    def export(name: str) -> dict:
        data = client.get(reverse(name, kwargs={"copy_id": copy.pk})).json()
        data.pop("exported_at", None)
        return data

    return {
        "copy": export("practice:export"),
        "review": export("review:export"),
        "history": page("practice:history"),
        "queue": page("review:queue"),
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["populate"]:
        populate()
    elif sys.argv[1:] == ["snapshot"]:
        json.dump(snapshot(), sys.stdout)
    else:
        sys.exit("usage: python -m tests.deploy.backup_probe populate|snapshot")
