"""The open course: pages rendered once per content version, cached, and served with validators.

An anonymous visitor's page is made by ``render_to_string`` *without the request*: no session,
no user, no messages, no CSRF token can reach it, so the cached HTML holds nothing of anyone and
is the same for every visitor. Its cache key names the content version (pk and content hash),
the language and a digest of the templates and stylesheet it is made of, so a new course
version or a deploy that changes them renders afresh, and old entries are never read again.

Responses to anonymous visitors are ``Cache-Control: public`` with an ``ETag`` (a digest of the
HTML) and ``Last-Modified``, and a repeat visit with ``If-None-Match`` is answered 304 by
Django's ``get_conditional_response``. Signed-in visitors get a page rendered for them that is
``private, no-cache``. Both carry ``Vary: Cookie``: the same URL answers differently with a
session cookie, so a shared cache must key on it.
"""

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from .models import CourseVersion

# How long a shared cache or browser may reuse an anonymous page before revalidating (seconds).
PUBLIC_MAX_AGE = 300
# How long a rendered page stays in Django's cache; keys change with every version anyway.
RENDER_CACHE_TIMEOUT = 30 * 24 * 3600
# Every template an anonymous page is made of: a change to any of them renders pages afresh.
PUBLIC_TEMPLATES = (
    "base.html",
    "home.html",
    "public/course_index.html",
    "public/page.html",
    "public/_idea_box.html",
    "public/answers.html",
    "public/answer.html",
)
STYLESHEETS = ("css/site.css", "css/public.css")


@dataclass(frozen=True)
class Rendered:
    html: str
    etag: str
    # Seconds since the epoch when this HTML was first rendered (the Last-Modified date).
    modified: int


def public_version(*, course_slug: str) -> CourseVersion | None:
    """Return the newest loaded version of the course (one query), or None before any load."""
    return (
        CourseVersion.objects.filter(course__slug=course_slug)
        .select_related("course")
        .order_by("-number")
        .first()
    )


@lru_cache(maxsize=1)
def render_revision() -> str:
    """Return a digest of the public templates' sources and stylesheet URLs (once per process)."""
    digest = hashlib.sha256()
    for name in PUBLIC_TEMPLATES:
        origin = get_template(name).origin.name
        digest.update(Path(origin).read_bytes())
    for stylesheet in STYLESHEETS:
        # With the manifest storage the URL carries the file's hash.
        digest.update(static(stylesheet).encode())
    return digest.hexdigest()[:16]


def render_once(*, key: str, version: CourseVersion | None, render: Callable[[], str]) -> Rendered:
    """Return the anonymous HTML for ``key`` in this version, rendering it only on a cache miss.

    ``render`` must not use the request. An error it raises (``Http404``) is not cached.
    """
    where = f"{version.pk}.{version.content_hash[:16]}" if version else "none"
    cache_key = f"public:{render_revision()}:{where}:{get_language()}:{key}"
    entry = cache.get(cache_key)
    if entry is None:
        html = render()
        entry = {
            "html": html,
            "etag": '"' + hashlib.sha256(html.encode()).hexdigest()[:32] + '"',
            "modified": int(time.time()),
        }
        cache.set(cache_key, entry, RENDER_CACHE_TIMEOUT)
    return Rendered(**entry)


def anonymous_response(request: HttpRequest, rendered: Rendered) -> HttpResponse:
    """Return the cached page as a public, validated response, or 304 when the visitor has it."""
    response = HttpResponse(rendered.html)
    response["ETag"] = rendered.etag
    response["Last-Modified"] = http_date(rendered.modified)
    patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
    patch_vary_headers(response, ("Cookie",))
    return get_conditional_response(
        request, etag=rendered.etag, last_modified=rendered.modified, response=response
    )


def private_response(response: HttpResponse) -> HttpResponse:
    """Mark a page rendered for one visitor as theirs alone: never stored by a shared cache."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie",))
    return response
