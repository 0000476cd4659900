"""The learner's course copy over HTTP: dashboard, pages, notes, upgrade; nobody else gets in."""

import pytest
from django.urls import reverse

from courses.models import CourseCopy, Note
from courses.services import note_save, progress_record

pytestmark = pytest.mark.django_db


def page_url(copy, slug="first-page"):
    return reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": slug})


def note_url(copy, slug="first-page"):
    return reverse("courses:note", kwargs={"copy_id": copy.pk, "page_slug": slug})


def upgrade_url(copy):
    return reverse("courses:upgrade", kwargs={"copy_id": copy.pk})


def test_first_visit_creates_the_copy_and_lists_pages_and_ideas(course, learner, learner_client):
    response = learner_client.get(reverse("courses:dashboard"))

    assert response.status_code == 200
    copy = CourseCopy.objects.get(owner=learner)
    assert copy.version == course
    html = response.content.decode()
    assert "The First Page" in html and "The Second Page" in html
    assert page_url(copy) in html
    assert "One identifier selects one row" in html
    # The first page and its two ideas have bars; the page without practice says so instead.
    assert html.count('role="progressbar"') == 3
    assert "Practice is coming" in html


def test_dashboard_shows_progress_per_idea_and_page(course_copy, learner_client):
    progress_record(copy=course_copy, page_slug="first-page", idea_slug="one-row", correct=True)
    progress_record(copy=course_copy, page_slug="first-page", idea_slug="one-row", correct=False)

    html = learner_client.get(reverse("courses:dashboard")).content.decode()

    assert "1 right of 2" in html
    # One of five correct answers on one of the page's two ideas: 20% and 10%.
    assert 'aria-valuenow="20"' in html
    assert 'aria-valuenow="10"' in html


def test_page_renders_math_and_idea_boxes_at_their_markers(course_copy, learner_client):
    html = learner_client.get(page_url(course_copy)).content.decode()

    assert "<math" in html and "<mtable>" in html
    first_box = html.index('id="idea-one-row"')
    display = html.index('class="math-display"')
    second_box = html.index('id="idea-weighted-sum"')
    assert first_box < display < second_box
    assert "Look up a row" in html
    assert "::: idea" not in html


def test_idea_without_problem_kinds_says_practice_is_coming(course_copy, learner_client):
    html = learner_client.get(page_url(course_copy, "second-page")).content.decode()

    assert "Practice for this idea is coming." in html


def test_problem_kinds_link_to_practice_when_it_is_wired(course_copy, learner_client, settings):
    settings.ROOT_URLCONF = "tests.courses.urls_with_practice"

    html = learner_client.get(page_url(course_copy)).content.decode()

    expected = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": course_copy.pk,
            "page_slug": "first-page",
            "idea_slug": "weighted-sum",
            "kind": "contrast",
        },
    )
    assert f'href="{expected}"' in html


def test_note_is_saved_and_shown_again(course_copy, learner_client):
    response = learner_client.post(note_url(course_copy), {"text": "Weights add to one."})

    assert response.status_code == 302
    assert Note.objects.get(copy=course_copy, page_slug="first-page").text == "Weights add to one."
    html = learner_client.get(response.url).content.decode()
    assert "Weights add to one." in html
    assert "Your note is saved." in html


def test_note_that_is_too_long_is_refused(course_copy, learner_client):
    response = learner_client.post(note_url(course_copy), {"text": "x" * 20_001})

    assert response.status_code == 400
    assert not Note.objects.exists()


def test_note_on_an_unknown_page_is_404(course_copy, learner_client):
    response = learner_client.post(note_url(course_copy, "no-such-page"), {"text": "x"})

    assert response.status_code == 404
    assert not Note.objects.exists()


def test_unknown_page_is_404(course_copy, learner_client):
    assert learner_client.get(page_url(course_copy, "no-such-page")).status_code == 404


def test_raw_html_in_a_note_is_escaped(course_copy, learner_client):
    note_save(copy=course_copy, page_slug="first-page", text="<script>alert(1)</script>")

    html = learner_client.get(page_url(course_copy)).content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    ("method", "url_of"),
    [
        ("get", page_url),
        ("post", note_url),
        ("post", upgrade_url),
    ],
    ids=["page", "note", "upgrade"],
)
def test_another_learners_copy_is_404(course_copy, other_learner, client_for, method, url_of):
    note_save(copy=course_copy, page_slug="first-page", text="private")
    intruder = client_for(other_learner)

    response = getattr(intruder, method)(url_of(course_copy), {"text": "overwritten"})

    assert response.status_code == 404
    assert Note.objects.get(copy=course_copy).text == "private"
    assert "private" not in response.content.decode()


def test_another_learner_gets_their_own_copy(course_copy, other_learner, client_for):
    response = client_for(other_learner).get(reverse("courses:dashboard"))

    theirs = CourseCopy.objects.get(owner=other_learner)
    assert theirs.pk != course_copy.pk
    assert page_url(theirs) in response.content.decode()
    assert page_url(course_copy) not in response.content.decode()


@pytest.mark.parametrize(
    ("method", "url_of"),
    [
        ("get", page_url),
        ("post", note_url),
        ("post", upgrade_url),
    ],
    ids=["page", "note", "upgrade"],
)
def test_anonymous_visitor_is_sent_to_sign_in(course_copy, client, method, url_of):
    url = url_of(course_copy)

    response = getattr(client, method)(url, {"text": "x"} if method == "post" else None)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"
    assert not Note.objects.exists()


def test_note_and_upgrade_refuse_get(course_copy, learner_client):
    assert learner_client.get(note_url(course_copy)).status_code == 405
    assert learner_client.get(upgrade_url(course_copy)).status_code == 405


def test_dashboard_offers_the_upgrade_and_moving_keeps_notes(course_copy, learner_client, tmp_path):
    from tests.courses.test_services import load_changed_course

    note_save(copy=course_copy, page_slug="first-page", text="kept")
    newer = load_changed_course(tmp_path)

    html = learner_client.get(reverse("courses:dashboard")).content.decode()
    assert 'id="upgrade-offer"' in html
    assert f"Move to version {newer.number}" in html

    response = learner_client.post(upgrade_url(course_copy), follow=True)

    html = response.content.decode()
    assert 'id="upgrade-offer"' not in html
    assert "Third" in html
    course_copy.refresh_from_db()
    assert course_copy.version == newer
    assert "kept" in learner_client.get(page_url(course_copy)).content.decode()


def test_dashboard_before_any_course_is_loaded_is_404(learner_client, settings):
    settings.BASISLAB_COURSE_SLUG = "not-loaded"

    assert learner_client.get(reverse("courses:dashboard")).status_code == 404


# Continue's next step (practice.today): one statement (due items, the unfinished problem, the
# progress, the page worked on last and the answers per kind); the ideas are read once per process.
CONTINUE_QUERIES = 1
# The learner's zone and goal, today's count, the days in a row, the forecast and the weeks.
TODAY_QUERIES = 6


def test_page_and_dashboard_queries_do_not_grow_with_the_course(
    real_course, learner, learner_client, django_assert_num_queries
):
    learner_client.get(reverse("courses:dashboard"))
    copy = CourseCopy.objects.get(owner=learner)

    # User, copy with the note, page, ideas, page list, progress: no query per page or idea (the
    # session is read from the cache: Django's cached_db).
    with django_assert_num_queries(6 + CONTINUE_QUERIES):
        learner_client.get(page_url(copy, "the-same-word-twice"))
    # A version never changes, so its pages, ideas and page list are read once per process:
    # user, copy with the note, progress (and Continue's step).
    with django_assert_num_queries(3 + CONTINUE_QUERIES):
        learner_client.get(page_url(copy, "the-same-word-twice"))
    # User, the course, the copy, progress, the course's newest version and the review
    # badge's count (the pages and their ideas read once per process, as above), Continue's
    # step, and today's practice (its day and the numbers of its two pictures).
    with django_assert_num_queries(6 + CONTINUE_QUERIES + TODAY_QUERIES):
        learner_client.get(reverse("courses:dashboard"))


def test_pages_read_once_per_version_show_the_new_version_after_moving(
    course_copy, learner_client, tmp_path
):
    from tests.courses.test_services import load_changed_course

    # Read (and kept in memory) under the first version: no third page, the old idea slug.
    before = learner_client.get(page_url(course_copy, "second-page")).content.decode()
    assert page_url(course_copy, "third-page") not in before
    assert learner_client.get(page_url(course_copy, "third-page")).status_code == 404
    load_changed_course(tmp_path)
    learner_client.post(upgrade_url(course_copy))

    second = learner_client.get(page_url(course_copy, "second-page")).content.decode()
    first = learner_client.get(page_url(course_copy, "first-page")).content.decode()
    assert page_url(course_copy, "third-page") in second
    assert 'id="idea-one-id-one-row"' in first
    assert 'id="idea-one-row"' not in first
    assert learner_client.get(page_url(course_copy, "third-page")).status_code == 200


@pytest.mark.parametrize("text", ["", 'Weights <add> to "one".', "  "])
def test_the_written_out_note_box_is_the_one_django_draws(course_copy, learner_client, text):
    from courses.forms import NoteForm

    if text:
        note_save(copy=course_copy, page_slug="first-page", text=text)

    html = learner_client.get(page_url(course_copy)).content.decode()

    assert str(NoteForm(initial={"text": text})["text"]) in html


def test_the_written_out_note_box_with_an_error_is_the_one_django_draws(
    course_copy, learner_client
):
    from courses.forms import NoteForm

    response = learner_client.post(note_url(course_copy), {"text": "x" * 20_001})

    bound = NoteForm({"text": "x" * 20_001})
    assert not bound.is_valid()
    html = response.content.decode()
    assert str(bound["text"]) in html
    assert 'aria-invalid="true"' in html
    assert f'<p class="field__error">{bound.errors["text"][0]}</p>' in html
