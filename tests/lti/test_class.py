"""Deep linking, the roster (NRPS), the class view and its CSV, framing and cookies."""

import uuid
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client

from lti.keys import jwks, key_rotate
from lti.models import Context, LtiUser, RosterEntry
from lti.models import Platform as PlatformRow
from lti.services.roster import roster_store
from practice import services
from tests.practice.answers import wrong_answer

from .conftest import auth_params, launch, login_step
from .platform import INSTRUCTOR

IDEA = {"page": "first-page", "idea": "weighted-sum"}


def test_an_instructor_places_an_idea_with_a_gradebook_column(platform):
    client = Client(enforce_csrf_checks=True)
    response, _, _ = launch(
        client, platform, sub="t-1", roles=(INSTRUCTOR,), message_type="LtiDeepLinkingRequest"
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b"idea:first-page/weighted-sum" in page.content
    # CSRF is still enforced on the tool's own form.
    without_token = client.post("/lti/deep-link/", {"target": "idea:first-page/weighted-sum"})
    assert without_token.status_code == 403
    token = page.context["csrf_token"]
    answer = client.post(
        "/lti/deep-link/",
        {"target": "idea:first-page/weighted-sum", "csrfmiddlewaretoken": str(token)},
    )
    assert answer.status_code == 200
    jwt_value = answer.context["token"]
    claims = platform.verify_tool_jwt(jwt_value, audience=platform.issuer)
    assert claims["https://purl.imsglobal.org/spec/lti/claim/message_type"] == (
        "LtiDeepLinkingResponse"
    )
    (item,) = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["type"] == "ltiResourceLink"
    assert item["custom"] == IDEA
    assert item["lineItem"]["scoreMaximum"] == 1
    assert item["url"] == "http://testserver/lti/launch/"


def test_a_learner_cannot_deep_link(platform):
    response, _, _ = launch(Client(), platform, sub="s-9", message_type="LtiDeepLinkingRequest")
    assert response.status_code == 403
    assert b"only an instructor" in response.content
    assert not LtiUser.objects.exists()
    assert Client().get("/lti/deep-link/").status_code == 302  # anonymous: sign in


def test_the_class_view_shows_learners_progress_and_named_mistakes(
    platform, django_capture_on_commit_callbacks
):
    launch(Client(), platform, sub="s-1", custom=IDEA, name="Learner One")
    copy = LtiUser.objects.get(sub="s-1").user.course_copies.get()
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    diagnosis, text = wrong_answer(problem)
    with django_capture_on_commit_callbacks():
        services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())

    teacher = Client()
    response, _, _ = launch(teacher, platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    page = teacher.get(response["Location"])
    assert page.status_code == 200
    assert b"Learner One" in page.content
    mistake = diagnosis["mistake"] if isinstance(diagnosis, dict) else diagnosis.mistake
    assert f'data-mistake="{mistake}"'.encode() in page.content
    csv = teacher.get(response["Location"] + "export.csv")
    assert csv.status_code == 200
    assert "Learner One,s-1,yes" in csv.content.decode()

    # The learner never sees the class view.
    learner = Client()
    launch(learner, platform, sub="s-1", custom=IDEA)
    assert learner.get(response["Location"]).status_code == 404
    assert learner.get(response["Location"] + "export.csv").status_code == 404


def test_an_instructor_sees_only_their_own_context(platform):
    teacher = Client()
    launch(teacher, platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    other = Context.objects.create(platform=platform.row, context_id="another-course")
    assert teacher.get(f"/lti/class/{other.pk}/").status_code == 404


def test_the_roster_lists_members_who_never_launched(platform):
    teacher = Client()
    response, _, _ = launch(teacher, platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    platform.roster = [
        {"user_id": "s-77", "name": "Quiet Student", "roles": ["Learner"], "status": "Active"},
        {"user_id": "t-1", "name": "Teacher", "roles": [INSTRUCTOR], "status": "Active"},
    ]
    context = Context.objects.get()
    assert roster_store(context_id=context.pk) == 2
    assert RosterEntry.objects.filter(context=context).count() == 2
    page = teacher.get(response["Location"])
    assert b"Quiet Student" in page.content
    assert b"not started" in page.content


def test_a_launched_session_may_be_framed_by_its_platform_only(platform):
    client = Client()
    assert "frame-ancestors 'none'" in client.get("/").headers["Content-Security-Policy"]
    response, _, _ = launch(client, platform, custom=IDEA)
    framed = client.get(response["Location"], follow=True)
    policy = framed.headers["Content-Security-Policy"]
    assert f"frame-ancestors {platform.url}" in policy
    assert "X-Frame-Options" not in framed.headers
    # A visitor who did not come through a launch is framed by nobody.
    assert "frame-ancestors 'none'" in Client().get("/").headers["Content-Security-Policy"]


def test_launch_cookies_are_samesite_none_and_secure_over_https(platform):
    client = Client()
    login = login_step(client, platform, sub="s-1", secure=True)
    (state_cookie,) = [c for name, c in login.cookies.items() if name.startswith("lti1p3-")]
    assert state_cookie["samesite"] == "None"
    assert state_cookie["secure"]


def test_the_jwks_keeps_the_previous_key_through_one_rotation(platform):
    first = jwks()["keys"][0]["kid"]
    key_rotate()
    kids = [key["kid"] for key in Client().get("/lti/jwks/").json()["keys"]]
    assert kids[1] == first and kids[0] != first
    key_rotate()
    assert first not in [key["kid"] for key in jwks()["keys"]]


def test_a_launch_over_https_sends_its_session_cookies_samesite_none(platform):
    client = Client()
    params = auth_params(login_step(client, platform, sub="s-8", secure=True))
    token = platform.sign(platform.claims(sub="s-8", nonce=params["nonce"], custom=IDEA))
    response = client.post(
        "/lti/launch/", {"id_token": token, "state": params["state"]}, secure=True
    )
    assert response.status_code == 302
    session = response.cookies[settings.SESSION_COOKIE_NAME]
    assert (session["samesite"], bool(session["secure"])) == ("None", True)
    # A visitor who never launched keeps the site's default.
    plain = Client().post("/accounts/login/", {"username": "x", "password": "y"}, secure=True)
    assert all(c["samesite"] != "None" for c in plain.cookies.values())


def test_platforms_are_registered_by_a_command(db):
    out = StringIO()
    arguments = [
        "--name=Moodle",
        "--issuer=https://moodle.example.edu",
        "--client-id=abc",
        "--login-url=https://moodle.example.edu/mod/lti/auth.php",
        "--token-url=https://moodle.example.edu/mod/lti/token.php",
        "--jwks-url=https://moodle.example.edu/mod/lti/certs.php",
        "--deployment=1",
    ]
    call_command("lti_register_platform", *arguments, stdout=out)
    call_command("lti_register_platform", *arguments, "--deployment=2", stdout=out)
    row = PlatformRow.objects.get()
    assert sorted(row.deployments.values_list("deployment_id", flat=True)) == ["1", "2"]
    assert row.origins() == ["https://moodle.example.edu"]
    with pytest.raises(CommandError, match="key_set_url"):
        call_command(
            "lti_register_platform", *arguments[:-2], "--jwks-url=not a url", "--deployment=1"
        )
    with pytest.raises(CommandError, match="deployment"):
        call_command("lti_register_platform", *arguments[:-1])
    assert PlatformRow.objects.count() == 1


def test_an_instructor_launch_fetches_the_roster(platform, django_capture_on_commit_callbacks):
    platform.roster = [{"user_id": "s-50", "name": "Roster Only", "roles": ["Learner"]}]
    with django_capture_on_commit_callbacks(execute=True):
        launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    assert list(RosterEntry.objects.values_list("sub", "name")) == [("s-50", "Roster Only")]
