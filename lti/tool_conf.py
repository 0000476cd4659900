"""pylti1p3's view of the registered platforms: registrations and deployments from the database.

Every issuer is treated as possibly having several client ids, so a launch is matched on
``(iss, aud)`` and never on the issuer alone.
"""

from typing import Any

from pylti1p3.deployment import Deployment as LibDeployment
from pylti1p3.registration import Registration
from pylti1p3.tool_config import ToolConfAbstract

from .keys import signing_key
from .models import Deployment, Platform


class ToolRegistration(Registration):
    """A registration that signs with the tool's current key and names it by its ``kid``."""

    def __init__(self, kid: str) -> None:
        self._kid = kid

    def get_kid(self) -> str:
        return self._kid


def registration_for(platform: Platform) -> ToolRegistration:
    """Return pylti1p3's registration for a platform, signing with the current tool key."""
    key = signing_key()
    registration = ToolRegistration(key.kid)
    registration.set_issuer(platform.issuer)
    registration.set_client_id(platform.client_id)
    registration.set_key_set_url(platform.key_set_url)
    registration.set_auth_login_url(platform.auth_login_url)
    registration.set_auth_token_url(platform.auth_token_url)
    registration.set_tool_private_key(key.private_pem)
    return registration


def find_platform(iss: str | None, client_id: str | None) -> Platform | None:
    """Return the active platform registered for the issuer and client id, or None."""
    if not iss or not client_id:
        return None
    return Platform.objects.filter(issuer=iss, client_id=client_id, active=True).first()


class DbToolConf(ToolConfAbstract):
    """Registrations read from ``lti.Platform`` and ``lti.Deployment``."""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss: str, *args: Any, **kwargs: Any) -> None:
        # Never match on the issuer alone (see the module docstring).
        return None

    def find_registration_by_params(
        self, iss: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Registration | None:
        platform = find_platform(iss, client_id)
        return registration_for(platform) if platform is not None else None

    def find_deployment(self, iss: str, deployment_id: str) -> None:
        return None

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str, *args: Any, **kwargs: Any
    ) -> LibDeployment | None:
        platform = find_platform(iss, client_id)
        if platform is None or not deployment_id:
            return None
        found = Deployment.objects.filter(platform=platform, deployment_id=deployment_id).exists()
        return LibDeployment().set_deployment_id(deployment_id) if found else None
