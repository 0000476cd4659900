"""Plain resource links (placed without deep linking, so no custom ``page``/``idea``): the
instructor chooses what the link shows, learners before that get the course's first page with a
note, and scores follow once the link is set up."""

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lti.models import Context, LaunchNonce, LinkLearner, LtiUser, Membership, ResourceLink, Score
from lti.selectors import class_columns
from lti.services import scores
from practice import services
from tests.answers import right_answer

from .conftest import auth_params, launch, login_step
from .platform import INSTRUCTOR, LINEITEM_SCOPE, SCORE_SCOPE
from .test_launch import stored

NOTE = "Your instructor has not chosen what this link shows yet"
IDEA_CHOICE = "idea:first-page/weighted-sum"


def plain(client: Client, platform, *, sub: str, teacher: bool = False, **claims):
    """Launch the platform's link ``link-1`` with no custom parameters."""
    roles = (INSTRUCTOR,) if teacher else claims.pop("roles", None)
    extra = {"roles": roles} if roles else {}
    response, _, _ = launch(client, platform, sub=sub, **extra, **claims)
    assert response.status_code == 302, response.content[:300]
    return response


def choose(client: Client, link: ResourceLink, target: str | None):
    return client.post(
        reverse("lti:link_setup", args=[link.pk]), {"target": target} if target else {}
    )


def answer(copy, capture):
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    with capture(execute=True):
        return services.attempt_submit(
            copy=copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
        )


def copy_of(sub: str):
    return LtiUser.objects.get(sub=sub).user.course_copies.get()


def test_learner_first_gets_the_first_page_with_a_note_then_is_scored_once_set_up(
    platform, django_capture_on_commit_callbacks
):
    learner = Client()
    response = plain(learner, platform, sub="s-1")
    copy = copy_of("s-1")
    assert response["Location"] == reverse(
        "courses:page", kwargs={"copy_id": copy.pk, "page_slug": "first-page"}
    )
    page = learner.get(response["Location"]).content.decode().replace("&#x27;", "'")
    assert NOTE in page
    link = ResourceLink.objects.get()
    assert (link.target, link.page_slug, link.idea_slug, link.set_up) == ("", "", "", False)
    assert LinkLearner.objects.filter(link=link, lti_user__sub="s-1").exists()

    # Before the link is set up, an attempt owes nothing.
    answer(copy, django_capture_on_commit_callbacks)
    assert not Score.objects.exists()
    assert platform.scores == []

    # The instructor's launch of the same link opens its setup page.
    teacher = Client()
    response = plain(teacher, platform, sub="t-1", teacher=True)
    assert response["Location"] == reverse("lti:link_setup", args=[link.pk])
    page = teacher.get(response["Location"])
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="lti-framed-header"' in text
    assert "Sign out" not in text and "site-nav" not in text
    radios = re.findall(r"<input[^>]*type=\"radio\"[^>]*>", text)
    assert len(radios) > 2 and not [radio for radio in radios if "checked" in radio]
    saved = choose(teacher, link, IDEA_CHOICE)
    assert saved.status_code == 302
    assert saved["Location"] == reverse("lti:class", args=[link.context_id])
    assert "now shows Idea:" in teacher.get(saved["Location"]).content.decode()
    link.refresh_from_db()
    assert (link.target, link.page_slug, link.idea_slug) == ("idea", "first-page", "weighted-sum")

    # The learner's next attempt on the chosen idea is scored and reaches the gradebook.
    attempt = answer(copy, django_capture_on_commit_callbacks)
    score = Score.objects.get(attempt=attempt)
    assert score.status == Score.Status.SENT
    assert [(s["userId"], s["scoreGiven"]) for s in platform.scores] == [("s-1", 0.4)]
    # The next launch goes to what the link shows, with no note.
    response = plain(Client(), platform, sub="s-1")
    assert "/ideas/weighted-sum/" in response["Location"]


def test_instructor_first_chooses_then_every_learner_goes_there_without_a_note(platform):
    teacher = Client(enforce_csrf_checks=True)
    response = plain(teacher, platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    form = teacher.get(response["Location"])
    token = form.context["csrf_token"]
    # CSRF holds on the setup form: a post without the token is refused and changes nothing.
    assert choose(teacher, link, "page:second-page").status_code == 403
    link.refresh_from_db()
    assert link.target == ""
    saved = teacher.post(
        reverse("lti:link_setup", args=[link.pk]),
        {"target": "page:second-page", "csrfmiddlewaretoken": str(token)},
    )
    assert saved.status_code == 302
    for sub in ("s-1", "s-2"):
        learner = Client()
        response = plain(learner, platform, sub=sub)
        copy = copy_of(sub)
        assert response["Location"] == reverse(
            "courses:page", kwargs={"copy_id": copy.pk, "page_slug": "second-page"}
        )
        assert NOTE not in learner.get(response["Location"]).content.decode()
    # A later instructor launch of a link set up goes to the class view, which links the setup.
    response = plain(Client(), platform, sub="t-1", teacher=True)
    assert response["Location"] == reverse("lti:class", args=[link.context_id])
    page = teacher.get(response["Location"]).content.decode()
    assert reverse("lti:link_setup", args=[link.pk]) in page
    assert "Practice: Page: The Second Page · " in page
    assert "Change what it shows" in page


def test_a_change_of_target_sends_later_launches_and_scores_to_the_new_one(
    platform, django_capture_on_commit_callbacks
):
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    assert choose(teacher, link, "page:second-page").status_code == 302
    plain(Client(), platform, sub="s-1")
    copy = copy_of("s-1")
    # second-page has no practice: an attempt on first-page is not covered by the link.
    answer(copy, django_capture_on_commit_callbacks)
    assert not Score.objects.exists()
    # The setup page shows the current choice checked; the instructor changes it.
    page = teacher.get(reverse("lti:link_setup", args=[link.pk])).content.decode()
    (checked,) = [r for r in re.findall(r"<input[^>]*>", page) if "checked" in r]
    assert 'value="page:second-page"' in checked
    assert choose(teacher, link, "course").status_code == 302
    link.refresh_from_db()
    assert (link.target, link.page_slug, link.idea_slug) == ("course", "", "")
    response = plain(Client(), platform, sub="s-1")
    assert response["Location"] == reverse("courses:dashboard")
    # A whole-course link covers every attempt: the score is the course's progress (the mean
    # over its practised ideas: 2 correct of 5 on one idea of the two).
    answer(copy, django_capture_on_commit_callbacks)
    assert [s["scoreGiven"] for s in platform.scores] == [pytest.approx(0.2)]


def test_a_bad_choice_is_refused_with_a_message_and_changes_nothing(platform):
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    assert choose(teacher, link, "page:second-page").status_code == 302
    for target, words in (
        (None, "Pick the whole course, a page or an idea."),
        ("idea:first-page/no-such-idea", "Select a valid choice."),
    ):
        response = choose(teacher, link, target)
        assert response.status_code == 400
        assert words in response.content.decode()
    link.refresh_from_db()
    assert (link.target, link.page_slug) == ("page", "second-page")


def test_a_deep_linked_link_is_not_changed_on_the_setup_page(platform):
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True, custom={"page": "first-page"})
    link = ResourceLink.objects.get()
    assert (link.target, link.target_from_launch) == ("page", True)
    page = teacher.get(reverse("lti:link_setup", args=[link.pk]))
    assert page.status_code == 200
    assert 'id="lti-link-locked"' in page.content.decode()
    response = choose(teacher, link, "course")
    assert response.status_code == 400
    assert "placed by deep linking" in response.content.decode()
    link.refresh_from_db()
    assert link.target == "page"


def test_a_launch_naming_a_page_the_course_lacks_stores_nothing(platform):
    before = stored()
    response, _, _ = launch(Client(), platform, sub="s-1", custom={"page": "no-such-page"})
    assert response.status_code == 403
    assert "names nothing this course has" in response.content.decode()
    assert stored() == before == (0, 0, 0, 0, 0, 0)
    assert not Context.objects.exists()
    assert not LaunchNonce.objects.filter(used_at__isnull=False).exists()
    # A link already set up keeps its target when such a launch is refused.
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    choose(teacher, link, IDEA_CHOICE)
    before = stored()
    response, _, _ = launch(Client(), platform, sub="s-2", custom={"idea": "nope"})
    assert response.status_code == 403
    assert stored() == before
    link.refresh_from_db()
    assert (link.target, link.idea_slug) == ("idea", "weighted-sum")


def test_a_relaunch_writes_only_what_changed_and_never_clears_the_target(platform):
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    choose(teacher, link, IDEA_CHOICE)
    # The same launch again: nothing of the link is written.
    with CaptureQueriesContext(connection) as queries:
        plain(Client(), platform, sub="s-1")
    assert not [q for q in queries if q["sql"].startswith('UPDATE "lti_resourcelink"')]
    # A new line item and new scopes in the AGS claim: only those fields are written.
    new_item = platform.lineitem_url("2")
    with CaptureQueriesContext(connection) as queries:
        plain(
            Client(),
            platform,
            sub="s-1",
            lineitem=new_item,
            ags_scopes=(SCORE_SCOPE, LINEITEM_SCOPE),
        )
    (update,) = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "lti_resourcelink"')]
    assert '"lineitem_url"' in update and '"ags_scopes"' in update
    assert '"target"' not in update and '"page_slug"' not in update
    link.refresh_from_db()
    assert link.lineitem_url == new_item
    assert (link.target, link.page_slug, link.idea_slug) == ("idea", "first-page", "weighted-sum")


def test_the_setup_page_is_for_the_links_instructors_only(platform):
    plain(Client(), platform, sub="t-1", teacher=True)
    link = ResourceLink.objects.get()
    url = reverse("lti:link_setup", args=[link.pk])
    # A learner of the same context, and an instructor of another context: 404.
    learner = Client()
    plain(learner, platform, sub="s-1")
    assert Membership.objects.filter(lti_user__sub="s-1", instructor=False).exists()
    platform.context_id = "course-202"
    elsewhere = Client()
    plain(elsewhere, platform, sub="t-2", teacher=True, link_id="link-2")
    for client in (learner, elsewhere):
        assert client.get(url).status_code == 404
        assert client.post(url, {"target": "course"}).status_code == 404
    link.refresh_from_db()
    assert link.target == ""
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_note_survives_the_frame_its_cookie_is_samesite_none_over_https(platform):
    client = Client()
    params = auth_params(login_step(client, platform, sub="s-8", secure=True))
    token = platform.sign(platform.claims(sub="s-8", nonce=params["nonce"]))
    response = client.post(
        "/lti/launch/", {"id_token": token, "state": params["state"]}, secure=True
    )
    assert response.status_code == 302
    note = response.cookies["messages"]
    assert (note["samesite"], bool(note["secure"])) == ("None", True)
    page = client.get(response["Location"], secure=True).content.decode()
    assert NOTE in page.replace("&#x27;", "'")


def test_the_backfill_scores_a_link_only_once_it_is_set_up(
    platform, django_capture_on_commit_callbacks
):
    plain(Client(), platform, sub="s-1")
    copy = copy_of("s-1")
    attempt = answer(copy, django_capture_on_commit_callbacks)
    assert scores.scores_backfill() == 0
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    choose(teacher, ResourceLink.objects.get(), IDEA_CHOICE)
    # The attempt made before the choice is recorded by the sweep (the attempts table is the
    # durable record), once.
    assert scores.scores_backfill() == 1
    assert scores.scores_backfill() == 0
    assert Score.objects.get().attempt == attempt


def test_someone_never_scored_gets_the_note_without_the_gradebook(platform):
    mentor = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
    client = Client()
    response = plain(client, platform, sub="m-1", roles=(mentor,))
    page = client.get(response["Location"]).content.decode().replace("&#x27;", "'")
    assert NOTE in page
    assert "gradebook" not in page
    assert not LinkLearner.objects.exists()
    # A learner's note says their progress will count.
    learner = Client()
    response = plain(learner, platform, sub="s-1")
    assert "sent to your course's gradebook" in learner.get(
        response["Location"]
    ).content.decode().replace("&#x27;", "'")


def test_the_class_columns_follow_the_links_set_up(platform):
    teacher = Client()
    plain(teacher, platform, sub="t-1", teacher=True)
    context = Context.objects.get()
    every = [(c.page_slug, c.idea_slug) for c in class_columns(context=context)]
    assert len(every) > 1  # no link set up yet: every practised idea
    link = ResourceLink.objects.get()
    choose(teacher, link, IDEA_CHOICE)
    assert [(c.page_slug, c.idea_slug) for c in class_columns(context=context)] == [
        ("first-page", "weighted-sum")
    ]
    choose(teacher, link, "course")
    assert [(c.page_slug, c.idea_slug) for c in class_columns(context=context)] == every
