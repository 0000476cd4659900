"""Nothing lost: the review tasks with a real Celery worker on Redis, no eager mode.

Each test runs in a transactional database (the worker thread commits and reads for real) and
drives the embedded worker through the broker exactly as beat would.
"""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from kombu.exceptions import OperationalError

from grading.kinds import Status
from practice.models import ProblemInstance
from practice.review import scheduling, tasks
from practice.review.models import ReviewDigest, ReviewItem
from practice.review.selectors import review_next
from practice.review.services.publishing import PUBLISH_LEASE, review_publish_due
from practice.review.services.recording import review_record_attempt

from .conftest import (
    BROKER_DOWN,
    make_attempt,
    make_copy,
    make_problem,
    redis_broker_url,
    start_worker,
    use_broker,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _due_items(copy, n: int, *, ago: timedelta = timedelta(hours=2)) -> list[ReviewItem]:
    """Give the copy n explained mistakes (of different kinds) that are due now."""
    from grading.kinds import MISTAKES_BY_KIND

    mistakes = [(kind, m) for kind, codes in MISTAKES_BY_KIND.items() for m in codes][:n]
    with time_machine.travel(timezone.now() - ago, tick=False):
        for kind, mistake in mistakes:
            review_record_attempt(
                attempt=make_attempt(make_problem(copy, kind=kind), mistake=mistake)
            )
    return list(ReviewItem.objects.filter(copy=copy).order_by("pk"))


def _names(finished) -> list[str]:
    return [name.rsplit(".", 1)[-1] for name, _id, _ret in finished]


def test_a_digest_task_delivered_twice_sends_one_email(worker, finished_tasks):
    copy = make_copy()
    _due_items(copy, 2)
    # The same message delivered twice (same task id), as after a redelivery.
    tasks.send_review_digest.apply_async(args=[copy.owner_id], task_id="digest-once")
    tasks.send_review_digest.apply_async(args=[copy.owner_id], task_id="digest-once")
    wait_for(lambda: len(finished_tasks) == 2, what="both deliveries to run")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [copy.owner.email]
    assert "2 reviews are due" in mail.outbox[0].subject
    assert sorted(ret for _n, _i, ret in finished_tasks) == [False, True]
    assert ReviewDigest.objects.filter(user=copy.owner).count() == 1


def test_the_daily_scan_twice_still_sends_one_email_per_learner(worker, finished_tasks):
    first, second = make_copy(), make_copy()
    _due_items(first, 1)
    _due_items(second, 3)
    make_copy()  # a learner with nothing due gets nothing
    tasks.send_review_digests.delay()
    tasks.send_review_digests.delay()
    wait_for(lambda: _names(finished_tasks).count("send_review_digest") == 4, what="digests")
    assert sorted(m.to[0] for m in mail.outbox) == sorted([first.owner.email, second.owner.email])


def test_a_worker_killed_mid_batch_loses_no_item(redis_app, finished_tasks):
    copy = make_copy()
    items = _due_items(copy, 5)
    claimed = review_publish_due(enqueue=tasks.prepare_review.delay_on_commit)
    assert sorted(claimed) == [item.pk for item in items]

    # The worker prepares two items of the batch and dies; the rest of its messages are gone
    # (an unpersisted Redis restarted with it). Purging the queue from inside the second task
    # makes the cut at exactly that point.
    def die_after_second(sender=None, **kwargs):
        if _names(finished_tasks).count("prepare_review") == 1:
            redis_app.control.purge()

    from celery.signals import task_prerun

    task_prerun.connect(die_after_second, weak=False)
    try:
        with start_worker(redis_app, perform_ping_check=False, shutdown_timeout=30):
            wait_for(lambda: len(finished_tasks) == 2, what="two prepared")
    finally:
        task_prerun.disconnect(die_after_second)
    lost = list(ReviewItem.objects.filter(problem__isnull=True).values_list("pk", flat=True))
    assert len(lost) == 3
    assert ReviewItem.objects.filter(pk__in=lost, published_at__isnull=False).count() == 3

    # Within the lease the claim stands: the next scan does not hand them out twice.
    assert review_publish_due(enqueue=tasks.prepare_review.delay_on_commit) == []
    # Past the lease, the next scan (through beat's task on a new worker) picks them up.
    finished_tasks.clear()
    with (
        time_machine.travel(timezone.now() + PUBLISH_LEASE + timedelta(seconds=1)),
        start_worker(redis_app, perform_ping_check=False, shutdown_timeout=30),
    ):
        tasks.publish_due_reviews.delay()
        wait_for(lambda: _names(finished_tasks).count("prepare_review") == 3, what="re-prepare")
    assert not ReviewItem.objects.filter(problem__isnull=True).exists()
    variants = ProblemInstance.objects.filter(purpose=ProblemInstance.Purpose.REVIEW)
    assert variants.count() == 5


def test_broker_down_while_answering_saves_and_schedules_then_reminds(redis_app, finished_tasks):
    from practice.services import attempt_submit

    copy = make_copy()
    problem = make_problem(copy)
    wrong = _omitted_term_answer(problem.spec)
    use_broker(BROKER_DOWN)
    answered_at = timezone.now() - timedelta(hours=3)
    with time_machine.travel(answered_at):
        attempt = attempt_submit(copy=copy, problem=problem, text=wrong, token=_token())
    assert attempt.pk is not None and attempt.status == Status.INCORRECT
    item = ReviewItem.objects.get(copy=copy)
    assert item.due <= timezone.now()
    # While the broker is down the scan still claims (and commits) but cannot enqueue.
    with pytest.raises(OperationalError):
        review_publish_due(enqueue=tasks.prepare_review.delay_on_commit)
    assert ReviewItem.objects.get(pk=item.pk).published_at is not None

    use_broker(redis_broker_url())
    with (
        time_machine.travel(timezone.now() + PUBLISH_LEASE + timedelta(seconds=1)),
        start_worker(redis_app, perform_ping_check=False, shutdown_timeout=30),
    ):
        tasks.publish_due_reviews.delay()
        tasks.send_review_digests.delay()
        wait_for(
            lambda: {"prepare_review", "send_review_digest"} <= set(_names(finished_tasks)),
            what="prepare and digest",
        )
    assert ReviewItem.objects.get(pk=item.pk).problem is not None
    assert [m.to for m in mail.outbox] == [[copy.owner.email]]
    assert "1 review is due" in mail.outbox[0].subject


def test_moving_the_clock_makes_items_due_exactly_when_fsrs_said(worker, finished_tasks):
    copy = make_copy()
    start = timezone.now().replace(microsecond=0) - timedelta(days=30)
    with time_machine.travel(start, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy)))
    item = ReviewItem.objects.get()
    expected = scheduling.card_review(
        scheduling.card_new(now=start), scheduling.Rating.Again, at=start
    ).due
    assert item.due == expected

    just_before = expected - timedelta(microseconds=1)
    assert review_publish_due(enqueue=tasks.prepare_review.delay_on_commit, now=just_before) == []
    assert review_next(copy=copy, now=just_before) == []
    with time_machine.travel(expected):
        tasks.publish_due_reviews.delay()
        wait_for(lambda: "prepare_review" in _names(finished_tasks), what="prepare")
        assert [i.pk for i in review_next(copy=copy)] == [item.pk]
    item.refresh_from_db()
    assert item.problem is not None

    # Answered right at that moment: FSRS names the next date, and it holds to the microsecond.
    with time_machine.travel(expected, tick=False):
        review_record_attempt(attempt=make_attempt(item.problem, status=Status.CORRECT))
    item.refresh_from_db()
    second = scheduling.card_review(
        scheduling.card_review(scheduling.card_new(now=start), scheduling.Rating.Again, at=start),
        scheduling.Rating.Good,
        at=expected,
    ).due
    assert item.due == second > expected + timedelta(hours=12)
    assert review_next(copy=copy, now=second - timedelta(microseconds=1)) == []
    assert [i.pk for i in review_next(copy=copy, now=second)] == [item.pk]
    assert (
        review_publish_due(
            enqueue=tasks.prepare_review.delay_on_commit, now=second - timedelta(microseconds=1)
        )
        == []
    )
    assert review_publish_due(enqueue=tasks.prepare_review.delay_on_commit, now=second) == [item.pk]


def _token():
    import uuid

    return uuid.uuid4()


def _omitted_term_answer(spec: dict) -> str:
    """Return the answer a learner who left term 0 out would give (from grading's catalog)."""
    from grading import mistaken_answers

    for diagnosis, vector in mistaken_answers(spec):
        if diagnosis.mistake == "omitted_term" and diagnosis.terms == (0,):
            return "[" + ", ".join(str(x) for x in vector) + "]"
    raise AssertionError("the catalog has no omitted_term answer for the spec")
