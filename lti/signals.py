"""The attempt hook: an attempt by a learner who came through a link owes that link a score.

Nothing is added to the attempt's own transaction, and nothing at all is read for a copy whose
owner never came through a link (``CourseCopy.lti_linked``, set at launch). For the others, once
the attempt commits, one query finds the links the learner came through, records a score row per
link and queues its sending. The attempts table stays the durable record: if the process stops
between the commit and this callback, the periodic sweep records the missing rows
(scores.scores_backfill).
"""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from practice.models import Attempt

from .services import scores
from .tasks import send_score


def _record_and_queue(*, attempt_id: int, user_id: int, page_slug: str, idea_slug: str) -> None:
    for score in scores.scores_record(
        attempt_id=attempt_id, user_id=user_id, page_slug=page_slug, idea_slug=idea_slug
    ):
        send_score.delay(score.pk)


@receiver(post_save, sender=Attempt, dispatch_uid="lti_attempt_scores")
def attempt_scores(
    sender: type[Attempt], instance: Attempt, created: bool, **kwargs: object
) -> None:
    """Queue, for after the commit, the scores a new attempt owes."""
    if not created or kwargs.get("raw"):
        return
    if not instance.copy.lti_linked:
        # The owner never came through a link: no score is owed and nothing is read. An
        # attempt whose copy was read just before the owner's first launch committed is left
        # to the periodic sweep (scores.scores_backfill), as one whose callback was lost.
        return
    # The attempt was made with its copy and problem in hand: no query here.
    arguments = {
        "attempt_id": instance.pk,
        "user_id": instance.copy.owner_id,
        "page_slug": instance.problem.page_slug,
        "idea_slug": instance.problem.idea_slug,
    }
    transaction.on_commit(lambda: _record_and_queue(**arguments))
