"""Write paths for accounts: create, change the email address, delete, lift a lockout."""

from importlib import import_module

from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AbstractUser
from django.contrib.contenttypes.models import ContentType
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from basislab.site import site_url

from .tokens import email_change_token

# The backend a sign-in made without a password (an LTI launch, the tests) records in the
# session: Django's, the one of AUTHENTICATION_BACKENDS that reads users (axes' only guards).
SIGN_IN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class EmailTakenError(ValueError):
    """Raised when the address an email change asks for is already another account's."""


def user_create(*, username: str, email: str, password: str) -> AbstractUser:
    """Create an active learner account with a hashed password (Argon2 in production)."""
    with transaction.atomic():
        return get_user_model().objects.create_user(
            username=username, email=email, password=password
        )


def lockout_lift(*, username: str) -> int:
    """Remove every sign-in lockout and failure count for ``username`` (from any address).

    Called when a password reset completes: whoever chose the new password holds the account's
    email, so the lockout has done its work (it slows guessing; it is not a ban). Returns how
    many records were removed.
    """
    return AxesProxyHandler.reset_attempts(username=username)


def email_change_request(*, user: AbstractBaseUser, new_email: str) -> None:
    """Mail a confirmation link to ``new_email``; the account's address is not changed yet.

    The caller has checked the password and that no other account has the address.
    """
    token = email_change_token(user=user, new_email=new_email)
    context = {
        "username": user.get_username(),
        "link": site_url(reverse("email_change_confirm", kwargs={"token": token})),
    }
    send_mail(
        subject=_("Confirm your new email address for Basis Lab Practice"),
        message=render_to_string("registration/email_change_email.txt", context),
        from_email=None,
        recipient_list=[new_email],
    )


def email_change_confirm(*, user: AbstractBaseUser, new_email: str) -> None:
    """Give the account its new, confirmed address and tell the old one (after commit).

    Locks the user row. Raises ``EmailTakenError`` when another account took the address
    since the link was sent.
    """
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        taken = get_user_model().objects.filter(email__iexact=new_email).exclude(pk=locked.pk)
        if taken.exists():
            raise EmailTakenError(new_email)
        old_email = locked.email
        locked.email = new_email
        locked.save(update_fields=["email"])
        user.email = new_email
        context = {"username": locked.get_username(), "new_email": new_email}
        if old_email:
            transaction.on_commit(
                lambda: send_mail(
                    subject=_("Your Basis Lab Practice email address was changed"),
                    message=render_to_string("registration/email_changed_email.txt", context),
                    from_email=None,
                    recipient_list=[old_email],
                )
            )


def account_delete(*, user: AbstractBaseUser) -> None:
    """Delete the account and everything of it, end its sessions, and mail a confirmation.

    One transaction: the user row (locked first) and, by ``on_delete=CASCADE`` from it, every
    row that belongs to the learner (course copies and through them problems, attempts, notes,
    progress, review items and logs; review settings, digests, and whatever model is added later
    with a key to the user or a copy); the sign-in records django-axes keeps by username; the
    admin's history entries about this account; and every stored session signed in as it. The
    confirmation email is sent after the commit. Staff statistics, computed from attempts, no
    longer count the deleted learner's.
    """
    user_model = get_user_model()
    with transaction.atomic():
        locked = user_model.objects.select_for_update().get(pk=user.pk)
        username, email, pk = locked.get_username(), locked.email, locked.pk
        for model in (AccessAttempt, AccessLog, AccessFailureLog):
            model.objects.filter(username=username).delete()
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(user_model), object_id=str(pk)
        ).delete()
        _sessions_end(user_pk=pk)
        locked.delete()
        if email:
            context = {"username": username, "site": site_url("/")}
            transaction.on_commit(
                lambda: send_mail(
                    subject=_("Your Basis Lab Practice account was deleted"),
                    message=render_to_string("registration/account_deleted_email.txt", context),
                    from_email=None,
                    recipient_list=[email],
                )
            )


def _sessions_end(*, user_pk: int) -> int:
    """End every stored session signed in as this user (any device) through the engine's
    ``SessionStore``; return how many were stored.

    Database-backed engines (``db``, ``cached_db`` and their subclasses) list their sessions in
    the session table: each is decoded (sessions keep the user's id inside their encoded data,
    so this is a scan, acceptable for an action as rare as deleting an account) and deleted
    through its store, which for ``cached_db`` also drops the cache's copy. Engines that cannot
    list their sessions (``cache``, ``signed_cookies``) need nothing here: a session names its
    user by id and by a hash of that user's password hash, so once the user row is gone Django
    signs it in as nobody, and an account that ever got the same id again has another password
    hash, so Django flushes the old session on sight.
    """
    engine = import_module(settings.SESSION_ENGINE)
    store = engine.SessionStore
    if not hasattr(store, "get_model_class"):
        return 0
    mine = [
        session.session_key
        for session in store.get_model_class().objects.iterator()
        if session.get_decoded().get(SESSION_KEY) == str(user_pk)
    ]
    for key in mine:
        store(session_key=key).delete()
    return len(mine)
