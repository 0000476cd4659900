"""Pages everyone can read: home, the course index and pages, the answers, and the 404 page.

An anonymous visitor gets HTML rendered once per content version (``courses.public``); a
signed-in learner gets the same page rendered for them, with links into their own copy and their
progress, marked private. What each page shows is built in ``courses.public_pages``.
"""

from collections.abc import Callable
from functools import partial

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

from basislab.caching import shared_cache_allowed
from basislab.site import site_url

from . import public_pages, views
from .models import CourseVersion
from .public import anonymous_response, private_response, public_version, render_once
from .services import copy_get_or_create


def _version() -> CourseVersion | None:
    return public_version(course_slug=settings.BASISLAB_COURSE_SLUG)


def _version_or_404() -> CourseVersion:
    version = _version()
    if version is None:
        raise Http404("The course has not been loaded yet")
    return version


def _respond(
    request: HttpRequest,
    *,
    key: str,
    version: CourseVersion | None,
    template: str,
    context: Callable[[], dict],
    personal: Callable[[dict], dict] | None = None,
) -> HttpResponse:
    """Serve the cached anonymous page, or render it for the signed-in visitor (private).

    An anonymous visitor with a message waiting (such as "You are signed out.") gets the page
    rendered for them too, privately: a message is theirs alone and never enters the cache.
    """
    if request.user.is_authenticated:
        values = {**context(), "signed_in": True}
        if personal is not None:
            values.update(personal(values))
        return private_response(render(request, template, values))
    if len(messages.get_messages(request)):  # counting leaves the messages unread
        return private_response(render(request, template, context()))
    rendered = render_once(
        key=key, version=version, render=lambda: render_to_string(template, context())
    )
    return anonymous_response(request, rendered)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Lead a visitor to the course, its answers and sign-up."""
    version = _version()
    context = partial(public_pages.home_context, version=version)
    return _respond(request, key="home", version=version, template="home.html", context=context)


@require_safe
def course_index(request: HttpRequest) -> HttpResponse:
    """Show the open course index; a signed-in learner gets their copy's dashboard here."""
    if request.user.is_authenticated:
        return views.dashboard(request)
    version = _version_or_404()
    context = partial(public_pages.course_index_context, version=version)
    template = "public/course_index.html"
    return _respond(request, key="course", version=version, template=template, context=context)


@require_safe
def page(request: HttpRequest, page_slug: str) -> HttpResponse:
    """Show one page of the course in full, each idea saying what practice stands under it."""
    version = _version_or_404()
    return _respond(
        request,
        key=f"page:{page_slug}",
        version=version,
        template="public/page.html",
        context=partial(public_pages.page_context, version=version, page_slug=page_slug),
        personal=lambda values: public_pages.page_personal(
            user=request.user, version=version, page=values["page"]
        ),
    )


@login_required
@require_safe
def page_open(request: HttpRequest, page_slug: str) -> HttpResponse:
    """Send the learner to this page in their own copy (made on the first visit)."""
    copy = copy_get_or_create(user=request.user, course_slug=settings.BASISLAB_COURSE_SLUG)
    if not copy.version.pages.filter(slug=page_slug).exists():
        messages.info(request, _("Your copy of the course does not have that page."))
        return redirect("courses:dashboard")
    return redirect("courses:page", copy_id=copy.pk, page_slug=page_slug)


@require_safe
def answer_index(request: HttpRequest) -> HttpResponse:
    """List every question the course answers, each with its one-line answer."""
    version = _version_or_404()
    context = partial(public_pages.answers_context, version=version)
    template = "public/answers.html"
    return _respond(request, key="answers", version=version, template=template, context=context)


@require_safe
def answer(request: HttpRequest, answer_slug: str) -> HttpResponse:
    """Show one answer: in short, worked through, worth keeping, where it goes next."""
    version = _version_or_404()
    return _respond(
        request,
        key=f"answer:{answer_slug}",
        version=version,
        template="public/answer.html",
        context=partial(public_pages.answer_context, version=version, answer_slug=answer_slug),
        personal=lambda values: public_pages.answer_personal(answer=values["answer"]),
    )


@shared_cache_allowed
@require_safe
@cache_control(public=True, max_age=86400)
def robots(request: HttpRequest) -> HttpResponse:
    """Point crawlers at the sitemap and away from accounts, the admin and private pages."""
    sitemap_url = site_url(reverse("public:sitemap"))
    return render(request, "robots.txt", {"sitemap_url": sitemap_url}, content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer 404 with the way back in: the course, the answers, and close page names."""
    version = _version()
    suggestions = (
        public_pages.not_found_suggestions(version=version, path=request.path) if version else []
    )
    context = {"suggestions": suggestions, "has_course": version is not None}
    return private_response(HttpResponseNotFound(render_to_string("404.html", context, request)))
