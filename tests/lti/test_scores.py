"""Grade passback (AGS): scores reach the platform once per attempt, and wait out an outage."""

import importlib
import uuid

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from courses.models import CourseCopy
from lti.models import LtiUser, Score
from lti.tasks import send_pending_scores, send_score
from practice import services
from tests.practice.answers import right_answer, wrong_answer

from .conftest import launch

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
    assert all(s.tries > 1 and "503" in s.last_error for s in pending)  # retried with backoff

    platform.down = False
    time_machine.move_to(pending[-1].timestamp.timestamp() + 120)
    assert send_pending_scores.apply().get() == 2
    assert len(platform.scores) == 2
    assert set(Score.objects.values_list("status", flat=True)) == {Score.Status.SENT}
    # The sweep finds nothing more to send: nothing is sent twice.
    assert send_pending_scores.apply().get() == 0
    assert len(platform.scores) == 2


def test_a_score_the_platform_refuses_for_good_is_not_retried(
    platform, linked_copy, eager_celery, django_capture_on_commit_callbacks
):
    platform.tokens.clear()
    platform.row.auth_token_url = f"{platform.url}/missing"  # 404: no retry helps
    platform.row.save(update_fields=["auth_token_url"])
    answer(linked_copy, django_capture_on_commit_callbacks, right=True)
    score = Score.objects.get()
    assert (score.status, score.tries) == (Score.Status.FAILED, 1)


def test_retry_delays_grow_and_are_capped():
    from lti.tasks import SCORE_MAX_DELAY, retry_delay

    delays = [retry_delay(n) for n in range(10)]
    assert delays[:3] == [30, 60, 120]
    assert delays == sorted(delays)
    assert max(delays) == SCORE_MAX_DELAY


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
