"""Write paths of the mistake counts: count attempts as they are recorded, catch up on those a
failure left out, forget a deleted copy, and rebuild everything from the attempts.

Counting an attempt is idempotent: its ``AttemptCounted`` row is inserted first, in the same
transaction as its counts, and an attempt whose row exists is skipped. The rebuild computes the
same rows from the attempts in SQL, independently of the incremental path (the tests compare
the two). The parameter counts ride along: the same statement counts an attempt under each
variant parameter of its problem (``parameters.py``), and the rebuild computes them too.
"""

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef
from django.db.models.fields.json import KT
from django.db.models.functions import Left
from django.utils import timezone

from courses.models import CourseCopy
from grading.kinds import Status
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem, ReviewLog

from .codes import ALL_LEVELS, ANY_CODE, CORRECT, UNEXPLAINED, TryClass
from .models import (
    VALUE_MAX_LENGTH,
    AttemptCounted,
    ExplainedProblem,
    LearnerMistakeCount,
    LearnerParameterCount,
    MistakeCount,
    MistakeRecurrence,
    ParameterCount,
    RecurrenceCount,
    UnexplainedValue,
)
from .parameters import Parameter, parameters_of

KEY = ("course_id", "page_slug", "idea_slug", "kind", "level", "code", "try_class")
PARAMETER_KEY = ("course_id", "kind", "level", "name", "bucket", "code")
# The newest attempts the catch-up looks at (by id, on the primary key's index).
CATCH_UP_WINDOW = 10_000
# How long counting on commit waits for a lock (a rebuild holds one) before it gives up and
# leaves the attempt to the catch-up task: a learner's request never waits for a rebuild.
ON_COMMIT_LOCK_TIMEOUT_MS = 2000


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@functools.cache
def _marker_sql() -> str:
    return (
        f"INSERT INTO {_table(AttemptCounted)} (attempt_id) VALUES (%s)"  # noqa: S608
        " ON CONFLICT (attempt_id) DO NOTHING RETURNING attempt_id"
    )


@functools.cache
def _learner_sql() -> str:
    table = _table(LearnerMistakeCount)
    columns = ", ".join(("copy_id", *KEY))
    row = "(" + ", ".join(["%s"] * (len(KEY) + 2)) + ")"
    return (
        f"INSERT INTO {table} ({columns}, attempts) VALUES {row}, {row}"  # noqa: S608
        f" ON CONFLICT ({columns}) DO UPDATE SET attempts = {table}.attempts + 1"
        " RETURNING level, try_class, attempts"
    )


@functools.cache
def _summary_sql() -> str:
    table = _table(MistakeCount)
    columns = ", ".join(KEY)
    row = "(" + ", ".join(["%s"] * (len(KEY) + 2)) + ")"
    return (
        f"INSERT INTO {table} ({columns}, attempts, learners) VALUES {row}, {row}"  # noqa: S608
        f" ON CONFLICT ({columns}) DO UPDATE SET attempts = {table}.attempts + 1,"
        f" learners = {table}.learners + excluded.learners"
    )


def code_of(status: str, mistake: str | None) -> str:
    """Return the code a graded attempt is counted under: ``correct``, its mistake, or
    ``unexplained``."""
    if status == Status.CORRECT:
        return CORRECT
    return mistake or UNEXPLAINED


def try_class_of(*, purpose: str, retried: bool) -> TryClass:
    """Return the attempt's class: any answer to a review variant is a review; a practice
    answer after a graded one to the same problem is a retry; else a first try."""
    if purpose == ProblemInstance.Purpose.REVIEW:
        return TryClass.REVIEW
    return TryClass.RETRY if retried else TryClass.FIRST


@dataclass(frozen=True)
class Facts:
    """What counting one graded attempt needs to know of it (read before or after commit)."""

    attempt_id: int
    problem_id: int
    copy_id: int
    course_id: int
    page_slug: str
    idea_slug: str
    kind: str
    level: int
    purpose: str
    code: str
    # The Verdict's ``interpreted`` (what a wrong answer was read as) and the attempt's time.
    value: str = ""
    created_at: datetime | None = None
    # The problem's variant parameters: (name, bucket, sort key) each (``parameters_of``).
    parameters: tuple[Parameter, ...] = ()

    @property
    def named(self) -> bool:
        """Return whether a catalogued mistake explains the attempt."""
        return self.code not in (CORRECT, UNEXPLAINED)


def _graded(attempt_ids: Iterable[int]) -> list[Facts]:
    rows = (
        Attempt.objects.filter(pk__in=list(attempt_ids))
        .exclude(status=Status.INVALID)
        .order_by("pk")
        .values_list(
            "pk",
            "problem_id",
            "copy_id",
            "copy__course_id",
            "problem__page_slug",
            "problem__idea_slug",
            "problem__kind",
            "problem__level",
            "problem__purpose",
            "status",
            "mistake",
            "verdict__interpreted",
            "created_at",
            "problem__spec",
        )
    )
    return [
        Facts(
            *row[:-5],
            code=code_of(row[-5], row[-4]),
            value=row[-3] or "",
            created_at=row[-2],
            parameters=parameters_of(row[-1]),
        )
        for row in rows
    ]


@functools.cache
def _count_sql() -> str:
    """Return the one PostgreSQL statement that counts an attempt: its marker, then (only if
    the marker is new) its two learner rows, then its two key rows, one learner more on each
    whose learner row was just made; and the same for its parameter rows, four per variant
    parameter (its level and every level, its code and ``ANY_CODE``)."""
    marker, attempt = _table(AttemptCounted), _table(Attempt)
    learner, summary = _table(LearnerMistakeCount), _table(MistakeCount)
    plearner, psummary = _table(LearnerParameterCount), _table(ParameterCount)
    keys = ", ".join(KEY)
    pkeys = ", ".join(PARAMETER_KEY)
    return (
        f"WITH marked AS (INSERT INTO {marker} (attempt_id) VALUES (%(attempt)s)"  # noqa: S608
        " ON CONFLICT (attempt_id) DO NOTHING RETURNING attempt_id),"
        " keyed AS (SELECT %(level)s AS level, CASE WHEN %(purpose)s = %(review_purpose)s"
        f" THEN %(review)s WHEN EXISTS (SELECT 1 FROM {attempt} b"
        " WHERE b.problem_id = %(problem)s AND b.id < %(attempt)s AND b.status <> %(invalid)s)"
        " THEN %(retry)s ELSE %(first)s END AS try_class FROM marked"
        " UNION ALL SELECT %(all_levels)s, %(all)s FROM marked),"
        " pkeyed AS (SELECT lv.level, p.name, p.bucket, p.sort, cd.code FROM marked"
        " CROSS JOIN unnest(CAST(%(p_names)s AS text[]), CAST(%(p_buckets)s AS text[]),"
        " CAST(%(p_sorts)s AS double precision[])) AS p(name, bucket, sort)"
        " CROSS JOIN (VALUES (%(level)s), (%(all_levels)s)) AS lv(level)"
        " CROSS JOIN (VALUES (CAST(%(code)s AS text)), (%(any)s)) AS cd(code)),"
        f" pcounted AS (INSERT INTO {plearner} (copy_id, {pkeys}, sort, attempts)"
        " SELECT %(copy)s, %(course)s, %(kind)s, level, name, bucket, code, sort, 1 FROM pkeyed"
        f" ON CONFLICT (copy_id, {pkeys}) DO UPDATE SET attempts = {plearner}.attempts + 1"
        " RETURNING level, name, bucket, code, sort, attempts),"
        f" psummed AS (INSERT INTO {psummary} ({pkeys}, sort, attempts, learners)"
        " SELECT %(course)s, %(kind)s, level, name, bucket, code, sort, 1,"
        " CASE WHEN attempts = 1 THEN 1 ELSE 0 END FROM pcounted"
        f" ON CONFLICT ({pkeys}) DO UPDATE SET attempts = {psummary}.attempts + 1,"
        f" learners = {psummary}.learners + excluded.learners RETURNING 1),"
        f" counted AS (INSERT INTO {learner} (copy_id, {keys}, attempts)"
        " SELECT %(copy)s, %(course)s, %(page)s, %(idea)s, %(kind)s, keyed.level, %(code)s,"
        " keyed.try_class, 1 FROM keyed"
        f" ON CONFLICT (copy_id, {keys}) DO UPDATE SET attempts = {learner}.attempts + 1"
        " RETURNING level, try_class, attempts)"
        f" INSERT INTO {summary} ({keys}, attempts, learners)"
        " SELECT %(course)s, %(page)s, %(idea)s, %(kind)s, counted.level, %(code)s,"
        " counted.try_class, 1, CASE WHEN counted.attempts = 1 THEN 1 ELSE 0 END FROM counted"
        f" ON CONFLICT ({keys}) DO UPDATE SET attempts = {summary}.attempts + 1,"
        f" learners = {summary}.learners + excluded.learners RETURNING 1"
    )


def _fact_params(facts: Facts) -> dict[str, object]:
    """Return the attempt's facts as the counting statements name them."""
    return {
        "attempt": facts.attempt_id,
        "problem": facts.problem_id,
        "copy": facts.copy_id,
        "course": facts.course_id,
        "page": facts.page_slug,
        "idea": facts.idea_slug,
        "kind": facts.kind,
        "level": facts.level,
        "code": facts.code,
    }


def _count_params(facts: Facts) -> dict[str, object]:
    return {
        **_fact_params(facts),
        "purpose": facts.purpose,
        "review_purpose": ProblemInstance.Purpose.REVIEW.value,
        "invalid": Status.INVALID.value,
        "review": TryClass.REVIEW.value,
        "retry": TryClass.RETRY.value,
        "first": TryClass.FIRST.value,
        "all_levels": ALL_LEVELS,
        "all": TryClass.ALL.value,
        "any": ANY_CODE,
        "p_names": [name for name, _bucket, _sort in facts.parameters],
        "p_buckets": [bucket for _name, bucket, _sort in facts.parameters],
        "p_sorts": [sort for _name, _bucket, sort in facts.parameters],
    }


def _count_portable(facts: Facts) -> bool:
    """Count an attempt in four statements (databases without data-modifying ``WITH``), inside
    the caller's transaction; return whether it was counted now."""
    with connection.cursor() as cursor:
        cursor.execute(_marker_sql(), [facts.attempt_id])
        if cursor.fetchone() is None:
            return False  # counted before
        retried = (
            Attempt.objects.filter(problem_id=facts.problem_id, pk__lt=facts.attempt_id)
            .exclude(status=Status.INVALID)
            .exists()
        )
        tried = try_class_of(purpose=facts.purpose, retried=retried).value
        key = (facts.course_id, facts.page_slug, facts.idea_slug, facts.kind)
        exact = (*key, facts.level, facts.code, tried)
        every = (*key, ALL_LEVELS, facts.code, TryClass.ALL.value)
        cursor.execute(_learner_sql(), [facts.copy_id, *exact, 1, facts.copy_id, *every, 1])
        # A learner row at 1 attempt was just made: one learner more under its key.
        new = {(row[0], row[1]): row[2] == 1 for row in cursor.fetchall()}
        cursor.execute(
            _summary_sql(),
            [
                *exact,
                1,
                int(new[(facts.level, tried)]),
                *every,
                1,
                int(new[(ALL_LEVELS, TryClass.ALL.value)]),
            ],
        )
        if facts.parameters:
            _count_parameters_portable(cursor, facts)
    return True


def _parameter_sql(rows: int, *, learner: bool) -> str:
    """Return the upsert of ``rows`` parameter rows: a learner's (returning what the summary
    needs) or the summary's (adding the learners whose row was just made)."""
    table = _table(LearnerParameterCount if learner else ParameterCount)
    pkeys = ", ".join(PARAMETER_KEY)
    columns = f"copy_id, {pkeys}" if learner else pkeys
    width = len(PARAMETER_KEY) + 3  # the copy or learners, the sort key, the attempts
    row = "(" + ", ".join(["%s"] * width) + ")"
    sql = (
        f"INSERT INTO {table} ({columns}, sort, attempts{'' if learner else ', learners'})"  # noqa: S608
        f" VALUES {', '.join([row] * rows)}"
        f" ON CONFLICT ({columns}) DO UPDATE SET attempts = {table}.attempts + 1"
    )
    if learner:
        return sql + " RETURNING level, name, bucket, code, attempts"
    return sql + f", learners = {table}.learners + excluded.learners"


def _parameter_keys(facts: Facts) -> list[tuple[int, str, str, float, str]]:
    """Return the (level, name, bucket, sort, code) of each parameter row of an attempt."""
    return [
        (level, name, bucket, sort, code)
        for name, bucket, sort in facts.parameters
        for level in (facts.level, ALL_LEVELS)
        for code in (facts.code, ANY_CODE)
    ]


def _count_parameters_portable(cursor, facts: Facts) -> None:
    """Count an attempt's parameter rows in two statements (the portable path)."""
    keys = _parameter_keys(facts)
    learner_rows = [
        v
        for level, name, bucket, sort, code in keys
        for v in (facts.copy_id, facts.course_id, facts.kind, level, name, bucket, code, sort, 1)
    ]
    cursor.execute(_parameter_sql(len(keys), learner=True), learner_rows)
    new = {tuple(row[:4]): row[4] == 1 for row in cursor.fetchall()}
    summary_rows = [
        v
        for level, name, bucket, sort, code in keys
        for v in (
            facts.course_id,
            facts.kind,
            level,
            name,
            bucket,
            code,
            sort,
            1,
            int(new[(level, name, bucket, code)]),
        )
    ]
    cursor.execute(_parameter_sql(len(keys), learner=False), summary_rows)


@functools.cache
def _recurrence_sql(field: str) -> str:
    """Return the statement that settles, for the attempt's copy and kind, the recurrence rows
    of earlier mistakes still waiting on ``field``: a first graded answer to a practice problem
    is their next problem of the kind (``next_problem``); a first graded answer to a review
    variant is the next review (``next_review``) of the mistake whose item the variant
    reviews (its ``review`` log). The row records whether the answer made the same mistake;
    the rows settled are returned for their summary."""
    assert field in ("next_problem", "next_review")
    recurrence, attempt = _table(MistakeRecurrence), _table(Attempt)
    log, item = _table(ReviewLog), _table(ReviewItem)
    reviewed = (
        f" AND mistake IN (SELECT i.mistake FROM {log} l JOIN {item} i ON i.id = l.item_id"  # noqa: S608
        " WHERE l.attempt_id = %(attempt)s AND l.origin = %(review_origin)s"
        " AND i.kind = %(kind)s)"
    )
    return (
        f"UPDATE {recurrence} SET {field} = (mistake = %(code)s)"  # noqa: S608
        f" WHERE copy_id = %(copy)s AND kind = %(kind)s AND attempt_id < %(attempt)s"
        f" AND {field} IS NULL{reviewed if field == 'next_review' else ''}"
        f" AND NOT EXISTS (SELECT 1 FROM {attempt} b WHERE b.problem_id = %(problem)s"
        " AND b.id < %(attempt)s AND b.status <> %(invalid)s)"
        f" RETURNING mistake, month, {field}"
    )


@functools.cache
def _first_mistake_sql() -> str:
    return (
        f"INSERT INTO {_table(MistakeRecurrence)} (copy_id, course_id, page_slug, idea_slug,"  # noqa: S608
        " kind, mistake, attempt_id, made_at, month) VALUES (%(copy)s, %(course)s, %(page)s,"
        " %(idea)s, %(kind)s, %(code)s, %(attempt)s, %(made_at)s, %(month)s)"
        " ON CONFLICT (copy_id, kind, mistake) DO NOTHING RETURNING month"
    )


RECURRENCE_NUMBERS = ("made", "problem_of", "problem_again", "review_of", "review_again")


def _recurrence_count_sql(rows: int) -> str:
    """Return the upsert that adds ``rows`` rows of numbers to the recurrence summary (their
    keys are distinct: one copy's rows, one per mistake)."""
    table = _table(RecurrenceCount)
    row = "(" + ", ".join(["%s"] * (4 + len(RECURRENCE_NUMBERS))) + ")"
    numbers = ", ".join(RECURRENCE_NUMBERS)
    added = ", ".join(f"{n} = {table}.{n} + excluded.{n}" for n in RECURRENCE_NUMBERS)
    return (
        f"INSERT INTO {table} (course_id, kind, mistake, month, {numbers})"  # noqa: S608
        f" VALUES {', '.join([row] * rows)}"
        f" ON CONFLICT (course_id, kind, mistake, month) DO UPDATE SET {added}"
    )


def month_of(moment: datetime) -> date:
    """Return the first day of the moment's month, in UTC (the recurrence's time key)."""
    return moment.astimezone(UTC).date().replace(day=1)


@functools.cache
def _explained_sql() -> str:
    return (
        f"INSERT INTO {_table(ExplainedProblem)} (problem_id, copy_id, course_id, kind, level,"  # noqa: S608
        " mistake) VALUES (%(problem)s, %(copy)s, %(course)s, %(kind)s, %(level)s, %(code)s)"
        " ON CONFLICT (problem_id, mistake) DO NOTHING"
    )


@functools.cache
def _value_sql() -> str:
    table = _table(UnexplainedValue)
    return (
        f"INSERT INTO {table} (course_id, kind, value, attempts)"  # noqa: S608
        " VALUES (%(course)s, %(kind)s, %(value)s, 1) ON CONFLICT (course_id, kind, value)"
        f" DO UPDATE SET attempts = {table}.attempts + 1"
    )


def _follow_up(facts: Facts) -> None:
    """Keep the rows beside the counts for an attempt counted now, in its transaction: the
    recurrence of earlier mistakes (one statement, and one for their summary when some were
    settled), then, for a named mistake, its first time (one, and one for the summary when it
    is the first) and the problem it was explained at (one), or, for an unexplained answer,
    its value (one)."""
    made_at = facts.created_at or timezone.now()
    params = {
        **_fact_params(facts),
        "review_origin": ReviewLog.Origin.REVIEW.value,
        "invalid": Status.INVALID.value,
        "made_at": made_at,
        "month": month_of(made_at),
        "value": facts.value[:VALUE_MAX_LENGTH],
    }
    review = facts.purpose == ProblemInstance.Purpose.REVIEW
    summary: list[list[object]] = []
    with connection.cursor() as cursor:
        cursor.execute(_recurrence_sql("next_review" if review else "next_problem"), params)
        for mistake, month, again in cursor.fetchall():
            numbers = [0, 0, 0, 1, int(bool(again))] if review else [0, 1, int(bool(again)), 0, 0]
            summary.append([facts.course_id, facts.kind, mistake, month, *numbers])
        if facts.named:
            cursor.execute(_first_mistake_sql(), params)
            if cursor.fetchall():
                summary.append(
                    [facts.course_id, facts.kind, facts.code, params["month"], 1, 0, 0, 0, 0]
                )
            cursor.execute(_explained_sql(), params)
        elif facts.code == UNEXPLAINED:
            cursor.execute(_value_sql(), params)
        if summary:
            cursor.execute(_recurrence_count_sql(len(summary)), [v for row in summary for v in row])


def count_attempt(facts: Facts, *, lock_timeout_ms: int | None = None) -> bool:
    """Count one graded attempt unless it was counted before, in one transaction; return
    whether it was counted now. On PostgreSQL one statement does it all (after the lock
    timeout is set, when one is given)."""
    with transaction.atomic():
        if connection.vendor != "postgresql":
            counted = _count_portable(facts)
        else:
            with connection.cursor() as cursor:
                if lock_timeout_ms is not None:
                    cursor.execute(f"SET LOCAL lock_timeout = {int(lock_timeout_ms)}")
                cursor.execute(_count_sql(), _count_params(facts))
                counted = bool(cursor.fetchall())
        if counted:
            _follow_up(facts)
        return counted


def counts_record(*, attempt_ids: Iterable[int]) -> int:
    """Count the graded attempts among ``attempt_ids`` not counted yet, each in a transaction
    of its own; return how many were counted. Invalid attempts are never counted; an attempt
    counted before is skipped."""
    return sum(count_attempt(facts) for facts in _graded(attempt_ids))


def counts_on_commit(*, attempt: Attempt) -> None:
    """Count the attempt once its transaction commits, from what is in memory (no read). A
    failure there is logged, never the learner's: the answer is stored, and
    ``counts_catch_up`` counts it later."""
    if attempt.status == Status.INVALID:
        return
    problem = attempt.problem
    facts = Facts(
        attempt_id=attempt.pk,
        problem_id=problem.pk,
        copy_id=attempt.copy_id,
        course_id=attempt.copy.course_id,
        page_slug=problem.page_slug,
        idea_slug=problem.idea_slug,
        kind=problem.kind,
        level=problem.level,
        purpose=problem.purpose,
        code=code_of(attempt.status, attempt.mistake),
        value=str((attempt.verdict or {}).get("interpreted") or ""),
        created_at=attempt.created_at,
        parameters=parameters_of(problem.spec),
    )
    transaction.on_commit(
        functools.partial(count_attempt, facts, lock_timeout_ms=ON_COMMIT_LOCK_TIMEOUT_MS),
        robust=True,
    )


def counts_catch_up(*, window: int = CATCH_UP_WINDOW) -> int:
    """Count the graded attempts among the newest ``window`` that are not counted (a failure
    after their commit left them out); return how many were counted."""
    newest = Attempt.objects.order_by("-pk").values_list("pk", flat=True)[:window]
    missing = (
        Attempt.objects.filter(pk__in=list(newest))
        .exclude(status=Status.INVALID)
        .exclude(Exists(AttemptCounted.objects.filter(attempt_id=OuterRef("pk"))))
        .values_list("pk", flat=True)
    )
    return counts_record(attempt_ids=list(missing))


def counts_forget_copy(*, copy_id: int) -> None:
    """Take a copy's attempts out of the key rows (its own rows and markers go with the copy
    and its attempts); call before the copy is deleted."""
    with transaction.atomic():
        for row in LearnerMistakeCount.objects.filter(copy_id=copy_id).values(*KEY, "attempts"):
            key = {name: row[name] for name in KEY}
            MistakeCount.objects.filter(**key).update(
                attempts=F("attempts") - row["attempts"], learners=F("learners") - 1
            )
        MistakeCount.objects.filter(learners=0).delete()
        for row in LearnerParameterCount.objects.filter(copy_id=copy_id).values(
            *PARAMETER_KEY, "attempts"
        ):
            key = {name: row[name] for name in PARAMETER_KEY}
            ParameterCount.objects.filter(**key).update(
                attempts=F("attempts") - row["attempts"], learners=F("learners") - 1
            )
        ParameterCount.objects.filter(learners=0).delete()
        values = (
            Attempt.objects.filter(copy_id=copy_id, status=Status.INCORRECT, mistake__isnull=True)
            .values(kind=F("problem__kind"))
            .annotate(value=Left(KT("verdict__interpreted"), VALUE_MAX_LENGTH))
            .values("kind", "value")
            .annotate(attempts=Count("pk"))
            .order_by()
        )
        course_id = CourseCopy.objects.filter(pk=copy_id).values_list("course_id", flat=True)
        for row in values:
            UnexplainedValue.objects.filter(
                course_id__in=course_id, kind=row["kind"], value=row["value"] or ""
            ).update(attempts=F("attempts") - row["attempts"])
        UnexplainedValue.objects.filter(attempts__lte=0).delete()
        for row in MistakeRecurrence.objects.filter(copy_id=copy_id).values(
            "course_id", "kind", "mistake", "month", "next_problem", "next_review"
        ):
            RecurrenceCount.objects.filter(
                course_id=row["course_id"],
                kind=row["kind"],
                mistake=row["mistake"],
                month=row["month"],
            ).update(
                made=F("made") - 1,
                problem_of=F("problem_of") - int(row["next_problem"] is not None),
                problem_again=F("problem_again") - int(row["next_problem"] is True),
                review_of=F("review_of") - int(row["next_review"] is not None),
                review_again=F("review_again") - int(row["next_review"] is True),
            )
        RecurrenceCount.objects.filter(made=0).delete()


def _rebuild_statements() -> list[tuple[str, list[object]]]:
    attempt, problem = _table(Attempt), _table(ProblemInstance)
    copy = _table(CourseCopy)
    marker, learner = _table(AttemptCounted), _table(LearnerMistakeCount)
    summary = _table(MistakeCount)
    invalid = Status.INVALID.value
    keys = ", ".join(KEY)
    graded = (
        "WITH graded AS (SELECT a.copy_id, c.course_id, p.page_slug, p.idea_slug, p.kind,"  # noqa: S608
        " p.level, CASE WHEN a.status = %s THEN %s ELSE COALESCE(NULLIF(a.mistake, ''), %s)"
        " END AS code, CASE WHEN p.purpose = %s THEN %s WHEN EXISTS (SELECT 1 FROM"
        f" {attempt} b WHERE b.problem_id = a.problem_id AND b.id < a.id AND b.status <> %s)"
        f" THEN %s ELSE %s END AS try_class FROM {attempt} a"
        f" JOIN {marker} m ON m.attempt_id = a.id"
        f" JOIN {problem} p ON p.id = a.problem_id JOIN {copy} c ON c.id = a.copy_id) "
    )
    graded_params: list[object] = [
        Status.CORRECT.value,
        CORRECT,
        UNEXPLAINED,
        ProblemInstance.Purpose.REVIEW.value,
        TryClass.REVIEW.value,
        invalid,
        TryClass.RETRY.value,
        TryClass.FIRST.value,
    ]
    exact = "copy_id, course_id, page_slug, idea_slug, kind, level, code, try_class"
    every = "copy_id, course_id, page_slug, idea_slug, kind, code"
    return [
        (f"DELETE FROM {summary}", []),  # noqa: S608
        (f"DELETE FROM {learner}", []),  # noqa: S608
        (f"DELETE FROM {marker}", []),  # noqa: S608
        (
            f"INSERT INTO {marker} (attempt_id) SELECT id FROM {attempt} WHERE status <> %s",  # noqa: S608
            [invalid],
        ),
        (
            graded  # noqa: S608
            + f"INSERT INTO {learner} (copy_id, {keys}, attempts)"  # noqa: S608
            f" SELECT {exact}, COUNT(*) FROM graded GROUP BY {exact}"
            f" UNION ALL SELECT copy_id, course_id, page_slug, idea_slug, kind, %s, code, %s,"
            f" COUNT(*) FROM graded GROUP BY {every}",
            [*graded_params, ALL_LEVELS, TryClass.ALL.value],
        ),
        (
            f"INSERT INTO {summary} ({keys}, attempts, learners)"  # noqa: S608
            f" SELECT {keys}, SUM(attempts), COUNT(*) FROM {learner} GROUP BY {keys}",
            [],
        ),
        *_follow_up_rebuild_statements(),
    ]


def _follow_up_rebuild_statements() -> list[tuple[str, list[object]]]:
    """Return the statements that compute the recurrence and explained-problem rows from the
    attempts and review logs, by the rules the write path follows (``_follow_up``)."""
    attempt, problem, copy = _table(Attempt), _table(ProblemInstance), _table(CourseCopy)
    recurrence, explained = _table(MistakeRecurrence), _table(ExplainedProblem)
    log, item = _table(ReviewLog), _table(ReviewItem)
    invalid = Status.INVALID.value
    r = recurrence
    # The first day of the attempt's month in UTC (SQLite stores UTC text).
    month = (
        "CAST(date_trunc('month', a.created_at AT TIME ZONE 'UTC') AS date)"
        if connection.vendor == "postgresql"
        else "date(a.created_at, 'start of month')"
    )
    summary = _table(RecurrenceCount)
    numbers = ", ".join(RECURRENCE_NUMBERS)
    # A first graded answer to its problem, of the row's copy and kind, after the row's attempt.
    first_after = (
        f"FROM {attempt} a JOIN {problem} p ON p.id = a.problem_id"  # noqa: S608
        f" WHERE a.copy_id = {r}.copy_id AND p.kind = {r}.kind"
        f" AND a.id > {r}.attempt_id"
        " AND a.status <> %s AND NOT EXISTS (SELECT 1 FROM"
        f" {attempt} b WHERE b.problem_id = a.problem_id AND b.id < a.id AND b.status <> %s)"
    )
    return [
        (f"DELETE FROM {summary}", []),  # noqa: S608
        (f"DELETE FROM {recurrence}", []),  # noqa: S608
        (f"DELETE FROM {explained}", []),  # noqa: S608
        (
            f"INSERT INTO {recurrence} (copy_id, course_id, page_slug, idea_slug, kind, mistake,"  # noqa: S608
            " attempt_id, made_at, month) SELECT a.copy_id, c.course_id, p.page_slug,"
            f" p.idea_slug, p.kind, a.mistake, a.id, a.created_at, {month} FROM {attempt} a"
            f" JOIN {problem} p ON p.id = a.problem_id JOIN {copy} c ON c.id = a.copy_id"
            f" WHERE a.id IN (SELECT MIN(f.id) FROM {attempt} f JOIN {problem} q"
            " ON q.id = f.problem_id WHERE f.mistake IS NOT NULL AND f.mistake <> ''"
            " GROUP BY f.copy_id, q.kind, f.mistake)",
            [],
        ),
        (
            f"UPDATE {recurrence} SET next_problem"  # noqa: S608
            f" = (SELECT COALESCE(a.mistake, '') = {r}.mistake"
            f" {first_after} AND p.purpose = %s ORDER BY a.id LIMIT 1)",
            [invalid, invalid, ProblemInstance.Purpose.PRACTICE.value],
        ),
        (
            f"UPDATE {recurrence} SET next_review"  # noqa: S608
            f" = (SELECT COALESCE(a.mistake, '') = {r}.mistake"
            f" {first_after} AND p.purpose = %s AND EXISTS (SELECT 1 FROM {log} l"
            f" JOIN {item} i ON i.id = l.item_id WHERE l.attempt_id = a.id AND l.origin = %s"
            f" AND i.kind = {r}.kind AND i.mistake = {r}.mistake)"
            " ORDER BY a.id LIMIT 1)",
            [
                invalid,
                invalid,
                ProblemInstance.Purpose.REVIEW.value,
                ReviewLog.Origin.REVIEW.value,
            ],
        ),
        (
            f"INSERT INTO {summary} (course_id, kind, mistake, month, {numbers})"  # noqa: S608
            " SELECT course_id, kind, mistake, month, COUNT(*), COUNT(next_problem),"
            " SUM(CASE WHEN next_problem THEN 1 ELSE 0 END), COUNT(next_review),"
            f" SUM(CASE WHEN next_review THEN 1 ELSE 0 END) FROM {recurrence}"
            " GROUP BY course_id, kind, mistake, month",
            [],
        ),
        (
            f"INSERT INTO {explained} (problem_id, copy_id, course_id, kind, level, mistake)"  # noqa: S608
            " SELECT DISTINCT a.problem_id, a.copy_id, c.course_id, p.kind, p.level, a.mistake"
            f" FROM {attempt} a JOIN {problem} p ON p.id = a.problem_id"
            f" JOIN {copy} c ON c.id = a.copy_id WHERE a.mistake IS NOT NULL AND a.mistake <> ''",
            [],
        ),
    ]


def _values_rebuild() -> None:
    """Compute the unexplained values from the attempts (the JSON read is the ORM's, which
    writes it for each database)."""
    UnexplainedValue.objects.all().delete()
    rows = (
        Attempt.objects.filter(status=Status.INCORRECT, mistake__isnull=True)
        .values(course_id=F("copy__course_id"), kind=F("problem__kind"))
        .annotate(value=Left(KT("verdict__interpreted"), VALUE_MAX_LENGTH))
        .values("course_id", "kind", "value")
        .annotate(attempts=Count("pk"))
        .order_by()
    )
    UnexplainedValue.objects.bulk_create(
        UnexplainedValue(**{**row, "value": row["value"] or ""}) for row in rows
    )


# The rebuild's table of each counted problem's parameters (dropped at its end).
_SPEC_PARAMETERS = "analytics_rebuild_parameter"
_REBUILD_BATCH = 1000


def _parameters_rebuild(cursor) -> None:
    """Compute the parameter counts from the counted attempts: each counted problem's
    parameters are read from its spec in Python (the rule is ``parameters_of``, not SQL's) into
    a temporary table, and SQL groups the attempts by them, as the write path keys them."""
    attempt, problem, copy = _table(Attempt), _table(ProblemInstance), _table(CourseCopy)
    marker = _table(AttemptCounted)
    plearner, psummary = _table(LearnerParameterCount), _table(ParameterCount)
    temp = connection.ops.quote_name(_SPEC_PARAMETERS)
    pkeys = ", ".join(PARAMETER_KEY)
    cursor.execute(f"DELETE FROM {psummary}")  # noqa: S608
    cursor.execute(f"DELETE FROM {plearner}")  # noqa: S608
    cursor.execute(f"DROP TABLE IF EXISTS {temp}")
    cursor.execute(
        f"CREATE TEMPORARY TABLE {temp} (problem_id bigint, name varchar(40),"
        " bucket varchar(24), sort double precision)"
    )
    counted = Exists(AttemptCounted.objects.filter(attempt__problem_id=OuterRef("pk")))
    batch: list[object] = []

    def flush() -> None:
        rows = len(batch) // 4
        if rows:
            values = ", ".join(["(%s, %s, %s, %s)"] * rows)
            cursor.execute(f"INSERT INTO {temp} VALUES {values}", batch)  # noqa: S608
            batch.clear()

    problems = ProblemInstance.objects.filter(counted).values_list("pk", "spec")
    for problem_id, spec in problems.iterator(chunk_size=2000):
        for name, bucket, sort in parameters_of(spec):
            batch.extend((problem_id, name, bucket, sort))
        if len(batch) >= 4 * _REBUILD_BATCH:
            flush()
    flush()
    if connection.vendor == "postgresql":
        cursor.execute(f"ANALYZE {temp}")
    cursor.execute(
        f"INSERT INTO {plearner} (copy_id, {pkeys}, sort, attempts)"  # noqa: S608
        " SELECT a.copy_id, c.course_id, p.kind,"
        " CASE WHEN lv.every = 1 THEN %s ELSE p.level END, t.name, t.bucket,"
        " CASE WHEN cd.every = 1 THEN %s WHEN a.status = %s THEN %s"
        " ELSE COALESCE(NULLIF(a.mistake, ''), %s) END, t.sort, COUNT(*)"
        f" FROM {attempt} a JOIN {marker} m ON m.attempt_id = a.id"
        f" JOIN {problem} p ON p.id = a.problem_id JOIN {copy} c ON c.id = a.copy_id"
        f" JOIN {temp} t ON t.problem_id = a.problem_id"
        " CROSS JOIN (SELECT 0 AS every UNION ALL SELECT 1) AS lv"
        " CROSS JOIN (SELECT 0 AS every UNION ALL SELECT 1) AS cd"
        " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8",
        [ALL_LEVELS, ANY_CODE, Status.CORRECT.value, CORRECT, UNEXPLAINED],
    )
    cursor.execute(
        f"INSERT INTO {psummary} ({pkeys}, sort, attempts, learners)"  # noqa: S608
        f" SELECT {pkeys}, MAX(sort), SUM(attempts), COUNT(*) FROM {plearner}"
        f" GROUP BY {pkeys}"
    )
    cursor.execute(f"DROP TABLE {temp}")


def counts_rebuild() -> int:
    """Replace every count by one computed from the attempts, in one transaction; return how
    many attempts are counted. On PostgreSQL the marker table is locked first, so counting on
    commit waits (or gives up, to the catch-up) rather than interleave with the rebuild."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {_table(AttemptCounted)} IN SHARE ROW EXCLUSIVE MODE")
        for sql, params in _rebuild_statements():
            cursor.execute(sql, params)
        _values_rebuild()
        _parameters_rebuild(cursor)
    return AttemptCounted.objects.count()
