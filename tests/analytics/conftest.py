"""Fixtures for the analytics tests (learners and the mini course come from tests/conftest.py)."""

import pytest


@pytest.fixture
def staff(make_user):
    user = make_user(username="author")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user
