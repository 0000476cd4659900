"""The "Show me how" button over HTTP: a CSRF-protected POST by the owner only, the worked
solution on the page (cached like the statement), and no way around the record."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

import grading
from courses.mathml import render_markdown
from grading.solution import solution
from practice import services
from practice.models import ProblemInstance, Reveal
from practice.review.codes import REVEALED
from practice.review.models import ReviewItem
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG


def _url(name: str, problem) -> str:
    return reverse(name, kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk})


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_problem_page_offers_show_me_how_as_a_form_post(learner_client, problem):
    html = learner_client.get(_url("practice:problem", problem)).content.decode()
    assert f'action="{_url("practice:reveal", problem)}"' in html
    assert "Show me how" in html
    assert "closes this problem without credit" in html
    assert 'id="solution"' not in html


def test_show_me_how_reveals_then_shows_the_steps(learner_client, problem):
    response = learner_client.post(_url("practice:reveal", problem))
    assert response.status_code == 302
    assert response["Location"] == _url("practice:problem", problem) + "?show=solution#solution"
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED
    assert ReviewItem.objects.filter(copy=problem.copy, mistake=REVEALED).count() == 1

    html = learner_client.get(response["Location"]).content.decode()
    worked = solution(problem.spec)
    assert render_markdown(worked.markdown()) in html
    assert worked.typed.replace('"', "&quot;") in html
    assert 'name="text"' not in html  # closed: no answer form
    assert "closed without credit" in html
    assert "New variant" in html


def test_a_revealed_problem_shows_its_solution_without_asking(learner_client, problem, copy):
    from practice import reveals

    reveals.problem_reveal(copy=copy, problem=problem)
    html = learner_client.get(_url("practice:problem", problem)).content.decode()
    assert 'id="solution"' in html
    assert "Show me how" not in html


def test_asking_to_show_on_an_open_problem_by_get_shows_nothing(learner_client, problem):
    html = learner_client.get(_url("practice:problem", problem) + "?show=solution").content
    assert b'id="solution"' not in html
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN


def test_show_me_how_on_a_solved_problem_shows_it_and_records_nothing(
    learner_client, problem, submit
):
    submit(problem, right_answer(problem))
    response = learner_client.post(_url("practice:reveal", problem), follow=True)
    assert b'id="solution"' in response.content
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.SOLVED
    assert not Reveal.objects.exists()


def test_show_me_how_twice_records_once(learner_client, problem):
    for _ in range(2):
        assert learner_client.post(_url("practice:reveal", problem)).status_code == 302
    assert Reveal.objects.count() == 1
    assert ReviewItem.objects.get(mistake=REVEALED).reps == 1


def test_show_me_how_after_a_wrong_answer_is_offered_on_the_verdict(
    learner_client, problem, submit
):
    attempt = submit(problem, wrong_answer(problem)[1])
    url = reverse("practice:attempt", kwargs={"copy_id": problem.copy_id, "attempt_id": attempt.pk})
    assert _url("practice:reveal", problem) in learner_client.get(url).content.decode()
    learner_client.post(_url("practice:reveal", problem))
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED


def test_show_me_how_is_post_only(learner_client, problem):
    assert learner_client.get(_url("practice:reveal", problem)).status_code == 405
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN


def test_show_me_how_needs_the_csrf_token(learner, problem):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    assert client.post(_url("practice:reveal", problem)).status_code == 403
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN


def test_another_learners_show_me_how_is_404_and_changes_nothing(
    client_for, other_learner, problem
):
    response = client_for(other_learner).post(_url("practice:reveal", problem))
    assert response.status_code == 404
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN
    assert not Reveal.objects.exists()


def test_the_solution_is_cached_like_the_statement(learner_client, problem, monkeypatch):
    from practice import reveals

    learner_client.post(_url("practice:reveal", problem))
    calls = []
    real = reveals.problem_solution
    monkeypatch.setattr(reveals, "problem_solution", lambda spec: calls.append(1) or real(spec))
    first = learner_client.get(_url("practice:problem", problem)).content
    second = learner_client.get(_url("practice:problem", problem)).content
    assert len(calls) == 1
    assert first.count(b"problem__steps") == second.count(b"problem__steps") == 1


def test_the_cached_solution_belongs_to_its_own_problem(learner_client, problem, copy):
    learner_client.post(_url("practice:reveal", problem))
    learner_client.get(_url("practice:problem", problem))  # fills the cache
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    learner_client.post(_url("practice:reveal", fresh))
    html = learner_client.get(_url("practice:problem", fresh)).content.decode()
    assert render_markdown(solution(fresh.spec).markdown()) in html


def test_the_review_page_offers_show_me_how(learner_client, problem, submit, copy):
    from practice.review.services.variants import review_open

    submit(problem, wrong_answer(problem)[1])
    item = ReviewItem.objects.get(copy=copy)
    variant = review_open(copy=copy, item=item)
    url = reverse("review:review", kwargs={"copy_id": copy.pk, "item_id": item.pk})
    assert _url("practice:reveal", variant) in learner_client.get(url).content.decode()


def test_every_kind_of_the_mini_course_shows_its_solution(learner_client, copy):
    for idea, kind in (
        ("one-row", "lookup"),
        (IDEA_SLUG, "weighted_sum"),
        (IDEA_SLUG, "contrast"),
        (IDEA_SLUG, "content_weights"),
    ):
        problem = services.problem_open(copy=copy, page_slug=PAGE_SLUG, idea_slug=idea, kind=kind)
        response = learner_client.post(_url("practice:reveal", problem), follow=True)
        assert response.status_code == 200
        assert b"problem__steps" in response.content, kind


def test_every_kind_of_the_real_course_shows_its_worked_solution(real_course, client_for, learner):
    from courses.models import Idea
    from courses.services import copy_get_or_create

    copy = copy_get_or_create(user=learner, course_slug=real_course.course.slug)
    client = client_for(learner)
    shown = set()
    for idea in Idea.objects.filter(page__version=real_course).select_related("page"):
        for kind in idea.problem_kinds or []:
            if kind in shown:
                continue
            problem = services.problem_open(
                copy=copy, page_slug=idea.page.slug, idea_slug=idea.slug, kind=kind
            )
            response = client.post(_url("practice:reveal", problem), follow=True)
            html = response.content.decode()
            assert response.status_code == 200, kind
            assert render_markdown(solution(problem.spec).markdown()) in html, kind
            assert "tex-error" not in html, kind
            shown.add(kind)
    assert shown == set(grading.KINDS)  # every kind, the declared ones among them
