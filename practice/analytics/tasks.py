"""Celery tasks of the mistake counts: safe to run twice (counting is idempotent per attempt)."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True)
def catch_up_mistake_counts() -> int:
    """Count the newest attempts a failure after their commit left uncounted; return how many."""
    return services.counts_catch_up()


@shared_task(acks_late=True, ignore_result=True)
def rebuild_mistake_counts() -> int:
    """Rebuild every count from the attempts; return how many attempts are counted."""
    return services.counts_rebuild()
