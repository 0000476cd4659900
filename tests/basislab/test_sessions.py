"""The default session engine (basislab.sessions): Django's database sessions, read through a
statement built once per process, with the expiry checked on the row."""

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from basislab.sessions import SessionStore
from tests.conftest import TEST_PASSWORD


def _signed_in(learner) -> tuple[Client, str]:
    client = Client()
    client.post(reverse("login"), {"username": learner.username, "password": TEST_PASSWORD})
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_default_engine_is_the_prepared_one():
    from basislab import settings as production

    assert production.SESSION_ENGINE == "basislab.sessions"
    assert settings.SESSION_ENGINE == "basislab.sessions"


def test_a_signed_in_session_is_read_in_one_statement_by_its_key(learner):
    _client, key = _signed_in(learner)
    with CaptureQueriesContext(connection) as captured:
        data = SessionStore(key).load()
    assert data["_auth_user_id"] == str(learner.pk)
    assert len(captured.captured_queries) == 1
    assert key in captured.captured_queries[0]["sql"]


def test_an_expired_or_unknown_session_signs_nobody_in_and_drops_its_key(learner):
    _client, key = _signed_in(learner)
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(key)
    assert expired.load() == {}
    assert expired.session_key is None
    unknown = SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = key
    assert replay.session.get("_auth_user_id") is None


def test_a_session_a_moment_from_expiry_still_signs_in(learner):
    _client, key = _signed_in(learner)
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() + timedelta(seconds=30)
    )
    assert SessionStore(key).load()["_auth_user_id"] == str(learner.pk)


def test_sign_out_ends_the_session_for_a_replayed_cookie(learner):
    client, key = _signed_in(learner)
    client.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = key
    assert replay.session.get("_auth_user_id") is None
