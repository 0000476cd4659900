"""Changing the email address needs the password and a link opened from the new address."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from basislab.accounts.tokens import email_change_token
from tests.conftest import TEST_PASSWORD

pytestmark = pytest.mark.django_db

NEW = "ada.new@example.org"


def _ask(client, email=NEW, password=TEST_PASSWORD):
    return client.post(reverse("email_change"), {"new_email": email, "password": password})


def _link() -> str:
    return re.search(r"https?://[^/\s]+(/accounts/email/confirm/\S+/)", mail.outbox[-1].body)[1]


def test_the_address_changes_only_when_the_link_from_the_new_address_is_opened(
    learner, learner_client, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://learn.example.org"
    asked = _ask(learner_client)

    assert asked.status_code == 302
    learner.refresh_from_db()
    assert learner.email == "ada@example.org"  # not yet
    assert [m.to for m in mail.outbox] == [[NEW]]
    assert "https://learn.example.org/accounts/email/confirm/" in mail.outbox[0].body

    link = _link()
    with django_capture_on_commit_callbacks(execute=True):
        opened = learner_client.get(link, follow=True)

    assert "Your email address is now ada.new@example.org." in opened.content.decode()
    learner.refresh_from_db()
    assert learner.email == NEW
    # The old address is told.
    assert mail.outbox[-1].to == ["ada@example.org"]
    assert NEW in mail.outbox[-1].body
    # The link worked once.
    again = learner_client.get(link, follow=True)
    assert "That link is not valid any more" in again.content.decode()


def test_a_wrong_password_sends_nothing(learner, learner_client):
    response = _ask(learner_client, password="not-it")

    assert response.status_code == 200
    assert "That is not your password." in response.content.decode()
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("grace@example.org", "An account with this email already exists."),
        ("ADA@example.org", "That is already your address."),
        ("not an address", "Enter a valid email address."),
    ],
)
def test_an_unusable_address_is_refused_with_a_reason(
    learner, other_learner, learner_client, email, message
):
    response = _ask(learner_client, email=email)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert mail.outbox == []


def test_a_link_is_refused_for_another_account_or_when_forged(
    learner, other_learner, client_for, learner_client
):
    _ask(learner_client)
    link = _link()

    grace = client_for(other_learner)
    refused = grace.get(link, follow=True)
    assert "That link is not valid any more" in refused.content.decode()
    other_learner.refresh_from_db()
    assert other_learner.email == "grace@example.org"

    forged = learner_client.get(link.replace(link.split("/")[-2], "x" + link.split("/")[-2][1:]))
    assert forged.status_code == 302
    learner.refresh_from_db()
    assert learner.email == "ada@example.org"


def test_an_address_taken_since_the_link_was_sent_is_refused(learner, learner_client, make_user):
    token = email_change_token(user=learner, new_email=NEW)
    make_user(username="quick", email=NEW)

    response = learner_client.get(
        reverse("email_change_confirm", kwargs={"token": token}), follow=True
    )

    assert "Another account now uses that address" in response.content.decode()
    learner.refresh_from_db()
    assert learner.email == "ada@example.org"


def test_links_are_limited_per_learner(learner, learner_client, settings):
    settings.ACCOUNTS_EMAIL_CHANGE_RATE = "2/h"
    for n in range(2):
        assert _ask(learner_client, email=f"ada{n}@example.org").status_code == 302

    third = _ask(learner_client, email="ada9@example.org")

    assert third.status_code == 429
    assert len(mail.outbox) == 2


def test_an_anonymous_visitor_is_sent_to_sign_in(client):
    assert client.get(reverse("email_change")).status_code == 302
