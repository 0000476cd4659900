"""Write paths for accounts."""

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction


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
