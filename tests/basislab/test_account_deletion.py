"""A learner deletes their own account: the password again, the export offered first, then
everything of theirs gone in one transaction, every session ended, a confirmation mailed.

The check afterwards walks every model Django knows (``apps.get_models()``), so a model added
later (by any app) is covered without being named here: no row may keep the learner's id in a
key to the user, nor their username or email in any text, and no session may still be theirs.
"""

import datetime
import uuid
from importlib import import_module

import pytest
from axes.models import AccessAttempt, AccessLog
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.db import models
from django.urls import reverse
from django.utils import timezone

from basislab.accounts.services import account_delete
from courses.services import copy_get_or_create, note_save
from practice import services
from practice.review.models import ReviewDigest, ReviewItem, ReviewLog
from practice.review.services.review_settings import review_settings_get_or_create
from tests.answers import wrong_answer
from tests.conftest import TEST_PASSWORD

pytestmark = pytest.mark.django_db

# Distinctive, so a substring search over every text column finds only this learner.
NAME = "zq-leaving-7731"
EMAIL = "zq-leaving-7731@example.org"


def _rich_learner(make_user, client_for, course, staff_user):
    """Return a learner with everything a learner can have, and two signed-in clients."""
    user = make_user(username=NAME, email=EMAIL)
    copy = copy_get_or_create(user=user, course_slug=course.course.slug)
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    services.attempt_submit(
        copy=copy, problem=problem, text=wrong_answer(problem)[1], token=uuid.uuid4()
    )
    note_save(copy=copy, page_slug="first-page", text=f"my note, {NAME}")
    review_settings_get_or_create(user_id=user.pk)
    ReviewDigest.objects.create(
        user=user, day=datetime.date(2026, 1, 5), due_count=1, sent_at=timezone.now()
    )
    LogEntry.objects.log_actions(
        user_id=staff_user.pk,
        queryset=[user],
        action_flag=CHANGE,
        change_message="made a note about this learner",
        single_object=True,
    )
    # Sign-in records django-axes keeps by username: a failure from another address.
    client_for(staff_user).post(reverse("logout"))
    from django.test import Client

    Client(REMOTE_ADDR="192.0.2.7").post(reverse("login"), {"username": NAME, "password": "not-it"})
    phone, laptop = client_for(user), client_for(user)
    return user, copy, phone, laptop


@pytest.fixture
def staff_user(make_user):
    user = make_user(username="operator-x")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def _user_keys(model) -> list[str]:
    user_model = get_user_model()
    return [
        f.attname
        for f in model._meta.concrete_fields
        if f.is_relation and f.related_model is user_model
    ]


def _text_fields(model) -> list[str]:
    kinds = (models.CharField, models.TextField, models.JSONField, models.GenericIPAddressField)
    return [f.attname for f in model._meta.concrete_fields if isinstance(f, kinds)]


def _traces(pk: int) -> list[str]:
    """Return every place in the database that still names the learner."""
    found = []
    for model in apps.get_models():
        label = model._meta.label
        for key in _user_keys(model):
            if model.objects.filter(**{key: pk}).exists():
                found.append(f"{label}.{key} = {pk}")
        texts = _text_fields(model)
        if texts:
            for row in model.objects.values_list(*texts):
                for name, value in zip(texts, row, strict=True):
                    if value is not None and (NAME in str(value) or EMAIL in str(value)):
                        found.append(f"{label}.{name} names the learner")
        if model is Session:
            for session in Session.objects.all():
                if session.get_decoded().get("_auth_user_id") == str(pk):
                    found.append(f"session {session.pk} is signed in as the learner")
    return found


def test_a_learner_deletes_everything_of_theirs_with_their_password(
    make_user, client_for, course, staff_user, other_learner, django_capture_on_commit_callbacks
):
    user, copy, phone, laptop = _rich_learner(make_user, client_for, course, staff_user)
    pk = user.pk
    other_copy = copy_get_or_create(user=other_learner, course_slug=course.course.slug)
    note_save(copy=other_copy, page_slug="first-page", text="someone else's note")
    # Everything is there first: the walk below would find it.
    assert ReviewItem.objects.filter(copy=copy).exists()
    assert ReviewLog.objects.filter(item__copy=copy).exists()
    assert AccessAttempt.objects.filter(username=NAME).exists()
    assert AccessLog.objects.filter(username=NAME).exists()
    before = _traces(pk)
    assert len(before) >= 8, before

    page = laptop.get(reverse("account_delete"))
    html = page.content.decode()
    assert reverse("practice:export", kwargs={"copy_id": copy.pk}) in html  # export first
    assert html.index("/export/") < html.index('type="password"')

    wrong = laptop.post(reverse("account_delete"), {"password": "not-my-password"})
    assert wrong.status_code == 200
    assert "That is not your password." in wrong.content.decode()
    assert get_user_model().objects.filter(pk=pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        done = laptop.post(reverse("account_delete"), {"password": TEST_PASSWORD}, follow=True)

    assert done.redirect_chain[-1][0] == reverse("home")
    assert "Your account and everything in it are deleted" in done.content.decode()
    assert _traces(pk) == []
    # Every session ended: the other device is signed out too.
    for client in (phone, laptop):
        response = client.get(reverse("courses:dashboard"))
        assert "_auth_user_id" not in client.session
        assert response.status_code in (200, 302)
    assert phone.get(reverse("account_settings")).status_code == 302
    # A confirmation went to the address the account had.
    assert [m.to for m in mail.outbox] == [[EMAIL]]
    assert "was deleted" in mail.outbox[0].body
    # Nothing of anyone else went.
    assert other_copy.notes.filter(text="someone else's note").exists()
    assert get_user_model().objects.filter(pk=other_learner.pk).exists()
    assert get_user_model().objects.filter(pk=staff_user.pk).exists()


def test_the_deletion_is_one_transaction(
    make_user, client_for, course, staff_user, monkeypatch, django_capture_on_commit_callbacks
):
    user, _copy, _phone, laptop = _rich_learner(make_user, client_for, course, staff_user)
    before = _traces(user.pk)

    def fail(*args, **kwargs):
        raise RuntimeError("the database went away")

    # The last step fails: everything before it is rolled back and no email goes.
    monkeypatch.setattr(type(user), "delete", fail)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        account_delete(user=user)

    assert callbacks == []
    assert _traces(user.pk) == before
    assert mail.outbox == []
    assert laptop.get(reverse("account_settings")).status_code == 200  # still signed in


def test_deletion_needs_a_signed_in_learner_and_a_post(client, learner_client):
    assert client.get(reverse("account_delete")).status_code == 302
    assert client.post(reverse("account_delete"), {"password": TEST_PASSWORD}).status_code == 302
    assert learner_client.put(reverse("account_delete")).status_code == 405


def test_the_settings_page_leads_to_every_account_action(learner_client, course_copy):
    html = learner_client.get(reverse("account_settings")).content.decode()

    for name in ("email_change", "password_change", "account_delete", "review:settings"):
        assert f'href="{reverse(name)}"' in html, name
    assert reverse("practice:export", kwargs={"copy_id": course_copy.pk}) in html
    assert reverse("review:export", kwargs={"copy_id": course_copy.pk}) in html
    # The header's username leads here.
    assert (
        f'href="{reverse("account_settings")}"'
        in learner_client.get(reverse("home")).content.decode()
    )


# Django's four standard engines, and the one the settings choose.
ENGINES = sorted(
    {
        "django.contrib.sessions.backends.db",
        "django.contrib.sessions.backends.cached_db",
        "django.contrib.sessions.backends.cache",
        "django.contrib.sessions.backends.signed_cookies",
    }
    | {django_settings.SESSION_ENGINE}
)


@pytest.mark.parametrize("engine", ENGINES)
def test_deletion_ends_every_session_under_each_session_engine(
    engine, settings, make_user, client_for, django_capture_on_commit_callbacks
):
    settings.SESSION_ENGINE = engine
    store = import_module(engine).SessionStore
    user = make_user(username=NAME, email=EMAIL)
    pk = user.pk
    phone, laptop = client_for(user), client_for(user)
    phone_key = phone.cookies[settings.SESSION_COOKIE_NAME].value
    assert phone.get(reverse("account_settings")).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        done = laptop.post(reverse("account_delete"), {"password": TEST_PASSWORD}, follow=True)

    assert done.redirect_chain[-1][0] == reverse("home")
    assert not get_user_model().objects.filter(pk=pk).exists()
    assert [m.to for m in mail.outbox] == [[EMAIL]]
    # The other device is signed out on its next request.
    assert phone.get(reverse("account_settings")).status_code == 302
    if hasattr(store, "get_model_class"):  # stored in the table: none is left, cache copy too
        assert not store().exists(phone_key)
        assert not Session.objects.exists()
    # An account that gets the deleted one's id again is not signed in by the old session:
    # its password hash, and so its session hash, differ.
    again = get_user_model().objects.create_user(
        pk=pk, username="someone-new", email="new@example.org", password=TEST_PASSWORD
    )
    assert again.pk == pk
    response = phone.get(reverse("account_settings"))
    assert response.status_code == 302
    assert "someone-new" not in phone.get(reverse("home")).content.decode()
