"""Celery tasks of the LTI app: send a score, queue what is pending, fetch a roster.

Each takes ids, re-reads and locks its row, and is safe to run twice (see scores.score_send).
"""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from .models import Score
from .services import launches, roster, scores

# Enough retries of one task to cover the retry window at the delays of scores.retry_delay
# (30 s doubling to half an hour: 53 tries in 24 h); the row, not this count, decides when to
# give up. Past it the sweep below queues the score again when its try is overdue.
SCORE_MAX_RETRIES = 60
# A try this late was lost (the broker or worker dropped the waiting retry): queue it again.
SWEEP_GRACE = timedelta(minutes=10)
SWEEP_BATCH = 500


@shared_task(bind=True, max_retries=SCORE_MAX_RETRIES, acks_late=True)
def send_score(self, score_id: int) -> str:
    """Send one score to its platform; retry with growing delays while the platform fails,
    until the score is sent or marked failed (scores.score_send decides which)."""
    try:
        score = scores.score_send(score_id=score_id)
    except scores.ScoreNotSent as error:
        if self.request.retries >= self.max_retries:
            return "pending"  # the sweep queues it once its try is overdue
        raise self.retry(countdown=error.countdown, exc=error) from error
    return score.status if score is not None else "gone"


@shared_task
def send_pending_scores() -> int:
    """Record scores the attempt hook missed, then queue every pending score nobody will try:
    recorded a minute ago and never tried, or whose next try is overdue (its retry was lost).
    Return how many were queued. The same beat forgets old login nonces."""
    launches.nonces_purge()
    scores.scores_backfill()
    now = timezone.now()
    ids = list(
        Score.objects.filter(status=Score.Status.PENDING)
        .filter(
            Q(next_try_at__isnull=True, timestamp__lte=now - timedelta(minutes=1))
            | Q(next_try_at__lte=now - SWEEP_GRACE)
        )
        .order_by("timestamp")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    for score_id in ids:
        send_score.delay(score_id)
    return len(ids)


@shared_task(acks_late=True)
def sync_roster(context_id: int) -> int:
    """Fetch and store a context's roster (NRPS); return its size."""
    return roster.roster_store(context_id=context_id)
