import json
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from grading.kinds import Status
from practice import services
from practice.labels import mistake_label
from practice.models import Attempt, ProblemInstance
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG


def _problem_url(problem) -> str:
    return reverse(
        "practice:problem", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )


def _preview_url(problem) -> str:
    return reverse(
        "practice:preview", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def test_open_link_creates_the_problem_once_and_redirects_to_it(learner_client, copy):
    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": PAGE_SLUG,
            "idea_slug": IDEA_SLUG,
            "kind": "weighted_sum",
        },
    )
    first = learner_client.get(url)
    second = learner_client.get(url)
    problem = ProblemInstance.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == _problem_url(problem)


def test_open_link_for_a_kind_the_idea_lacks_is_404(learner_client, copy):
    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": PAGE_SLUG,
            "idea_slug": "one-row",
            "kind": "contrast",
        },
    )
    assert learner_client.get(url).status_code == 404
    assert not ProblemInstance.objects.exists()


def test_course_page_links_each_kind_to_practice(learner_client, copy):
    page = learner_client.get(
        reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": PAGE_SLUG})
    )
    html = page.content.decode()
    for kind in ("weighted_sum", "contrast", "content_weights"):
        assert f"/course/{copy.pk}/pages/{PAGE_SLUG}/ideas/{IDEA_SLUG}/{kind}/" in html


def test_problem_page_shows_statement_picture_form_with_token_and_live_preview(
    learner_client, problem
):
    response = learner_client.get(_problem_url(problem))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<math" in html  # the statement's TeX became MathML
    assert '<figure class="problem__picture"' in html and "<svg" in html
    assert 'name="token"' in html
    assert f'hx-post="{_preview_url(problem)}"' in html
    assert 'hx-trigger="input changed delay:400ms"' in html
    assert f'formaction="{_preview_url(problem)}"' in html  # the Preview button without JS


def test_wrong_answer_redirects_to_a_verdict_with_the_reason_and_both_pictures(
    learner_client, problem
):
    diagnosis, text = wrong_answer(problem)
    response = learner_client.post(
        _problem_url(problem), {"text": text, "token": str(uuid.uuid4())}
    )
    attempt = Attempt.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "practice:attempt", kwargs={"copy_id": problem.copy_id, "attempt_id": attempt.pk}
    )
    page = learner_client.get(response["Location"])
    html = page.content.decode()
    assert "Not quite." in html
    assert 'class="verdict__explanation"' in html
    assert '<figure class="verdict__picture"' in html
    assert mistake_label(diagnosis.mistake) in html
    # Try again: the form is offered again with the answer and a new token.
    assert 'name="token"' in html and str(attempt.form_token) not in html


def test_right_answer_shows_correct_and_no_form(learner_client, problem):
    response = learner_client.post(
        _problem_url(problem),
        {"text": right_answer(problem), "token": str(uuid.uuid4())},
        follow=True,
    )
    html = response.content.decode()
    assert "Correct." in html
    assert 'id="answer-form"' not in html
    assert "New variant" in html


def test_invalid_answer_says_where_and_that_it_cost_nothing(learner_client, problem):
    response = learner_client.post(
        _problem_url(problem), {"text": "[1/2, (", "token": str(uuid.uuid4())}, follow=True
    )
    html = response.content.decode()
    assert "could not be read" in html
    assert "cost nothing" in html
    assert Attempt.objects.get().status == Status.INVALID


def test_double_submit_records_one_attempt_and_shows_the_same_verdict(learner_client, problem):
    data = {"text": wrong_answer(problem)[1], "token": str(uuid.uuid4())}
    first = learner_client.post(_problem_url(problem), data)
    second = learner_client.post(_problem_url(problem), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Attempt.objects.count() == 1


def test_answer_without_token_is_refused_with_the_form_again(learner_client, problem):
    response = learner_client.post(_problem_url(problem), {"text": "[1, 2]"})
    assert response.status_code == 400
    assert not Attempt.objects.exists()
    # The form comes back with the text and a fresh token, so checking again works.
    form = response.context["form"]
    assert form.initial["text"] == "[1, 2]" and form.initial["token"]
    assert "not recorded" in response.content.decode()


def test_answer_to_a_solved_problem_is_not_recorded(learner_client, problem, submit):
    submit(problem, right_answer(problem))
    response = learner_client.post(
        _problem_url(problem), {"text": "[1, 2]", "token": str(uuid.uuid4())}, follow=True
    )
    assert "not recorded" in response.content.decode()
    assert Attempt.objects.count() == 1


def test_htmx_preview_returns_the_reading_only(learner_client, problem):
    response = learner_client.post(
        _preview_url(problem), {"text": "[1/2, 3/4]"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Your answer was read as" in html and "<math" in html
    assert "<html" not in html
    assert not Attempt.objects.exists()


def test_htmx_preview_of_unreadable_text_says_what_went_wrong(learner_client, problem):
    response = learner_client.post(
        _preview_url(problem), {"text": "[1/2, "}, headers={"HX-Request": "true"}
    )
    assert "Not readable yet" in response.content.decode()


def test_preview_button_without_javascript_renders_the_page_keeping_text_and_token(
    learner_client, problem
):
    token = str(uuid.uuid4())
    response = learner_client.post(_preview_url(problem), {"text": "[1/2, 3/4]", "token": token})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and "Your answer was read as" in html
    assert token in html and "[1/2, 3/4]</textarea>" in html
    assert not Attempt.objects.exists()


def test_preview_is_rate_limited_per_learner_with_a_polite_429(
    learner_client, client_for, other_learner, problem, settings
):
    settings.PRACTICE_PREVIEW_RATE = "3/m"
    htmx = {"HX-Request": "true"}
    statuses = [
        learner_client.post(_preview_url(problem), {"text": "[1, 2]"}, headers=htmx).status_code
        for _ in range(4)
    ]
    assert statuses == [200, 200, 200, 429]
    refused = learner_client.post(_preview_url(problem), {"text": "[1, 2]"}, headers=htmx)
    assert refused.status_code == 429
    assert "Wait a few seconds" in refused.content.decode()
    assert "<html" not in refused.content.decode()  # not an error page


def test_history_lists_attempts_newest_first_twenty_a_page(learner_client, problem, submit, copy):
    for n in range(23):
        submit(problem, f"[{n}, (")
    url = reverse("practice:history", kwargs={"copy_id": copy.pk})
    first = learner_client.get(url)
    second = learner_client.get(url, {"page": 2})
    assert len(first.context["page"].object_list) == 20
    assert len(second.context["page"].object_list) == 3
    texts = [a.text for a in first.context["page"].object_list]
    assert texts[0] == "[22, ("
    assert texts == sorted(texts, key=lambda t: -int(t[1:].split(",")[0]))
    assert "Page 1 of 2" in first.content.decode()


def test_export_is_a_json_attachment_of_the_whole_copy(learner_client, problem, submit, copy):
    submit(problem, wrong_answer(problem)[1])
    response = learner_client.get(reverse("practice:export", kwargs={"copy_id": copy.pk}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    data = json.loads(response.content)
    assert data["problems"][0]["spec"] == problem.spec
    assert data["attempts"][0]["verdict"]["status"] == "incorrect"
    assert {"progress", "notes", "review"} <= data.keys()


def test_new_variant_button_replaces_the_problem(learner_client, problem):
    response = learner_client.post(
        reverse(
            "practice:new_variant", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
        )
    )
    fresh = ProblemInstance.objects.get(state=ProblemInstance.State.OPEN)
    assert response["Location"] == _problem_url(fresh)
    replaced = learner_client.get(_problem_url(problem)).content.decode()
    assert "replaced by a new variant" in replaced
    assert _problem_url(fresh) in replaced


def test_anonymous_visitor_is_sent_to_sign_in(client, problem):
    response = client.get(_problem_url(problem))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_author_stats_count_mistakes_over_learners_with_examples(
    client_for, staff, make_user, course, django_assert_max_num_queries
):
    from courses.services import copy_get_or_create

    for name in ("u1", "u2"):
        copy = copy_get_or_create(user=make_user(username=name), course_slug=course.course.slug)
        problem = services.problem_open(
            copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
        )
        diagnosis, text = wrong_answer(problem)
        services.attempt_submit(copy=copy, problem=problem, text=text, token=uuid.uuid4())
        services.attempt_submit(copy=copy, problem=problem, text="[(", token=uuid.uuid4())
    author = client_for(staff)
    url = reverse("practice:stats_kind", kwargs={"kind": "weighted_sum"})
    with django_assert_max_num_queries(12):
        response = author.get(url)
    stats = response.context["stats"]
    assert (stats.attempts, stats.incorrect, stats.invalid, stats.learners) == (4, 2, 2, 2)
    counted = {row.mistake: row for row in stats.mistakes}
    assert sum(row.count for row in stats.mistakes) == 2
    assert all(row.examples for row in stats.mistakes if row.count)
    assert counted[diagnosis.mistake].count >= 1
    assert "weighted_sum" in author.get(reverse("practice:stats")).content.decode()


def test_author_stats_queries_do_not_grow_with_attempts(
    client_for, staff, copy, problem, submit, django_assert_num_queries
):
    url = reverse("practice:stats_kind", kwargs={"kind": "weighted_sum"})
    author = client_for(staff)
    submit(problem, wrong_answer(problem)[1])
    author.get(url)  # warm the session and user lookups
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        author.get(url)
    for _ in range(15):
        submit(problem, wrong_answer(problem)[1])
    with CaptureQueriesContext(connection) as many:
        author.get(url)
    assert len(many) == len(few)


def test_cached_statement_belongs_to_its_own_problem(learner_client, problem, copy):
    from courses.mathml import render_markdown
    from practice.generators import render_statement

    learner_client.get(_problem_url(problem))  # fills the cache for the first problem
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    for shown in (fresh, problem):
        html = learner_client.get(_problem_url(shown)).content.decode()
        assert render_markdown(render_statement(shown.spec)) in html


@pytest.mark.parametrize(
    ("idea_slug", "kind"),
    [
        ("one-row", "lookup"),
        (IDEA_SLUG, "weighted_sum"),
        (IDEA_SLUG, "contrast"),
        (IDEA_SLUG, "content_weights"),
    ],
)
def test_every_kind_goes_from_open_to_wrong_to_right_over_http(
    learner_client, copy, idea_slug, kind
):
    opened = learner_client.get(
        reverse(
            "practice:problem_open",
            kwargs={
                "copy_id": copy.pk,
                "page_slug": PAGE_SLUG,
                "idea_slug": idea_slug,
                "kind": kind,
            },
        ),
        follow=True,
    )
    problem = opened.context["problem"]
    assert problem.kind == kind
    assert "<math" in opened.content.decode()
    diagnosis, wrong = wrong_answer(problem)
    verdict = learner_client.post(
        _problem_url(problem), {"text": wrong, "token": str(uuid.uuid4())}, follow=True
    )
    assert verdict.context["verdict"]["status"] == "incorrect"
    assert verdict.context["verdict"]["diagnosis"]["mistake"] == diagnosis.mistake
    assert "Not quite." in verdict.content.decode()
    right = learner_client.post(
        _problem_url(problem),
        {"text": right_answer(problem), "token": str(uuid.uuid4())},
        follow=True,
    )
    assert right.context["verdict"]["status"] == "correct"


def test_admin_lists_problems_and_attempts(client_for, make_user, problem, submit):
    submit(problem, wrong_answer(problem)[1])
    admin = make_user(username="root")
    admin.is_staff = admin.is_superuser = True
    admin.save(update_fields=["is_staff", "is_superuser"])
    client = client_for(admin)
    for name in ("admin:practice_probleminstance_changelist", "admin:practice_attempt_changelist"):
        assert client.get(reverse(name)).status_code == 200
    change = reverse("admin:practice_probleminstance_change", args=[problem.pk])
    assert client.get(change).status_code == 200


def test_a_right_answer_says_correct_once(learner_client, problem):
    response = learner_client.post(
        _problem_url(problem),
        {"text": right_answer(problem), "token": str(uuid.uuid4())},
        follow=True,
    )
    assert response.content.decode().count("Correct.") == 1


def test_the_caption_says_the_answer_is_drawn_when_the_picture_draws_it(learner_client, problem):
    response = learner_client.post(
        _problem_url(problem),
        {"text": wrong_answer(problem)[1], "token": str(uuid.uuid4())},
        follow=True,
    )
    html = response.content.decode()
    assert 'data-role="answer"' in html  # weighted_sum draws the learner's arrow
    assert "Your answer drawn beside the right one." in html
    assert "this picture does not draw yours" not in html


def test_opening_an_open_problem_again_takes_three_statements(
    learner_client, copy, problem, django_assert_num_queries
):
    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": problem.page_slug,
            "idea_slug": problem.idea_slug,
            "kind": problem.kind,
        },
    )
    learner_client.get(url)  # the version's page and its ideas are read once per process
    # user, the copy with its version, the open problem: the idea is not read again (the
    # session comes from the cache, Django's cached_db).
    with django_assert_num_queries(3):
        response = learner_client.get(url)
    assert response.status_code == 302
    assert response.url == reverse(
        "practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk}
    )


def test_the_written_out_token_is_the_hidden_input_django_draws(learner_client, problem):
    import re

    from django.template.loader import render_to_string

    from practice.forms import AnswerForm

    html = learner_client.get(_problem_url(problem)).content.decode()
    token = re.search(r'<input type="hidden" name="token" value="([^"]+)"', html).group(1)
    assert str(AnswerForm(initial={"token": uuid.UUID(token)})["token"]) in html
    # The preview without JavaScript draws the form bound to what was sent.
    response = learner_client.post(_preview_url(problem), {"text": "[1]", "token": token})
    assert str(response.context["form"]["token"]) in response.content.decode()

    # Bound to a token that is no UUID (escaped), or to none (no value at all).
    for sent in ({"text": "[1, 2]", "token": 'no<"uuid'}, {"text": "[1, 2]"}):
        bound = AnswerForm(sent)
        assert not bound.is_valid()
        drawn = render_to_string("practice/_answer_form.html", {"form": bound, "action_url": "/"})
        assert str(bound["token"]) in drawn
