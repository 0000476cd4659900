"""The beat scan: claim due items that have no variant yet and hand their ids to workers."""

from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import ReviewItem

# A claim older than this whose variant was never prepared is claimed again: the worker that
# took it died. Longer than the beat interval, so a slow worker is not raced needlessly.
PUBLISH_LEASE = timedelta(minutes=10)
PUBLISH_BATCH_SIZE = 200


def review_publish_due(
    *,
    enqueue: Callable[[int], object],
    now: datetime | None = None,
    batch_size: int = PUBLISH_BATCH_SIZE,
) -> list[int]:
    """Claim one batch of due items with no variant and enqueue a prepare task for each.

    Rows locked by a concurrent scan are skipped, not waited for. A claim is a timestamp: an
    item claimed more than PUBLISH_LEASE ago whose variant is still missing (the worker died,
    the message was lost) is claimed again. ``enqueue`` is called with each claimed id inside
    the transaction: the tasks module passes its prepare task's ``delay_on_commit``, so the
    messages go out after commit and only the tasks import the services, never the reverse.
    Returns the claimed item ids.
    """
    now = now or timezone.now()
    with transaction.atomic():
        ids = list(
            ReviewItem.objects.select_for_update(skip_locked=True)
            .filter(due__lte=now, problem__isnull=True)
            .filter(Q(published_at__isnull=True) | Q(published_at__lte=now - PUBLISH_LEASE))
            .order_by("due")
            .values_list("pk", flat=True)[:batch_size]
        )
        if ids:
            ReviewItem.objects.filter(pk__in=ids).update(published_at=now)
            for item_id in ids:
                enqueue(item_id)
    return ids
