"""The tool's signing keys: create, rotate, publish (JWKS) and pick the one that signs."""

import json

from django.db import transaction
from jwcrypto.jwk import JWK

from .models import ToolKey

KEY_SIZE = 2048


def key_create() -> ToolKey:
    """Create a new RSA key pair; it becomes the signing key (the newest active one)."""
    jwk = JWK.generate(kty="RSA", size=KEY_SIZE)
    kid = jwk.thumbprint()
    public = json.loads(jwk.export_public())
    public.update({"kid": kid, "alg": "RS256", "use": "sig"})
    private_pem = jwk.export_to_pem(private_key=True, password=None).decode("ascii")
    return ToolKey.objects.create(kid=kid, private_pem=private_pem, public_jwk=public)


def key_rotate(*, keep: int = 2) -> ToolKey:
    """Create a new signing key and retire all but the ``keep`` newest active keys.

    The previous key stays in the JWKS (``keep`` >= 2) so a platform that cached it still
    verifies what it signed; platforms refetch the JWKS when they meet the new ``kid``.
    """
    if keep < 1:
        raise ValueError("keep must be at least 1")
    with transaction.atomic():
        new = key_create()
        stale = ToolKey.objects.filter(active=True).order_by("-created_at", "-pk")[keep:]
        ToolKey.objects.filter(pk__in=[key.pk for key in stale]).update(active=False)
    return new


def signing_key() -> ToolKey:
    """Return the key that signs now, creating the first one on first use."""
    key = ToolKey.objects.filter(active=True).order_by("-created_at", "-pk").first()
    return key if key is not None else key_create()


def jwks() -> dict:
    """Return the tool's public key set: every active key, newest first."""
    signing_key()
    keys = ToolKey.objects.filter(active=True).order_by("-created_at", "-pk")
    return {"keys": [key.public_jwk for key in keys]}
