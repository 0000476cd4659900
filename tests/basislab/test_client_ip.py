"""The visitor's address behind a proxy: X-Forwarded-For only when a trusted proxy is set.

The sign-in lockout (django-axes) is keyed on (username, address). Behind nginx every request
comes from the proxy; without reading the forwarded address one stranger's failures would lock
the username for everyone, and with the header read blindly anyone could choose an address.
"""

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.urls import reverse

from basislab.client_ip import client_ip
from tests.conftest import TEST_PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "127.0.0.1"
STRANGER = "198.51.100.7"
VISITOR = "192.0.2.44"


def via_proxy(address: str, forged: str = "") -> Client:
    """Return a client whose requests arrive as nginx forwards them (address appended)."""
    chain = f"{forged}, {address}" if forged else address
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=chain)


def sign_in(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_behind_a_trusted_proxy_one_strangers_failures_lock_out_only_the_stranger(
    settings, learner
):
    settings.BASISLAB_TRUSTED_PROXIES = 1
    stranger = via_proxy(STRANGER)
    for _ in range(6):
        sign_in(stranger, learner.username, "wrong-password")

    assert sign_in(stranger, learner.username, TEST_PASSWORD).status_code == 429
    assert sign_in(via_proxy(VISITOR), learner.username, TEST_PASSWORD).status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {STRANGER}


def test_a_forged_header_sent_through_the_proxy_is_ignored(settings, learner):
    settings.BASISLAB_TRUSTED_PROXIES = 1
    # The stranger claims to be the visitor; nginx appends the address it really saw.
    stranger = via_proxy(STRANGER, forged=VISITOR)
    for _ in range(6):
        sign_in(stranger, learner.username, "wrong-password")

    assert sign_in(via_proxy(VISITOR), learner.username, TEST_PASSWORD).status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {STRANGER}


def test_without_a_trusted_proxy_the_header_is_ignored(settings, learner):
    assert settings.BASISLAB_TRUSTED_PROXIES == 0
    # Straight to the application: whatever the header says, the address is the connection's.
    for n in range(6):
        forged = Client(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
        sign_in(forged, learner.username, "wrong-password")

    fresh_claim = Client(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=VISITOR)
    assert sign_in(fresh_claim, learner.username, TEST_PASSWORD).status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {STRANGER}


def test_the_limits_count_the_forwarded_address_behind_a_trusted_proxy(settings):
    settings.BASISLAB_TRUSTED_PROXIES = 1
    settings.ACCOUNTS_SIGNUP_RATE = "1/h"

    def sign_up(client: Client, n: int) -> int:
        data = {
            "username": f"newcomer{n}",
            "email": f"newcomer{n}@example.org",
            "password1": "quiet-lantern-orbit-77",
            "password2": "quiet-lantern-orbit-77",
        }
        return client.post(reverse("signup"), data).status_code

    assert sign_up(via_proxy(STRANGER), 1) == 302
    assert sign_up(via_proxy(STRANGER, forged=VISITOR), 2) == 429
    assert sign_up(via_proxy(VISITOR), 3) == 302


@pytest.mark.parametrize(
    ("proxies", "remote", "header", "expected"),
    [
        (0, "203.0.113.9", "192.0.2.1", "203.0.113.9"),
        (1, PROXY, "192.0.2.1", "192.0.2.1"),
        (1, PROXY, "10.9.9.9, 192.0.2.1", "192.0.2.1"),
        (1, PROXY, "not-an-address, 192.0.2.1", "192.0.2.1"),
        (1, PROXY, "", PROXY),
        (1, PROXY, "2001:db8::1", "2001:db8::1"),
        (2, PROXY, "192.0.2.1, 10.0.0.2", "192.0.2.1"),
        (2, PROXY, "6.6.6.6, 192.0.2.1, 10.0.0.2", "192.0.2.1"),
        (2, PROXY, "192.0.2.1", PROXY),  # fewer hops than proxies: not through them all
    ],
)
def test_client_ip_takes_the_entry_the_nearest_trusted_proxy_wrote(
    settings, proxies, remote, header, expected
):
    settings.BASISLAB_TRUSTED_PROXIES = proxies
    meta = {"REMOTE_ADDR": remote}
    if header:
        meta["HTTP_X_FORWARDED_FOR"] = header
    request = RequestFactory().get("/", **meta)

    assert client_ip(request) == expected
