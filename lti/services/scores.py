"""Record a learner's score for each link an attempt covers, in the attempt's transaction
or by the backfill, and send one score to its platform's line item, exactly once."""

import logging
from datetime import timedelta

import requests
from django.db import transaction
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade

from practice.models import Attempt

from ..claims import (
    SCORE_SCOPE,
)
from ..models import LinkLearner, Score
from ..progress import link_score
from .platform import platform_connector

logger = logging.getLogger(__name__)


def _links_covering(*, user_id: int, page_slug: str, idea_slug: str):
    return LinkLearner.objects.filter(
        lti_user__user_id=user_id,
        link__page_slug=page_slug,
        link__idea_slug__in=["", idea_slug],
    ).exclude(link__lineitem_url="")


def scores_record(*, attempt_id: int, user_id: int, page_slug: str, idea_slug: str) -> list[Score]:
    """Record the scores an attempt owes: one per link its learner came through that covers
    the attempt's idea (or page). Idempotent: a second call finds the same rows. One query
    when the learner came through no link."""
    links = list(
        _links_covering(user_id=user_id, page_slug=page_slug, idea_slug=idea_slug).select_related(
            "link"
        )
    )
    if not links:
        return []
    attempt = Attempt.objects.filter(pk=attempt_id).only("pk", "created_at").first()
    if attempt is None:
        return []
    scores = []
    with transaction.atomic():
        for link_learner in links:
            score, _ = Score.objects.get_or_create(
                link_learner=link_learner,
                attempt=attempt,
                defaults={
                    "score_given": 0.0,
                    "score_maximum": link_learner.link.score_maximum,
                    "timestamp": attempt.created_at,
                },
            )
            scores.append(score)
    return scores


def scores_backfill(*, since: timedelta = timedelta(days=2)) -> int:
    """Record the scores of recent attempts the hook missed (the process stopped between the
    attempt's commit and its callback); return how many rows were added.

    The attempts table is the durable record: an attempt by a learner who came through a link,
    made after they came, on the link's idea or page, owes the link one score.
    """
    added = 0
    after = timezone.now() - since
    for link_learner in LinkLearner.objects.exclude(link__lineitem_url="").select_related(
        "link", "lti_user"
    ):
        link = link_learner.link
        attempts = Attempt.objects.filter(
            copy__owner_id=link_learner.lti_user.user_id,
            created_at__gte=max(after, link_learner.created_at),
            problem__page_slug=link.page_slug,
        ).exclude(pk__in=Score.objects.filter(link_learner=link_learner).values("attempt_id"))
        if link.idea_slug:
            attempts = attempts.filter(problem__idea_slug=link.idea_slug)
        for attempt in attempts.only("pk", "created_at"):
            _, created = Score.objects.get_or_create(
                link_learner=link_learner,
                attempt=attempt,
                defaults={
                    "score_given": 0.0,
                    "score_maximum": link.score_maximum,
                    "timestamp": attempt.created_at,
                },
            )
            added += created
    return added


class ScoreNotSent(Exception):
    """Raised when the platform did not take a score now; the row stays pending."""


def score_send(*, score_id: int) -> Score | None:
    """Send one pending score to its line item, once; return the row (None if it vanished).

    Holds the score's row lock while it talks to the platform, so two runs of the task for the
    same score send it once: the second waits, then finds it sent. The score given is the
    learner's progress on the link's idea or page at sending time (as the dashboard shows it),
    timestamped with the attempt, so the platform keeps the newest. Raises ScoreNotSent (the
    row stays pending, its error noted) when the platform is down or answers 5xx, 401, 403, 408
    or 429; marks the row failed on any other 4xx.
    """
    error = ""
    with transaction.atomic():
        score = (
            Score.objects.select_for_update()
            .select_related("link_learner__link__context__platform", "link_learner__lti_user")
            .filter(pk=score_id)
            .first()
        )
        if score is None or score.status != Score.Status.PENDING:
            return score
        link = score.link_learner.link
        lti_user = score.link_learner.lti_user
        score.score_given = link_score(link=link, user_id=lti_user.user_id) * score.score_maximum
        grade = (
            Grade()
            .set_score_given(score.score_given)
            .set_score_maximum(score.score_maximum)
            .set_timestamp(score.timestamp.isoformat().replace("+00:00", "Z"))
            .set_activity_progress("Submitted")
            .set_grading_progress("FullyGraded")
            .set_user_id(lti_user.sub)
        )
        service = AssignmentsGradesService(
            platform_connector(link.context.platform),
            {"scope": [SCORE_SCOPE], "lineitem": link.lineitem_url},
        )
        score.tries += 1
        try:
            service.put_grade(grade)
        except LtiServiceException as failure:
            status = failure.response.status_code
            error = f"HTTP {status}"
            # A malformed or unknown line item will not get better; an expired or not yet
            # trusted key (401/403), a timeout or a throttle may: those stay pending.
            if status < 500 and status not in (401, 403, 408, 429):
                score.status = Score.Status.FAILED
        except (requests.RequestException, LtiException, ValueError) as failure:
            error = f"{type(failure).__name__}: {failure}"[:500]
        else:
            score.status = Score.Status.SENT
            score.sent_at = timezone.now()
        score.last_error = error
        score.save(update_fields=["score_given", "status", "tries", "last_error", "sent_at"])
    if error and score.status == Score.Status.PENDING:
        raise ScoreNotSent(error)
    if error:
        logger.warning("score %s refused by the platform for good: %s", score.pk, error)
    return score
