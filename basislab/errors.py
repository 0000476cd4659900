"""The project's own error pages that Django would otherwise draw itself."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Answer a form refused by the CSRF check (``CSRF_FAILURE_VIEW``) with what to do next.

    Django's own page styles itself inline, which the Content-Security-Policy blocks; this one
    uses the site's stylesheet. The usual cause is a page left open across a sign-out, a
    sign-in in another tab or an expired session: reloading it (and signing in again) fixes it.
    ``reason`` is Django's note for developers and is not shown.
    """
    referer = request.META.get("HTTP_REFERER", "")
    back_url = (
        referer
        if referer
        and url_has_allowed_host_and_scheme(
            referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        else None
    )
    context = {"back_url": back_url, "signed_in": request.user.is_authenticated}
    return render(request, "403_csrf.html", context, status=403)
