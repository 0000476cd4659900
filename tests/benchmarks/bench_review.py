"""Spaced review at 10 000 and 1 000 000 items: the learner's due queue and one publish batch.

PostgreSQL only: ``DATABASE_URL`` when it names PostgreSQL, else
``postgres://postgres@127.0.0.1:5432/basislab_bench``. The work runs in a child process with
its own settings, so another benchmark's database cannot leak in; the child creates a database
of its own with Django's test-database creation (all migrations), fills it with bulk SQL
(``INSERT ... SELECT generate_series``), measures, and drops it.

The two sizes live side by side: 10 000 items in the ``public`` schema, 1 000 000 in a schema
``big`` holding copies of the learner, copy and review tables (same columns, checks and
indexes; the indexes are built after the bulk insert). Each round times the small case and then
the big one, switching ``search_path`` between them, so a busy machine slows both alike and the
ratio stays meaningful.

- ``due queue``: ``review_next(copy=...)`` for a random learner (settings, today's count, the
  due items), the page the learner opens; its item query must be an index scan on
  ``review_item_copy_due_idx``.
- ``publish batch``: one ``review_publish_due`` call (claim 200 due items with
  ``FOR UPDATE SKIP LOCKED``, mark them, register the tasks), rolled back after timing so every
  round claims from the same state and no message is sent; its scan must use the partial
  index ``review_item_publish_idx``.

The plans are printed to stderr; the ``note`` column names the index each plan used. Review
logs are not generated (their rows need attempts), so the daily-limit count in the queue runs
over an empty log table; its plan is printed but says nothing about scale.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/basislab_bench"
SIZES = tuple(int(n) for n in os.environ.get("BENCH_REVIEW_SIZES", "10000,1000000").split(","))
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
        check=False,
    )
    if child.returncode != 0:
        # The child's traceback went to stderr; the other benchmarks still get their table.
        note = f"FAILED: exit status {child.returncode}, see stderr"
        return [{"benchmark": "review", "case": "failed", "note": note}]
    return json.loads(child.stdout)


# --- the child -----------------------------------------------------------------------------

# The tables the big schema gets its own copy of; the others (course, practice) are shared.
BIG_TABLES = (
    "auth_user",
    "courses_coursecopy",
    "review_reviewitem",
    "review_reviewlog",
    "review_reviewsettings",
)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _summary(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return statistics.median(samples), p99


def _fill(cursor, *, copies: int, course_id: int, version_id: int) -> None:
    """Insert learners, their copies and 16 review items each into the current schema."""
    cursor.execute("SELECT setseed(0.42)")
    cursor.execute(
        """
        INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                               is_staff, is_active, date_joined)
        SELECT '!', false, 'bench' || g, '', '', 'bench' || g || '@example.org', false, true,
               now()
        FROM generate_series(1, %s) AS g
        """,
        [copies],
    )
    cursor.execute(
        """
        INSERT INTO courses_coursecopy (owner_id, course_id, version_id, created_at)
        SELECT u.id, %s, %s, now() FROM auth_user u
        """,
        [course_id, version_id],
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
        CROSS JOIN (VALUES {_catalog_values()}) AS m(kind, mistake)
        """,
        [DUE_FRACTION],
    )


def _big_schema_create(cursor) -> list[str]:
    """Create schema ``big`` with index-less copies of BIG_TABLES; return the index DDL."""
    cursor.execute("DROP SCHEMA IF EXISTS big CASCADE; CREATE SCHEMA big")
    indexes = []
    for table in BIG_TABLES:
        cursor.execute(
            f"CREATE TABLE big.{table} (LIKE public.{table} "
            "INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)"
        )
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = %s",
            [table],
        )
        indexes += [
            ddl.replace(f" ON public.{table} ", f" ON big.{table} ") for (ddl,) in cursor.fetchall()
        ]
    return indexes


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


def _use(schema: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SET search_path TO big, public" if schema == "big" else "SET search_path TO public"
        )


def _case_setup(schema: str, seed: int):
    """Return (queue, publish, explain) callables for the schema's data."""
    from django.db import transaction
    from django.db.models import Q
    from django.utils import timezone

    from courses.models import CourseCopy
    from practice.review import tasks
    from practice.review.models import ReviewItem, ReviewLog
    from practice.review.selectors import review_next
    from practice.review.services.publishing import (
        PUBLISH_BATCH_SIZE,
        PUBLISH_LEASE,
        review_publish_due,
    )
    from practice.review.services.review_settings import review_settings_get_or_create

    _use(schema)
    rng = random.Random(seed)
    now = timezone.now()
    ids = list(CourseCopy.objects.values_list("pk", flat=True))
    sample = rng.sample(ids, min(200, len(ids)))
    copies = list(CourseCopy.objects.select_related("owner").filter(pk__in=sample))
    for copy in copies:  # settings rows exist for a learner who has opened the queue
        review_settings_get_or_create(user_id=copy.owner.pk)

    def queue() -> None:
        items = review_next(copy=rng.choice(copies))
        assert len(items) <= ITEMS_PER_COPY

    def publish() -> None:
        with transaction.atomic():
            claimed = review_publish_due(enqueue=tasks.prepare_review.delay_on_commit, now=now)
            assert len(claimed) == PUBLISH_BATCH_SIZE
            transaction.set_rollback(True)

    def explain() -> tuple[str, str]:
        # A learner with something due (most have nothing due at a given moment).
        with_due = ReviewItem.objects.filter(due__lte=now).values_list("copy_id", flat=True)[0]
        queue_plan = (
            ReviewItem.objects.filter(copy_id=with_due, due__lte=now)
            .order_by("due", "pk")
            .explain(analyze=True)
        )
        # The other half of the queue: today's reviews of the learner (the daily limit).
        copy = CourseCopy.objects.select_related("owner").get(pk=with_due)
        done_plan = ReviewLog.objects.filter(
            item__copy=copy,
            origin=ReviewLog.Origin.REVIEW,
            reviewed_at__gte=now - timedelta(hours=12),
        ).explain(analyze=True)
        queue_plan = f"{queue_plan}\n-- reviews done today --\n{done_plan}"
        with transaction.atomic():
            publish_plan = (
                ReviewItem.objects.select_for_update(skip_locked=True)
                .filter(due__lte=now, problem__isnull=True)
                .filter(Q(published_at__isnull=True) | Q(published_at__lte=now - PUBLISH_LEASE))
                .order_by("due")
                .values_list("pk", flat=True)[:PUBLISH_BATCH_SIZE]
                .explain(analyze=True)
            )
            transaction.set_rollback(True)
        return queue_plan, publish_plan

    return queue, publish, explain


def _interleaved(cases: dict[str, object], rounds: int) -> dict[str, list[float]]:
    """Time each case once per round, switching schema in between; return the samples."""
    samples: dict[str, list[float]] = {schema: [] for schema in cases}
    for _round in range(rounds):
        for schema, fn in cases.items():
            _use(schema)
            started = time.perf_counter()
            fn()
            samples[schema].append((time.perf_counter() - started) * 1000)
    return samples


def _child() -> list[dict]:
    import django

    django.setup()
    from django.db import connection

    from courses.models import Course, CourseVersion
    from practice.review.services.publishing import PUBLISH_BATCH_SIZE

    base = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_review_{base}"
    started = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    _log(
        f"# review: database {connection.settings_dict['NAME']} migrated in "
        f"{time.perf_counter() - started:.1f} s"
    )
    schemas = {"public": SIZES[0], "big": SIZES[1]}
    rows: list[dict] = []
    try:
        course = Course.objects.create(slug="bench", title="Bench")
        version = CourseVersion.objects.create(
            course=course, number=1, content_hash="bench", title="Bench"
        )
        build: dict[str, float] = {}
        with connection.cursor() as cursor:
            started = time.perf_counter()
            _fill(
                cursor,
                copies=SIZES[0] // ITEMS_PER_COPY,
                course_id=course.pk,
                version_id=version.pk,
            )
            build["public"] = time.perf_counter() - started
            started = time.perf_counter()
            indexes = _big_schema_create(cursor)
            cursor.execute("SET search_path TO big, public")
            _fill(
                cursor,
                copies=SIZES[1] // ITEMS_PER_COPY,
                course_id=course.pk,
                version_id=version.pk,
            )
            for ddl in indexes:
                cursor.execute(ddl)
            build["big"] = time.perf_counter() - started
            cursor.execute("SET search_path TO public")
            cursor.execute("VACUUM ANALYZE")
            cursor.execute("CHECKPOINT")
        for schema, size in schemas.items():
            _log(f"# review: {size} items built in {build[schema]:.1f} s")
        cases = {schema: _case_setup(schema, seed=size) for schema, size in schemas.items()}
        for fns in cases.values():  # warm the caches
            for _ in range(10):
                fns[0]()
                fns[1]()
        queue = _interleaved({s: fns[0] for s, fns in cases.items()}, QUEUE_ROUNDS)
        publish = _interleaved({s: fns[1] for s, fns in cases.items()}, PUBLISH_ROUNDS)
        for schema, size in schemas.items():
            _use(schema)
            queue_plan, publish_plan = cases[schema][2]()
            _log(f"\n## review due queue, {size} items: EXPLAIN ANALYZE\n{queue_plan}")
            _log(f"\n## review publish batch, {size} items: EXPLAIN ANALYZE\n{publish_plan}")
            for case, samples, plan in (
                ("due queue (review_next)", queue[schema], queue_plan),
                (f"publish batch ({PUBLISH_BATCH_SIZE} claimed)", publish[schema], publish_plan),
            ):
                median, p99 = _summary(samples)
                rows.append(
                    {
                        "benchmark": "review",
                        "case": case,
                        "n": size,
                        "median_ms": median,
                        "p99_ms": p99,
                        "note": _plan_note(plan),
                        "build_s": round(build[schema], 1),
                    }
                )
    finally:
        _use("public")
        connection.creation.destroy_test_db(base, verbosity=0)
    small = {row["case"]: row for row in rows if row["n"] == SIZES[0]}
    for row in rows:
        if row["n"] == SIZES[-1]:
            row["ratio"] = row["median_ms"] / small[row["case"]]["median_ms"]
    return rows


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(_child()))
