"""Signed links for an email change: the new address, proven by a link sent to it.

The token signs the account's id, its current address and the new one, with a timestamp. It is
refused once the account's address is no longer the one it was made for (the change happened,
or another one did), so a link works at most once, and after ``EMAIL_CHANGE_MAX_AGE``.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing

EMAIL_CHANGE_MAX_AGE = 3 * 24 * 3600  # seconds
_SALT = "basislab.accounts.email_change"


def email_change_token(*, user: AbstractBaseUser, new_email: str) -> str:
    """Return a URL-safe signed token asking to move ``user`` to ``new_email``."""
    payload = {"user": user.pk, "old": user.email, "new": new_email}
    return signing.dumps(payload, salt=_SALT, compress=True)


def email_change_read(*, user: AbstractBaseUser, token: str) -> str | None:
    """Return the new address the token asks for, or None when it is forged, expired, made for
    another account or already used."""
    try:
        payload = signing.loads(token, salt=_SALT, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(payload, dict) or payload.get("user") != user.pk:
        return None
    if payload.get("old") != user.email or not isinstance(payload.get("new"), str):
        return None
    return payload["new"]
