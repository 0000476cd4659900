"""Launches against the independent platform: accepted, and every refusal with nothing stored."""

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from jwcrypto.jwk import JWK

from courses.models import CourseCopy
from lti.models import LaunchNonce, LinkLearner, LtiUser, Membership, ResourceLink

from .conftest import auth_params, launch, login_step
from .platform import INSTRUCTOR

IDEA = {"page": "first-page", "idea": "weighted-sum"}


def stored() -> tuple[int, ...]:
    """Count what a launch stores: users, identities, copies, memberships, links."""
    return (
        get_user_model().objects.count(),
        LtiUser.objects.count(),
        CourseCopy.objects.count(),
        Membership.objects.count(),
        ResourceLink.objects.count(),
        LinkLearner.objects.count(),
    )


def test_learner_launch_creates_a_passwordless_learner_with_a_copy(platform):
    client = Client()
    response, _, _ = launch(client, platform, sub="s-1", custom=IDEA, name="Ada L")
    assert response.status_code == 302
    assert "/ideas/weighted-sum/" in response["Location"]
    identity = LtiUser.objects.get(platform=platform.row, sub="s-1")
    assert not identity.user.has_usable_password()
    assert identity.name == "Ada L"
    assert identity.user.username.startswith("ada-l-")
    assert CourseCopy.objects.filter(owner=identity.user).count() == 1
    assert LinkLearner.objects.filter(lti_user=identity, link__idea_slug="weighted-sum").exists()
    # Signed in: the practice page it redirected to opens.
    assert client.get(response["Location"], follow=True).status_code == 200
    # A second launch of the same platform user finds the same learner.
    launch(Client(), platform, sub="s-1", custom=IDEA)
    assert LtiUser.objects.filter(sub="s-1").count() == 1


def test_an_email_in_the_claims_never_links_an_existing_account(platform, learner):
    response, _, _ = launch(Client(), platform, sub="s-2", custom=IDEA, email=learner.email)
    assert response.status_code == 302
    identity = LtiUser.objects.get(sub="s-2")
    assert identity.user != learner
    assert identity.user.email == ""


def refused(response, before, reason: str = "") -> None:
    assert response.status_code in (403, 413), response.status_code
    page = response.content.decode()
    assert "This launch was refused" in page
    assert reason in page.replace("&#x27;", "'"), page
    assert stored() == before


def test_a_replayed_id_token_is_refused(platform):
    client = Client()
    first, token, state = launch(client, platform, custom=IDEA)
    assert first.status_code == 302
    before = stored()
    again = client.post("/lti/launch/", {"id_token": token, "state": state})
    refused(again, before, "already used or is too old")


def test_a_token_for_another_tool_is_refused(platform):
    def other_audience(body):
        body["aud"] = "someone-else"

    before = stored()
    response, _, _ = launch(Client(), platform, custom=IDEA, edit=other_audience)
    refused(response, before, "meant for another tool")
    assert not LaunchNonce.objects.filter(used_at__isnull=False).exists()


def test_an_azp_naming_another_client_is_refused(platform):
    def two_audiences(body):
        body["aud"] = [platform.client_id, "other"]
        body["azp"] = "other"

    before = stored()
    response, _, _ = launch(Client(), platform, custom=IDEA, edit=two_audiences)
    refused(response, before, "meant for another tool")


def test_an_expired_token_is_refused(platform):
    def expired(body):
        body["iat"] = int(time.time()) - 900
        body["exp"] = int(time.time()) - 600

    before = stored()
    response, _, _ = launch(Client(), platform, custom=IDEA, edit=expired)
    refused(response, before, "has expired")


@pytest.mark.parametrize("claim", ["exp", "iat"])
def test_a_token_without_exp_or_iat_is_refused(platform, claim):
    before = stored()
    response, _, _ = launch(Client(), platform, custom=IDEA, edit=lambda body: body.pop(claim))
    words = {"exp": "no expiry time", "iat": "no issue time"}[claim]
    refused(response, before, words)


def test_an_unknown_deployment_is_refused(platform):
    def other_deployment(body):
        body["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "dep-unknown"

    before = stored()
    response, _, _ = launch(Client(), platform, custom=IDEA, edit=other_deployment)
    refused(response, before, "deployment of the tool is not registered")


def test_a_tampered_signature_is_refused(platform):
    client = Client()
    params = auth_params(login_step(client, platform, sub="s-3"))
    good = platform.sign(platform.claims(sub="s-3", nonce=params["nonce"], custom=IDEA))
    header, payload, signature = good.split(".")
    # Same header and payload signed by another key under the platform's kid.
    forger = JWK.generate(kty="RSA", size=2048)
    forged = platform.sign(
        platform.claims(sub="s-3", nonce=params["nonce"], custom=IDEA),
        key_pem=forger.export_to_pem(private_key=True, password=None),
    )
    before = stored()
    for token in (forged, f"{header}.{payload}.{signature[:-4]}AAAA"):
        response = client.post("/lti/launch/", {"id_token": token, "state": params["state"]})
        refused(response, before, "signature does not verify")
    # The nonce was not spent by the refusals: the genuine token still launches.
    ok = client.post("/lti/launch/", {"id_token": good, "state": params["state"]})
    assert ok.status_code == 302


def test_a_state_from_another_browser_is_refused(platform):
    params = auth_params(login_step(Client(), platform, sub="s-4"))
    token = platform.sign(platform.claims(sub="s-4", nonce=params["nonce"], custom=IDEA))
    before = stored()
    response = Client().post("/lti/launch/", {"id_token": token, "state": params["state"]})
    refused(response, before, "this browser did not start this launch")


def test_an_unregistered_issuer_is_refused_at_login_and_at_launch(platform):
    before = stored()
    response = login_step(Client(), platform, sub="s-5", iss="https://elsewhere.example")
    assert response.status_code == 403
    assert b"not registered" in response.content

    def elsewhere(body):
        body["iss"] = "https://elsewhere.example"

    response, _, _ = launch(Client(), platform, custom=IDEA, edit=elsewhere)
    refused(response, before, "platform is not registered")


def test_a_link_to_an_idea_the_course_lacks_stores_nothing(platform):
    before = stored()
    response, _, _ = launch(Client(), platform, custom={"idea": "no-such-idea"})
    assert response.status_code == 403
    assert stored() == before
    assert not LaunchNonce.objects.filter(used_at__isnull=False).exists()


def test_launches_past_the_rate_are_refused_politely(platform, settings):
    settings.LTI_LAUNCH_RATE = "2/m"
    client = Client()
    statuses = [login_step(client, platform, sub="s-6").status_code for _ in range(3)]
    assert statuses == [302, 302, 429]


def test_an_oversized_launch_is_refused(platform, settings):
    settings.LTI_MAX_LAUNCH_BYTES = 1000
    before = stored()
    response = Client().post("/lti/launch/", {"id_token": "x" * 2000, "state": "s"})
    refused(response, before, "too large")


def test_an_instructor_resource_launch_opens_their_class(platform):
    response, _, _ = launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    assert response.status_code == 302
    assert "/lti/class/" in response["Location"]
    assert not LinkLearner.objects.exists()


def test_the_platform_jwks_is_cached_and_refetched_when_the_platform_rotates_its_key(platform):
    launch(Client(), platform, sub="s-7", custom=IDEA)
    launch(Client(), platform, sub="s-7", custom=IDEA)
    assert platform.jwks_fetches == 1
    platform.rotate_key("platform-key-2")
    response, _, _ = launch(Client(), platform, sub="s-7", custom=IDEA)
    assert response.status_code == 302
    assert platform.jwks_fetches == 2


def test_old_login_nonces_are_forgotten(platform, time_machine):
    from lti.services.launches import nonces_purge

    login_step(Client(), platform, sub="s-10")
    assert nonces_purge() == 0
    time_machine.move_to(LaunchNonce.objects.get().created_at.timestamp() + 86400 + 60)
    assert nonces_purge() == 1
    assert not LaunchNonce.objects.exists()
