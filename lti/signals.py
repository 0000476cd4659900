"""The attempt hook: an attempt by a learner who came through a link owes that link a score.

The score rows are written in the attempt's own transaction (so none is lost if the process
dies after the commit) and their sending is queued once it commits.
"""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from practice.models import Attempt

from . import services
from .tasks import send_score


@receiver(post_save, sender=Attempt, dispatch_uid="lti_attempt_scores")
def attempt_scores(
    sender: type[Attempt], instance: Attempt, created: bool, **kwargs: object
) -> None:
    """Record the scores a new attempt owes and queue their sending after the commit."""
    if not created or kwargs.get("raw"):
        return
    for score in services.scores_record(attempt=instance):
        score_id = score.pk
        transaction.on_commit(lambda score_id=score_id: send_score.delay(score_id))
