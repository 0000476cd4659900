"""Registering platforms by command: a re-run changes only what it names; listing,
deactivating and removing platforms and deployments; a login without client_id."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from lti.models import Deployment, LtiUser, Membership
from lti.models import Platform as PlatformRow

from .conftest import auth_params, launch, login_step

IDEA = {"page": "first-page", "idea": "weighted-sum"}
ISSUER = "https://moodle.example.edu"
NEW = [
    "--name",
    "Moodle",
    "--issuer",
    ISSUER,
    "--client-id",
    "abc",
    "--login-url",
    "https://moodle.example.edu/mod/lti/auth.php",
    "--token-url",
    "https://moodle.example.edu/mod/lti/token.php",
    "--jwks-url",
    "https://moodle.example.edu/mod/lti/certs.php",
    "--deployment",
    "1",
]


def run(name: str, *args: str) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


def snapshot(platform: PlatformRow) -> tuple:
    platform.refresh_from_db()
    return (
        platform.name,
        platform.auth_login_url,
        platform.auth_token_url,
        platform.key_set_url,
        platform.frame_origins,
        platform.active,
        sorted(platform.deployments.values_list("deployment_id", flat=True)),
    )


@pytest.fixture
def moodle(db) -> PlatformRow:
    run("lti_register_platform", *NEW, "--frame-origin", "https://lms.example.edu")
    return PlatformRow.objects.get(issuer=ISSUER)


def test_a_new_platform_is_registered_with_its_deployment_and_origins(moodle):
    assert snapshot(moodle) == (
        "Moodle",
        "https://moodle.example.edu/mod/lti/auth.php",
        "https://moodle.example.edu/mod/lti/token.php",
        "https://moodle.example.edu/mod/lti/certs.php",
        "https://lms.example.edu",
        True,
        ["1"],
    )


def test_a_new_platform_without_its_urls_is_refused_naming_them(db):
    with pytest.raises(CommandError, match="--login-url, --token-url, --jwks-url, --deployment"):
        run("lti_register_platform", "--issuer", ISSUER, "--client-id", "abc", "--name", "M")
    assert not PlatformRow.objects.exists()


def test_a_rerun_without_frame_origins_keeps_them(moodle):
    before = snapshot(moodle)
    out = run("lti_register_platform", "--issuer", ISSUER, "--client-id", "abc")
    assert snapshot(moodle) == before
    assert "nothing changed" in out


def test_a_rerun_changes_only_what_it_names(moodle):
    out = run(
        "lti_register_platform",
        "--issuer",
        ISSUER,
        "--client-id",
        "abc",
        "--jwks-url",
        "https://moodle.example.edu/keys",
        "--deployment",
        "2",
    )
    assert snapshot(moodle) == (
        "Moodle",
        "https://moodle.example.edu/mod/lti/auth.php",
        "https://moodle.example.edu/mod/lti/token.php",
        "https://moodle.example.edu/keys",
        "https://lms.example.edu",
        True,
        ["1", "2"],
    )
    assert "key_set_url" in out
    assert "deployment 2" in out


def test_frame_origins_are_replaced_when_named_and_reset_on_request(moodle):
    run(
        "lti_register_platform",
        "--issuer",
        ISSUER,
        "--client-id",
        "abc",
        "--frame-origin",
        "https://a.example.edu",
        "--frame-origin",
        "https://b.example.edu:8443/",
    )
    moodle.refresh_from_db()
    assert moodle.origins() == ["https://a.example.edu", "https://b.example.edu:8443"]
    run(
        "lti_register_platform", "--issuer", ISSUER, "--client-id", "abc", "--default-frame-origins"
    )
    moodle.refresh_from_db()
    assert moodle.frame_origins == ""
    assert moodle.origins() == [ISSUER]


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--frame-origin", "https://lms.example.edu/course/1", "is not an origin"),
        ("--frame-origin", "lms.example.edu", "is not an origin"),
        ("--jwks-url", "not a url", "key_set_url"),
        ("--deployment", " ", "may not be empty"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(moodle, option, value, words):
    before = snapshot(moodle)
    with pytest.raises(CommandError, match=words):
        run(
            "lti_register_platform",
            "--issuer",
            ISSUER,
            "--client-id",
            "abc",
            "--name",
            "Renamed",
            option,
            value,
        )
    assert snapshot(moodle) == before


def test_the_list_shows_platforms_their_state_and_deployments(moodle):
    run("lti_deactivate_platform", "--issuer", ISSUER)
    out = run("lti_list_platforms")
    assert "Moodle [DEACTIVATED]" in out
    assert "client id abc" in out
    assert "deployments 1" in out
    assert "frame origins https://lms.example.edu" in out


def test_the_list_says_when_nothing_is_registered(db):
    assert "No platform is registered." in run("lti_list_platforms")


def test_a_rerun_does_not_reactivate_a_deactivated_platform(moodle):
    run("lti_deactivate_platform", "--issuer", ISSUER, "--client-id", "abc")
    out = run("lti_register_platform", "--issuer", ISSUER, "--client-id", "abc", "--name", "M2")
    moodle.refresh_from_db()
    assert (moodle.name, moodle.active) == ("M2", False)
    assert "lti_activate_platform" in out
    assert "already deactivated" in run("lti_deactivate_platform", "--issuer", ISSUER)
    assert "Activated" in run("lti_activate_platform", "--issuer", ISSUER)
    moodle.refresh_from_db()
    assert moodle.active


def test_a_command_naming_an_ambiguous_or_unknown_issuer_is_refused(moodle):
    run("lti_register_platform", *NEW[:5], "xyz", *NEW[6:])
    with pytest.raises(CommandError, match="several registrations: name one with --client-id"):
        run("lti_deactivate_platform", "--issuer", ISSUER)
    with pytest.raises(CommandError, match="No platform is registered"):
        run("lti_deactivate_platform", "--issuer", "https://elsewhere.example")
    assert PlatformRow.objects.filter(active=True).count() == 2


def test_a_deactivated_platforms_login_and_launch_are_refused_saying_so(platform):
    client = Client()
    params = auth_params(login_step(client, platform, sub="s-1"))
    token = platform.sign(platform.claims(sub="s-1", nonce=params["nonce"], custom=IDEA))
    run("lti_deactivate_platform", "--issuer", platform.issuer)

    response = client.post("/lti/launch/", {"id_token": token, "state": params["state"]})
    assert response.status_code == 403
    assert b"registration with this tool is deactivated" in response.content
    assert not LtiUser.objects.exists()

    login = login_step(Client(), platform, sub="s-1")
    assert login.status_code == 403
    assert b"registration with the tool is deactivated" in login.content

    run("lti_activate_platform", "--issuer", platform.issuer)
    response, _, _ = launch(Client(), platform, sub="s-1", custom=IDEA)
    assert response.status_code == 302


def test_removing_a_deployment_refuses_its_launches(platform):
    platform.row.deployments.create(deployment_id="dep-2")
    with pytest.raises(CommandError, match="Nothing removed"):
        run("lti_remove_deployment", "--issuer", platform.issuer, "--deployment", "dep-1")
    assert Deployment.objects.count() == 2
    with pytest.raises(CommandError, match=r"no deployment 'dep-9' \(it has: dep-1, dep-2\)"):
        run("lti_remove_deployment", "--issuer", platform.issuer, "--deployment", "dep-9", "--yes")

    out = run(
        "lti_remove_deployment", "--issuer", platform.issuer, "--deployment", "dep-1", "--yes"
    )
    assert "lti.Deployment 1" in out
    response, _, _ = launch(Client(), platform, custom=IDEA)
    assert response.status_code == 403
    assert b"deployment of the tool is not registered" in response.content


def test_removing_a_platform_says_what_goes_and_needs_yes(platform):
    launch(Client(), platform, sub="s-1", custom=IDEA)
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match=r"would delete .*lti\.LtiUser 1.*add --yes"):
        run("lti_remove_platform", "--issuer", platform.issuer)
    assert PlatformRow.objects.count() == 1
    out = run("lti_remove_platform", "--issuer", platform.issuer, "--yes")
    assert "lti.Platform 1" in out
    assert not PlatformRow.objects.exists()
    assert not LtiUser.objects.exists()
    assert not Membership.objects.exists()
    assert get_user_model().objects.count() == users  # the local accounts stay
    assert login_step(Client(), platform, sub="s-1").status_code == 403


def login_without_client_id(platform):
    return Client().post(
        "/lti/login/",
        {"iss": platform.issuer, "login_hint": "s-1", "target_link_uri": platform.tool_launch_url},
    )


def test_a_login_without_client_id_uses_the_issuers_one_registration(platform):
    params = auth_params(login_without_client_id(platform))
    assert params["client_id"] == platform.client_id


def test_a_login_without_client_id_is_refused_when_the_issuer_has_several(platform):
    PlatformRow.objects.create(
        name="Second tool registration",
        issuer=platform.issuer,
        client_id="another-client",
        auth_login_url=f"{platform.url}/auth",
        auth_token_url=f"{platform.url}/token",
        key_set_url=f"{platform.url}/jwks",
    )
    response = login_without_client_id(platform)
    assert response.status_code == 403
    assert b"several registrations" in response.content
    # Naming the client id still works, and a deactivated second one is not counted.
    assert login_step(Client(), platform, sub="s-1").status_code == 302
    PlatformRow.objects.filter(client_id="another-client").update(active=False)
    assert login_without_client_id(platform).status_code == 302
