"""Grade passback (AGS): scores reach the platform once per attempt, wait out an outage or a
token endpoint that refuses for a while, fail after a day (resent from the admin), and go to a
line item the tool makes when a link has none, at the line item's scoreMaximum."""

import importlib
import uuid
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from courses.models import CourseCopy
from lti.models import LtiUser, ResourceLink, Score
from lti.services import scores
from lti.services.scores import SCORE_MAX_DELAY, SCORE_RETRY_WINDOW, retry_delay
from lti.tasks import SCORE_MAX_RETRIES, SWEEP_GRACE, send_pending_scores, send_score
from practice import services
from tests.answers import right_answer, wrong_answer
from tests.practice.test_concurrency import RACERS, _race

from .conftest import launch
from .platform import LINEITEM_READ_SCOPE, LINEITEM_SCOPE, SCORE_SCOPE

IDEA = {"page": "first-page", "idea": "weighted-sum"}


@pytest.fixture
def linked_copy(platform):
    """A learner who came through the platform's link to the weighted-sum idea; their copy."""
    response, _, _ = launch(Client(), platform, sub="s-1", custom=IDEA)
    assert response.status_code == 302
    user = LtiUser.objects.get(sub="s-1").user
    return user.course_copies.get()


def answer(copy, capture, *, right: bool):
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    text = right_answer(problem) if right else wrong_answer(problem)[1]
    with capture(execute=True):
        return services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())


def test_wrong_then_right_sends_two_scores_with_the_dashboard_progress(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks
):
    answer(linked_copy, django_capture_on_commit_callbacks, right=False)
    answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    assert [(s["userId"], s["scoreGiven"], s["scoreMaximum"]) for s in platform.scores] == [
        ("s-1", 0.0, 1.0),
        ("s-1", 0.2, 1.0),  # one correct answer of the five that fill the idea's bar
    ]
    assert all(s["lineitem"] == "1" for s in platform.scores)
    assert set(Score.objects.values_list("status", flat=True)) == {Score.Status.SENT}


def test_a_task_run_twice_sends_one_score(
    platform, linked_copy, django_capture_on_commit_callbacks
):
    attempt = answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get(attempt=attempt)
    send_score.apply(args=[score.pk])
    send_score.apply(args=[score.pk])
    assert len(platform.scores) == 1
    score.refresh_from_db()
    assert (score.status, score.tries) == (Score.Status.SENT, 1)


def test_an_attempt_of_a_learner_without_a_link_owes_nothing(
    platform, course_copy, django_capture_on_commit_callbacks
):
    answer(course_copy, django_capture_on_commit_callbacks, right=True)
    assert not Score.objects.exists()


def test_a_launch_through_a_link_marks_every_copy_of_its_learner(platform, linked_copy):
    assert linked_copy.lti_linked
    assert not CourseCopy.objects.exclude(owner=linked_copy.owner).filter(lti_linked=True).exists()


def test_a_learner_who_never_came_through_a_link_runs_no_score_statement(
    platform, course_copy, django_capture_on_commit_callbacks
):
    problem = services.problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.attempt_submit(
            copy=course_copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
        )
    assert queries.captured_queries
    assert not [q for q in queries.captured_queries if "lti_" in q["sql"]]


def test_the_migration_marks_the_copies_of_learners_who_came_through_a_link(
    platform, linked_copy, course_copy
):
    CourseCopy.objects.update(lti_linked=False)
    migration = importlib.import_module("lti.migrations.0002_copies_of_linked_learners")
    migration.mark_linked_copies(django_apps, None)
    assert set(CourseCopy.objects.filter(lti_linked=True)) == {linked_copy}


def test_scores_wait_while_the_platform_is_down_and_arrive_once_it_is_back(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks, time_machine
):
    platform.down = True
    answer(linked_copy, django_capture_on_commit_callbacks, right=False)
    answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    assert platform.scores == []
    pending = list(Score.objects.order_by("timestamp"))
    assert [s.status for s in pending] == [Score.Status.PENDING] * 2
    # Every retry the task has was used (eager: without waiting), each noted on the row.
    assert all(s.tries == SCORE_MAX_RETRIES + 1 and "503" in s.last_error for s in pending)
    assert all(s.next_try_at > s.timestamp for s in pending)

    platform.down = False
    # Before the next try is due, the sweep leaves the scores to their retries.
    time_machine.move_to(pending[-1].timestamp.timestamp() + 120)
    assert send_pending_scores.apply().get() == 0
    # Once it is overdue (the waiting retry was lost), the sweep queues them.
    overdue = max(s.next_try_at for s in pending) + SWEEP_GRACE + timedelta(seconds=1)
    time_machine.move_to(overdue)
    assert send_pending_scores.apply().get() == 2
    assert len(platform.scores) == 2
    assert set(Score.objects.values_list("status", flat=True)) == {Score.Status.SENT}
    # The sweep finds nothing more to send: nothing is sent twice.
    assert send_pending_scores.apply().get() == 0
    assert len(platform.scores) == 2


@pytest.mark.parametrize("status", [400, 503])
def test_a_score_arrives_once_after_the_token_endpoint_recovers(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks, status
):
    # 400 invalid_client: what a platform answers until it fetched the tool's rotated key.
    platform.fail_tokens(status, 3)
    attempt = answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get(attempt=attempt)
    assert (score.status, score.tries, score.last_error) == (Score.Status.SENT, 4, "")
    assert platform.token_requests == 4
    assert [(s["userId"], s["scoreGiven"]) for s in platform.scores] == [("s-1", 0.2)]
    send_score.apply(args=[score.pk])
    assert len(platform.scores) == 1


def test_the_token_endpoints_refusal_is_noted_while_it_lasts(
    platform, linked_copy, django_capture_on_commit_callbacks, eager_celery
):
    platform.fail_tokens(400, 10**6)
    attempt = answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get(attempt=attempt)
    assert score.status == Score.Status.PENDING
    assert "HTTP 400" in score.last_error and "invalid_client" in score.last_error


def test_a_deleted_line_item_fails_the_score_without_retrying(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks, time_machine
):
    del platform.lineitems["1"]  # the teacher deleted the gradebook column
    attempt = answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get(attempt=attempt)
    assert (score.status, score.tries) == (Score.Status.FAILED, 1)
    assert "line item is gone" in score.last_error and "404" in score.last_error
    assert platform.token_requests == 1
    time_machine.move_to(score.timestamp.timestamp() + 3600)
    assert send_pending_scores.apply().get() == 0
    assert platform.token_requests == 1


def test_a_token_endpoint_answering_404_is_retried_not_failed(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks
):
    platform.row.auth_token_url = f"{platform.url}/missing"
    platform.row.save(update_fields=["auth_token_url"])
    answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get()
    assert score.status == Score.Status.PENDING
    assert "404" in score.last_error


def test_after_the_retry_window_a_score_is_failed_and_the_admin_resends_it_once(
    platform,
    linked_copy,
    eager_celery,
    django_capture_on_commit_callbacks,
    time_machine,
    admin_client,
):
    platform.fail_tokens(400, 10**6)
    attempt = answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get(attempt=attempt)
    assert score.status == Score.Status.PENDING
    # A day later the platform still refuses: the next try gives up.
    time_machine.move_to(score.pending_since + SCORE_RETRY_WINDOW + timedelta(minutes=1))
    assert send_pending_scores.apply().get() == 1
    score.refresh_from_db()
    assert score.status == Score.Status.FAILED
    assert score.last_error.startswith("gave up after")
    assert send_pending_scores.apply().get() == 0  # failed: no more tries
    assert platform.scores == []

    # The admin lists it among the failed scores, with its error.
    changelist = reverse("admin:lti_score_changelist")
    listed = admin_client.get(changelist, {"status__exact": "failed"})
    assert "invalid_client" in listed.content.decode()
    assert f'value="{score.pk}"' in listed.content.decode()

    platform.token_failures = []
    resend = {"action": "resend", "_selected_action": [score.pk]}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(changelist, resend, follow=True)
    assert "1 score queued to be sent again." in response.content.decode()
    score.refresh_from_db()
    assert (score.status, score.tries) == (Score.Status.SENT, 1)
    assert [(s["userId"], s["scoreGiven"]) for s in platform.scores] == [("s-1", 0.2)]

    # Resending a sent score sends nothing.
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(changelist, resend, follow=True)
    assert "only a failed score is sent again" in response.content.decode()
    assert len(platform.scores) == 1


def test_retry_delays_grow_are_capped_and_cover_the_window():
    delays = [retry_delay(n) for n in range(SCORE_MAX_RETRIES)]
    assert delays[:3] == [30, 60, 120]
    assert delays == sorted(delays)
    assert max(delays) == SCORE_MAX_DELAY
    # One task's retries reach past the retry window (the row's window decides when to stop).
    assert sum(delays) >= SCORE_RETRY_WINDOW.total_seconds()


def test_a_link_without_a_line_item_gets_one_and_its_scores_go_there(
    platform, eager_celery, django_capture_on_commit_callbacks
):
    scopes = (SCORE_SCOPE, LINEITEM_SCOPE)
    launch(Client(), platform, sub="s-3", custom=IDEA, lineitem="", ags_scopes=scopes)
    link = ResourceLink.objects.get()
    assert (link.lineitem_url, link.lineitems_url) == ("", f"{platform.url}/lineitems")
    copy = LtiUser.objects.get(sub="s-3").user.course_copies.get()
    answer(copy, django_capture_on_commit_callbacks, right=False)
    answer(copy, django_capture_on_commit_callbacks, right=True)

    made = {name: item for name, item in platform.lineitems.items() if name.startswith("made")}
    assert len(made) == 1  # one line item for the link, however many scores
    ((name, item),) = made.items()
    assert (item["resourceLinkId"], item["scoreMaximum"]) == ("link-1", 1)
    assert item["label"] == "Practice"
    link.refresh_from_db()
    assert link.lineitem_url == f"{platform.url}/lineitems/{name}"
    assert [(s["lineitem"], s["scoreGiven"]) for s in platform.scores] == [(name, 0.0), (name, 0.2)]
    # A later launch whose claim names no line item keeps the one made.
    launch(Client(), platform, sub="s-3", custom=IDEA, lineitem="", ags_scopes=scopes)
    link.refresh_from_db()
    assert link.lineitem_url == f"{platform.url}/lineitems/{name}"


def test_a_line_item_made_by_an_earlier_try_is_found_not_made_twice(
    platform, eager_celery, django_capture_on_commit_callbacks
):
    scopes = (SCORE_SCOPE, LINEITEM_SCOPE)
    launch(Client(), platform, sub="s-3", custom=IDEA, lineitem="", ags_scopes=scopes)
    # A try made it, then lost the platform's answer.
    platform.lineitems["kept"] = {
        "id": f"{platform.url}/lineitems/kept",
        "resourceLinkId": "link-1",
        "scoreMaximum": 4,
    }
    copy = LtiUser.objects.get(sub="s-3").user.course_copies.get()
    answer(copy, django_capture_on_commit_callbacks, right=True)
    assert not [name for name in platform.lineitems if name.startswith("made")]
    assert [(s["lineitem"], s["scoreGiven"], s["scoreMaximum"]) for s in platform.scores] == [
        ("kept", 0.8, 4.0)
    ]


def test_a_link_without_a_line_item_nor_the_right_to_make_one_owes_nothing(
    platform, eager_celery, django_capture_on_commit_callbacks
):
    launch(Client(), platform, sub="s-4", custom=IDEA, lineitem="")
    assert ResourceLink.objects.get().lineitems_url == ""
    copy = LtiUser.objects.get(sub="s-4").user.course_copies.get()
    answer(copy, django_capture_on_commit_callbacks, right=True)
    assert not Score.objects.exists()
    assert platform.token_requests == 0


def test_score_maximum_follows_the_line_item(
    platform, eager_celery, django_capture_on_commit_callbacks
):
    lineitem = platform.lineitem_url("ten", score_maximum=10)
    scopes = (SCORE_SCOPE, LINEITEM_READ_SCOPE)
    launch(Client(), platform, sub="s-5", custom=IDEA, lineitem=lineitem, ags_scopes=scopes)
    copy = LtiUser.objects.get(sub="s-5").user.course_copies.get()
    answer(copy, django_capture_on_commit_callbacks, right=True)
    # The teacher makes the column worth 20 points.
    platform.lineitems["ten"]["scoreMaximum"] = 20
    answer(copy, django_capture_on_commit_callbacks, right=True)
    assert [(s["scoreGiven"], s["scoreMaximum"]) for s in platform.scores] == [
        (2.0, 10.0),
        (8.0, 20.0),  # two correct of five: 0.4 of 20
    ]
    assert ResourceLink.objects.get().score_maximum == 20
    assert list(Score.objects.order_by("timestamp").values_list("score_maximum", flat=True)) == [
        10,
        20,
    ]


def test_a_score_the_hook_missed_is_recorded_and_sent_by_the_sweep(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks, time_machine
):
    # The process stops right after the attempt commits: its callback never runs.
    problem = services.problem_open(
        copy=linked_copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    with django_capture_on_commit_callbacks(execute=False):
        attempt = services.attempt_submit(
            copy=linked_copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
        )
    assert not Score.objects.exists()
    time_machine.move_to(attempt.created_at.timestamp() + 120)
    assert send_pending_scores.apply().get() == 1
    assert Score.objects.get(attempt=attempt).status == Score.Status.SENT
    assert [s["scoreGiven"] for s in platform.scores] == [0.2]


def test_a_page_link_scores_the_mean_over_the_pages_practised_ideas(
    platform, django_capture_on_commit_callbacks
):
    launch(Client(), platform, sub="s-2", custom={"page": "first-page"}, link_id="page-link")
    copy = LtiUser.objects.get(sub="s-2").user.course_copies.get()
    answer(copy, django_capture_on_commit_callbacks, right=True)
    # first-page has two practised ideas: one correct answer of five on one of them.
    assert [s["scoreGiven"] for s in platform.scores] == [0.1]


# SQLite refuses a second writer instead of making it wait (tests/other_database.py).
@pytest.mark.database("postgresql")
@pytest.mark.django_db(transaction=True)
def test_scores_of_a_new_link_sent_at_once_make_one_line_item(platform):
    scopes = (SCORE_SCOPE, LINEITEM_SCOPE)
    launch(Client(), platform, sub="s-6", custom=IDEA, lineitem="", ags_scopes=scopes)
    copy = LtiUser.objects.get(sub="s-6").user.course_copies.get()
    # The attempts are made without the hook; their scores are recorded, none sent yet.
    CourseCopy.objects.filter(pk=copy.pk).update(lti_linked=False)
    copy.refresh_from_db()
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    ids = []
    for _ in range(RACERS):
        attempt = services.attempt_submit(
            copy=copy, problem=problem, text=wrong_answer(problem)[1], token=uuid.uuid4()
        )
        (score,) = scores.scores_record(
            attempt_id=attempt.pk,
            user_id=copy.owner_id,
            page_slug="first-page",
            idea_slug="weighted-sum",
        )
        ids.append(score.pk)
    platform.lineitem_delay = 0.3  # each racer would make its own line item in this time
    queue = iter(ids)
    sent = _race(lambda: scores.score_send(score_id=next(queue)))
    assert sorted(score.pk for score in sent) == sorted(ids)
    (made,) = [name for name in platform.lineitems if name.startswith("made")]
    assert {s["lineitem"] for s in platform.scores} == {made}
    assert len(platform.scores) == RACERS
    assert set(Score.objects.values_list("status", flat=True)) == {Score.Status.SENT}
