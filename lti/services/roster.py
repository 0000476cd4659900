"""Store a context's roster from the platform's names and roles service (NRPS)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from pylti1p3.names_roles import NamesRolesProvisioningService

from ..claims import role_access
from ..models import Context, Membership, RosterEntry
from .platform import platform_connector

# NRPS statuses (Names and Role Provisioning Services 2.0, "status"): Active, Inactive, and
# Deleted in a differences answer, which says the member left.
DELETED = "deleted"


def roster_store(*, context_id: int) -> int:
    """Fetch the context's roster from the platform (NRPS) and store it; return its size.

    A member the answer lists is stored with its status; a member the tool knows (a roster row
    or a launch) that the answer no longer lists, or lists as Deleted, is marked as having left
    (``left_at``), and unmarked when a later answer lists them again. An answer that lists no
    one marks no one: a platform lists at least the instructor who launched.

    Does nothing (returns 0) when the platform offered no roster service for the context.
    """
    context = Context.objects.select_related("platform").filter(pk=context_id).first()
    if context is None or not context.memberships_url:
        return 0
    service = NamesRolesProvisioningService(
        platform_connector(context.platform), {"context_memberships_url": context.memberships_url}
    )
    members = service.get_members()
    now = timezone.now()
    listed: set[str] = set()
    with transaction.atomic():
        for member in members:
            sub = str(member.get("user_id") or "")
            if not sub:
                continue
            status = str(member.get("status") or "")[:32]
            entry, _ = RosterEntry.objects.update_or_create(
                context=context,
                sub=sub,
                defaults={
                    "name": str(member.get("name") or "")[:255],
                    "roles": [str(role) for role in member.get("roles") or []],
                    "status": status,
                },
            )
            if status.lower() == DELETED:
                if entry.left_at is None:
                    entry.left_at = now
                    entry.save(update_fields=["left_at"])
                continue
            listed.add(sub)
            if entry.left_at is not None:
                entry.left_at = None
                entry.save(update_fields=["left_at"])
        if listed:
            _mark_left(context=context, listed=listed, now=now)
    return len(members)


def _mark_left(*, context: Context, listed: set[str], now: datetime) -> None:
    """Mark as left every member of the context the latest answer did not list: its roster
    rows, and a row for each learner who launched (the class view's rows) without one."""
    RosterEntry.objects.filter(context=context, left_at__isnull=True).exclude(
        sub__in=listed
    ).update(left_at=now)
    skip = listed | set(RosterEntry.objects.filter(context=context).values_list("sub", flat=True))
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(
                context=context,
                sub=member.lti_user.sub,
                name=member.lti_user.name,
                roles=member.roles,
                left_at=now,
            )
            for member in Membership.objects.filter(context=context, instructor=False)
            .select_related("lti_user")
            .order_by("pk")
            if member.lti_user.sub not in skip and role_access(member.roles).scored
        ],
        ignore_conflicts=True,  # another run of the task stored the same row meanwhile
    )
