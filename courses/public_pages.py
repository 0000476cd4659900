"""What the open course's pages show: the context of each public template (reads only).

The ``*_context`` functions take only the content version, never a request or a user, because
their result is rendered once and served to every anonymous visitor. The ``*_personal``
functions add what a signed-in learner sees on top (links into their copy, their progress).
"""

import difflib
from urllib.parse import urlencode

from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404
from django.urls import reverse

from basislab.site import site_url

from .models import Answer, CourseCopy, CourseVersion, Page
from .presenters import kind_label, page_fraction, public_idea_box, public_segments
from .selectors import copy_progress


def signup_url(next_url: str) -> str:
    """Return the sign-up address that brings the new learner to ``next_url``."""
    return f"{reverse('signup')}?{urlencode({'next': next_url})}"


def page_open_url(page_slug: str) -> str:
    """Return the address that opens a page in the visitor's own copy."""
    return reverse("public:page_open", kwargs={"page_slug": page_slug})


def home_context(*, version: CourseVersion | None) -> dict:
    """Return the home page's context: the questions answered, when a course is loaded."""
    return {
        "version": version,
        "answers": list(version.answers.all()) if version else [],
        "canonical_url": site_url(reverse("home")),
    }


def course_index_context(*, version: CourseVersion) -> dict:
    """Return every page with its question, its short answer and its ideas' practice."""
    pages = list(version.pages.order_by("order").prefetch_related("ideas"))
    answers = {answer.page_id: answer for answer in version.answers.all()}
    index_url = reverse("courses:dashboard")
    return {
        "version": version,
        "entries": [
            {
                "page": page,
                "answer": answers.get(page.pk),
                "boxes": [public_idea_box(page=page, idea=idea) for idea in page.ideas.all()],
            }
            for page in pages
        ],
        "canonical_url": site_url(index_url),
        "signup_url": signup_url(index_url),
    }


def page_context(*, version: CourseVersion, page_slug: str) -> dict:
    """Return one page in full with its idea boxes and neighbours; raise Http404 if absent."""
    pages = list(version.pages.order_by("order").prefetch_related("ideas"))
    index = next((i for i, p in enumerate(pages) if p.slug == page_slug), None)
    if index is None:
        raise Http404("No such page")
    page = pages[index]
    return {
        "version": version,
        "page": page,
        "answer": Answer.objects.filter(page=page).first(),
        "segments": public_segments(page=page),
        "previous_page": pages[index - 1] if index > 0 else None,
        "next_page": pages[index + 1] if index + 1 < len(pages) else None,
        "canonical_url": site_url(reverse("public:page", kwargs={"page_slug": page.slug})),
        "signup_url": signup_url(page_open_url(page.slug)),
    }


def page_personal(*, user: AbstractBaseUser, version: CourseVersion, page: Page) -> dict:
    """Return what a signed-in learner sees on a page: their progress and links into their copy.

    The copy may be on an older version; it is linked straight to its own page when that
    version has one, else through ``page_open`` (which also makes a copy on first visit).
    """
    copy = (
        CourseCopy.objects.filter(owner=user, course_id=version.course_id)
        .select_related("version")
        .first()
    )
    progress = copy_progress(copy=copy) if copy else {}
    yours_url = page_open_url(page.slug)
    if copy is not None and (
        copy.version_id == version.pk or copy.version.pages.filter(slug=page.slug).exists()
    ):
        yours_url = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": page.slug})
    return {
        "segments": public_segments(page=page, progress=progress),
        "yours_url": yours_url,
        "page_percent": round(page_fraction(page=page, progress=progress) * 100),
        "has_copy": copy is not None,
    }


def answers_context(*, version: CourseVersion) -> dict:
    """Return every answer of the version, in course order."""
    return {
        "version": version,
        "answers": list(version.answers.select_related("page")),
        "canonical_url": site_url(reverse("public:answers")),
    }


def answer_context(*, version: CourseVersion, answer_slug: str) -> dict:
    """Return one answer with its page, the practice under that page and the related answers.

    Raises Http404 when the version has no such answer.
    """
    answer = (
        version.answers.select_related("page")
        .prefetch_related("page__ideas")
        .filter(slug=answer_slug)
        .first()
    )
    if answer is None:
        raise Http404("No such answer")
    others = {a.slug: a for a in version.answers.filter(slug__in=answer.related)}
    kinds = dict.fromkeys(k for idea in answer.page.ideas.all() for k in idea.problem_kinds)
    return {
        "version": version,
        "answer": answer,
        "page_url": reverse("public:page", kwargs={"page_slug": answer.page.slug}),
        "labels": [kind_label(kind) for kind in kinds],
        "related": [others[slug] for slug in answer.related if slug in others],
        "canonical_url": site_url(reverse("public:answer", kwargs={"answer_slug": answer.slug})),
        "signup_url": signup_url(page_open_url(answer.page.slug)),
    }


def answer_personal(*, answer: Answer) -> dict:
    """Return what a signed-in learner sees on an answer: the page in their copy."""
    return {"yours_url": page_open_url(answer.page.slug)}


def not_found_suggestions(*, version: CourseVersion, path: str) -> list[dict]:
    """Return up to three pages or answers whose slug is close to the last part of ``path``."""
    word = next((part for part in reversed(path.split("/")) if part), "").lower()
    targets: dict[str, tuple[str, str]] = {}
    for page in Page.objects.filter(version=version).only("slug", "title"):
        url = reverse("public:page", kwargs={"page_slug": page.slug})
        targets[page.slug] = (page.title, url)
    for answer in Answer.objects.filter(version=version).only("slug", "question"):
        url = reverse("public:answer", kwargs={"answer_slug": answer.slug})
        targets.setdefault(answer.slug, (answer.question, url))
    return [
        {"title": targets[slug][0], "url": targets[slug][1]}
        for slug in difflib.get_close_matches(word, list(targets), n=3, cutoff=0.5)
    ]
