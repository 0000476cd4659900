"""The practice loop's pages ask their templates for nothing that is missing: a failed variable
lookup raises and catches an exception inside Django's template engine, the cost of a dozen
plain lookups, on every request."""

import uuid

import pytest
from django.template import base
from django.urls import reverse

from tests.answers import right_answer, wrong_answer

from .conftest import PAGE_SLUG


@pytest.fixture
def failed_lookups(monkeypatch) -> list[str]:
    failed: list[str] = []
    real = base.VariableDoesNotExist.__init__

    def init(self, msg, params=()):
        failed.append(msg % params if params else msg)
        real(self, msg, params)

    monkeypatch.setattr(base.VariableDoesNotExist, "__init__", init)
    return failed


def test_the_problem_verdict_and_course_pages_make_no_failed_lookup(
    learner_client, copy, problem, failed_lookups
):
    problem_url = reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk})
    pages = {"problem page": problem_url}
    for name, text in (("wrong", wrong_answer(problem)), ("right", right_answer(problem))):
        response = learner_client.post(problem_url, {"text": text, "token": str(uuid.uuid4())})
        assert response.status_code == 302
        pages[f"Verdict of a {name} answer"] = response["Location"]
    pages["solved problem page"] = problem_url
    pages["course page"] = reverse(
        "courses:page", kwargs={"copy_id": copy.pk, "page_slug": PAGE_SLUG}
    )
    for name, url in pages.items():
        failed_lookups.clear()
        assert learner_client.get(url).status_code == 200, name
        assert failed_lookups == [], name
