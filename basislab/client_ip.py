"""Find the address of the visitor: the proxy's header only when the setting trusts a proxy.

Sign-in lockout (django-axes, keyed on username and address) and the limits on free actions
(django-ratelimit) both key on this address. Behind nginx every request comes from the proxy's
own address, so one stranger's failures would lock a username out for everyone; read
``X-Forwarded-For`` instead, but only as far as the proxies the operator named set it.

``BASISLAB_TRUSTED_PROXIES`` (setting and environment variable) is the number of proxies in
front of the application that each append the address they saw to ``X-Forwarded-For``
(nginx's ``$proxy_add_x_forwarded_for``). With 0, the default, the header is ignored and the
connection's address (``REMOTE_ADDR``) is the visitor's. With N, the visitor is the N-th entry
from the right: entries further left were written by the client and prove nothing. A request
whose header has fewer entries than that did not pass through the proxies (or was forged) and
keeps ``REMOTE_ADDR``. The header is parsed by django-ipware (python-ipware), which validates
each address, IPv6 and ports included.
"""

from django.conf import settings
from django.http import HttpRequest
from ipware.ip import get_client_ip

FORWARDED_HEADER = "HTTP_X_FORWARDED_FOR"


def client_ip(request: HttpRequest) -> str:
    """Return the visitor's address, trusting ``X-Forwarded-For`` only as configured."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = int(getattr(settings, "BASISLAB_TRUSTED_PROXIES", 0))
    if proxies <= 0 or not request.META.get(FORWARDED_HEADER):
        return remote
    address, _routable = get_client_ip(
        request,
        proxy_order="left-most",
        # ipware counts the proxies listed in the header after the client; the nearest proxy
        # is the connection itself and never in the header.
        proxy_count=proxies - 1,
        request_header_order=(FORWARDED_HEADER,),
        # Not strict: entries to the left of the trusted ones (the client's own) are allowed
        # and ignored.
        strict=False,
    )
    return address or remote
