"""Register, update, deactivate and remove platforms and their deployments (the management
commands' write paths). Each names a platform by its issuer and, when the issuer has several
registrations, its client id; bad input raises ``RegistrationError`` and changes nothing."""

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import models, router, transaction
from django.db.models.deletion import Collector, ProtectedError, RestrictedError

from ..models import Deployment, Platform

# The fields a registration may set, by the name its command option gives them.
URL_FIELDS = {
    "login_url": "auth_login_url",
    "token_url": "auth_token_url",
    "jwks_url": "key_set_url",
}


class RegistrationError(ValueError):
    """Raised when a registration command cannot do what it was asked; nothing was changed."""


@dataclass(frozen=True)
class Registered:
    """What a registration did: the platform, whether it is new, what it changed."""

    platform: Platform
    created: bool
    changed: list[str] = field(default_factory=list)
    deployments_added: list[str] = field(default_factory=list)


def platform_named(*, issuer: str, client_id: str | None = None) -> Platform:
    """Return the platform registered for the issuer (and client id, needed only when the
    issuer has several registrations); raise RegistrationError naming what is wrong."""
    platforms = Platform.objects.filter(issuer=issuer)
    if client_id:
        platforms = platforms.filter(client_id=client_id)
    found = list(platforms.order_by("pk")[:2])
    if not found:
        named = f"issuer {issuer}" + (f", client id {client_id}" if client_id else "")
        raise RegistrationError(f"No platform is registered for {named}.")
    if len(found) > 1:
        raise RegistrationError(
            f"The issuer {issuer} has several registrations: name one with --client-id."
        )
    return found[0]


def frame_origins_clean(origins: list[str]) -> list[str]:
    """Return the origins, each checked to be ``scheme://host[:port]``; raise RegistrationError."""
    cleaned: list[str] = []
    for origin in origins:
        parts = urlsplit(origin.strip())
        if (
            parts.scheme not in ("http", "https")
            or not parts.netloc
            or parts.path not in ("", "/")
            or parts.query
            or parts.fragment
        ):
            raise RegistrationError(
                f"--frame-origin {origin!r} is not an origin (https://host or https://host:port)."
            )
        value = f"{parts.scheme}://{parts.netloc}"
        if value not in cleaned:
            cleaned.append(value)
    return cleaned


def platform_register(
    *,
    issuer: str,
    client_id: str,
    name: str | None = None,
    urls: dict[str, str | None] | None = None,
    deployments: list[str] | None = None,
    frame_origins: list[str] | None = None,
) -> Registered:
    """Register the platform ``(issuer, client_id)``, or update it with only what is named.

    ``urls`` maps ``login_url``, ``token_url``, ``jwks_url`` to a URL (None: leave as it is);
    ``deployments`` are added (never removed: see ``deployment_remove``); ``frame_origins``
    replaces the origins when given (``[]`` returns to the issuer's and login URL's origins),
    and None leaves them. A new platform needs a name, the three URLs and a deployment. Whether
    the platform is active is left as it is (``platform_set_active``). Locks the platform's row.
    """
    urls = {key: value for key, value in (urls or {}).items() if value}
    unknown = set(urls) - set(URL_FIELDS)
    if unknown:
        raise RegistrationError(f"Unknown URL option(s): {', '.join(sorted(unknown))}.")
    deployments = [value.strip() for value in deployments or []]
    if any(not value for value in deployments):
        raise RegistrationError("A --deployment id may not be empty.")
    origins = frame_origins_clean(frame_origins) if frame_origins is not None else None
    with transaction.atomic():
        platform = (
            Platform.objects.select_for_update().filter(issuer=issuer, client_id=client_id).first()
        )
        created = platform is None
        if platform is None:
            missing = [
                option
                for option, given in (
                    ("--name", name),
                    ("--login-url", urls.get("login_url")),
                    ("--token-url", urls.get("token_url")),
                    ("--jwks-url", urls.get("jwks_url")),
                    ("--deployment", deployments),
                )
                if not given
            ]
            if missing:
                raise RegistrationError(
                    f"A new platform needs {', '.join(missing)} (issuer {issuer}, "
                    f"client id {client_id} is not registered yet)."
                )
            platform = Platform(issuer=issuer, client_id=client_id)
        wanted: dict[str, str] = {URL_FIELDS[key]: value for key, value in urls.items()}
        if name:
            wanted["name"] = name
        if origins is not None:
            wanted["frame_origins"] = " ".join(origins)
        changed = [key for key, value in wanted.items() if getattr(platform, key) != value]
        for key in changed:
            setattr(platform, key, wanted[key])
        try:
            platform.full_clean(validate_unique=False)
        except ValidationError as error:
            raise RegistrationError(
                "; ".join(f"{key}: {' '.join(msgs)}" for key, msgs in error.message_dict.items())
            ) from error
        if created:
            platform.save()
        elif changed:
            platform.save(update_fields=changed)
        added = []
        for deployment_id in deployments:
            _, made = Deployment.objects.get_or_create(
                platform=platform, deployment_id=deployment_id
            )
            if made:
                added.append(deployment_id)
    return Registered(
        platform=platform,
        created=created,
        changed=[] if created else changed,
        deployments_added=added,
    )


def platform_set_active(*, platform: Platform, active: bool) -> bool:
    """Turn a platform's launches on or off; return False when it already was so.

    A deactivated platform's logins and launches are refused with a message saying so, its
    origins no longer frame the tool; its rows (learners, classes, scores) are kept.
    """
    with transaction.atomic():
        locked = Platform.objects.select_for_update().get(pk=platform.pk)
        if locked.active == active:
            return False
        locked.active = active
        locked.save(update_fields=["active"])
    platform.active = active
    return True


def removal_counts(row: models.Model) -> dict[str, int]:
    """Return how many rows of each model removing ``row`` would delete (itself included)."""
    collector = Collector(using=router.db_for_write(type(row)), origin=row)
    try:
        collector.collect([row])
    except (ProtectedError, RestrictedError) as error:
        raise RegistrationError(f"{row} cannot be removed: {error.args[0]}") from error
    counts: dict[str, int] = {}
    for model, rows in collector.data.items():
        counts[model._meta.label] = counts.get(model._meta.label, 0) + len(rows)
    for queryset in collector.fast_deletes:
        label = queryset.model._meta.label
        counts[label] = counts.get(label, 0) + queryset.count()
    return {label: count for label, count in counts.items() if count}


def platform_remove(*, platform: Platform) -> dict[str, int]:
    """Delete a platform with everything of it (deployments, learners' identities, classes,
    links, scores); return the counts deleted per model. The local user accounts stay."""
    return _delete(platform)


def deployment_named(*, platform: Platform, deployment_id: str) -> Deployment:
    """Return the platform's deployment; raise RegistrationError naming the ones it has."""
    found = platform.deployments.filter(deployment_id=deployment_id).first()
    if found is None:
        known = ", ".join(
            platform.deployments.order_by("deployment_id").values_list("deployment_id", flat=True)
        )
        raise RegistrationError(
            f"{platform.name} has no deployment {deployment_id!r} (it has: {known or 'none'})."
        )
    return found


def deployment_remove(*, deployment: Deployment) -> dict[str, int]:
    """Delete one deployment with its classes (their members, rosters, links and scores;
    launches naming it are refused from then on); return the counts deleted per model."""
    return _delete(deployment)


def _delete(row: models.Model) -> dict[str, int]:
    try:
        with transaction.atomic():
            _, per_model = row.delete()
    except (ProtectedError, RestrictedError) as error:
        raise RegistrationError(f"{row} cannot be removed: {error.args[0]}") from error
    return {label: count for label, count in per_model.items() if count}
