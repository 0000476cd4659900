"""Record a learner's score for each link an attempt covers, in the attempt's transaction
or by the backfill, and send one score to its platform's line item, exactly once."""

import logging
from collections.abc import Callable, Iterable
from datetime import timedelta

import requests
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector

from practice.models import Attempt

from ..claims import LINEITEM_READ_SCOPE, LINEITEM_SCOPE, SCORE_SCOPE
from ..models import LinkLearner, ResourceLink, Score
from ..progress import link_score
from .platform import platform_connector

logger = logging.getLogger(__name__)

# How long a score is tried before it is marked failed (from when it became owed).
SCORE_RETRY_WINDOW = timedelta(hours=24)
# The wait before the next try: 30 s, 1, 2, 4, 8, 16 minutes, then every half hour. Kept under
# the Redis broker's visibility timeout (an hour), past which a waiting task is delivered twice.
SCORE_FIRST_DELAY = 30
SCORE_MAX_DELAY = 1800

# A link whose scores can be sent: it names what it shows (a plain link once an instructor
# chose), and it has a line item or the tool may create one.
SCORABLE_LINK = ~Q(link__target=ResourceLink.Target.UNSET) & (
    ~Q(link__lineitem_url="") | ~Q(link__lineitems_url="")
)


def retry_delay(tries: int) -> int:
    """Return the seconds to wait after try number ``tries + 1`` failed (exponential, capped)."""
    return min(SCORE_FIRST_DELAY * 2 ** min(tries, 16), SCORE_MAX_DELAY)


def _links_covering(*, user_id: int, page_slug: str, idea_slug: str):
    return LinkLearner.objects.filter(SCORABLE_LINK, lti_user__user_id=user_id).filter(
        Q(link__target=ResourceLink.Target.COURSE)
        | Q(link__page_slug=page_slug, link__idea_slug__in=["", idea_slug])
    )


def scores_record(*, attempt_id: int, user_id: int, page_slug: str, idea_slug: str) -> list[Score]:
    """Record the scores an attempt owes: one per link its learner came through that covers
    the attempt's idea (or page, or the whole course). Idempotent: a second call finds the
    same rows. One query when the learner came through no link."""
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
    for link_learner in LinkLearner.objects.filter(SCORABLE_LINK).select_related(
        "link", "lti_user"
    ):
        link = link_learner.link
        attempts = Attempt.objects.filter(
            copy__owner_id=link_learner.lti_user.user_id,
            created_at__gte=max(after, link_learner.created_at),
        ).exclude(pk__in=Score.objects.filter(link_learner=link_learner).values("attempt_id"))
        if link.target != ResourceLink.Target.COURSE:
            attempts = attempts.filter(problem__page_slug=link.page_slug)
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
    """Raised when the platform did not take a score now; the row stays pending and its next
    try is due in ``countdown`` seconds."""

    def __init__(self, error: str, *, countdown: int) -> None:
        super().__init__(error)
        self.countdown = countdown


class _LineItemGone(Exception):
    """Raised when the platform answers 404 (or 410) for the link's line item: it was deleted."""


def _scopes(link: ResourceLink) -> list[str]:
    return link.ags_scopes or [SCORE_SCOPE]  # links stored before the scopes were kept


def _service(*, connector: ServiceConnector, link: ResourceLink) -> AssignmentsGradesService:
    return AssignmentsGradesService(
        connector,
        {"scope": _scopes(link), "lineitem": link.lineitem_url, "lineitems": link.lineitems_url},
    )


def _lineitem_for(*, link: ResourceLink, connector: ServiceConnector) -> None:
    """Give the link a line item when it has none: find the one the platform keeps for the
    link's resource link id (made by an earlier try whose answer was lost) or create it.

    Locks the link's row, so two scores of one link make one line item.
    """
    locked = ResourceLink.objects.select_for_update().get(pk=link.pk)
    if locked.lineitem_url:
        link.lineitem_url, link.score_maximum = locked.lineitem_url, locked.score_maximum
        return
    wanted = (
        LineItem()
        .set_label(link.title or link.resource_id())
        .set_score_maximum(link.score_maximum)
        .set_resource_link_id(link.resource_link_id)
        .set_resource_id(link.resource_id())
    )
    item = _service(connector=connector, link=link).find_or_create_lineitem(
        wanted, find_by="resource_link_id"
    )
    if not item.get_id():
        raise LtiException("The platform answered a line item without an id")
    link.lineitem_url = str(item.get_id())[:500]
    link.score_maximum = _positive(item.get_score_maximum(), link.score_maximum)
    link.save(update_fields=["lineitem_url", "score_maximum"])


def _positive(value: object, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default


def _read_score_maximum(*, link: ResourceLink, connector: ServiceConnector) -> None:
    """Read the line item's scoreMaximum when the platform lets the tool read line items, and
    keep it on the link (a teacher may change a column's points at any time)."""
    if not {LINEITEM_SCOPE, LINEITEM_READ_SCOPE} & set(link.ags_scopes):
        return
    item = _service(connector=connector, link=link).get_lineitem(link.lineitem_url)
    maximum = _positive(item.get_score_maximum(), link.score_maximum)
    if maximum != link.score_maximum:
        link.score_maximum = maximum
        ResourceLink.objects.filter(pk=link.pk).update(score_maximum=maximum)


def _post_score(*, score: Score, connector: ServiceConnector) -> None:
    """Get a token, give the link a line item if it has none, read its scoreMaximum and post
    the score. Raises _LineItemGone on a 404/410 of the line item; any other failure as is."""
    link = score.link_learner.link
    lti_user = score.link_learner.lti_user
    # The token first, on its own: a token endpoint's 404 (or 400 invalid_client, while the
    # platform has not yet fetched a rotated key) is a platform not ready, not a lost item.
    connector.get_access_token(_scopes(link))
    if not link.lineitem_url:
        _lineitem_for(link=link, connector=connector)
    try:
        _read_score_maximum(link=link, connector=connector)
        score.score_maximum = link.score_maximum
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
        _service(connector=connector, link=link).put_grade(grade)
    except LtiServiceException as failure:
        if failure.response.status_code in (404, 410):
            raise _LineItemGone(_describe(failure)) from failure
        raise


def _describe(failure: Exception) -> str:
    if isinstance(failure, LtiServiceException):
        response = failure.response
        return f"HTTP {response.status_code} from {response.url}: {response.text[:200]}"
    return f"{type(failure).__name__}: {failure}"[:500]


def score_send(*, score_id: int) -> Score | None:
    """Send one pending score to its line item, once; return the row (None if it vanished).

    Holds the score's row lock while it talks to the platform, so two runs of the task for the
    same score send it once: the second waits, then finds it sent. The score given is the
    learner's progress on the link's idea or page at sending time (as the dashboard shows it)
    times the line item's scoreMaximum, timestamped with the attempt, so the platform keeps the
    newest. A link without a line item gets one first when the platform allows it.

    Marks the row failed when the line item answers 404 (deleted), or when a try fails
    ``SCORE_RETRY_WINDOW`` after the score became owed. Any other failure (the token endpoint's
    4xx or 5xx, the score endpoint's other answers, no connection) leaves it pending, notes
    the error and the next try's time, and raises ScoreNotSent.
    """
    error = ""
    countdown = 0
    with transaction.atomic():
        score = (
            Score.objects.select_for_update(of=("self",))
            .select_related("link_learner__link__context__platform", "link_learner__lti_user")
            .filter(pk=score_id)
            .first()
        )
        if score is None or score.status != Score.Status.PENDING:
            return score
        score.tries += 1
        now = timezone.now()
        try:
            _post_score(
                score=score, connector=platform_connector(score.link_learner.link.context.platform)
            )
        except _LineItemGone as failure:
            error = f"the line item is gone: {failure}"[:1000]
            score.status = Score.Status.FAILED
        except (requests.RequestException, LtiException, ValueError, KeyError) as failure:
            error = _describe(failure)
            deadline = score.pending_since + SCORE_RETRY_WINDOW
            if now >= deadline:
                score.status = Score.Status.FAILED
                error = f"gave up after {score.tries} tries: {error}"
            else:
                countdown = max(1, min(retry_delay(score.tries - 1), _seconds(deadline - now)))
                score.next_try_at = now + timedelta(seconds=countdown)
        else:
            score.status = Score.Status.SENT
            score.sent_at = now
            score.next_try_at = None
        score.last_error = error
        score.save(
            update_fields=[
                "score_given",
                "score_maximum",
                "status",
                "tries",
                "last_error",
                "sent_at",
                "next_try_at",
            ]
        )
    if score.status == Score.Status.PENDING:
        raise ScoreNotSent(error, countdown=countdown)
    if score.status == Score.Status.FAILED:
        logger.warning("score %s failed for good: %s", score.pk, error)
    return score


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds() + 0.999)


def scores_resend(*, score_ids: Iterable[int], enqueue: Callable[[int], object]) -> list[int]:
    """Make the failed scores among ``score_ids`` owed again, with a new retry window, and
    queue each by ``enqueue`` (the send task's ``delay_on_commit``); return their ids.

    A sent or pending score is left as it is: resending a sent score sends nothing.
    """
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            Score.objects.select_for_update()
            .filter(pk__in=list(score_ids), status=Score.Status.FAILED)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        Score.objects.filter(pk__in=ids).update(
            status=Score.Status.PENDING, pending_since=now, next_try_at=now, tries=0
        )
        for score_id in ids:
            enqueue(score_id)
    return ids
