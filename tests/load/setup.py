"""Create signed-in learners for the load test: `python -m tests.load.setup N learners.json`.

Runs with the scratch database's settings (the caller sets DATABASE_URL). Each learner gets a
course copy and a session; the file lists the session keys, copy ids and the ideas with
problems, so Locust starts answering without signing in through the form.
"""

import json
import sys


def main(count: int, path: str) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from courses.models import Idea
    from courses.services import copy_get_or_create

    learners = []
    User = get_user_model()
    for n in range(count):
        user = User.objects.create_user(
            username=f"load-{n:03d}", email=f"load-{n:03d}@example.invalid", password=None
        )
        copy = copy_get_or_create(user=user, course_slug=settings.BASISLAB_COURSE_SLUG)
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        learners.append(
            {"session": client.cookies[settings.SESSION_COOKIE_NAME].value, "copy_id": copy.pk}
        )
    version = copy.version
    ideas = [
        {"page": idea.page.slug, "idea": idea.slug, "kind": kind}
        for idea in Idea.objects.filter(page__version=version).select_related("page")
        for kind in idea.problem_kinds
    ]
    if not ideas:
        raise SystemExit("the loaded course lists no problem kinds under any idea")
    with open(path, "w") as handle:
        cookie = settings.SESSION_COOKIE_NAME
        json.dump({"learners": learners, "ideas": ideas, "cookie": cookie}, handle)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
