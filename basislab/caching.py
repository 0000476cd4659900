"""Responses to a signed-in visitor are theirs alone: ``Cache-Control: private, no-store``.

A page made for a learner (their dashboard, copy, problems, verdicts, history, review queue,
settings, account pages) must never be kept by a shared browser profile's cache or a
misconfigured proxy. ``PrivateByDefaultMiddleware`` therefore overwrites ``Cache-Control`` on
every response to a signed-in request with ``private, no-store``, whatever the view set, unless
the view opted out with ``@shared_cache_allowed``: only responses that are the same for every
visitor (robots.txt, the sitemap) do. The open course's pages need no opt-out: an anonymous
visitor is not signed in (they keep ``public`` with an ETag, ``courses.public``), and the same
pages rendered for a signed-in learner show their progress, so they are private like the rest.

Static files never reach this middleware: WhiteNoise answers them before the session is read.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

PRIVATE = "private, no-store"
_OPT_OUT = "shared_cache_allowed"


def shared_cache_allowed(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a view whose response is the same for every visitor: its own Cache-Control stays."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        setattr(response, _OPT_OUT, True)
        return response

    return wrapped


def is_shared_cache_allowed(response: HttpResponse) -> bool:
    """Return True when the view that made the response opted out of the private default."""
    return getattr(response, _OPT_OUT, False)


class PrivateByDefaultMiddleware:
    """Send ``Cache-Control: private, no-store`` with every response to a signed-in request.

    Place it after ``AuthenticationMiddleware``. The user is read when the response leaves, so
    the redirect after signing in is private too and the page after signing out is not.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not is_shared_cache_allowed(response):
            response["Cache-Control"] = PRIVATE
            # A validator invites a conditional request and a stored copy; none is wanted here.
            for header in ("ETag", "Last-Modified", "Expires"):
                if header in response:
                    del response[header]
            patch_vary_headers(response, ("Cookie",))
        return response
