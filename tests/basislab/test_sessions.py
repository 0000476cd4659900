"""Sessions on Django's standard engine: cached database sessions by default (read from the
cache, kept in the table too), ended for good at sign-out; and the sign-in on Django's
ModelBackend, a refused password checked once and reported once."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, signals
from django.contrib.auth.hashers import check_password
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from basislab.accounts.services import SIGN_IN_BACKEND
from tests.conftest import TEST_PASSWORD


def _signed_in(learner) -> tuple[Client, str]:
    client = Client()
    client.post(reverse("login"), {"username": learner.username, "password": TEST_PASSWORD})
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_default_engine_is_djangos_cached_db_and_the_backend_djangos():
    from basislab import settings as production

    engine = "django.contrib.sessions.backends.cached_db"
    assert production.SESSION_ENGINE == settings.SESSION_ENGINE == engine
    assert production.AUTHENTICATION_BACKENDS == [
        "axes.backends.AxesStandaloneBackend",
        SIGN_IN_BACKEND,
    ]


def test_a_signed_in_session_is_read_from_the_cache_without_a_statement(learner):
    client, key = _signed_in(learner)
    assert client.session["_auth_user_backend"] == SIGN_IN_BACKEND
    assert Session.objects.filter(session_key=key).exists()  # kept in the table too
    with CaptureQueriesContext(connection) as captured:
        data = SessionStore(key).load()
    assert data["_auth_user_id"] == str(learner.pk)
    assert captured.captured_queries == []


def test_a_session_the_cache_lost_is_read_back_from_the_table(learner):
    client, _key = _signed_in(learner)
    caches[settings.SESSION_CACHE_ALIAS].clear()
    assert client.get(reverse("courses:dashboard")).context["user"] == learner


def test_an_expired_session_signs_nobody_in(learner):
    _client, key = _signed_in(learner)
    caches[settings.SESSION_CACHE_ALIAS].clear()
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = key
    assert replay.session.get("_auth_user_id") is None


def test_sign_out_ends_the_session_in_the_table_and_the_cache(learner):
    client, key = _signed_in(learner)
    client.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()
    assert SessionStore(key).load() == {}
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = key
    assert replay.session.get("_auth_user_id") is None


def test_an_inactive_user_is_signed_out_at_the_next_request(learner):
    client, _key = _signed_in(learner)
    learner.is_active = False
    learner.save(update_fields=["is_active"])
    assert not client.get(reverse("courses:dashboard")).context["user"].is_authenticated


def test_a_refused_password_is_checked_once_and_reported_once(learner, monkeypatch):
    checked, failed = [], []
    model = get_user_model()

    def counting_check(self, raw_password):
        checked.append(raw_password)
        return check_password(raw_password, self.password)

    monkeypatch.setattr(model, "check_password", counting_check)

    def on_failed(**kwargs):
        failed.append(kwargs["credentials"]["username"])

    signals.user_login_failed.connect(on_failed)
    try:
        response = Client().post(
            reverse("login"), {"username": learner.username, "password": "not-the-password"}
        )
    finally:
        signals.user_login_failed.disconnect(on_failed)
    assert response.status_code == 200  # the form again, with its error
    assert response.context["form"].errors
    assert (checked, failed) == (["not-the-password"], [learner.username])
