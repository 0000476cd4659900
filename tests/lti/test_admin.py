"""Platforms are registered in the admin; the tool's private keys are never shown there."""

import pytest
from django.urls import reverse

from lti.keys import signing_key
from lti.models import Platform


@pytest.mark.parametrize(
    "model", ["platform", "toolkey", "ltiuser", "context", "resourcelink", "score"]
)
def test_admin_lists_lti_models(admin_client, model):
    assert admin_client.get(reverse(f"admin:lti_{model}_changelist")).status_code == 200


def test_a_platform_and_its_deployment_are_added_in_the_admin(admin_client):
    response = admin_client.post(
        reverse("admin:lti_platform_add"),
        {
            "name": "Moodle",
            "issuer": "https://moodle.example.edu",
            "client_id": "abc",
            "auth_login_url": "https://moodle.example.edu/mod/lti/auth.php",
            "auth_token_url": "https://moodle.example.edu/mod/lti/token.php",
            "key_set_url": "https://moodle.example.edu/mod/lti/certs.php",
            "frame_origins": "",
            "active": "on",
            "deployments-TOTAL_FORMS": "1",
            "deployments-INITIAL_FORMS": "0",
            "deployments-MIN_NUM_FORMS": "0",
            "deployments-MAX_NUM_FORMS": "1000",
            "deployments-0-deployment_id": "1",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    platform = Platform.objects.get()
    assert list(platform.deployments.values_list("deployment_id", flat=True)) == ["1"]


def test_the_private_key_is_not_shown(admin_client):
    key = signing_key()
    page = admin_client.get(reverse("admin:lti_toolkey_change", args=[key.pk])).content.decode()
    assert key.kid in page
    assert "PRIVATE KEY" not in page
    assert admin_client.get(reverse("admin:lti_toolkey_add")).status_code == 403
