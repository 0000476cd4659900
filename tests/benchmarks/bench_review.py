"""Spaced review at 10 000 and 1 000 000 items: the learner's due queue and one publish batch.

PostgreSQL only: ``DATABASE_URL`` when it names PostgreSQL, else
``postgres://postgres@127.0.0.1:5432/basislab_bench``. The work runs in a child process with
its own settings, so another benchmark's database cannot leak in; the child creates a database
of its own with Django's test-database creation (all migrations), fills it with bulk SQL
(``INSERT ... SELECT generate_series``), measures, and drops it.

- ``due queue``: ``review_next(copy=...)`` for a random learner (settings, today's count, the
  due items), the page the learner opens; its item query must be an index scan on
  ``review_item_copy_due_idx``.
- ``publish batch``: one ``reviews_publish_due`` call (claim 200 due items with
  ``FOR UPDATE SKIP LOCKED``, mark them, register the tasks), rolled back after timing so every
  round claims from the same state and no message is sent; its scan must use the partial
  index ``review_item_publish_idx``.

The plans are printed to stderr; the ``note`` column names the index each plan used.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/basislab_bench"
SIZES = (10_000, 1_000_000)
ITEMS_PER_COPY = 16  # one per catalogued mistake: the most a learner can have
DUE_FRACTION = 0.05  # share of items due at any moment
QUEUE_ROUNDS = int(os.environ.get("BENCH_REVIEW_QUEUE_ROUNDS", "300"))
PUBLISH_ROUNDS = int(os.environ.get("BENCH_REVIEW_PUBLISH_ROUNDS", "60"))
ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "") or DEFAULT_URL
    return url if url.startswith(("postgres://", "postgresql://")) else None


def run() -> list[dict]:
    """Run the measurements in a child process against PostgreSQL; return the table rows."""
    url = _database_url()
    if url is None:
        return [
            {
                "benchmark": "review",
                "case": "skipped",
                "note": "PostgreSQL only: DATABASE_URL names another database",
            }
        ]
    env = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="basislab.settings_test")
    child = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.bench_review", "--child"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        check=True,
    )
    return json.loads(child.stdout)


# --- the child -----------------------------------------------------------------------------


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _timings(fn, rounds: int) -> tuple[float, float]:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return statistics.median(samples), p99


def _fill(cursor, *, copies_from: int, copies_to: int, course_id: int, version_id: int) -> None:
    """Insert learners, their copies and 16 review items each, for copies_from..copies_to."""
    mistakes = _catalog_values()
    cursor.execute(
        """
        INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                               is_staff, is_active, date_joined)
        SELECT '!', false, 'bench' || g, '', '', 'bench' || g || '@example.org', false, true,
               now()
        FROM generate_series(%s, %s) AS g
        """,
        [copies_from, copies_to],
    )
    cursor.execute(
        """
        INSERT INTO courses_coursecopy (owner_id, course_id, version_id, created_at)
        SELECT u.id, %s, %s, now() FROM auth_user u
        WHERE u.username LIKE 'bench%%'
          AND substr(u.username, 6)::int BETWEEN %s AND %s
        """,
        [course_id, version_id, copies_from, copies_to],
    )
    # Due dates spread over 60 days around now, DUE_FRACTION of them already due; a card in
    # review state with plausible stability and difficulty.
    cursor.execute(
        f"""
        INSERT INTO review_reviewitem (copy_id, kind, mistake, state, step, stability,
                                       difficulty, due, last_review, reps, lapses, created_at)
        SELECT c.id, m.kind, m.mistake, 2, NULL, 1 + random() * 30, 1 + random() * 9,
               now() + make_interval(secs => (random() - %s) * 60 * 86400),
               now() - interval '1 day', 3, 0, now()
        FROM courses_coursecopy c
        JOIN auth_user u ON u.id = c.owner_id
        CROSS JOIN (VALUES {mistakes}) AS m(kind, mistake)
        WHERE u.username LIKE 'bench%%'
          AND substr(u.username, 6)::int BETWEEN %s AND %s
        """,
        [DUE_FRACTION, copies_from, copies_to],
    )
    cursor.execute("ANALYZE auth_user; ANALYZE courses_coursecopy; ANALYZE review_reviewitem")


def _catalog_values() -> str:
    from grading.kinds import MISTAKES_BY_KIND

    pairs = [(k.value, m.value) for k, codes in MISTAKES_BY_KIND.items() for m in codes]
    assert len(pairs) == ITEMS_PER_COPY
    return ", ".join(f"('{k}', '{m}')" for k, m in pairs)


def _plan_note(plan: str) -> str:
    names = []
    for line in plan.splitlines():
        for marker in ("Index Only Scan using ", "Index Scan using ", "Bitmap Index Scan on "):
            if marker in line:
                names.append(marker.split()[0].lower() + ":" + line.split(marker)[1].split()[0])
    if "Seq Scan on review_reviewitem" in plan:
        names.append("SEQ SCAN on review_reviewitem")
    return ", ".join(dict.fromkeys(names)) or "no index"


def _measure(size: int, copy_ids: list[int]) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import Q
    from django.utils import timezone

    from courses.models import CourseCopy
    from practice.review import services
    from practice.review.models import ReviewItem

    rng = random.Random(size)
    now = timezone.now()
    copies = list(CourseCopy.objects.select_related("owner").filter(pk__in=copy_ids))
    for copy in copies:  # settings rows exist for a learner who has opened the queue
        services.review_settings_for(user=copy.owner)

    def queue() -> None:
        items = services.review_next(copy=rng.choice(copies))
        assert len(items) <= ITEMS_PER_COPY

    def publish() -> None:
        with transaction.atomic():
            claimed = services.reviews_publish_due(now=now)
            assert len(claimed) == services.PUBLISH_BATCH_SIZE
            transaction.set_rollback(True)

    _timings(queue, 20)  # warm the caches
    _timings(publish, 5)
    queue_median, queue_p99 = _timings(queue, QUEUE_ROUNDS)
    publish_median, publish_p99 = _timings(publish, PUBLISH_ROUNDS)

    # The plan of a learner with something due (most have nothing due at a given moment).
    with_due = ReviewItem.objects.filter(due__lte=now).values_list("copy_id", flat=True)[0]
    queue_plan = (
        ReviewItem.objects.filter(copy_id=with_due, due__lte=now)
        .order_by("due", "pk")
        .explain(analyze=True)
    )
    with transaction.atomic():
        publish_plan = (
            ReviewItem.objects.select_for_update(skip_locked=True)
            .filter(due__lte=now, problem__isnull=True)
            .filter(
                Q(published_at__isnull=True) | Q(published_at__lte=now - services.PUBLISH_LEASE)
            )
            .order_by("due")
            .values_list("pk", flat=True)[: services.PUBLISH_BATCH_SIZE]
            .explain(analyze=True)
        )
        transaction.set_rollback(True)
    _log(f"\n## review due queue, {size} items: EXPLAIN ANALYZE\n{queue_plan}")
    _log(f"\n## review publish batch, {size} items: EXPLAIN ANALYZE\n{publish_plan}")
    assert get_user_model().objects.count() >= len(copies)
    return [
        {
            "benchmark": "review",
            "case": "due queue (review_next)",
            "n": size,
            "median_ms": queue_median,
            "p99_ms": queue_p99,
            "note": _plan_note(queue_plan),
        },
        {
            "benchmark": "review",
            "case": f"publish batch ({services.PUBLISH_BATCH_SIZE} claimed)",
            "n": size,
            "median_ms": publish_median,
            "p99_ms": publish_p99,
            "note": _plan_note(publish_plan),
        },
    ]


def _child() -> list[dict]:
    import django

    django.setup()
    from django.db import connection

    from courses.models import Course, CourseVersion

    base = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_review_{base}"
    started = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    _log(
        f"# review: database {connection.settings_dict['NAME']} migrated in "
        f"{time.perf_counter() - started:.1f} s"
    )
    rows: list[dict] = []
    try:
        course = Course.objects.create(slug="bench", title="Bench")
        version = CourseVersion.objects.create(
            course=course, number=1, content_hash="bench", title="Bench"
        )
        built = 0
        for size in SIZES:
            copies = size // ITEMS_PER_COPY
            started = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute("SELECT setseed(0.42)")
                _fill(
                    cursor,
                    copies_from=built + 1,
                    copies_to=copies,
                    course_id=course.pk,
                    version_id=version.pk,
                )
            took = time.perf_counter() - started
            _log(f"# review: {size} items built in {took:.1f} s")
            rows.extend(_measure(size, _sample_copy_ids(limit=200, seed=size)))
            rows[-1]["build_s"] = round(took, 1)
            built = copies
    finally:
        connection.creation.destroy_test_db(base, verbosity=0)
    small = {row["case"]: row for row in rows if row["n"] == SIZES[0]}
    for row in rows:
        if row["n"] == SIZES[-1]:
            row["ratio"] = row["median_ms"] / small[row["case"]]["median_ms"]
    return rows


def _sample_copy_ids(*, limit: int, seed: int) -> list[int]:
    """Return a random sample of copy ids (the learners whose queues are timed)."""
    from courses.models import CourseCopy

    ids = list(CourseCopy.objects.values_list("pk", flat=True))
    return random.Random(seed).sample(ids, min(limit, len(ids)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(_child()))
