"""Accept a checked launch (the local learner, the context, the resource link and its
target), answer a deep-linking request, and purge used nonces."""

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException
from pylti1p3.lineitem import LineItem

from courses.models import CourseCopy, Idea, Page
from courses.services import copy_get_or_create

from ..claims import (
    AGS_CLAIM,
    CONTEXT_CLAIM,
    CUSTOM_CLAIM,
    DEEP_LINKING_DATA_CLAIM,
    DEPLOYMENT_CLAIM,
    LINEITEM_SCOPE,
    MESSAGE_TYPE_CLAIM,
    NRPS_CLAIM,
    RESOURCE_LINK_CLAIM,
    ROLES_CLAIM,
    SCORE_SCOPE,
    MessageType,
    role_access,
)
from ..models import (
    Context,
    Deployment,
    LaunchNonce,
    LinkLearner,
    LtiUser,
    Membership,
    Platform,
    ResourceLink,
)
from ..tool_conf import find_platform, registration_for


class LaunchTargetError(ValueError):
    """Raised when a launch names no page or idea of the course, or one it does not have."""


@dataclass(frozen=True)
class Accepted:
    """What a checked launch became: the local user, their context, and where to go."""

    user: AbstractBaseUser
    platform: Platform
    context: Context | None
    message_type: str
    instructor: bool
    # Whether the launch's roles are scored into the gradebook (a learner).
    scored: bool
    link: ResourceLink | None
    copy: CourseCopy


def _local_user(*, platform: Platform, claims: dict[str, Any]) -> LtiUser:
    """Return the local learner of ``(platform, sub)``, creating one with no password.

    An email in the claims is never used to find an existing account: only ``(iss, sub)``
    identify a platform user, so a platform cannot take over a signed-up learner.
    """
    sub = str(claims.get("sub") or "")
    if not sub:
        raise LtiException("The launch names no user (sub)")
    name = str(claims.get("name") or claims.get("given_name") or "")[:255]
    found = LtiUser.objects.select_related("user").filter(platform=platform, sub=sub).first()
    if found is not None:
        if name and found.name != name:
            found.name = name
            found.save(update_fields=["name"])
        return found
    user_model = get_user_model()
    # Readable in the site's header, unique by its random tail; never chosen by the platform.
    username = f"{slugify(name)[:40] or 'learner'}-{secrets.token_hex(4)}"
    user = user_model(username=username, first_name=name[:150])
    user.set_unusable_password()
    user.save()
    return LtiUser.objects.create(platform=platform, sub=sub, user=user, name=name)


def _deployment(*, platform: Platform, claims: dict[str, Any]) -> Deployment:
    """Return the registered deployment the launch names (pylti1p3 checked it is there)."""
    deployment = Deployment.objects.filter(
        platform=platform, deployment_id=str(claims.get(DEPLOYMENT_CLAIM) or "")
    ).first()
    if deployment is None:
        raise LtiException("The launch's deployment is not registered")
    return deployment


def _context(*, platform: Platform, claims: dict[str, Any]) -> Context | None:
    """Return the launch's class: its context id in its deployment (two deployments naming
    the same context id are two classes).

    A class stored before classes were kept per deployment, on a platform with several
    deployments, has none (migration ``lti/0005``): the first launch naming its context id
    claims it for the launch's deployment.
    """
    claim = claims.get(CONTEXT_CLAIM) or {}
    context_id = str(claim.get("id") or "")
    if not context_id:
        return None
    deployment = _deployment(platform=platform, claims=claims)
    context = Context.objects.filter(deployment=deployment, context_id=context_id).first()
    if context is None:
        Context.objects.filter(
            platform=platform, deployment__isnull=True, context_id=context_id
        ).update(deployment=deployment)
        context, _ = Context.objects.get_or_create(
            deployment=deployment, context_id=context_id, defaults={"platform": platform}
        )
    title = str(claim.get("title") or claim.get("label") or "")[:255]
    memberships_url = str((claims.get(NRPS_CLAIM) or {}).get("context_memberships_url") or "")
    if (context.title, context.memberships_url) != (title, memberships_url):
        context.title, context.memberships_url = title, memberships_url
        context.save(update_fields=["title", "memberships_url"])
    return context


def _target(*, copy: CourseCopy, custom: dict[str, Any]) -> dict[str, Any] | None:
    """Return the target a launch's custom parameters name (the link's target fields), or None
    when they name no page and no idea (a plain link); raise LaunchTargetError for a page or
    idea the course lacks."""
    page_slug = str(custom.get("page") or "")
    idea_slug = str(custom.get("idea") or "")
    if not page_slug and not idea_slug:
        return None
    if idea_slug:
        idea = Idea.objects.filter(page__version_id=copy.version_id, slug=idea_slug)
        if page_slug:
            idea = idea.filter(page__slug=page_slug)
        found = idea.select_related("page").first()
        if found is None:
            raise LaunchTargetError(idea_slug)
        return target_fields(ResourceLink.Target.IDEA, found.page.slug, found.slug)
    if Page.objects.filter(version_id=copy.version_id, slug=page_slug).exists():
        return target_fields(ResourceLink.Target.PAGE, page_slug, "")
    raise LaunchTargetError(page_slug)


def target_fields(target: str, page_slug: str = "", idea_slug: str = "") -> dict[str, str]:
    return {"target": target, "page_slug": page_slug, "idea_slug": idea_slug}


def _resource_link(
    *, context: Context, claims: dict[str, Any], copy: CourseCopy
) -> ResourceLink | None:
    """Store the launch's resource link; return it (None when the launch names no link).

    A launch whose custom parameters name a page or idea sets the link's target; a plain
    launch leaves the target as it is (chosen by an instructor, or not chosen yet). Only the
    fields that changed are written, so a launch never undoes what another wrote meanwhile.
    """
    claim = claims.get(RESOURCE_LINK_CLAIM) or {}
    link_id = str(claim.get("id") or "")
    if not link_id:
        return None
    fields: dict[str, Any] = {"title": str(claim.get("title") or "")[:255], **_ags_fields(claims)}
    named = _target(copy=copy, custom=claims.get(CUSTOM_CLAIM) or {})
    if named is not None:
        fields |= named | {"target_from_launch": True}
    link, created = ResourceLink.objects.get_or_create(
        context=context, resource_link_id=link_id, defaults=fields
    )
    if not created:
        changed = [name for name, value in fields.items() if getattr(link, name) != value]
        for name in changed:
            setattr(link, name, fields[name])
        if changed:
            link.save(update_fields=changed)
    return link


def _ags_fields(claims: dict[str, Any]) -> dict[str, Any]:
    """Return what a launch's AGS claim says of its link: the scopes, the line items URL when
    the tool may create one, and the line item when the claim names one.

    A claim without a line item keeps the one stored (the tool may have created it); a claim
    without the score scope clears it, as nothing may be sent there any more.
    """
    ags = claims.get(AGS_CLAIM) or {}
    scopes = [str(scope) for scope in ags.get("scope") or []]
    fields: dict[str, Any] = {"ags_scopes": scopes}
    can_score = SCORE_SCOPE in scopes
    fields["lineitems_url"] = (
        str(ags.get("lineitems") or "")[:500] if can_score and LINEITEM_SCOPE in scopes else ""
    )
    lineitem = str(ags.get("lineitem") or "")[:500]
    if not can_score:
        fields["lineitem_url"] = ""
    elif lineitem:
        fields["lineitem_url"] = lineitem
    return fields


class LinkTargetLocked(ValueError):
    """Raised when a link's target is named by its launches' custom parameters."""


def link_target_set(
    *, link: ResourceLink, target: str, page: Page | None, idea: Idea | None
) -> bool:
    """Set what a plain link shows (a page, an idea of it, or the whole course) for every
    launch after; return whether it changed. A link whose launches name their target (deep
    linked) is refused with LinkTargetLocked: its next launch would set it back."""
    if link.target_from_launch:
        raise LinkTargetLocked(link.pk)
    if target == ResourceLink.Target.COURSE:
        fields = target_fields(target)
    elif target == ResourceLink.Target.PAGE and page is not None:
        fields = target_fields(target, page.slug)
    elif target == ResourceLink.Target.IDEA and page is not None and idea is not None:
        fields = target_fields(target, page.slug, idea.slug)
    else:
        raise ValueError(f"no such target: {target}")
    changed = [name for name, value in fields.items() if getattr(link, name) != value]
    for name in changed:
        setattr(link, name, fields[name])
    if changed:
        link.save(update_fields=changed)
    return bool(changed)


def find_platform_of(registration: Any) -> Platform:
    """Return the active platform of a checked launch's registration."""
    platform = find_platform(registration.get_issuer(), registration.get_client_id())
    if platform is None:
        raise LtiException("Registration not found.")
    return platform


def launch_accept(*, platform: Platform, claims: dict[str, Any]) -> Accepted:
    """Store what a checked launch says: the local user, their course copy, the context, their
    membership and, for a resource link, the link and (for a learner) that they came through it.

    Runs in the caller's transaction (the one that consumed the launch's nonce): a launch
    refused here (an unknown page or idea) stores nothing.
    """
    with transaction.atomic(savepoint=False):
        lti_user = _local_user(platform=platform, claims=claims)
        copy = copy_get_or_create(user=lti_user.user, course_slug=settings.BASISLAB_COURSE_SLUG)
        context = _context(platform=platform, claims=claims)
        roles = [str(role) for role in claims.get(ROLES_CLAIM) or []]
        access = role_access(roles)
        instructor = access.class_view
        message_type = str(claims.get(MESSAGE_TYPE_CLAIM) or "")
        link = None
        if context is not None:
            Membership.objects.update_or_create(
                context=context,
                lti_user=lti_user,
                defaults={
                    "instructor": instructor,
                    "roles": roles,
                    "last_launch_at": timezone.now(),
                },
            )
            if not access.scored:
                # Roles are the context's: a learner who launches as an observer (or teacher)
                # is scored on none of its links from then on.
                LinkLearner.objects.filter(link__context=context, lti_user=lti_user).delete()
            if message_type == MessageType.RESOURCE_LINK:
                link = _resource_link(context=context, claims=claims, copy=copy)
                # Only a learner's attempts are scored (observers, mentors, no role: never).
                if link is not None and access.scored:
                    LinkLearner.objects.get_or_create(link=link, lti_user=lti_user)
                    if not copy.lti_linked:
                        # Every copy of the owner: the score hook matches attempts by owner.
                        CourseCopy.objects.filter(owner_id=lti_user.user_id).update(lti_linked=True)
                        copy.lti_linked = True
    return Accepted(
        user=lti_user.user,
        platform=platform,
        context=context,
        message_type=message_type,
        instructor=instructor,
        scored=access.scored,
        link=link,
        copy=copy,
    )


class ToolDeepLink(DeepLink):
    """pylti1p3's deep-linking response, without a ``data`` claim when the request had none.

    The library always sends ``data``, ``null`` when the request carried none; the spec asks
    the tool to return ``data`` only as it was given.
    """

    def get_message_jwt(self, resources: Any) -> dict[str, object]:
        message = super().get_message_jwt(resources)
        if self._deep_link_settings.get("data") is None:
            message.pop(DEEP_LINKING_DATA_CLAIM, None)
        return message


def deep_link_response(
    *,
    platform: Platform,
    deployment_id: str,
    settings_claim: dict[str, Any],
    launch_url: str,
    page: Page,
    idea: Idea | None,
) -> tuple[str, str]:
    """Return the deep-linking return URL and the signed response naming one page or idea.

    The content item is an LTI resource link back to the tool's launch URL with the target in
    its custom parameters, and a line item (score maximum 1) so the gradebook gets a column.
    """
    return_url = str(settings_claim.get("deep_link_return_url") or "")
    if not return_url:
        raise LtiException("The deep-linking request has no return URL")
    title = idea.title if idea is not None else page.title
    custom = {"page": page.slug} | ({"idea": idea.slug} if idea is not None else {})
    resource_id = f"{page.slug}/{idea.slug}" if idea is not None else page.slug
    lineitem = LineItem().set_score_maximum(1).set_label(title).set_resource_id(resource_id)
    resource = (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(title)
        .set_custom_params(custom)
        .set_lineitem(lineitem)
    )
    deep_link = ToolDeepLink(registration_for(platform), deployment_id, settings_claim)
    return return_url, deep_link.get_response_jwt([resource])


def nonces_purge(*, older_than: timedelta = timedelta(days=1)) -> int:
    """Forget login nonces older than ``older_than`` (used or not); return how many.

    A launch only accepts a nonce younger than ten minutes, so an old row only takes room.
    """
    deleted, _ = LaunchNonce.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
