"""Celery tasks for spaced review: a few lines each, ids only, safe to run twice.

Beat runs the two scans on a static schedule (``CELERY_BEAT_SCHEDULE``); there are no
per-item schedules and no ETA tasks: the due dates live in the database, and a scan that
misses a beat (broker down, worker dead) is caught up by the next one.
"""

from celery import shared_task

from .services import calibration, digest, parameters, publishing, recall_maps, variants

# Batches per publish run: bounded so one run ends well before the next beat.
PUBLISH_MAX_BATCHES = 50


@shared_task(acks_late=True, ignore_result=True)
def publish_due_reviews() -> int:
    """Claim due items batch by batch and enqueue a prepare task for each; return the count."""
    claimed = 0
    for _batch in range(PUBLISH_MAX_BATCHES):
        ids = publishing.review_publish_due(enqueue=prepare_review.delay_on_commit)
        claimed += len(ids)
        if len(ids) < publishing.PUBLISH_BATCH_SIZE:
            break
    return claimed


@shared_task(acks_late=True, ignore_result=True)
def prepare_review(item_id: int) -> bool:
    """Prepare the fresh variant of one claimed item; return whether one was made."""
    return variants.review_prepare(item_id=item_id) is not None


@shared_task(acks_late=True, ignore_result=True)
def send_review_digests() -> int:
    """Enqueue one digest task per learner with due reviews; return how many."""
    return len(digest.review_digest_enqueue(enqueue=send_review_digest.delay_on_commit))


@shared_task(acks_late=True, ignore_result=True)
def send_review_digest(user_id: int) -> bool:
    """Send one learner's reminder for today unless it was already sent; return whether sent."""
    return digest.review_digest_send(user_id=user_id)


@shared_task(acks_late=True, ignore_result=True)
def fit_review_parameters() -> int:
    """Fit FSRS parameters to the site's logs and each large learner log; return sets stored."""
    return len(parameters.review_parameters_fit_all())


@shared_task(acks_late=True, ignore_result=True)
def report_review_calibration() -> int:
    """Score the week's predicted recall against explicit outcomes; return reports stored."""
    return len(calibration.review_calibration_report())


@shared_task(acks_late=True, ignore_result=True)
def fit_recall_map() -> bool:
    """Fit the week's calibration map of predicted recall; return whether one was stored."""
    return recall_maps.review_recall_map_fit() is not None
