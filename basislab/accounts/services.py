"""Write paths for accounts."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction


def user_create(*, username: str, email: str, password: str) -> AbstractUser:
    """Create an active learner account with a hashed password (Argon2 in production)."""
    with transaction.atomic():
        return get_user_model().objects.create_user(
            username=username, email=email, password=password
        )
