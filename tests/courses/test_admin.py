"""Authors see courses, versions, pages and copies in the admin; loaded content is read-only."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from courses.models import Page

pytestmark = pytest.mark.django_db


@pytest.fixture
def author_client(client_for):
    author = get_user_model().objects.create_superuser(
        username="author", email="author@example.org", password="x-long-admin-pass-1"
    )
    return client_for(author)


@pytest.mark.parametrize("model", ["course", "courseversion", "page", "coursecopy", "note"])
def test_admin_lists_course_models(author_client, course_copy, model):
    response = author_client.get(reverse(f"admin:courses_{model}_changelist"))

    assert response.status_code == 200


def test_admin_shows_a_page_with_its_ideas_read_only(author_client, course):
    page = Page.objects.get(version=course, slug="first-page")

    response = author_client.get(reverse("admin:courses_page_change", args=[page.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "one-row" in html and "weighted-sum" in html
    assert 'name="title"' not in html  # shown, not editable
    assert author_client.get(reverse("admin:courses_courseversion_add")).status_code == 403


def test_admin_shows_a_learners_copy(author_client, course_copy):
    response = author_client.get(reverse("admin:courses_coursecopy_change", args=[course_copy.pk]))

    assert response.status_code == 200
    assert course_copy.owner.username in response.content.decode()


def test_learners_cannot_open_the_admin(learner_client):
    response = learner_client.get(reverse("admin:index"))

    assert response.status_code == 302
