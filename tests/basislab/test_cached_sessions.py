"""Sessions read through the cache (SESSION_ENGINE cached_db): signing out still ends them."""

from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.conftest import TEST_PASSWORD

CACHED_DB = "django.contrib.sessions.backends.cached_db"


def _signed_in_as(cookie: str, settings) -> str | None:
    """Return the user id a replayed session cookie signs in as, or None."""
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = cookie
    return replay.session.get("_auth_user_id")


def test_sign_out_ends_a_cached_session_for_a_replayed_cookie_too(settings, learner):
    settings.SESSION_ENGINE = CACHED_DB
    client = Client()
    client.post(reverse("login"), {"username": learner.username, "password": TEST_PASSWORD})
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert _signed_in_as(cookie, settings) == str(learner.pk)
    assert cache.get(f"django.contrib.sessions.cached_db{cookie}") is not None

    client.post(reverse("logout"))

    # Gone from the cache and the table alike: the old cookie signs nobody in.
    assert cache.get(f"django.contrib.sessions.cached_db{cookie}") is None
    assert not Session.objects.filter(session_key=cookie).exists()
    assert _signed_in_as(cookie, settings) is None
