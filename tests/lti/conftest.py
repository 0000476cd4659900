"""Fixtures for the LTI tests: an independent platform on loopback, registered with the tool,
and a launch through the Django test client (login, the platform's answer, the post)."""

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from basislab.celery import app as celery_app
from lti.models import Deployment
from lti.models import Platform as PlatformRow

from .platform import Platform

TOOL = "http://testserver"


@pytest.fixture
def platform(db, course) -> Iterator[Platform]:
    """Start a platform, register it with the tool (as the management command would)."""
    running = Platform().start()
    running.tool_launch_url = f"{TOOL}/lti/launch/"
    running.tool_login_url = f"{TOOL}/lti/login/"
    row = PlatformRow.objects.create(
        name="Test platform",
        issuer=running.issuer,
        client_id=running.client_id,
        auth_login_url=f"{running.url}/auth",
        auth_token_url=f"{running.url}/token",
        key_set_url=f"{running.url}/jwks",
    )
    Deployment.objects.create(platform=row, deployment_id=running.deployment_id)
    running.row = row
    # The platform learns the tool's keys from the tool's JWKS endpoint.
    running.tool_jwks = Client().get("/lti/jwks/").json()
    yield running
    running.stop()


@pytest.fixture
def admin_client(db) -> Client:
    """A signed-in superuser (the site's operator) in the admin."""
    user = get_user_model().objects.create_superuser(
        username="operator", email="operator@example.org", password="x-long-admin-pass-1"
    )
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture(autouse=True)
def eager_celery() -> Iterator[None]:
    """Run tasks in the calling thread (retries too, without waiting): nothing is left in a
    broker by these tests."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def login_step(
    client: Client, platform: Platform, *, sub: str, iss: str | None = None, secure: bool = False
):
    """Start the tool's OIDC login as the platform would; return the login response."""
    return client.post(
        "/lti/login/",
        {
            "iss": iss or platform.issuer,
            "login_hint": sub,
            "target_link_uri": platform.tool_launch_url,
            "client_id": platform.client_id,
        },
        secure=secure,
    )


def auth_params(response) -> dict[str, str]:
    """Return the query of the tool's redirect to the platform's authorization endpoint."""
    assert response.status_code == 302, response.content[:500]
    return {k: v[0] for k, v in parse_qs(urlsplit(response["Location"]).query).items()}


def launch(
    client: Client,
    platform: Platform,
    *,
    sub: str = "student-1",
    edit=None,
    token: str | None = None,
    **claims: Any,
):
    """Run a whole launch: login, then post the id token the platform signs for its nonce.

    ``edit(body)`` may change the claims before signing. Returns (response, token, state).
    """
    params = auth_params(login_step(client, platform, sub=sub))
    body = platform.claims(sub=sub, nonce=params["nonce"], **claims)
    if edit is not None:
        edit(body)
    token = token or platform.sign(body)
    response = client.post("/lti/launch/", {"id_token": token, "state": params["state"]})
    return response, token, params["state"]
