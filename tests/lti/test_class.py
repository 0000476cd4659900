"""Deep linking, the roster (NRPS) and who left it, the class view and its CSV, framing and
cookies."""

import uuid
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from lti.keys import jwks, key_rotate
from lti.models import Context, LtiUser, RosterEntry
from lti.models import Platform as PlatformRow
from lti.selectors import ClassCounts, Standing, class_columns, class_rows
from lti.services.roster import roster_store
from practice import services
from tests.answers import wrong_answer

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
    # One link away: the class's mistakes by cause, open to the same instructor.
    analytics = reverse("analytics:class", args=[page.context["context"].pk])
    assert f'id="lti-analytics" href="{analytics}"'.encode() in page.content
    assert teacher.get(analytics).status_code == 200

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
    # A new registration needs a deployment (a re-run may leave them as they are).
    new_client = [a.replace("--client-id=abc", "--client-id=new") for a in arguments[:-1]]
    with pytest.raises(CommandError, match="deployment"):
        call_command("lti_register_platform", *new_client)
    assert PlatformRow.objects.count() == 1


def test_an_instructor_launch_fetches_the_roster(platform, django_capture_on_commit_callbacks):
    platform.roster = [{"user_id": "s-50", "name": "Roster Only", "roles": ["Learner"]}]
    with django_capture_on_commit_callbacks(execute=True):
        launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    assert list(RosterEntry.objects.values_list("sub", "name")) == [("s-50", "Roster Only")]


def _wrong_attempt(sub: str) -> str:
    """Make one wrong answer by the learner ``sub``; return its mistake code."""
    copy = LtiUser.objects.get(sub=sub).user.course_copies.get()
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    diagnosis, text = wrong_answer(problem)
    services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())
    return diagnosis["mistake"] if isinstance(diagnosis, dict) else diagnosis.mistake


def _member(sub: str, name: str, status: str = "Active") -> dict:
    return {"user_id": sub, "name": name, "roles": ["Learner"], "status": status}


TEACHER = {"user_id": "t-1", "name": "Teacher", "roles": [INSTRUCTOR], "status": "Active"}


def test_members_who_left_or_are_inactive_are_shown_so_and_not_counted(
    platform, django_capture_on_commit_callbacks
):
    for sub, name in [("s-1", "Stays"), ("s-2", "Drops"), ("s-5", "Paused")]:
        launch(Client(), platform, sub=sub, custom=IDEA, name=name)
    with django_capture_on_commit_callbacks():
        mistake = _wrong_attempt("s-1")
        _wrong_attempt("s-2")
        _wrong_attempt("s-5")
    teacher = Client()
    response, _, _ = launch(teacher, platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    context = Context.objects.get()
    platform.roster = [
        TEACHER,
        _member("s-1", "Stays"),
        _member("s-2", "Drops"),
        _member("s-5", "Paused"),
        _member("s-4", "Never came"),
    ]
    roster_store(context_id=context.pk)
    page = teacher.get(response["Location"])
    assert page.context["counts"] == ClassCounts(learners=4, started=3, left=0, inactive=0)
    assert next(r.count for r in page.context["mistakes"] if r.mistake == mistake) == 3

    # The next answer no longer lists s-2, lists s-5 as Inactive, and adds an inactive s-3.
    platform.roster = [
        TEACHER,
        _member("s-1", "Stays"),
        _member("s-5", "Paused", "Inactive"),
        _member("s-4", "Never came"),
        _member("s-3", "Gone quiet", "Inactive"),
    ]
    assert roster_store(context_id=context.pk) == 5
    page = teacher.get(response["Location"])
    standings = [(row.sub, row.standing) for row in page.context["rows"]]
    assert standings == [
        ("s-1", Standing.ACTIVE),
        ("s-4", Standing.ACTIVE),
        ("s-2", Standing.LEFT),
        ("s-5", Standing.INACTIVE),
        ("s-3", Standing.INACTIVE),
    ]
    html = page.content.decode()
    assert "Drops <small>(left the course)</small>" in html
    assert "Paused <small>(inactive)</small>" in html
    assert "Gone quiet <small>(inactive)</small>" in html
    assert page.context["counts"] == ClassCounts(learners=2, started=1, left=1, inactive=2)
    assert "2 learners, 1 started" in html
    assert "not counted: 1 left the course, 2 inactive" in html
    # Their mistakes leave the class's counts too.
    assert next(r.count for r in page.context["mistakes"] if r.mistake == mistake) == 1
    csv = teacher.get(response["Location"] + "export.csv").content.decode()
    assert "Drops,s-2,yes,left," in csv and "Stays,s-1,yes,active," in csv
    assert "Gone quiet,s-3,no,inactive," in csv


def test_a_member_listed_again_or_launching_again_is_back_in_the_class(platform, time_machine):
    launch(Client(), platform, sub="s-2", custom=IDEA, name="Drops")
    launch(Client(), platform, sub="s-6", custom=IDEA, name="Returns")
    launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    context = Context.objects.get()
    platform.roster = [TEACHER]
    roster_store(context_id=context.pk)
    # Launched members missing from the answer get a roster row marking them as left.
    left = dict(RosterEntry.objects.filter(left_at__isnull=False).values_list("sub", "name"))
    assert left == {"s-2": "Drops", "s-6": "Returns"}
    columns = class_columns(context=context)
    assert {r.standing for r in class_rows(context=context, columns=columns)} == {Standing.LEFT}

    platform.roster = [TEACHER, _member("s-2", "Drops")]
    roster_store(context_id=context.pk)
    launch(Client(), platform, sub="s-6", custom=IDEA, name="Returns")  # launched since
    rows = class_rows(context=context, columns=columns)
    assert [(r.sub, r.standing) for r in rows] == [
        ("s-2", Standing.ACTIVE),
        ("s-6", Standing.ACTIVE),
    ]
    assert RosterEntry.objects.get(sub="s-2").left_at is None


def test_a_roster_answer_listing_no_one_marks_no_one_as_left(platform):
    launch(Client(), platform, sub="s-2", custom=IDEA)
    launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    context = Context.objects.get()
    platform.roster = []
    assert roster_store(context_id=context.pk) == 0
    assert not RosterEntry.objects.filter(left_at__isnull=False).exists()


def test_a_member_listed_as_deleted_has_left(platform):
    launch(Client(), platform, sub="t-1", roles=(INSTRUCTOR,), custom=IDEA)
    context = Context.objects.get()
    platform.roster = [TEACHER, _member("s-7", "Removed", "Deleted")]
    roster_store(context_id=context.pk)
    (row,) = class_rows(context=context, columns=class_columns(context=context))
    assert (row.sub, row.standing, row.standing_label) == ("s-7", Standing.LEFT, "left the course")
