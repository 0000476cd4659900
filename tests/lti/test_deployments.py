"""Two deployments of one platform naming the same context id are two classes: their class
views, rosters, links and scores are kept apart."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from lti.models import Context, Deployment, LinkLearner, LtiUser, Membership, ResourceLink, Score
from lti.selectors import Standing, class_rows
from lti.services.registration import deployment_remove
from lti.services.roster import roster_store
from practice import services
from tests.answers import right_answer

from .conftest import launch
from .platform import INSTRUCTOR

IDEA = {"page": "first-page", "idea": "weighted-sum"}


@pytest.fixture
def two_deployments(platform):
    """The platform with a second deployment, ``dep-2``, registered; both name course-101."""
    Deployment.objects.create(platform=platform.row, deployment_id="dep-2")
    return platform


def as_deployment(platform, deployment_id: str, client: Client, *, sub: str, **claims):
    platform.deployment_id = deployment_id
    response, _, _ = launch(client, platform, sub=sub, custom=IDEA, **claims)
    assert response.status_code == 302, response.content[:300]
    return response


def classroom(platform):
    """In each deployment, an instructor and a learner through link-1 of course-101."""
    teachers = {"dep-1": Client(), "dep-2": Client()}
    as_deployment(platform, "dep-1", teachers["dep-1"], sub="t-1", roles=(INSTRUCTOR,))
    as_deployment(platform, "dep-1", Client(), sub="s-1", name="Ada One")
    as_deployment(platform, "dep-2", teachers["dep-2"], sub="t-2", roles=(INSTRUCTOR,))
    as_deployment(
        platform, "dep-2", Client(), sub="s-2", name="Bo Two", lineitem=platform.lineitem_url("d2")
    )
    contexts = {
        context.deployment.deployment_id: context
        for context in Context.objects.select_related("deployment")
    }
    return teachers, contexts


def test_the_same_context_id_in_two_deployments_is_two_classes(two_deployments):
    teachers, contexts = classroom(two_deployments)
    assert sorted(contexts) == ["dep-1", "dep-2"]
    assert {c.context_id for c in contexts.values()} == {"course-101"}
    # Each deployment's link is its own, with its own learner.
    for deployment_id, learner in (("dep-1", "s-1"), ("dep-2", "s-2")):
        link = ResourceLink.objects.get(context=contexts[deployment_id])
        assert link.resource_link_id == "link-1"
        assert [ll.lti_user.sub for ll in LinkLearner.objects.filter(link=link)] == [learner]
    # Each instructor's class view shows their own deployment's learner only.
    for deployment_id, shown, hidden in (
        ("dep-1", "Ada One", "Bo Two"),
        ("dep-2", "Bo Two", "Ada One"),
    ):
        page = teachers[deployment_id].get(reverse("lti:class", args=[contexts[deployment_id].pk]))
        assert page.status_code == 200
        assert shown in page.content.decode() and hidden not in page.content.decode()
    # Nor can one open the other's class.
    other = reverse("lti:class", args=[contexts["dep-1"].pk])
    assert teachers["dep-2"].get(other).status_code == 404
    assert (
        teachers["dep-1"].get(reverse("lti:class_csv", args=[contexts["dep-2"].pk])).status_code
        == 404
    )


def test_rosters_are_kept_per_deployment(two_deployments):
    platform = two_deployments
    _, contexts = classroom(platform)
    platform.roster = [
        {"user_id": "s-1", "name": "Ada One", "roles": ["Learner"], "status": "Active"},
        {"user_id": "s-9", "name": "Quiet Nine", "roles": ["Learner"], "status": "Active"},
    ]
    assert roster_store(context_id=contexts["dep-1"].pk) == 2
    platform.roster = [
        {"user_id": "s-2", "name": "Bo Two", "roles": ["Learner"], "status": "Inactive"},
    ]
    assert roster_store(context_id=contexts["dep-2"].pk) == 1
    rows = {
        deployment_id: {row.sub: row.standing for row in class_rows(context=context, columns=[])}
        for deployment_id, context in contexts.items()
    }
    # dep-1's roster answer did not list s-2, who is not of dep-1's class: nobody left.
    assert rows["dep-1"] == {"s-1": Standing.ACTIVE, "s-9": Standing.ACTIVE}
    assert rows["dep-2"] == {"s-2": Standing.INACTIVE}


def test_scores_go_to_each_deployments_own_line_item(
    two_deployments, django_capture_on_commit_callbacks
):
    platform = two_deployments
    classroom(platform)
    for sub in ("s-1", "s-2"):
        copy = LtiUser.objects.get(sub=sub).user.course_copies.get()
        problem = services.problem_open(
            copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
        )
        with django_capture_on_commit_callbacks(execute=True):
            services.attempt_submit(
                copy=copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
            )
    assert sorted((s["lineitem"], s["userId"]) for s in platform.scores) == [
        ("1", "s-1"),
        ("d2", "s-2"),
    ]
    for score in Score.objects.select_related("link_learner__link__context__deployment"):
        deployment = score.link_learner.link.context.deployment.deployment_id
        assert (deployment, score.link_learner.lti_user.sub) in {("dep-1", "s-1"), ("dep-2", "s-2")}


def test_a_class_stored_without_a_deployment_is_claimed_by_the_first_launch(two_deployments):
    platform = two_deployments
    old = Context.objects.create(platform=platform.row, context_id="course-101", title="Old")
    as_deployment(platform, "dep-2", Client(), sub="s-2")
    old.refresh_from_db()
    assert old.deployment.deployment_id == "dep-2"
    assert Membership.objects.get(lti_user__sub="s-2").context == old
    # The other deployment's launch gets a class of its own.
    as_deployment(platform, "dep-1", Client(), sub="s-1")
    assert Context.objects.count() == 2
    assert Membership.objects.get(lti_user__sub="s-1").context.deployment.deployment_id == "dep-1"


def test_removing_a_deployment_removes_its_classes_only(two_deployments):
    _, contexts = classroom(two_deployments)
    removed = deployment_remove(deployment=contexts["dep-2"].deployment)
    assert removed["lti.Context"] == 1 and removed["lti.ResourceLink"] == 1
    assert list(Context.objects.all()) == [contexts["dep-1"]]
    assert LinkLearner.objects.get().lti_user.sub == "s-1"
