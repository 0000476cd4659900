"""Limits on free actions (django-ratelimit), and the polite page shown past one.

Each limit is a setting (``basislab/settings.py``: ``ACCOUNTS_SIGNUP_RATE``, ...) read when the
request comes, so tests and operators can change it. Counts live in the default cache; a
visitor's address comes from ``basislab.client_ip.client_ip`` (``RATELIMIT_IP_META_KEY``).
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

Key = str | Callable[[str, HttpRequest], str]


def limit_reached(request: HttpRequest, *, group: str, key: Key, setting: str) -> bool:
    """Count this request against the limit named by ``setting``; return True past it."""
    return is_ratelimited(
        request,
        group=group,
        key=key,
        rate=lambda _group, _request: getattr(settings, setting),
        increment=True,
    )


def too_many(request: HttpRequest, *, message: str, back_url: str = "") -> HttpResponse:
    """Render the polite "please wait" page with HTTP 429."""
    return render(
        request, "ratelimited.html", {"message": message, "back_url": back_url}, status=429
    )
