"""Roles read as the LTI Core vocabulary says: who sees the class view, who is scored."""

import uuid

import pytest
from django.test import Client

from lti.claims import Role, RoleAccess, RoleScope, parse_role, role_access
from lti.models import Context, LinkLearner, LtiUser, Score
from lti.services.roster import roster_store
from practice import services
from tests.answers import right_answer

from .conftest import launch

LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
MEMBERSHIP = LIS + "membership#"
SYSTEM = LIS + "system/person#"
INSTITUTION = LIS + "institution/person#"

TEACHES = RoleAccess(class_view=True, scored=False)
SCORED = RoleAccess(class_view=False, scored=True)
NEITHER = RoleAccess(class_view=False, scored=False)

CASES = [
    # Context roles, full URIs.
    ([MEMBERSHIP + "Learner"], SCORED),
    ([MEMBERSHIP + "Instructor"], TEACHES),
    ([MEMBERSHIP + "ContentDeveloper"], TEACHES),
    ([MEMBERSHIP + "Administrator"], TEACHES),
    ([MEMBERSHIP + "Mentor"], NEITHER),
    ([MEMBERSHIP + "Manager"], NEITHER),
    ([MEMBERSHIP + "Member"], NEITHER),
    ([MEMBERSHIP + "Officer"], NEITHER),
    # Sub-roles: the principal role decides.
    ([LIS + "membership/Instructor#TeachingAssistant"], TEACHES),
    ([LIS + "membership/Instructor#Grader"], TEACHES),
    ([LIS + "membership/Learner#NonCreditLearner"], SCORED),
    ([LIS + "membership/Learner#GuestLearner"], SCORED),
    ([LIS + "membership/Manager#Observer"], NEITHER),
    ([LIS + "membership/Mentor#Auditor"], NEITHER),
    ([LIS + "membership/Administrator#Support"], TEACHES),
    ([LIS + "membership/ContentDeveloper#Librarian"], TEACHES),
    # A principal role written without its #-suffix, and the https scheme.
    ([LIS + "membership/Instructor"], TEACHES),
    (["https://purl.imsglobal.org/vocab/lis/v2/membership#Learner"], SCORED),
    # Simple names (LTI 1.3 Core allows them for context roles).
    (["Learner"], SCORED),
    (["Instructor"], TEACHES),
    (["ContentDeveloper"], TEACHES),
    (["Mentor"], NEITHER),
    # LTI 1.1 URNs.
    (["urn:lti:role:ims/lis/Instructor"], TEACHES),
    (["urn:lti:role:ims/lis/TeachingAssistant"], TEACHES),
    (["urn:lti:role:ims/lis/TeachingAssistant/TeachingAssistantSection"], TEACHES),
    (["urn:lti:role:ims/lis/Learner"], SCORED),
    (["urn:lti:role:ims/lis/Learner/NonCreditLearner"], SCORED),
    (["urn:lti:role:ims/lis/Observer"], NEITHER),
    (["urn:lti:role:ims/lis/Mentor"], NEITHER),
    (["urn:lti:role:ims/lis/Administrator"], TEACHES),
    # System and institution roles alone: only an administrator sees the class, none is scored.
    ([SYSTEM + "Administrator"], TEACHES),
    ([SYSTEM + "SysAdmin"], TEACHES),
    ([INSTITUTION + "Administrator"], TEACHES),
    (["urn:lti:sysrole:ims/lis/Administrator"], TEACHES),
    (["urn:lti:instrole:ims/lis/Administrator"], TEACHES),
    ([LIS + "person#Administrator"], TEACHES),
    ([SYSTEM + "User"], NEITHER),
    ([INSTITUTION + "Student"], NEITHER),
    ([INSTITUTION + "Learner"], NEITHER),
    ([INSTITUTION + "Instructor"], NEITHER),
    ([INSTITUTION + "Faculty"], NEITHER),
    (["urn:lti:instrole:ims/lis/Student"], NEITHER),
    # With a context role, the context role decides.
    ([SYSTEM + "Administrator", MEMBERSHIP + "Learner"], SCORED),
    ([INSTITUTION + "Administrator", MEMBERSHIP + "Mentor"], NEITHER),
    (
        [INSTITUTION + "Administrator", MEMBERSHIP + "Instructor", SYSTEM + "Administrator"],
        TEACHES,
    ),
    # What Canvas sends: a student, a test student, a TA, an observer.
    ([INSTITUTION + "Student", MEMBERSHIP + "Learner", SYSTEM + "User"], SCORED),
    (
        [
            MEMBERSHIP + "Learner",
            SYSTEM + "User",
            "http://purl.imsglobal.org/vocab/lti/system/person#TestUser",
        ],
        SCORED,
    ),
    ([LIS + "membership/Instructor#TeachingAssistant", SYSTEM + "User"], TEACHES),
    ([MEMBERSHIP + "Mentor", SYSTEM + "User"], NEITHER),
    # Teaching wins over learning; an observer who also learns is scored.
    ([MEMBERSHIP + "Learner", MEMBERSHIP + "Instructor"], TEACHES),
    ([MEMBERSHIP + "Mentor", MEMBERSHIP + "Learner"], SCORED),
    # Nothing, or nothing in the vocabulary.
    ([], NEITHER),
    ([""], NEITHER),
    (["instructor-ish role", "http://example.org/roles#Instructor"], NEITHER),
    ([LIS + "membership#"], NEITHER),
    (["urn:lti:role:ims/lis/"], NEITHER),
    # A near miss is not the role: prefix lookalikes are ignored.
    (["http://purl.imsglobal.org/vocab/lis/v2/membershipX#Instructor"], NEITHER),
]


@pytest.mark.parametrize(("roles", "expected"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_role_access_follows_the_lti_core_vocabulary(roles, expected):
    assert role_access(roles) == expected


def test_the_table_covers_thirty_role_lists():
    assert len(CASES) >= 30


@pytest.mark.parametrize(
    ("text", "role"),
    [
        (MEMBERSHIP + "Instructor", Role(RoleScope.CONTEXT, "Instructor")),
        (
            LIS + "membership/Instructor#TeachingAssistant",
            Role(RoleScope.CONTEXT, "Instructor", "TeachingAssistant"),
        ),
        (
            "urn:lti:role:ims/lis/Learner/NonCreditLearner",
            Role(RoleScope.CONTEXT, "Learner", "NonCreditLearner"),
        ),
        (SYSTEM + "Administrator", Role(RoleScope.SYSTEM, "Administrator")),
        (INSTITUTION + "Faculty", Role(RoleScope.INSTITUTION, "Faculty")),
        ("urn:lti:instrole:ims/lis/Faculty", Role(RoleScope.INSTITUTION, "Faculty")),
        ("Learner", Role(RoleScope.CONTEXT, "Learner")),
        ("http://example.org/Learner", None),
    ],
)
def test_a_role_is_read_as_scope_principal_and_sub_role(text, role):
    assert parse_role(text) == role


# -- through the suite's platform -------------------------------------------------------------

IDEA = {"page": "first-page", "idea": "weighted-sum"}


def _answer_right(copy, capture):
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    with capture(execute=True):
        return services.attempt_submit(
            copy=copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
        )


@pytest.mark.parametrize(
    "roles",
    [
        ("urn:lti:role:ims/lis/Observer",),
        (MEMBERSHIP + "Mentor",),
        (LIS + "membership/Manager#Observer",),
        (),
    ],
    ids=["lti11-observer", "mentor", "manager-observer", "no-role"],
)
def test_an_observers_attempt_sends_no_score(platform, django_capture_on_commit_callbacks, roles):
    response, _, _ = launch(Client(), platform, sub="o-1", roles=roles, custom=IDEA)
    assert response.status_code == 302
    assert "/ideas/weighted-sum/" in response["Location"]  # they see the practice, unscored
    copy = LtiUser.objects.get(sub="o-1").user.course_copies.get()
    _answer_right(copy, django_capture_on_commit_callbacks)
    assert not LinkLearner.objects.exists()
    assert not Score.objects.exists()
    assert platform.scores == []


def test_a_learner_who_launches_again_as_an_observer_is_scored_no_more(
    platform, django_capture_on_commit_callbacks
):
    launch(Client(), platform, sub="l-2", roles=("urn:lti:role:ims/lis/Learner",), custom=IDEA)
    assert LinkLearner.objects.filter(lti_user__sub="l-2").exists()
    launch(Client(), platform, sub="l-2", roles=("urn:lti:role:ims/lis/Observer",), custom=IDEA)
    assert not LinkLearner.objects.exists()
    copy = LtiUser.objects.get(sub="l-2").user.course_copies.get()
    _answer_right(copy, django_capture_on_commit_callbacks)
    assert not Score.objects.exists() and platform.scores == []
    # Back as a learner, scored again.
    launch(Client(), platform, sub="l-2", roles=("urn:lti:role:ims/lis/Learner",), custom=IDEA)
    _answer_right(copy, django_capture_on_commit_callbacks)
    assert [s["userId"] for s in platform.scores] == ["l-2"]


def test_a_learner_with_the_same_launch_is_scored(platform, django_capture_on_commit_callbacks):
    # The control for the test above: the same launch as a Learner sends a score.
    launch(Client(), platform, sub="l-1", roles=("urn:lti:role:ims/lis/Learner",), custom=IDEA)
    copy = LtiUser.objects.get(sub="l-1").user.course_copies.get()
    _answer_right(copy, django_capture_on_commit_callbacks)
    assert [s["userId"] for s in platform.scores] == ["l-1"]


@pytest.mark.parametrize(
    "roles",
    [
        ("urn:lti:role:ims/lis/Instructor",),
        (LIS + "membership/Instructor#TeachingAssistant",),
        (MEMBERSHIP + "Administrator",),
        (SYSTEM + "Administrator",),
    ],
    ids=["lti11-instructor", "teaching-assistant", "context-admin", "system-admin"],
)
def test_teaching_roles_get_the_class_view(platform, roles):
    teacher = Client()
    response, _, _ = launch(teacher, platform, sub="t-1", roles=roles, custom=IDEA)
    assert response.status_code == 302
    assert "/lti/class/" in response["Location"]
    assert teacher.get(response["Location"]).status_code == 200
    assert not LinkLearner.objects.exists()


def test_the_class_view_and_roster_leave_out_observers(platform):
    launch(Client(), platform, sub="s-1", custom=IDEA, name="Learner One")
    observer, _, _ = launch(
        Client(),
        platform,
        sub="o-1",
        roles=(MEMBERSHIP + "Mentor",),
        custom=IDEA,
        name="Parent One",
    )
    assert observer.status_code == 302
    teacher = Client()
    response, _, _ = launch(
        teacher, platform, sub="t-1", roles=("urn:lti:role:ims/lis/Instructor",), custom=IDEA
    )
    platform.roster = [
        {"user_id": "s-77", "name": "Quiet Student", "roles": [MEMBERSHIP + "Learner"]},
        {"user_id": "o-77", "name": "Quiet Parent", "roles": ["urn:lti:role:ims/lis/Observer"]},
        {"user_id": "a-77", "name": "Quiet Admin", "roles": [MEMBERSHIP + "Administrator"]},
        {"user_id": "n-77", "name": "No Role", "roles": []},
    ]
    roster_store(context_id=Context.objects.get().pk)
    page = teacher.get(response["Location"]).content.decode()
    assert "Learner One" in page
    assert "Quiet Student" in page
    for absent in ("Parent One", "Quiet Parent", "Quiet Admin", "No Role"):
        assert absent not in page
