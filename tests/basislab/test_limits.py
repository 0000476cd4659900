"""Limits on free actions: sign-up per address, password reset per address and per email."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "quiet-lantern-orbit-77"


def sign_up(client: Client, n: int, **extra):
    data = {
        "username": f"newcomer{n}",
        "email": f"newcomer{n}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("signup"), data, **extra)


def test_sign_ups_from_one_address_stop_at_the_limit_with_a_polite_429(settings):
    settings.ACCOUNTS_SIGNUP_RATE = "3/h"
    statuses = [sign_up(Client(), n).status_code for n in range(5)]

    assert statuses == [302, 302, 302, 429, 429]
    assert get_user_model().objects.count() == 3
    refused = sign_up(Client(), 9)
    html = refused.content.decode()
    assert "Please wait a little" in html
    assert "Please wait an hour and try again" in html
    assert not get_user_model().objects.filter(username="newcomer9").exists()


def test_the_sign_up_limit_is_per_address(settings):
    settings.ACCOUNTS_SIGNUP_RATE = "1/h"
    assert sign_up(Client(REMOTE_ADDR="192.0.2.1"), 1).status_code == 302
    assert sign_up(Client(REMOTE_ADDR="192.0.2.1"), 2).status_code == 429

    assert sign_up(Client(REMOTE_ADDR="192.0.2.2"), 3).status_code == 302


def test_the_sign_up_limit_has_a_default_setting():
    from basislab import settings as production

    assert production.ACCOUNTS_SIGNUP_RATE == "10/h"
    assert production.ACCOUNTS_PASSWORD_RESET_RATE == "10/h"
    assert production.ACCOUNTS_PASSWORD_RESET_EMAIL_RATE == "3/h"
    assert production.PRACTICE_VARIANT_RATE == "30/h"


def _without_csrf(response) -> str:
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", response.content.decode())


def reset(client: Client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


def test_password_resets_from_one_address_stop_at_the_limit(settings, learner):
    settings.ACCOUNTS_PASSWORD_RESET_RATE = "3/h"
    settings.ACCOUNTS_PASSWORD_RESET_EMAIL_RATE = "100/h"
    client = Client()
    statuses = [reset(client, f"someone{n}@example.org").status_code for n in range(3)]
    refused = reset(client, learner.email)

    assert statuses == [302, 302, 302]
    assert refused.status_code == 429
    assert mail.outbox == []  # none of the three addresses has an account, the fourth is refused
    assert "Please wait a little" in refused.content.decode()


def test_password_resets_for_one_email_stop_at_the_limit_whatever_the_address(settings, learner):
    settings.ACCOUNTS_PASSWORD_RESET_EMAIL_RATE = "2/h"
    statuses = [
        reset(Client(REMOTE_ADDR=f"192.0.2.{n}"), learner.email.upper()).status_code
        for n in range(1, 5)
    ]

    assert statuses == [302, 302, 429, 429]
    assert len(mail.outbox) == 2


def test_a_limited_reset_reveals_nothing_about_whether_an_account_exists(settings, learner):
    settings.ACCOUNTS_PASSWORD_RESET_EMAIL_RATE = "1/h"
    known = [reset(Client(), learner.email) for _ in range(2)]
    unknown = [reset(Client(), "nobody@example.org") for _ in range(2)]

    assert [r.status_code for r in known] == [r.status_code for r in unknown] == [302, 429]
    assert _without_csrf(known[1]) == _without_csrf(unknown[1])
    assert len(mail.outbox) == 1
