"""Calls to a platform: a requests session with a time limit, and the service connector
that signs the client-credentials assertion for an access token."""

from typing import Any

import requests
from pylti1p3.service_connector import ServiceConnector

from ..models import Platform
from ..tool_conf import registration_for

# Seconds before a call to a platform (token, score, roster) gives up.
PLATFORM_TIMEOUT = 10


class TimeoutSession(requests.Session):
    """A requests session whose calls give up after ``PLATFORM_TIMEOUT`` seconds."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs.setdefault("timeout", PLATFORM_TIMEOUT)
        return super().request(*args, **kwargs)


def platform_connector(platform: Platform) -> ServiceConnector:
    return ServiceConnector(registration_for(platform), TimeoutSession())
