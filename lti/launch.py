"""pylti1p3's Django login and launch, with its gaps closed.

Tried against an independent platform, a plain pylti1p3 tool accepts the same id token posted
twice from the same browser (nonces live in the session and are never consumed; a state already
seen with the same token passes again) and an id token with no ``exp``. Here:

- the nonce is stored in the database at login, bound to that login's ``state``, and consumed by
  one conditional UPDATE after every other check passed, so a second post finds it used;
- ``state`` must equal the short-lived cookie set at login in this browser (nothing else);
- the signature check requires ``exp`` and ``iat``; ``aud`` must contain the client id, and
  ``azp``, when there or when ``aud`` names several clients, must be the client id.

A login initiation may leave out ``client_id`` when its issuer has one active registration; a
deactivated platform's logins and launches are refused saying so.
"""

import hashlib
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from pylti1p3.contrib.django import DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.contrib.django.request import DjangoRequest
from pylti1p3.contrib.django.session import DjangoSessionService
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.registration import Registration

from .models import LaunchNonce, Platform
from .tool_conf import DbToolConf, registration_for

# How long the platform has between the login redirect and the launch post.
NONCE_LIFETIME = timedelta(minutes=10)
# Allowed clock difference between platform and tool for ``iat`` (seconds).
CLOCK_SKEW = 60
# How long a platform's JWKS is kept (seconds); an unknown ``kid`` fetches it again at once.
JWKS_CACHE_SECONDS = 600


class LaunchRefused(Exception):
    """Raised when a login or a launch is refused; ``reason`` is shown to the visitor."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


DEACTIVATED = _lazy(
    "This platform's registration with the tool is deactivated: ask the tool's administrator "
    "to turn it back on (manage.py lti_activate_platform)."
)


class NonceStore(DjangoSessionService):
    """Keep login nonces in the database, bound to their state, instead of the session."""

    _pending_nonce: str | None = None

    def save_nonce(self, nonce: str) -> None:
        # The library saves the nonce before it saves the state's params (always asked for
        # below): keep it until the state is known.
        self._pending_nonce = nonce

    def save_state_params(self, state: str, params: dict[str, object]) -> None:
        if self._pending_nonce is None:
            raise LtiException("No nonce was generated for this login")
        LaunchNonce.objects.create(value=self._pending_nonce, state=state)
        self._pending_nonce = None

    def check_nonce(self, nonce: str) -> bool:
        return LaunchNonce.objects.filter(value=nonce, used_at__isnull=True).exists()


def login_platform(iss: str, client_id: str | None) -> Platform:
    """Return the active platform a login initiation names; raise LaunchRefused or
    OIDCException (not registered) saying why not.

    ``client_id`` is optional in a login initiation (LTI 1.3 Core, 4.1.1): without it, the
    issuer's one registration is used, and an issuer with several is refused as ambiguous.
    """
    platforms = Platform.objects.filter(issuer=iss)
    if client_id:
        platforms = platforms.filter(client_id=client_id)
    found = list(platforms.order_by("pk"))
    active = [platform for platform in found if platform.active]
    if len(active) == 1:
        return active[0]
    if len(active) > 1:
        raise LaunchRefused(
            _(
                "This platform has several registrations with the tool and the login names no "
                "client_id; ask the platform's administrator to send it."
            )
        )
    if found:
        raise LaunchRefused(DEACTIVATED)
    raise OIDCException("Could not find registration details")


class ToolLogin(DjangoOIDCLogin):
    """The OIDC third-party login initiation, with nonces stored by ``NonceStore`` and the
    registration found by ``login_platform``."""

    def __init__(self, request: HttpRequest) -> None:
        super().__init__(
            DjangoRequest(request),
            DbToolConf(),
            session_service=NonceStore(request),
        )
        # Always pass params, so NonceStore.save_state_params learns the state.
        self.pass_params_to_launch({"bound": True})

    def validate_oidc_login(self) -> Registration:
        iss = self._get_request_param("iss")
        if not iss:
            raise OIDCException("Could not find issuer")
        if not self._get_request_param("login_hint"):
            raise OIDCException("Could not find login hint")
        platform = login_platform(iss, self._get_request_param("client_id") or None)
        return registration_for(platform)


class ToolLaunch(DjangoMessageLaunch):
    """A resource-link or deep-linking launch, checked in full and consumed once."""

    _jwks_from_cache: str | None = None

    def __init__(self, request: HttpRequest) -> None:
        super().__init__(
            DjangoRequest(request, post_only=True),
            DbToolConf(),
            session_service=NonceStore(request),
        )
        self.set_jwt_verify_options({"verify_aud": False, "require": ["exp", "iat"]})
        self.set_auto_validation(enable=False)

    def validate_state(self) -> "ToolLaunch":
        state = self._get_request_param("state")
        if not state:
            raise LtiException("Missing state param")
        if self._cookie_service.get_cookie(state) != state:
            raise LtiException("State not found")
        return self

    def fetch_public_key(self, key_set_url: str) -> Any:
        """Return the platform's JWKS from the shared cache, fetching it when absent."""
        cache_key = "lti-jwks-" + hashlib.sha256(key_set_url.encode()).hexdigest()
        cached = cache.get(cache_key)
        if cached is not None:
            self._jwks_from_cache = cache_key
            return cached
        key_set = super().fetch_public_key(key_set_url)
        if isinstance(key_set, dict) and isinstance(key_set.get("keys"), list):
            cache.set(cache_key, key_set, JWKS_CACHE_SECONDS)
        return key_set

    def get_public_key(self) -> tuple[str, str]:
        """Return the key that signed the token; refetch the JWKS once on an unknown kid."""
        self._jwks_from_cache = None
        try:
            return super().get_public_key()
        except LtiException:
            if not self._jwks_from_cache:
                raise
            # The platform rotated its key since the JWKS was cached: fetch it again.
            cache.delete(self._jwks_from_cache)
            self._registration.set_key_set(None)
            self._jwks_from_cache = None
            return super().get_public_key()

    def validate_registration(self) -> "ToolLaunch":
        try:
            return super().validate_registration()
        except LtiException:
            body = self._jwt.get("body", {})
            iss = body.get("iss")
            aud = body.get("aud")
            audiences = [str(value) for value in (aud if isinstance(aud, list) else [aud]) if value]
            if (
                iss
                and Platform.objects.filter(
                    issuer=iss, client_id__in=audiences, active=False
                ).exists()
            ):
                raise LtiException("The platform's registration is deactivated") from None
            if iss and Platform.objects.filter(issuer=iss, active=True).exists():
                # A registered platform, another client id: the token is for another tool.
                raise LtiException("The token is not for this tool (aud)") from None
            raise

    def validate_audience(self) -> "ToolLaunch":
        body = self._jwt.get("body", {})
        client_id = self._registration.get_client_id() if self._registration else None
        aud = body.get("aud")
        audiences = aud if isinstance(aud, list) else [aud]
        if client_id not in audiences:
            raise LtiException("The token is not for this tool (aud)")
        azp = body.get("azp")
        if (len(audiences) > 1 or azp is not None) and azp != client_id:
            raise LtiException("The token is not for this tool (azp)")
        return self

    def validate_times(self) -> "ToolLaunch":
        body = self._jwt.get("body", {})
        iat = body.get("iat")
        now = timezone.now().timestamp()
        if not isinstance(iat, int | float) or iat > now + CLOCK_SKEW:
            raise LtiException("The token's issue time (iat) is missing or in the future")
        return self

    def consume_nonce(self) -> "ToolLaunch":
        nonce = self._jwt.get("body", {}).get("nonce")
        state = self._get_request_param("state")
        fresh_after = timezone.now() - NONCE_LIFETIME
        used = LaunchNonce.objects.filter(
            value=nonce or "", state=state, used_at__isnull=True, created_at__gte=fresh_after
        ).update(used_at=timezone.now())
        if used != 1:
            raise LtiException("Invalid Nonce")
        return self

    def validate(self) -> "ToolLaunch":
        """Check the launch in full; consume its nonce last, inside the caller's transaction."""
        self._validated = True
        try:
            (
                self.validate_state()
                .validate_jwt_format()
                .validate_nonce()
                .validate_registration()
                .validate_audience()
                .validate_jwt_signature()
                .validate_times()
                .validate_deployment()
                .validate_message()
            )
            self.consume_nonce()
        except Exception:
            self._validated = False
            raise
        return self

    def claims(self) -> dict[str, Any]:
        """Return the checked id token's claims."""
        return dict(self._jwt.get("body", {}))

    def registration(self) -> Any:
        """Return pylti1p3's registration the launch matched."""
        return self._registration


def refusal_reason(message: str) -> str:
    """Return the words a visitor reads for a refusal message of the checks above."""
    text = message.lower()
    reasons = (
        ("deactivated", _("the platform's registration with this tool is deactivated")),
        ("nonce", _("this launch was already used or is too old")),
        (
            "state",
            _("this browser did not start this launch (another browser, or cookies blocked)"),
        ),
        ("expired", _("the launch has expired")),
        ('"exp"', _("the launch carries no expiry time")),
        ('"iat"', _("the launch carries no issue time")),
        ("iat", _("the launch's issue time is missing or in the future")),
        ("aud", _("the launch was meant for another tool")),
        ("azp", _("the launch was meant for another tool")),
        ("registration", _("the platform is not registered with this tool")),
        ("client id", _("the platform is not registered with this tool")),
        ("deployment", _("this deployment of the tool is not registered")),
        ("signature", _("the launch's signature does not verify")),
        ("public key", _("the launch's signing key is not the platform's")),
        ("decode", _("the launch could not be read")),
    )
    for needle, reason in reasons:
        if needle in text:
            return reason
    return _("the launch could not be checked")


def launch_check(request: HttpRequest) -> ToolLaunch:
    """Check the launch posted in the request and consume its nonce; raise LaunchRefused.

    Call inside ``transaction.atomic()``: the nonce is consumed by the same transaction that
    stores what the launch creates, so a refusal later in the launch stores nothing.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("launch_check must run inside a transaction")
    launch = ToolLaunch(request)
    try:
        launch.validate()
    except LtiException as error:
        raise LaunchRefused(refusal_reason(str(error))) from error
    except (AssertionError, ValueError, TypeError, KeyError) as error:
        raise LaunchRefused(_("the launch could not be read")) from error
    return launch
