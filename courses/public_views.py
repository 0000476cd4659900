"""Pages everyone can read: home, the course index and pages, the answers, and the 404 page.

An anonymous visitor gets HTML rendered once per content version (``courses.public``); a
signed-in learner gets the same page rendered for them, with links into their own copy and their
progress, marked private.
"""

import difflib
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from . import views
from .models import Answer, CourseCopy, CourseVersion, Page
from .presenters import kind_label, page_fraction, public_idea_box, public_segments
from .public import anonymous_response, private_response, public_version, render_once, site_url
from .selectors import copy_for_user, copy_progress


def _version() -> CourseVersion | None:
    return public_version(course_slug=settings.BASISLAB_COURSE_SLUG)


def _version_or_404() -> CourseVersion:
    version = _version()
    if version is None:
        raise Http404("The course has not been loaded yet")
    return version


def _signup_url(next_url: str) -> str:
    return f"{reverse('signup')}?{urlencode({'next': next_url})}"


def _respond(
    request: HttpRequest,
    *,
    key: str,
    version: CourseVersion | None,
    template: str,
    context: Callable[[], dict],
    personal: Callable[[dict], dict] | None = None,
) -> HttpResponse:
    """Serve the cached anonymous page, or render it for the signed-in visitor (private)."""
    if request.user.is_authenticated:
        values = context()
        values["signed_in"] = True
        if personal is not None:
            values.update(personal(values))
        return private_response(render(request, template, values))
    rendered = render_once(
        key=key, version=version, render=lambda: render_to_string(template, context())
    )
    return anonymous_response(request, rendered)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Lead a visitor to the course, its answers and sign-up."""
    version = _version()

    def context() -> dict:
        return {
            "version": version,
            "answers": list(version.answers.all()) if version else [],
            "canonical_url": site_url(reverse("home")),
        }

    return _respond(request, key="home", version=version, template="home.html", context=context)


@require_safe
def course_index(request: HttpRequest) -> HttpResponse:
    """Show the open course index; a signed-in learner gets their copy's dashboard here."""
    if request.user.is_authenticated:
        return views.dashboard(request)
    version = _version_or_404()

    def context() -> dict:
        pages = list(version.pages.order_by("order").prefetch_related("ideas"))
        answers = {answer.page_id: answer for answer in version.answers.all()}
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
            "canonical_url": site_url(reverse("courses:dashboard")),
            "signup_url": _signup_url(reverse("courses:dashboard")),
        }

    return _respond(
        request,
        key="course",
        version=version,
        template="public/course_index.html",
        context=context,
    )


@require_safe
def page(request: HttpRequest, page_slug: str) -> HttpResponse:
    """Show one page of the course in full, each idea saying what practice stands under it."""
    version = _version_or_404()
    open_url = reverse("public:page_open", kwargs={"page_slug": page_slug})

    def context() -> dict:
        pages = list(version.pages.order_by("order").prefetch_related("ideas"))
        index = next((i for i, p in enumerate(pages) if p.slug == page_slug), None)
        if index is None:
            raise Http404("No such page")
        course_page = pages[index]
        return {
            "version": version,
            "page": course_page,
            "answer": Answer.objects.filter(page=course_page).first(),
            "segments": public_segments(page=course_page),
            "previous_page": pages[index - 1] if index > 0 else None,
            "next_page": pages[index + 1] if index + 1 < len(pages) else None,
            "canonical_url": site_url(reverse("public:page", kwargs={"page_slug": page_slug})),
            "signup_url": _signup_url(open_url),
        }

    def personal(values: dict) -> dict:
        course_page = values["page"]
        copy = (
            CourseCopy.objects.filter(owner=request.user, course_id=version.course_id)
            .select_related("version")
            .first()
        )
        progress = copy_progress(copy=copy) if copy else {}
        yours_url = open_url
        if copy is not None and (
            copy.version_id == version.pk or copy.version.pages.filter(slug=page_slug).exists()
        ):
            yours_url = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": page_slug})
        return {
            "segments": public_segments(page=course_page, progress=progress),
            "yours_url": yours_url,
            "page_percent": round(page_fraction(page=course_page, progress=progress) * 100),
            "has_copy": copy is not None,
        }

    return _respond(
        request,
        key=f"page:{page_slug}",
        version=version,
        template="public/page.html",
        context=context,
        personal=personal,
    )


@login_required
@require_safe
def page_open(request: HttpRequest, page_slug: str) -> HttpResponse:
    """Send the learner to this page in their own copy (made on the first visit)."""
    copy = copy_for_user(user=request.user, course_slug=settings.BASISLAB_COURSE_SLUG)
    if not copy.version.pages.filter(slug=page_slug).exists():
        messages.info(request, _("Your copy of the course does not have that page."))
        return redirect("courses:dashboard")
    return redirect("courses:page", copy_id=copy.pk, page_slug=page_slug)


@require_safe
def answer_index(request: HttpRequest) -> HttpResponse:
    """List every question the course answers, each with its one-line answer."""
    version = _version_or_404()

    def context() -> dict:
        return {
            "version": version,
            "answers": list(version.answers.select_related("page")),
            "canonical_url": site_url(reverse("public:answers")),
        }

    return _respond(
        request, key="answers", version=version, template="public/answers.html", context=context
    )


@require_safe
def answer(request: HttpRequest, answer_slug: str) -> HttpResponse:
    """Show one answer: in short, worked through, worth keeping, where it goes next."""
    version = _version_or_404()

    def context() -> dict:
        found = (
            version.answers.select_related("page")
            .prefetch_related("page__ideas")
            .filter(slug=answer_slug)
            .first()
        )
        if found is None:
            raise Http404("No such answer")
        others = {a.slug: a for a in version.answers.filter(slug__in=found.related)}
        kinds = dict.fromkeys(k for idea in found.page.ideas.all() for k in idea.problem_kinds)
        page_url = reverse("public:page", kwargs={"page_slug": found.page.slug})
        return {
            "version": version,
            "answer": found,
            "page_url": page_url,
            "labels": [kind_label(kind) for kind in kinds],
            "related": [others[slug] for slug in found.related if slug in others],
            "canonical_url": site_url(
                reverse("public:answer", kwargs={"answer_slug": answer_slug})
            ),
            "signup_url": _signup_url(
                reverse("public:page_open", kwargs={"page_slug": found.page.slug})
            ),
        }

    def personal(values: dict) -> dict:
        slug = values["answer"].page.slug
        return {"yours_url": reverse("public:page_open", kwargs={"page_slug": slug})}

    return _respond(
        request,
        key=f"answer:{answer_slug}",
        version=version,
        template="public/answer.html",
        context=context,
        personal=personal,
    )


@require_safe
@cache_control(public=True, max_age=86400)
def robots(request: HttpRequest) -> HttpResponse:
    """Point crawlers at the sitemap and away from accounts, the admin and private pages."""
    sitemap_url = site_url(reverse("public:sitemap"))
    return render(request, "robots.txt", {"sitemap_url": sitemap_url}, content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer 404 with the way back in: the course, the answers, and close page names."""
    suggestions: list[dict] = []
    version = _version()
    if version is not None:
        word = next((part for part in reversed(request.path.split("/")) if part), "")
        targets: dict[str, tuple[str, str]] = {}
        for course_page in Page.objects.filter(version=version).only("slug", "title"):
            url = reverse("public:page", kwargs={"page_slug": course_page.slug})
            targets[course_page.slug] = (course_page.title, url)
        for found in Answer.objects.filter(version=version).only("slug", "question"):
            url = reverse("public:answer", kwargs={"answer_slug": found.slug})
            targets.setdefault(found.slug, (found.question, url))
        for slug in difflib.get_close_matches(word.lower(), list(targets), n=3, cutoff=0.5):
            title, url = targets[slug]
            suggestions.append({"title": title, "url": url})
    html = render_to_string(
        "404.html", {"suggestions": suggestions, "has_course": version is not None}, request
    )
    return private_response(HttpResponseNotFound(html))
