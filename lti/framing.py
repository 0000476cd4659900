"""Let a registered platform show the tool in an iframe, and only such a platform.

The site is framed by nobody (``X-Frame-Options: DENY``, CSP ``frame-ancestors 'none'``), except:
the launch endpoints may be framed by any registered platform, and every page of a session that
came through a launch by the origins of that launch's platform. In such a session over HTTPS the
session, CSRF and messages cookies are sent ``SameSite=None; Secure``: a framed page is a
third-party context, where the default ``Lax`` cookies would not be sent. CSRF checks stay as
they are.
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from .models import Platform

SESSION_KEY = "lti"


def _framed_paths() -> tuple[str, ...]:
    return (reverse("lti:login"), reverse("lti:launch"))


def _launched(request: HttpRequest) -> dict | None:
    """Return the session's launch record, without marking the session accessed."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    # Reading the flag must not mark the session accessed (that adds Vary: Cookie).
    accessed = session.accessed
    launched = session.get(SESSION_KEY)
    session.accessed = accessed
    return launched if isinstance(launched, dict) and launched.get("platform") else None


def platform_origins(platform_id: int | None) -> list[str]:
    """Return the origins that may frame the tool: one platform's, or every active one's."""
    platforms = Platform.objects.filter(active=True)
    if platform_id is not None:
        platforms = platforms.filter(pk=platform_id)
    origins: list[str] = []
    for platform in platforms:
        origins += [origin for origin in platform.origins() if origin not in origins]
    return origins


class EmbeddingMiddleware:
    """Set frame-ancestors for launches and launched sessions.

    Listed after ``CSPMiddleware`` and ``XFrameOptionsMiddleware`` so it sees the response
    before they do.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        launched = _launched(request)
        if launched is not None:
            origins = platform_origins(int(launched["platform"]))
        elif request.path in _framed_paths():
            origins = platform_origins(None)
        else:
            return response
        if origins:
            response._csp_replace = {"frame-ancestors": origins}  # read by django-csp
            response.xframe_options_exempt = True
        return response


class EmbeddedCookiesMiddleware:
    """Send the session, CSRF and messages cookies ``SameSite=None; Secure`` in a launched
    session over HTTPS. Listed before ``SessionMiddleware`` so it sees the cookies that sets
    (and those of ``MessageMiddleware``, listed after it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.is_secure() and _launched(request) is not None:
            for name in (
                settings.SESSION_COOKIE_NAME,
                settings.CSRF_COOKIE_NAME,
                CookieStorage.cookie_name,  # the messages framework's cookie
            ):
                if name in response.cookies:
                    response.cookies[name]["samesite"] = "None"
                    response.cookies[name]["secure"] = True
        return response
