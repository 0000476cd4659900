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
    MESSAGE_TYPE_CLAIM,
    NRPS_CLAIM,
    RESOURCE_LINK_CLAIM,
    ROLES_CLAIM,
    SCORE_SCOPE,
    MessageType,
    is_instructor,
)
from ..models import Context, LaunchNonce, LinkLearner, LtiUser, Membership, Platform, ResourceLink
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


def _context(*, platform: Platform, claims: dict[str, Any]) -> Context | None:
    claim = claims.get(CONTEXT_CLAIM) or {}
    context_id = str(claim.get("id") or "")
    if not context_id:
        return None
    context, _ = Context.objects.get_or_create(platform=platform, context_id=context_id)
    title = str(claim.get("title") or claim.get("label") or "")[:255]
    memberships_url = str((claims.get(NRPS_CLAIM) or {}).get("context_memberships_url") or "")
    if (context.title, context.memberships_url) != (title, memberships_url):
        context.title, context.memberships_url = title, memberships_url
        context.save(update_fields=["title", "memberships_url"])
    return context


def _target(*, copy: CourseCopy, custom: dict[str, Any]) -> tuple[str, str]:
    """Return the (page slug, idea slug) a link names; the idea slug is "" for a page."""
    page_slug = str(custom.get("page") or "")
    idea_slug = str(custom.get("idea") or "")
    if idea_slug:
        idea = Idea.objects.filter(page__version_id=copy.version_id, slug=idea_slug)
        if page_slug:
            idea = idea.filter(page__slug=page_slug)
        found = idea.select_related("page").first()
        if found is None:
            raise LaunchTargetError(idea_slug)
        return found.page.slug, found.slug
    if page_slug and Page.objects.filter(version_id=copy.version_id, slug=page_slug).exists():
        return page_slug, ""
    raise LaunchTargetError(page_slug)


def _resource_link(
    *, context: Context, claims: dict[str, Any], copy: CourseCopy
) -> ResourceLink | None:
    claim = claims.get(RESOURCE_LINK_CLAIM) or {}
    link_id = str(claim.get("id") or "")
    if not link_id:
        return None
    page_slug, idea_slug = _target(copy=copy, custom=claims.get(CUSTOM_CLAIM) or {})
    ags = claims.get(AGS_CLAIM) or {}
    lineitem = str(ags.get("lineitem") or "") if SCORE_SCOPE in (ags.get("scope") or []) else ""
    link, _ = ResourceLink.objects.update_or_create(
        context=context,
        resource_link_id=link_id,
        defaults={
            "title": str(claim.get("title") or "")[:255],
            "page_slug": page_slug,
            "idea_slug": idea_slug,
            "lineitem_url": lineitem,
        },
    )
    return link


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
        instructor = is_instructor(roles)
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
            if message_type == MessageType.RESOURCE_LINK:
                link = _resource_link(context=context, claims=claims, copy=copy)
                if link is not None and not instructor:
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
        link=link,
        copy=copy,
    )


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
    deep_link = DeepLink(registration_for(platform), deployment_id, settings_claim)
    return return_url, deep_link.get_response_jwt([resource])


def nonces_purge(*, older_than: timedelta = timedelta(days=1)) -> int:
    """Forget login nonces older than ``older_than`` (used or not); return how many.

    A launch only accepts a nonce younger than ten minutes, so an old row only takes room.
    """
    deleted, _ = LaunchNonce.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
