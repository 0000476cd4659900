"""The course and its answers open to everyone (issue 15), over HTTP with the test client."""

import pickle
import re
import shutil
from html import unescape
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from courses.models import Answer, CourseCopy, Page
from courses.presenters import kind_label
from courses.services import course_load, note_save, progress_record
from tests.conftest import REAL_COURSE_DIR

pytestmark = pytest.mark.django_db

SECRET_NOTE = "my-secret-note-about-bank-rows"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def page_url(slug: str) -> str:
    return reverse("public:page", kwargs={"page_slug": slug})


def answer_url(slug: str) -> str:
    return reverse("public:answer", kwargs={"answer_slug": slug})


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_every_page_reads_in_full_without_an_account(real_course, client):
    for page in Page.objects.filter(version=real_course).prefetch_related("ideas"):
        html = html_of(client.get(page_url(page.slug)))

        assert f"<h1>{page.title}</h1>" in html
        assert page.question in html
        assert "::: idea" not in html
        if "$" in page.body:
            assert "<math" in html, page.slug
        ideas = list(page.ideas.all())
        assert html.count('class="idea-box"') == len(ideas)
        for idea in ideas:
            box = html[html.index(f'id="idea-{idea.slug}"') :]
            box = unescape(box[: box.index("</section>")])
            assert idea.title in box
            # Each idea says what practice stands under it, by the kinds' labels.
            for kind in idea.problem_kinds:
                assert kind_label(kind) in box, (page.slug, idea.slug, kind)
            if not idea.problem_kinds:
                assert "No practice stands under this idea yet" in box
            # And invites the visitor to sign up, back into this page in their copy.
            next_url = reverse("public:page_open", kwargs={"page_slug": page.slug})
            signup = f"{reverse('signup')}?{urlencode({'next': next_url})}"
            assert f'href="{signup}"' in box, (page.slug, idea.slug)
            assert "Sign up" in box


def test_a_page_has_a_title_with_its_question_a_canonical_link_and_a_description(
    real_course, client, settings
):
    settings.SITE_URL = "https://basislab.example"
    page = Page.objects.get(version=real_course, slug="the-same-word-twice")

    html = html_of(client.get(page_url(page.slug)))

    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert page.question in unescape(title)
    canonical = f'<link rel="canonical" href="https://basislab.example{page_url(page.slug)}">'
    assert canonical in html
    description = re.search(r'<meta name="description" content="([^"]+)">', html).group(1)
    assert unescape(description).startswith(page.summary[:60])
    # The pager and the page's short answer link to public pages only.
    assert page_url("close-in-embedding-space") in html
    assert page_url("the-repetition-loop") in html
    assert answer_url("same-word-different-vector") in html
    assert "/course/1/pages/" not in html


def test_the_course_index_lists_every_page_its_question_ideas_and_answer(real_course, client):
    html = unescape(html_of(client.get(reverse("courses:dashboard"))))

    for page in Page.objects.filter(version=real_course).prefetch_related("ideas"):
        assert f'href="{page_url(page.slug)}"' in html
        assert page.question in html
        for idea in page.ideas.all():
            assert idea.title in html
    for answer in Answer.objects.filter(version=real_course):
        assert f'href="{answer_url(answer.slug)}"' in html
    assert reverse("signup") in html


def test_every_answer_reads_in_the_seed_s_shape(real_course, client):
    answers = list(Answer.objects.filter(version=real_course).select_related("page"))
    assert len(answers) == 7
    by_slug = {a.slug: a for a in answers}
    for answer in answers:
        html = unescape(html_of(client.get(answer_url(answer.slug))))

        assert re.search(r"<title>[^<]*" + re.escape(answer.question), html), answer.slug
        assert f"<h1>{answer.question}</h1>" in html
        order = [
            html.index("In short."),
            html.index('class="prose"'),
            html.index("Worth keeping"),
            html.index("Where this goes next"),
            html.index("Other questions people ask about this"),
        ]
        assert order == sorted(order), answer.slug
        if "$$" in answer.body:
            assert '<div class="math-display"><math' in html, answer.slug
        # Where this goes next: that page, the whole course, what an account adds.
        goes_next = html[html.index("Where this goes next") :]
        assert f'href="{page_url(answer.page.slug)}"' in goes_next
        assert "Read that page" in goes_next
        assert f'href="{reverse("courses:dashboard")}">The whole course' in goes_next
        assert "An account adds the practice" in goes_next
        kinds = {k for idea in answer.page.ideas.all() for k in idea.problem_kinds}
        for kind in kinds:
            assert kind_label(kind) in goes_next
        # Other questions: one-line answers linking to their pages.
        others = html[html.index("Other questions people ask about this") :]
        for slug in answer.related:
            assert f'href="{answer_url(slug)}"' in others
            assert by_slug[slug].question in others
            assert by_slug[slug].summary[:50] in others


def test_the_answers_index_lists_every_question(real_course, client):
    html = unescape(html_of(client.get(reverse("public:answers"))))

    for answer in Answer.objects.filter(version=real_course):
        assert f'href="{answer_url(answer.slug)}"' in html
        assert answer.question in html


def test_home_leads_to_the_course_the_answers_and_sign_up(real_course, client):
    html = unescape(html_of(client.get(reverse("home"))))

    assert f'href="{reverse("courses:dashboard")}"' in html
    assert f'href="{reverse("public:answers")}"' in html
    assert f'href="{reverse("signup")}"' in html
    for answer in Answer.objects.filter(version=real_course):
        assert f'href="{answer_url(answer.slug)}"' in html


def test_home_without_a_loaded_course_still_answers(client, db):
    html = html_of(client.get(reverse("home")))

    assert reverse("signup") in html


def test_anonymous_pages_are_public_with_validators_and_a_repeat_visit_is_304(real_course, client):
    for url in (
        reverse("home"),
        reverse("courses:dashboard"),
        page_url("the-same-word-twice"),
        reverse("public:answers"),
        answer_url("why-models-repeat-themselves"),
    ):
        first = client.get(url)
        assert first.status_code == 200
        assert "public" in first["Cache-Control"] and "max-age=300" in first["Cache-Control"]
        assert "Cookie" in first["Vary"]
        assert first["ETag"].startswith('"') and first["Last-Modified"]
        assert not first.cookies, url  # no session or CSRF cookie on a public page

        again = client.get(url, headers={"if-none-match": first["ETag"]})
        assert again.status_code == 304, url
        assert again.content == b""
        assert again["ETag"] == first["ETag"]
        assert "public" in again["Cache-Control"]

        by_date = client.get(url, headers={"if-modified-since": first["Last-Modified"]})
        assert by_date.status_code == 304, url

        stale = client.get(url, headers={"if-none-match": '"something-else"'})
        assert stale.status_code == 200 and stale.content == first.content


def test_an_anonymous_page_is_rendered_once_then_served_with_one_query(
    real_course, client, django_assert_num_queries
):
    url = page_url("the-same-word-twice")
    client.get(url)

    # Only the newest version is read: the page comes from the cache.
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 200


def test_a_new_course_version_is_served_at_once(real_course, client, tmp_path):
    url = page_url("the-same-word-twice")
    before = client.get(url)
    copy_dir = tmp_path / "course"
    shutil.copytree(REAL_COURSE_DIR, copy_dir)
    path = copy_dir / "pages" / "the-same-word-twice.md"
    path.write_text(
        path.read_text().replace("title: The Same Word Twice", "title: One Word, Twice")
    )
    assert course_load(directory=copy_dir).created

    after = client.get(url, headers={"if-none-match": before["ETag"]})

    assert after.status_code == 200
    assert "<h1>One Word, Twice</h1>" in after.content.decode()
    assert after["ETag"] != before["ETag"]


def _learner_with_history(learner, real_course, client_for):
    client = client_for(learner)
    client.get(reverse("courses:dashboard"))  # makes the copy
    copy = CourseCopy.objects.get(owner=learner)
    note_save(copy=copy, page_slug="the-same-word-twice", text=SECRET_NOTE)
    for _ in range(2):
        progress_record(
            copy=copy, page_slug="the-same-word-twice", idea_slug="one-id-one-row", correct=True
        )
    return client, copy


def test_a_signed_in_learner_sees_the_page_with_their_copy_and_progress_privately(
    real_course, learner, client_for
):
    client, copy = _learner_with_history(learner, real_course, client_for)

    response = client.get(page_url("the-same-word-twice"))

    html = html_of(response)
    yours = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": "the-same-word-twice"})
    assert f'href="{yours}"' in html
    assert "Open it in your copy" in html
    assert f'href="{yours}#idea-one-id-one-row"' in html
    assert "2 right of 2" in html  # the idea's progress
    assert "Sign up to practise this" not in html
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    assert "public" not in response["Cache-Control"]
    assert "Cookie" in response["Vary"]
    assert "ETag" not in response
    # The copy's pages stay the learner's own.
    assert client.get(yours).status_code == 200


def test_nothing_of_a_learner_reaches_anonymous_pages_or_the_cache(
    real_course, learner, client_for
):
    client, copy = _learner_with_history(learner, real_course, client_for)
    urls = [
        reverse("home"),
        reverse("courses:dashboard"),
        reverse("public:answers"),
        *(page_url(p.slug) for p in Page.objects.filter(version=real_course)),
        *(answer_url(a.slug) for a in Answer.objects.filter(version=real_course)),
    ]
    for url in urls:  # signed in first: nothing of this may be cached for others
        assert client.get(url).status_code == 200

    anonymous = Client()
    copy_prefix = f"/course/{copy.pk}/"
    for url in urls:
        html = html_of(anonymous.get(url))
        for private in (learner.username, learner.email, SECRET_NOTE, copy_prefix, "Sign out"):
            assert private not in html, (url, private)
    cached = [pickle.loads(value) for value in cache._cache.values()]  # the locmem store
    assert cached, "anonymous pages are cached"
    for entry in cached:
        text = repr(entry)
        for private in (learner.username, learner.email, SECRET_NOTE, copy_prefix):
            assert private not in text, private


def test_the_page_link_into_the_copy_makes_the_copy_on_first_visit(real_course, learner):
    client = Client()
    client.force_login(learner, backend="django.contrib.auth.backends.ModelBackend")
    assert not CourseCopy.objects.filter(owner=learner).exists()

    response = client.get(reverse("public:page_open", kwargs={"page_slug": "the-repetition-loop"}))

    copy = CourseCopy.objects.get(owner=learner)
    assert response.status_code == 302
    assert response.url == reverse(
        "courses:page", kwargs={"copy_id": copy.pk, "page_slug": "the-repetition-loop"}
    )


def test_the_page_link_into_the_copy_sends_an_anonymous_visitor_to_sign_in(real_course, client):
    url = reverse("public:page_open", kwargs={"page_slug": "the-repetition-loop"})

    response = client.get(url)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


def test_sign_up_from_a_page_lands_on_that_page_in_the_new_copy(real_course, client):
    next_url = reverse("public:page_open", kwargs={"page_slug": "the-same-word-twice"})
    form = client.get(f"{reverse('signup')}?{urlencode({'next': next_url})}")
    assert f'name="next" value="{next_url}"' in form.content.decode()

    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "amber-falcon-ledger-19",
            "password2": "amber-falcon-ledger-19",
            "next": next_url,
        },
        follow=True,
    )

    copy = CourseCopy.objects.get(owner__username="newcomer")
    assert response.redirect_chain[-1][0] == reverse(
        "courses:page", kwargs={"copy_id": copy.pk, "page_slug": "the-same-word-twice"}
    )


def test_sign_up_ignores_a_next_address_on_another_site(real_course, client):
    response = client.post(
        f"{reverse('signup')}?next=https://evil.example/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "amber-falcon-ledger-19",
            "password2": "amber-falcon-ledger-19",
        },
    )

    assert response.status_code == 302
    assert response.url == reverse("courses:dashboard")


def test_unknown_page_and_answer_are_404(real_course, client):
    assert client.get(page_url("no-such-page")).status_code == 404
    assert client.get(answer_url("no-such-answer")).status_code == 404


def test_the_404_page_helps_and_suggests_close_names(real_course, client, settings):
    settings.DEBUG = False

    response = client.get("/course/the-same-word-twise/")

    assert response.status_code == 404
    html = unescape(response.content.decode())
    assert "There is no page at this address" in html
    assert f'href="{page_url("the-same-word-twice")}"' in html  # the close match
    assert f'href="{reverse("courses:dashboard")}"' in html
    assert f'href="{reverse("public:answers")}"' in html
    assert "private" in response["Cache-Control"]

    elsewhere = client.get("/nothing/here/at/all/")
    assert elsewhere.status_code == 404
    assert "Ways back in" in elsewhere.content.decode()


def test_the_404_page_shows_nothing_of_another_learners_copy(
    real_course, learner, other_learner, client_for, settings
):
    settings.DEBUG = False
    _, copy = _learner_with_history(learner, real_course, client_for)
    url = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": "the-same-word-twice"})

    response = client_for(other_learner).get(url)

    assert response.status_code == 404
    html = response.content.decode()
    assert SECRET_NOTE not in html and learner.username not in html


def test_the_sitemap_lists_the_course_and_the_answers_at_the_site_address(
    real_course, client, settings
):
    settings.SITE_URL = "https://basislab.example"

    response = client.get(reverse("public:sitemap"))

    assert response.status_code == 200
    xml = response.content.decode()
    for page in Page.objects.filter(version=real_course):
        assert f"<loc>https://basislab.example{page_url(page.slug)}</loc>" in xml
    for answer in Answer.objects.filter(version=real_course):
        assert f"<loc>https://basislab.example{answer_url(answer.slug)}</loc>" in xml
    assert f"<loc>https://basislab.example{reverse('courses:dashboard')}</loc>" in xml
    assert "<lastmod>" in xml


def test_robots_txt_names_the_sitemap(client, settings, db):
    settings.SITE_URL = "https://basislab.example"

    response = client.get(reverse("public:robots"))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "Sitemap: https://basislab.example/sitemap.xml" in response.content.decode()


def test_public_templates_carry_no_inline_script_or_style():
    from pathlib import Path

    from courses.public import PUBLIC_TEMPLATES

    root = Path(__file__).resolve().parents[2] / "templates"
    for name in (*PUBLIC_TEMPLATES[1:], "404.html", "robots.txt"):
        text = (root / name).read_text()
        assert "<script" not in text and "<style" not in text and "style=" not in text, name


def test_the_public_urls_named_in_the_ownership_walk_are_open_to_anyone(real_course, client):
    from tests.practice.test_ownership import PUBLIC

    open_urls = {
        "home": reverse("home"),
        "courses:dashboard": reverse("courses:dashboard"),
        "public:page": page_url("the-same-word-twice"),
        "public:answers": reverse("public:answers"),
        "public:answer": answer_url("same-word-different-vector"),
        "public:sitemap": reverse("public:sitemap"),
        "public:robots": reverse("public:robots"),
    }
    assert set(open_urls) <= PUBLIC
    for name, url in open_urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        head = client.head(url)
        assert head.status_code == 200 and head.content == b"", name
        assert client.post(url).status_code == 405, name


def test_a_signed_in_page_reads_a_bounded_number_of_rows(
    real_course, learner, client_for, django_assert_max_num_queries
):
    client, _ = _learner_with_history(learner, real_course, client_for)
    client.get(page_url("the-same-word-twice"))

    # Session, user, version, pages, ideas, the page's answer, copy, progress.
    with django_assert_max_num_queries(8):
        response = client.get(page_url("the-same-word-twice"))
    assert "Open it in your copy" in response.content.decode()


def test_a_copy_on_an_older_version_is_linked_to_its_own_page(
    real_course, learner, client_for, tmp_path
):
    client, copy = _learner_with_history(learner, real_course, client_for)
    copy_dir = tmp_path / "course"
    shutil.copytree(REAL_COURSE_DIR, copy_dir)
    path = copy_dir / "pages" / "the-same-word-twice.md"
    path.write_text(
        path.read_text().replace("title: The Same Word Twice", "title: One Word, Twice")
    )
    newer = course_load(directory=copy_dir).version
    assert newer.number == copy.version.number + 1

    html = html_of(client.get(page_url("the-same-word-twice")))

    assert "<h1>One Word, Twice</h1>" in html  # the open page follows the newest version
    yours = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": "the-same-word-twice"})
    assert f'href="{yours}"' in html  # the copy keeps its version and its page
    assert "2 right of 2" in html  # progress is keyed by slugs, so it carries over
