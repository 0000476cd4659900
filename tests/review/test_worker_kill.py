"""Nothing lost when a worker is really killed: SIGKILL to a Celery worker process mid-batch.

A worker subprocess (the project's ``celery -A basislab worker``, solo pool, prefetch 1 and
``acks_late`` from the settings) shares the test database and the Redis broker with the test.
It runs ``publish_due_reviews``, starts preparing the batch and is killed with SIGKILL as soon
as the database shows part of the batch prepared. After the kill an unprepared item's message
is in one of three places: still queued, held unacknowledged by Redis (the one the worker was
running; Redis hands it out again only after the visibility timeout), or nowhere (the worker
died between taking it off the queue and recording it as unacknowledged). The next scan past
the lease claims every unprepared item whatever became of its message, and the items whose
message also comes back (the queued ones at once, the held one after the visibility timeout)
are prepared once all the same.
"""

import json
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import time_machine
from django.conf import settings
from django.utils import timezone

from grading.kinds import MISTAKES_BY_KIND
from practice.models import ProblemInstance
from practice.review import tasks
from practice.review.models import ReviewItem
from practice.review.services.publishing import PUBLISH_LEASE, review_publish_due
from practice.review.services.recording import review_record_attempt

from .conftest import (
    make_attempt,
    make_copy,
    make_problem,
    redis_broker_url,
    start_worker,
    subprocess_database_url,
    wait_for,
)

logger = logging.getLogger(__name__)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Enough items that the batch takes far longer than the test needs to notice the first prepared
# item and kill the worker (a prepare takes a few milliseconds, the poll one).
COPIES = 3
# kombu's Redis transport: the hash of delivered, unacknowledged messages and its index.
UNACKED = "unacked"
UNACKED_INDEX = "unacked_index"


def _due_items(copies: int) -> list[int]:
    """Give each of several learners every catalogued mistake, due two hours ago."""
    mistakes = [(kind, m) for kind, codes in MISTAKES_BY_KIND.items() for m in codes]
    with time_machine.travel(timezone.now() - timedelta(hours=2), tick=False):
        for _n in range(copies):
            copy = make_copy()
            for kind, mistake in mistakes:
                review_record_attempt(
                    attempt=make_attempt(make_problem(copy, kind=kind), mistake=mistake)
                )
    return list(ReviewItem.objects.order_by("pk").values_list("pk", flat=True))


@pytest.fixture
def queue(redis_app):
    """Send and consume this test's tasks on a queue of its own; drop it after.

    A Redis database may be shared by test runs side by side (the default one is): a worker
    of one run must not take another run's messages.
    """
    name = f"review-kill-{uuid.uuid4().hex[:12]}"
    saved = redis_app.conf.task_default_queue

    def route_to(queue: str) -> None:
        redis_app.conf.task_default_queue = queue
        # Celery caches the queues and the router built from the default queue.
        for cached in ("queues", "default_queue", "router"):
            redis_app.amqp.__dict__.pop(cached, None)

    route_to(name)
    yield name
    route_to(saved)
    broker = redis.Redis.from_url(redis_broker_url())
    # The queue and the routing tables of the exchange named after it.
    broker.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    broker.close()


def _held(broker: redis.Redis, queue: str) -> set[bytes]:
    """Return the delivery tags of the queue's messages Redis holds unacknowledged."""
    return {
        tag
        for tag, payload in broker.hgetall(UNACKED).items()
        if json.loads(payload)[2] == queue  # (message, exchange, routing key)
    }


def _unprepared() -> set[int]:
    return set(ReviewItem.objects.filter(problem__isnull=True).values_list("pk", flat=True))


def _spawn_worker(log: Path, queue: str) -> subprocess.Popen:
    """Start the project's Celery worker as a process of its own on the test database."""
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE=settings.SETTINGS_MODULE,
        DATABASE_URL=subprocess_database_url(),
        CELERY_BROKER_URL=redis_broker_url(),
        BASISLAB_TEST_CELERY_QUEUE=queue,
        PYTHONPATH=str(settings.BASE_DIR),
    )
    command = [
        str(Path(sys.executable).with_name("celery")),
        "-A",
        "basislab",
        "worker",
        "--pool=solo",
        "--concurrency=1",
        "--loglevel=INFO",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
        f"--hostname=doomed-{uuid.uuid4().hex[:8]}@%h",
    ]
    with log.open("wb") as out:
        # A session of its own, so the cleanup can kill anything it started.
        return subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _kill_when_mid_batch(worker: subprocess.Popen, log: Path, *, total: int) -> None:
    """SIGKILL the worker as soon as at least one item is prepared and at least one is not."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail(f"the worker exited ({worker.returncode}):\n{log.read_text()[-3000:]}")
        if 0 < total - len(_unprepared()) < total:
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
            return
        time.sleep(0.005)
    pytest.fail(f"the worker prepared nothing in 60 s:\n{log.read_text()[-3000:]}")


def _prepare_results(finished) -> list[object]:
    return [ret for name, _id, ret in finished if name.endswith(".prepare_review")]


def test_a_worker_killed_by_sigkill_mid_batch_loses_no_item(
    redis_app, queue, finished_tasks, tmp_path
):
    items = _due_items(COPIES)
    total = len(items)
    broker = redis.Redis.from_url(redis_broker_url())
    held: set[bytes] = set()
    log = tmp_path / "worker.log"
    worker = _spawn_worker(log, queue)
    try:
        # Given a batch published by beat's task and a worker part way through it
        tasks.publish_due_reviews.delay()
        _kill_when_mid_batch(worker, log, total=total)
        assert worker.returncode == -signal.SIGKILL

        # Then part of the batch is prepared, the rest claimed and waiting for the lease
        lost = _unprepared()
        assert 0 < len(lost) < total, f"not killed mid-batch: {total - len(lost)} prepared"
        assert ReviewItem.objects.filter(published_at__isnull=True).count() == 0
        # The message the worker was running (if it had one) stays with Redis, unacknowledged.
        held = _held(broker, queue)
        assert len(held) <= 1
        queued = broker.llen(queue)
        assert queued <= len(lost)
        logger.info(
            "killed with %d of %d prepared: %d messages queued, %d held unacknowledged",
            total - len(lost),
            total,
            queued,
            len(held),
        )

        # Within the lease the claim stands: no scan hands the items out twice.
        assert review_publish_due(enqueue=tasks.prepare_review.delay_on_commit) == []

        # When the next scan runs past the lease, on a fresh worker
        with time_machine.travel(timezone.now() + PUBLISH_LEASE + timedelta(seconds=1)):
            # Then it claims every unprepared item, whatever became of its message. (The scan
            # skips locked rows: until PostgreSQL notices the dead worker's connection, the item
            # it was preparing stays locked for a moment, and the scan after takes it.)
            claimed: set[int] = set()
            wait_for(
                lambda: (
                    claimed.update(review_publish_due(enqueue=tasks.prepare_review.delay_on_commit))
                    or claimed == lost
                ),
                timeout=10,
                what="the scans to claim every unprepared item",
            )
            with start_worker(redis_app, perform_ping_check=False, shutdown_timeout=30):
                wait_for(
                    lambda: len(_prepare_results(finished_tasks)) == queued + len(claimed),
                    timeout=120,
                    what="the queued and the re-published messages",
                )
        # Each item prepared once: the queued message or the scan's, whichever came first.
        assert sorted(_prepare_results(finished_tasks), key=str) == sorted(
            [False] * queued + [True] * len(lost), key=str
        )
        assert _unprepared() == set()
        assert broker.llen(queue) == 0
        assert _held(broker, queue) == held, "redelivered before the visibility timeout"

        # When the visibility timeout has passed, Redis hands the killed worker's message out
        # again: it finds its item prepared and does nothing.
        finished_tasks.clear()
        visibility = redis_app.conf.broker_transport_options["visibility_timeout"]
        later = timezone.now() + timedelta(seconds=visibility) + PUBLISH_LEASE
        with (
            time_machine.travel(later),
            start_worker(redis_app, perform_ping_check=False, shutdown_timeout=30),
        ):
            wait_for(
                lambda: (
                    len(_prepare_results(finished_tasks)) == len(held) and not _held(broker, queue)
                ),
                timeout=120,
                what="the unacknowledged message to be redelivered",
            )
        assert _prepare_results(finished_tasks) == [False] * len(held)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        if held:
            # Leave no unacknowledged message behind for a later test's worker to restore.
            broker.zrem(UNACKED_INDEX, *held)
            broker.hdel(UNACKED, *held)
        broker.close()

    # Then every item of the batch is prepared exactly once, none lost, none twice
    variants = ProblemInstance.objects.filter(purpose=ProblemInstance.Purpose.REVIEW)
    assert variants.count() == total
    prepared = dict(ReviewItem.objects.values_list("pk", "problem_id"))
    assert sorted(prepared) == items
    assert sorted(prepared.values()) == sorted(variants.values_list("pk", flat=True))
