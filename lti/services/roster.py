"""Store a context's roster from the platform's names and roles service (NRPS)."""

from django.db import transaction
from pylti1p3.names_roles import NamesRolesProvisioningService

from ..models import Context, RosterEntry
from .platform import platform_connector


def roster_store(*, context_id: int) -> int:
    """Fetch the context's roster from the platform (NRPS) and store it; return its size.

    Does nothing (returns 0) when the platform offered no roster service for the context.
    """
    context = Context.objects.select_related("platform").filter(pk=context_id).first()
    if context is None or not context.memberships_url:
        return 0
    service = NamesRolesProvisioningService(
        platform_connector(context.platform), {"context_memberships_url": context.memberships_url}
    )
    members = service.get_members()
    with transaction.atomic():
        for member in members:
            sub = str(member.get("user_id") or "")
            if not sub:
                continue
            RosterEntry.objects.update_or_create(
                context=context,
                sub=sub,
                defaults={
                    "name": str(member.get("name") or "")[:255],
                    "roles": [str(role) for role in member.get("roles") or []],
                    "status": str(member.get("status") or "")[:32],
                },
            )
    return len(members)
