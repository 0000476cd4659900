"""Review pages end to end: a mistake made in practice, recalled and reviewed in the browser's
place (the test client), through practice's answer flow."""

import re
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from grading import mistaken_answers
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem, ReviewSettings
from practice.review.services.review_settings import review_settings_get_or_create
from practice.services import attempt_submit
from tests.answers import right_answer, typed

from .conftest import NOW, make_copy, make_problem


def _mistake_made(copy) -> ReviewItem:
    """Answer a practice problem with the omitted-term mistake at NOW; return its item."""
    problem = make_problem(copy)
    wrong = next(
        v for d, v in mistaken_answers(problem.spec) if d.mistake == "omitted_term" and d.terms
    )
    with time_machine.travel(NOW, tick=False):
        attempt_submit(copy=copy, problem=problem, text=typed(wrong), token=uuid.uuid4())
    return ReviewItem.objects.get(copy=copy)


@pytest.fixture
def signed_in(client, copy):
    client.force_login(copy.owner)
    return client


def test_queue_lists_due_reviews_and_the_review_recalls_then_asks_afresh(signed_in, copy):
    item = _mistake_made(copy)
    with time_machine.travel(item.due + timedelta(minutes=1), tick=False):
        queue = signed_in.get(reverse("review:queue", args=[copy.pk]))
        assert queue.status_code == 200
        assert "1 review is due." in queue.text
        assert reverse("review:review", args=[copy.pk, item.pk]) in queue.text

        page = signed_in.get(reverse("review:review", args=[copy.pk, item.pk]))
    assert page.status_code == 200
    html = page.text
    # The recall comes first, folded away, with the learner's answer and the reason given.
    recall = html.index('<details class="review-recall"')
    assert recall < html.index("A fresh problem") < html.index('id="answer-form"')
    assert item.source_attempt.text in html
    variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
    assert reverse("review:answer", args=[copy.pk, variant.pk]) in html


def test_answering_right_says_when_the_mistake_comes_back(signed_in, copy):
    item = _mistake_made(copy)
    at = item.due + timedelta(minutes=1)
    with time_machine.travel(at, tick=False):
        signed_in.get(reverse("review:review", args=[copy.pk, item.pk]))
        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        right = right_answer(variant)
        response = signed_in.post(
            reverse("review:answer", args=[copy.pk, variant.pk]),
            {"text": right, "token": str(uuid.uuid4())},
        )
        attempt = Attempt.objects.get(problem=variant)
        assert response.status_code == 302
        assert response["Location"] == reverse("review:result", args=[copy.pk, attempt.pk])
        result = signed_in.get(response["Location"])
    assert result.status_code == 200
    item.refresh_from_db()
    days = round((item.due - at).total_seconds() / 86400)
    assert days >= 1
    expected = f"in {days} day" + ("s" if days != 1 else "")
    assert re.search(rf"This mistake comes back {expected} \(", result.text)
    assert 'id="answer-form"' not in result.text  # nothing to retry


def test_a_wrong_review_answer_offers_a_retry_and_comes_back_within_the_hour(
    signed_in, copy, settings
):
    # An answer no catalogued mistake explains rates the item only without unexplained items.
    settings.REVIEW_UNEXPLAINED_ITEMS = False
    item = _mistake_made(copy)
    at = item.due + timedelta(minutes=1)
    with time_machine.travel(at, tick=False):
        signed_in.get(reverse("review:review", args=[copy.pk, item.pk]))
        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        response = signed_in.post(
            reverse("review:answer", args=[copy.pk, variant.pk]),
            {"text": "[100, 100]", "token": str(uuid.uuid4())},
        )
        result = signed_in.get(response["Location"])
    assert "This mistake comes back in 1 hour" in result.text
    assert reverse("review:answer", args=[copy.pk, variant.pk]) in result.text


def test_review_pages_are_404_for_another_learner(client, copy):
    item = _mistake_made(copy)
    other = make_copy()
    client.force_login(other.owner)
    assert client.get(reverse("review:queue", args=[copy.pk])).status_code == 404
    assert client.get(reverse("review:review", args=[copy.pk, item.pk])).status_code == 404
    assert client.get(reverse("review:review", args=[other.pk, item.pk])).status_code == 404
    assert client.get(reverse("review:export", args=[copy.pk])).status_code == 404


def test_review_pages_need_sign_in(client, copy):
    response = client.get(reverse("review:queue", args=[copy.pk]))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_answer_to_a_practice_problem_through_review_is_404(signed_in, copy):
    problem = make_problem(copy)
    response = signed_in.post(
        reverse("review:answer", args=[copy.pk, problem.pk]),
        {"text": "[1, 2]", "token": str(uuid.uuid4())},
    )
    assert response.status_code == 404


def test_settings_page_saves_valid_settings_and_refuses_bad_ones(signed_in, copy):
    url = reverse("review:settings")
    assert signed_in.get(url).status_code == 200
    good = {
        "desired_retention": "0.85",
        "time_zone": "Europe/Paris",
        "daily_limit": "15",
        "reminders": "",
    }
    assert signed_in.post(url, good).status_code == 302
    row = ReviewSettings.objects.get(user=copy.owner)
    assert (row.desired_retention, row.time_zone, row.daily_limit, row.reminders) == (
        0.85,
        "Europe/Paris",
        15,
        False,
    )
    bad = dict(good, desired_retention="1.5")
    assert signed_in.post(url, bad).status_code == 400
    assert ReviewSettings.objects.get(user=copy.owner).desired_retention == 0.85


def test_unsubscribe_link_works_without_sign_in_and_only_on_post(client, copy):
    token = review_settings_get_or_create(user_id=copy.owner.pk).unsubscribe_token
    url = reverse("review:unsubscribe", args=[token])
    assert client.get(url).status_code == 200
    assert ReviewSettings.objects.get(user=copy.owner).reminders is True  # a GET changes nothing
    response = client.post(url)
    assert response.status_code == 200
    assert "no more review reminders" in response.text
    assert ReviewSettings.objects.get(user=copy.owner).reminders is False


def test_unsubscribe_with_an_unknown_token_is_404(client, copy):
    review_settings_get_or_create(user_id=copy.owner.pk)
    assert (
        client.post(reverse("review:unsubscribe", args=["not-the-token-of-anyone"])).status_code
        == 404
    )


def test_dashboard_badge_counts_due_reviews(copy):
    from django.template.loader import render_to_string

    item = _mistake_made(copy)
    with time_machine.travel(item.due - timedelta(minutes=1), tick=False):
        before = render_to_string("review/dashboard_badge.html", {"copy": copy})
    with time_machine.travel(item.due, tick=False):
        after = render_to_string("review/dashboard_badge.html", {"copy": copy})
    assert "No reviews due" in before
    assert "1 review due" in after
    assert reverse("review:queue", args=[copy.pk]) in after


def test_export_downloads_json(signed_in, copy):
    _mistake_made(copy)
    response = signed_in.get(reverse("review:export", args=[copy.pk]))
    assert response.status_code == 200
    assert response.json()["items"][0]["mistake"] == "omitted_term"


def test_an_empty_review_answer_is_refused_and_records_nothing(signed_in, copy):
    item = _mistake_made(copy)
    with time_machine.travel(item.due + timedelta(minutes=1), tick=False):
        signed_in.get(reverse("review:review", args=[copy.pk, item.pk]))
        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        response = signed_in.post(
            reverse("review:answer", args=[copy.pk, variant.pk]),
            {"text": "", "token": str(uuid.uuid4())},
        )
    assert response.status_code == 400
    assert 'id="answer-form"' in response.text
    assert not Attempt.objects.filter(problem=variant).exists()


def test_the_course_dashboard_shows_the_review_badge(course_copy, learner_client):
    # The foundation's dashboard includes review/dashboard_badge.html with the copy in context.
    with time_machine.travel(NOW, tick=False):
        _mistake_made(course_copy)
    with time_machine.travel(NOW + timedelta(days=1), tick=False):
        response = learner_client.get(reverse("courses:dashboard"))
    assert response.status_code == 200
    assert 'id="review-badge"' in response.text
    assert "1 review due" in response.text
    assert reverse("review:queue", args=[course_copy.pk]) in response.text
