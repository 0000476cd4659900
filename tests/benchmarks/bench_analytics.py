"""The mistake tables at 10 000 learners and 1 000 000 attempts, and the counts' write paths.

PostgreSQL only: ``DATABASE_URL`` when it names PostgreSQL, else
``postgres://postgres@127.0.0.1:5432/basislab_bench``. The work runs in a child process with
its own settings; the child creates a database of its own with Django's test-database creation
(all migrations), loads the authored course, fills it with bulk SQL (``INSERT ... SELECT
generate_series``: learners, copies, 25 solved problems each over the course's ideas and
kinds, 4 attempts per problem with a random status and a random mistake of the kind's
catalog, a fifth of the problems review variants; each problem's spec one of ``SPECS`` generated
specs of its kind and level, so it has the variant parameters of its kind), measures, and drops
it.

- ``rebuild``: ``counts_rebuild()`` over every attempt (once; also how the counts are built
  here).
- ``count one attempt``: ``count_attempt`` for an attempt not counted yet (the statement run
  after a submit's commit), rolled back after timing.
- ``class page`` / ``class json``: a class of ``CLASS_SIZE`` learners, through Django's test
  Client signed in as its instructor (middleware, session, the view, the template): server
  time in one process.
- ``site page`` / ``site json``: the staff view over every learner.
- ``kind page``: the author's view of the kind with the most attempts (its levels, explanations,
  spread and its answers per variant parameter); ``kind page (weighted_sum)`` the same for the
  kind whose self weight is a parameter; ``kind csv (weighted_sum)`` its parameter counts.

Review items (one per learner, kind and mistake made, a third of them due, a tenth lapsed) are
made in bulk for who has each mistake now; the recurrence rows come from the rebuild.

Rounds of the views are interleaved, so a busy machine slows them alike.

``BENCH_ANALYTICS_KEEP=1`` keeps the database after the run (to profile it, or to time the
views again); ``BENCH_ANALYTICS_REUSE=1`` then times the views on the kept database without
building it again (the rebuild and the single count are not timed then), and keeps it.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/basislab_bench"
LEARNERS = int(os.environ.get("BENCH_ANALYTICS_LEARNERS", "10000"))
PROBLEMS_PER_LEARNER = 25
ATTEMPTS_PER_PROBLEM = 4  # 10 000 x 25 x 4 = 1 000 000 attempts
CLASS_SIZE = int(os.environ.get("BENCH_ANALYTICS_CLASS", "300"))
ROUNDS = int(os.environ.get("BENCH_ANALYTICS_ROUNDS", "40"))
SPECS = 8  # generated specs per kind and level, shared by its problems
ROOT = Path(__file__).resolve().parents[2]
REUSE = os.environ.get("BENCH_ANALYTICS_REUSE") == "1"
KEEP = REUSE or os.environ.get("BENCH_ANALYTICS_KEEP") == "1"


def _database_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "") or DEFAULT_URL
    return url if url.startswith(("postgres://", "postgresql://")) else None


def run() -> list[dict]:
    """Run the measurements in a child process against PostgreSQL; return the table rows."""
    url = _database_url()
    if url is None:
        return [
            {
                "benchmark": "analytics",
                "case": "skipped",
                "note": "PostgreSQL only: DATABASE_URL names another database",
            }
        ]
    env = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="basislab.settings_test")
    child = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.bench_analytics", "--child"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        check=False,
    )
    if child.returncode != 0:
        note = f"FAILED: exit status {child.returncode}, see stderr"
        return [{"benchmark": "analytics", "case": "failed", "note": note}]
    return json.loads(child.stdout)


# --- the child -----------------------------------------------------------------------------


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _summary(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return statistics.median(samples), p99


def _fill(cursor, *, course_id: int, version_id: int, triples: list, catalog: dict) -> None:
    """Insert learners, copies, problems and attempts with bulk SQL."""
    cursor.execute("SELECT setseed(0.42)")
    cursor.execute(
        """
        INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                               is_staff, is_active, date_joined)
        SELECT '!', false, 'bench' || g, '', '', 'bench' || g || '@example.org', false, true,
               now()
        FROM generate_series(1, %s) AS g
        """,
        [LEARNERS],
    )
    cursor.execute(
        """
        INSERT INTO courses_coursecopy (owner_id, course_id, version_id, created_at,
                                        lti_linked)
        SELECT u.id, %s, %s, now(), false FROM auth_user u WHERE u.username LIKE 'bench%%'
        """,
        [course_id, version_id],
    )
    ideas = ", ".join(
        f"({n}, '{page}', '{idea}', '{kind}', ARRAY[{', '.join(repr(c) for c in catalog[kind])}]"
        "::text[])"
        for n, (page, idea, kind) in enumerate(triples)
    )
    cursor.execute(
        f"""
        INSERT INTO practice_probleminstance (copy_id, page_slug, idea_slug, kind,
            generator_name, generator_version, seed, level, spec, purpose, state, created_at)
        SELECT c.id, i.page, i.idea, i.kind, i.kind, '1', g, 1 + floor(random() * 3)::int,
               '{{}}'::jsonb, CASE WHEN random() < 0.2 THEN 'review' ELSE 'practice' END,
               'solved', now()
        FROM courses_coursecopy c
        CROSS JOIN generate_series(1, %s) AS g
        JOIN (VALUES {ideas}) AS i(n, page, idea, kind, codes) ON i.n = g %% %s
        """,
        [PROBLEMS_PER_LEARNER, len(triples)],
    )
    cursor.execute(
        f"""
        INSERT INTO practice_attempt (problem_id, copy_id, text, status, score, verdict,
                                      mistake, form_token, created_at)
        SELECT p.id, p.copy_id, '[1, 2]', s.status, 0.0, '{{}}'::jsonb,
               CASE WHEN s.status = 'incorrect' AND s.r < 0.8
                    THEN i.codes[1 + floor(s.r / 0.8 * array_length(i.codes, 1))::int] END,
               gen_random_uuid(), now()
        FROM practice_probleminstance p
        JOIN (VALUES {ideas}) AS i(n, page, idea, kind, codes)
          ON i.page = p.page_slug AND i.idea = p.idea_slug AND i.kind = p.kind
        CROSS JOIN generate_series(1, %s) AS a
        CROSS JOIN LATERAL (
            SELECT CASE WHEN x < 0.4 THEN 'correct' WHEN x < 0.5 THEN 'invalid'
                        ELSE 'incorrect' END AS status, random() AS r
            FROM (SELECT random() + a * 0 + p.id * 0 AS x) AS d
        ) AS s
        """,
        [ATTEMPTS_PER_PROBLEM],
    )


def _specs(cursor, kinds: set[str]) -> None:
    """Give each problem one of ``SPECS`` generated specs of its kind and level (a level the
    generator lacks takes level 1's)."""
    from practice.generators import generate

    values, params = [], []
    for kind in sorted(kinds):
        for level in (1, 2, 3):
            for slot in range(SPECS):
                try:
                    spec = generate(kind, seed=slot, level=level)
                except ValueError:
                    spec = generate(kind, seed=slot, level=1)
                values.append("(%s, %s, %s, %s::jsonb)")
                params += [kind, level, slot, json.dumps(spec)]
    cursor.execute(
        f"""
        UPDATE practice_probleminstance p SET spec = s.spec
        FROM (VALUES {", ".join(values)}) AS s(kind, level, slot, spec)
        WHERE s.kind = p.kind AND s.level = p.level AND s.slot = p.id %% {SPECS}
        """,
        params,
    )


def _review_items(cursor) -> None:
    """Make one review item per learner, kind and mistake made: a third due, a tenth lapsed."""
    cursor.execute(
        """
        INSERT INTO review_reviewitem (copy_id, kind, mistake, state, due, reps, lapses,
                                       created_at)
        SELECT m.copy_id, m.kind, m.mistake,
               CASE WHEN random() < 0.1 THEN 3 ELSE 2 END,
               now() + (random() * 3 - 1) * interval '1 day', 1, 0, now()
        FROM (SELECT DISTINCT a.copy_id, p.kind, a.mistake FROM practice_attempt a
              JOIN practice_probleminstance p ON p.id = a.problem_id
              WHERE a.mistake IS NOT NULL) AS m
        """
    )


def _classroom(cursor, *, platform_id: int, context_id: int, instructor_id: int) -> None:
    """Make ``CLASS_SIZE`` learners members of the context, and one instructor."""
    cursor.execute(
        """
        INSERT INTO lti_ltiuser (platform_id, sub, user_id, name, created_at)
        SELECT %s, 'sub-' || u.id, u.id, '', now() FROM auth_user u
        WHERE u.username LIKE 'bench%%' ORDER BY u.id LIMIT %s
        """,
        [platform_id, CLASS_SIZE],
    )
    cursor.execute(
        "INSERT INTO lti_ltiuser (platform_id, sub, user_id, name, created_at)"
        " VALUES (%s, 'teacher', %s, '', now())",
        [platform_id, instructor_id],
    )
    cursor.execute(
        """
        INSERT INTO lti_membership (context_id, lti_user_id, instructor, roles)
        SELECT %s, l.id, l.sub = 'teacher', '[]'::jsonb FROM lti_ltiuser l
        """,
        [context_id],
    )


def _child() -> list[dict]:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    import grading
    from basislab.accounts.services import SIGN_IN_BACKEND
    from courses.models import CourseVersion, Idea
    from courses.services import course_load
    from lti.models import Context, Platform
    from practice.analytics.models import AttemptCounted
    from practice.analytics.services import _graded, count_attempt, counts_rebuild
    from practice.models import Attempt

    base = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_analytics_{base}"
    if REUSE:
        # the kept database: Django's connection is pointed at it, nothing is built
        connection.close()
        connection.settings_dict["NAME"] = connection.settings_dict["TEST"]["NAME"]
    else:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    settings.ALLOWED_HOSTS = ["testserver"]
    rows: list[dict] = []
    try:
        if REUSE:
            version = CourseVersion.objects.order_by("-pk").first()
            settings.BASISLAB_COURSE_SLUG = version.course.slug
            users = get_user_model()
            teacher = users.objects.get(username="teacher")
            staff = users.objects.get(username="staff")
            context = Context.objects.get(context_id="bench")
            attempts = Attempt.objects.count()
        else:
            content = ROOT / "courses/content/how-text-becomes-numbers"
            version = course_load(directory=content).version
            settings.BASISLAB_COURSE_SLUG = version.course.slug
            triples = [
                (idea.page.slug, idea.slug, kind)
                for idea in Idea.objects.filter(page__version=version).select_related("page")
                for kind in idea.problem_kinds
            ]
            catalog = {kind: list(grading.kind(kind).codes) for _p, _i, kind in triples}
            users = get_user_model()
            teacher = users.objects.create_user(username="teacher", password=None)
            staff = users.objects.create_user(username="staff", password=None, is_staff=True)
            platform = Platform.objects.create(
                name="P",
                issuer="https://platform.example",
                client_id="c",
                auth_login_url="https://platform.example/a",
                auth_token_url="https://platform.example/t",
                key_set_url="https://platform.example/k",
            )
            context = Context.objects.create(platform=platform, context_id="bench", title="Bench")
            started = time.perf_counter()
            with connection.cursor() as cursor:
                _fill(
                    cursor,
                    course_id=version.course_id,
                    version_id=version.pk,
                    triples=triples,
                    catalog=catalog,
                )
                _specs(cursor, {kind for _p, _i, kind in triples})
                _classroom(
                    cursor, platform_id=platform.pk, context_id=context.pk, instructor_id=teacher.pk
                )
                _review_items(cursor)
                cursor.execute("VACUUM ANALYZE")
            attempts = Attempt.objects.count()
            _log(f"# analytics: {attempts} attempts built in {time.perf_counter() - started:.1f} s")
            started = time.perf_counter()
            counted = counts_rebuild()
            rebuild_s = time.perf_counter() - started
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
            rows.append(
                {
                    "benchmark": "analytics",
                    "case": "rebuild (counts_rebuild)",
                    "n": attempts,
                    "median_ms": rebuild_s * 1000,
                    "p99_ms": rebuild_s * 1000,
                    "note": f"{counted} graded attempts counted",
                }
            )
            # One attempt counted again from scratch: its marker removed, timed, rolled back.
            sample = list(Attempt.objects.exclude(status="invalid").order_by("?")[:ROUNDS])
            singles = []
            for attempt in sample:
                with transaction.atomic():
                    AttemptCounted.objects.filter(attempt_id=attempt.pk).delete()
                    (facts,) = _graded([attempt.pk])
                    started = time.perf_counter()
                    assert count_attempt(facts, lock_timeout_ms=2000)
                    singles.append((time.perf_counter() - started) * 1000)
                    transaction.set_rollback(True)
            median, p99 = _summary(singles)
            rows.append(
                {
                    "benchmark": "analytics",
                    "case": "count one attempt (after commit)",
                    "n": attempts,
                    "median_ms": median,
                    "p99_ms": p99,
                }
            )
        instructor, author = Client(), Client()
        instructor.force_login(teacher, backend=SIGN_IN_BACKEND)
        author.force_login(staff, backend=SIGN_IN_BACKEND)
        cases = {
            f"class page ({CLASS_SIZE} learners)": (
                instructor,
                reverse("analytics:class", args=[context.pk]),
            ),
            f"class json ({CLASS_SIZE} learners)": (
                instructor,
                reverse("analytics:class_json", args=[context.pk]),
            ),
            "site page (staff)": (author, reverse("analytics:site")),
            "site json (staff)": (author, reverse("analytics:site_json")),
            "kind page (weighted_sum)": (author, reverse("analytics:kind", args=["weighted_sum"])),
            "kind csv (weighted_sum)": (
                author,
                reverse("analytics:kind_csv", args=["weighted_sum"]),
            ),
            "kind page (staff)": (
                author,
                reverse(
                    "analytics:kind",
                    args=[
                        Attempt.objects.values("problem__kind")
                        .annotate(n=Count("pk"))
                        .order_by("-n")[0]["problem__kind"]
                    ],
                ),
            ),
        }
        samples: dict[str, list[float]] = {case: [] for case in cases}
        for _warm in range(3):
            for client, url in cases.values():
                assert client.get(url).status_code == 200
        for _round in range(ROUNDS):
            for case, (client, url) in cases.items():
                started = time.perf_counter()
                response = client.get(url)
                samples[case].append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, (case, response.status_code)
        for case, values in samples.items():
            median, p99 = _summary(values)
            rows.append(
                {
                    "benchmark": "analytics",
                    "case": case,
                    "n": attempts,
                    "median_ms": median,
                    "p99_ms": p99,
                    "note": "goal: under 200 ms",
                }
            )
    finally:
        if KEEP:
            _log(f"# analytics: kept database {connection.settings_dict['NAME']}")
        else:
            connection.creation.destroy_test_db(base, verbosity=0)
    return rows


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(_child()))
