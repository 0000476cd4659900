"""Celery tasks of the LTI app: send a score, resend what is pending, fetch a roster.

Each takes ids, re-reads and locks its row, and is safe to run twice (see scores.score_send).
"""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from .models import Score
from .services import launches, roster, scores

# Retries of one score's task: 30 s, 1, 2, 4, ... minutes (capped at an hour), then the
# periodic sweep below keeps trying while the score is pending.
SCORE_MAX_RETRIES = 8
SCORE_FIRST_DELAY = 30
SCORE_MAX_DELAY = 3600
SWEEP_BATCH = 500


def retry_delay(retries: int) -> int:
    """Return the seconds to wait before retry number ``retries + 1`` (exponential, capped)."""
    return min(SCORE_FIRST_DELAY * 2**retries, SCORE_MAX_DELAY)


@shared_task(bind=True, max_retries=SCORE_MAX_RETRIES, acks_late=True)
def send_score(self, score_id: int) -> str:
    """Send one score to its platform; retry with backoff while the platform does not answer."""
    try:
        score = scores.score_send(score_id=score_id)
    except scores.ScoreNotSent as error:
        if self.request.retries >= self.max_retries:
            return "pending"  # the sweep picks it up
        raise self.retry(countdown=retry_delay(self.request.retries), exc=error) from error
    return score.status if score is not None else "gone"


@shared_task
def send_pending_scores() -> int:
    """Record scores the attempt hook missed, then queue every score still pending a minute
    after its attempt; return how many were queued. The same beat forgets old login nonces."""
    launches.nonces_purge()
    scores.scores_backfill()
    ids = list(
        Score.objects.filter(
            status=Score.Status.PENDING, timestamp__lte=timezone.now() - timedelta(minutes=1)
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
