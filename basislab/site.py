"""The site's own address, ``SITE_URL``: the one base of every absolute link the site writes.

Every email (review reminders, password reset) and every canonical link and sitemap entry is
addressed by ``SITE_URL``, never by the request's ``Host`` header: a link in an email outlives
the request, is often written by a worker with no request at all, and must not follow a header
the sender chose (a forged ``Host`` would otherwise put its own domain in a reset link).
"""

from urllib.parse import urlsplit

from django.conf import settings


def site_url(path: str = "") -> str:
    """Return the absolute address of a path on this site, from ``SITE_URL``."""
    return settings.SITE_URL.rstrip("/") + path


def site_domain() -> str:
    """Return ``SITE_URL``'s host (and port, if any), as emails and sitemaps need it."""
    return urlsplit(settings.SITE_URL).netloc


def site_is_https() -> bool:
    """Return whether ``SITE_URL`` is an https address."""
    return urlsplit(settings.SITE_URL).scheme == "https"
