"""The sign-in backend (basislab/accounts/backends.py): Django's ModelBackend with the user read
prepared, a refused password checked once and reported once, and sessions signed in by Django's
own backend still signed in."""

from django.conf import settings
from django.contrib.auth import get_user_model, signals
from django.contrib.auth.hashers import check_password
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from basislab.accounts.backends import SIGN_IN_BACKEND, ModelBackend
from tests.conftest import TEST_PASSWORD

DJANGOS = "django.contrib.auth.backends.ModelBackend"


def test_it_comes_before_djangos_which_stays_for_older_sessions():
    backends = settings.AUTHENTICATION_BACKENDS
    assert backends.index(SIGN_IN_BACKEND) == backends.index(DJANGOS) - 1


def test_signing_in_records_this_backend_and_a_request_reads_the_user_in_one_statement(learner):
    client = Client()
    client.post(reverse("login"), {"username": learner.username, "password": TEST_PASSWORD})
    assert client.session["_auth_user_backend"] == SIGN_IN_BACKEND
    with CaptureQueriesContext(connection) as captured:
        user = ModelBackend().get_user(learner.pk)
    assert user == learner and user.username == learner.username
    assert len(captured.captured_queries) == 1
    assert client.get(reverse("courses:dashboard")).context["user"] == learner


def test_an_inactive_or_missing_user_is_nobody(learner):
    backend = ModelBackend()
    assert backend.get_user(learner.pk + 1000) is None
    learner.is_active = False
    learner.save(update_fields=["is_active"])
    assert backend.get_user(learner.pk) is None


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


def test_a_session_signed_in_by_djangos_backend_still_signs_in(learner):
    client = Client()
    client.force_login(learner, backend=DJANGOS)
    assert client.session["_auth_user_backend"] == DJANGOS
    assert client.get(reverse("courses:dashboard")).context["user"] == learner
