"""Accounts: sign up, sign in and out, throttled failures, password reset by email."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from courses.models import CourseCopy
from tests.conftest import TEST_PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "quiet-lantern-orbit-77"


def sign_up(client, **overrides):
    data = {
        "username": "newcomer",
        "email": "newcomer@example.org",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
        **overrides,
    }
    return client.post(reverse("signup"), data)


def sign_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_home_page_says_what_this_is_and_links_to_sign_up_and_in(client):
    html = client.get(reverse("home")).content.decode()

    assert "How Text Becomes Numbers" in html
    assert "Marked with reasons" in html
    assert "Reviewed on a schedule" in html
    assert f'href="{reverse("signup")}"' in html
    assert f'href="{reverse("login")}"' in html


def test_home_page_links_a_signed_in_learner_to_their_course(learner_client):
    html = learner_client.get(reverse("home")).content.decode()

    assert "Go to your course" in html
    assert f'href="{reverse("courses:dashboard")}"' in html


def test_sign_up_leads_to_the_dashboard_with_a_new_copy(client, course):
    response = sign_up(client)

    assert response.status_code == 302
    assert response.url == reverse("courses:dashboard")
    dashboard = client.get(response.url)
    assert dashboard.status_code == 200
    assert "The First Page" in dashboard.content.decode()
    user = get_user_model().objects.get(username="newcomer")
    assert user.email == "newcomer@example.org"
    assert user.check_password(NEW_PASSWORD)
    assert CourseCopy.objects.filter(owner=user, version=course).exists()


def test_sign_up_hashes_with_argon2_when_configured(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]

    sign_up(client)

    assert get_user_model().objects.get(username="newcomer").password.startswith("argon2$")


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"password2": "something-else-entirely"}, "password fields didn"),
        ({"email": ""}, "This field is required"),
        ({"email": "not-an-address"}, "valid email address"),
        ({"password1": "12345678", "password2": "12345678"}, "too common"),
    ],
    ids=["passwords differ", "no email", "bad email", "weak password"],
)
def test_sign_up_refuses_bad_input(client, overrides, error):
    response = sign_up(client, **overrides)

    assert response.status_code == 200
    assert error in response.content.decode().replace("&#x27;", "'")
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_sign_up_refuses_a_taken_username_or_email(client, learner):
    taken_name = sign_up(client, username=learner.username)
    taken_email = sign_up(client, email=learner.email.upper())

    assert "already exists" in taken_name.content.decode()
    assert "An account with this email already exists." in taken_email.content.decode()
    assert get_user_model().objects.count() == 1


def test_sign_in_and_sign_out_by_post(client, learner):
    response = sign_in(client, learner.username, TEST_PASSWORD)
    assert response.status_code == 302
    assert response.url == reverse("courses:dashboard")

    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert "_auth_user_id" not in client.session


def test_wrong_password_is_refused_with_the_form_again(client, learner):
    response = sign_in(client, learner.username, "wrong-password")

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_after_five_failures_the_sixth_sign_in_is_refused_with_a_clear_page(
    client, learner, settings
):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(4):
        assert sign_in(client, learner.username, "wrong-password").status_code == 200

    fifth_failure = sign_in(client, learner.username, "wrong-password")
    sixth_even_with_the_right_password = sign_in(client, learner.username, TEST_PASSWORD)

    for response in (fifth_failure, sixth_even_with_the_right_password):
        assert response.status_code == 429
        html = response.content.decode()
        assert "Too many failed sign-ins" in html
        assert "Try again in 15 minutes" in html
        assert reverse("password_reset") in html
    assert "_auth_user_id" not in client.session


def test_lockout_is_per_username_so_others_still_sign_in(client, learner, other_learner):
    for _ in range(6):
        sign_in(client, learner.username, "wrong-password")

    response = sign_in(client, other_learner.username, TEST_PASSWORD)

    assert response.status_code == 302


def _reset_password_by_email(client, learner, password):
    client.post(reverse("password_reset"), {"email": learner.email})
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    return client.post(
        form_page.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )


def test_a_completed_password_reset_lifts_the_lockout_of_that_username(
    client, learner, other_learner
):
    from axes.models import AccessAttempt

    for _ in range(5):
        sign_in(client, learner.username, "wrong-password")
    for _ in range(5):
        sign_in(client, other_learner.username, "wrong-password")
    locked = sign_in(client, learner.username, TEST_PASSWORD)
    assert locked.status_code == 429
    assert "Resetting your password lifts this lock" in locked.content.decode()

    done = _reset_password_by_email(client, learner, NEW_PASSWORD)

    assert done.status_code == 302
    assert not AccessAttempt.objects.filter(username=learner.username).exists()
    assert sign_in(client, learner.username, NEW_PASSWORD).status_code == 302
    # Only that username: the other learner's lock stays until they reset too.
    assert AccessAttempt.objects.filter(username=other_learner.username).exists()
    client.post(reverse("logout"))
    assert sign_in(client, other_learner.username, TEST_PASSWORD).status_code == 429


def test_a_refused_new_password_lifts_nothing(client, learner):
    from axes.models import AccessAttempt

    for _ in range(5):
        sign_in(client, learner.username, "wrong-password")

    refused = _reset_password_by_email(client, learner, "123")

    assert refused.status_code == 200  # the form again, with the validators' reasons
    assert AccessAttempt.objects.filter(username=learner.username).exists()
    assert sign_in(client, learner.username, TEST_PASSWORD).status_code == 429


def test_password_reset_by_email(client, learner, settings):
    settings.SITE_URL = "https://learn.example.org"
    response = client.post(reverse("password_reset"), {"email": learner.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [learner.email]
    # Addressed by SITE_URL, as every email is, not by the request's host (testserver).
    assert "testserver" not in message.body
    link = re.search(r"https://learn\.example\.org(/accounts/reset/\S+/)", message.body).group(1)

    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert done.status_code == 302
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)
    assert sign_in(client, learner.username, NEW_PASSWORD).status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, learner):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)

    assert "Check your email" in response.content.decode()
    assert mail.outbox == []


def test_signing_out_says_so_once_on_a_private_home_page(client_for, learner, course):
    client = client_for(learner)
    response = client.post("/accounts/logout/", follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert "You are signed out." in response.content.decode()
    # The message is this visitor's alone: that response is never cached as public.
    assert "private" in response["Cache-Control"]
    again = client.get("/")
    assert "You are signed out." not in again.content.decode()
    assert "public" in again["Cache-Control"]


def test_a_forged_host_never_reaches_the_reset_link(client, learner, settings):
    settings.SITE_URL = "https://learn.example.org"
    settings.ALLOWED_HOSTS = ["learn.example.org", "evil.example"]
    client.post(reverse("password_reset"), {"email": learner.email}, HTTP_HOST="evil.example")
    assert "evil.example" not in mail.outbox[0].body
    assert "https://learn.example.org/accounts/reset/" in mail.outbox[0].body
