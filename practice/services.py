"""Write paths for practice: one service per action, each owning its transaction.

Grading is pure and runs before the transaction opens, so no row lock is held while SymPy
works; the engine bounds its own time, so one hostile answer cannot stall a worker.
"""

import functools
import secrets
import uuid
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.http import Http404
from django.utils import timezone

from courses.models import CourseCopy, IdeaProgress, Note
from courses.selectors import copy_page
from courses.services import progress_record
from grading import Verdict, grade
from grading.kinds import ProblemKind, Status
from practice.generators import GENERATORS, generate

from . import selectors
from .analytics.services import counts_on_commit
from .models import Attempt, ProblemInstance
from .problems import problem_replace, problem_store
from .review.services.export import review_export
from .review.services.recording import review_record_attempt

EXPORT_FORMAT = "basislab-copy/1"


class ProblemClosedError(ValueError):
    """Raised when an answer is submitted to a problem that is solved or was replaced."""

    def __init__(self, problem: ProblemInstance) -> None:
        super().__init__(f"problem {problem.pk} is {problem.state}")
        self.problem = problem


def _level_bounds(kind: ProblemKind) -> tuple[int, int]:
    """Return the lowest and highest level the kind's generator offers."""
    levels = GENERATORS[kind].levels
    if isinstance(levels, int):
        return 1, max(1, levels)
    levels = sorted(int(level) for level in levels)
    return levels[0], levels[-1]


def _current_level(*, copy: CourseCopy, page_slug: str, idea_slug: str, kind: ProblemKind) -> int:
    """Return the learner's level on the idea, clamped to what the generator offers."""
    # At most one row (unique per copy, page and idea): no ORDER BY needed, so no .first().
    level = next(
        iter(
            IdeaProgress.objects.filter(
                copy_id=copy.pk, page_slug=page_slug, idea_slug=idea_slug
            ).values_list("level", flat=True)[:1]
        ),
        None,
    )
    low, high = _level_bounds(kind)
    return min(max(level if level is not None else low, low), high)


def _check_idea(*, copy: CourseCopy, page_slug: str, idea_slug: str, kind: str) -> ProblemKind:
    """Return the kind if the copy's version has the idea and lists the kind; raise Http404."""
    try:
        problem_kind = ProblemKind(kind)
    except ValueError:
        raise Http404("No such problem kind") from None
    # The version's page and ideas are read once per process (a stored version never changes).
    ideas = copy_page(copy=copy, page_slug=page_slug).ideas.all()
    idea = next((idea for idea in ideas if idea.slug == idea_slug), None)
    if idea is None or problem_kind.value not in (idea.problem_kinds or []):
        raise Http404("No such problem under this idea")
    if problem_kind not in GENERATORS:
        raise Http404("No generator for this problem kind")
    return problem_kind


def _problem_create(
    *,
    copy: CourseCopy,
    page_slug: str,
    idea_slug: str,
    kind: ProblemKind,
    purpose: str = ProblemInstance.Purpose.PRACTICE,
) -> ProblemInstance:
    """Generate and store a new problem at the learner's current level (no transaction)."""
    level = _current_level(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    # 63 bits: reproducible with NumPy and fits PostgreSQL's bigint.
    seed = secrets.randbits(63)
    spec = generate(kind, seed=seed, level=level)
    return problem_store(
        copy=copy,
        page_slug=page_slug,
        idea_slug=idea_slug,
        kind=kind,
        seed=seed,
        level=level,
        spec=spec,
        purpose=purpose,
    )


def _open_problem(
    *, copy: CourseCopy, page_slug: str, idea_slug: str, kind: ProblemKind
) -> ProblemInstance | None:
    return selectors.open_practice_problem(
        copy_id=copy.pk, page_slug=page_slug, idea_slug=idea_slug, kind=kind.value
    )


def _open_or_create(
    *, copy: CourseCopy, page_slug: str, idea_slug: str, kind: ProblemKind
) -> ProblemInstance:
    existing = _open_problem(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return _problem_create(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    except IntegrityError:
        # Two opens at once: the partial unique constraint let only one row in.
        existing = _open_problem(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
        if existing is None:
            raise
        return existing


def problem_open(*, copy: CourseCopy, page_slug: str, idea_slug: str, kind: str) -> ProblemInstance:
    """Return the learner's open problem for this idea and kind, creating it once.

    The generator's name, version, seed, level and spec are stored, so the problem is the same
    when the learner comes back. Raises Http404 unless the idea exists in the copy's version
    and lists the kind.
    """
    problem_kind = _check_idea(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    return _open_or_create(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=problem_kind)


def problem_new_variant(*, copy: CourseCopy, problem: ProblemInstance) -> ProblemInstance:
    """Replace the problem with a fresh variant of the same idea and kind at the current level.

    Idempotent for a double click: when the problem is no longer open (already replaced, or
    solved), the idea's open problem is returned, created only if there is none. A review
    variant belongs to spaced review and is left as it is; the idea's practice problem is
    returned instead.
    """
    if problem.copy_id != copy.pk:
        raise ValueError("the problem belongs to another copy")
    kind = _check_idea(
        copy=copy, page_slug=problem.page_slug, idea_slug=problem.idea_slug, kind=problem.kind
    )
    with transaction.atomic():
        problem_replace(problem=problem)
        return _open_or_create(
            copy=copy, page_slug=problem.page_slug, idea_slug=problem.idea_slug, kind=kind
        )


def _attempt_by_token(*, copy: CourseCopy, token: uuid.UUID) -> Attempt | None:
    # At most one row (unique per copy and token): no ORDER BY needed, so no .first().
    return next(iter(Attempt.objects.filter(copy=copy, form_token=token)[:1]), None)


@functools.cache
def _lock_sql(*, for_update: bool) -> str:
    # Written out once per process: built by the ORM, this select cost ten times its run time
    # in Python on every submit. Only table names are formatted in; values are parameters.
    problem, attempt = ProblemInstance._meta.db_table, Attempt._meta.db_table
    return (
        f'SELECT p.state, (SELECT a.id FROM "{attempt}" a'  # noqa: S608
        " WHERE a.copy_id = %s AND a.form_token = %s LIMIT 1)"
        f' FROM "{problem}" p WHERE p.id = %s' + (" FOR UPDATE" if for_update else "")
    )


def _lock_state_and_token(
    *, copy: CourseCopy, problem: ProblemInstance, token: uuid.UUID
) -> tuple[str, int | None]:
    """Lock the problem's row (where the database locks rows); return its state and the id of
    the copy's attempt with this form token, if any. Raises DoesNotExist for a deleted one."""
    stored_token = Attempt._meta.get_field("form_token").get_db_prep_value(token, connection)
    sql = _lock_sql(for_update=connection.features.has_select_for_update)
    with connection.cursor() as cursor:
        cursor.execute(sql, [copy.pk, stored_token, problem.pk])
        row = cursor.fetchone()
    if row is None:
        raise ProblemInstance.DoesNotExist
    return row[0], row[1]


@functools.cache
def _solve_sql() -> str:
    # Marks the problem solved and returns whether a wrong answer to it came before: run after
    # the problem's lock is held, so it sees every attempt committed before this one.
    problem, attempt = ProblemInstance._meta.db_table, Attempt._meta.db_table
    return (
        f'UPDATE "{problem}" SET state = %s WHERE id = %s RETURNING EXISTS ('  # noqa: S608
        f'SELECT 1 FROM "{attempt}" a WHERE a.problem_id = %s AND a.status = %s) AS retried'
    )


def _solve_params(problem: ProblemInstance) -> list[object]:
    return [ProblemInstance.State.SOLVED.value, problem.pk, problem.pk, Status.INCORRECT.value]


def _mark_solved(problem: ProblemInstance) -> bool | None:
    """Mark the problem solved (the caller holds its lock); return whether a wrong answer to
    it came before, read in the same statement where the database returns rows from an update
    (PostgreSQL, SQLite 3.35+), else None: review then reads it itself."""
    returns = connection.vendor == "postgresql" or (
        connection.vendor == "sqlite" and connection.features.can_return_columns_from_insert
    )
    if not returns:
        ProblemInstance.objects.filter(pk=problem.pk).update(state=ProblemInstance.State.SOLVED)
        return None
    with connection.cursor() as cursor:
        cursor.execute(_solve_sql(), _solve_params(problem))
        (retried,) = cursor.fetchone()
    return bool(retried)


def attempt_submit(
    *, copy: CourseCopy, problem: ProblemInstance, text: str, token: uuid.UUID | str
) -> Attempt:
    """Grade an answer, store the attempt and record progress, in one transaction.

    A second submit with the same form token returns the first attempt unchanged (a double
    click or a retry after a timeout). An invalid answer is stored but costs nothing: it counts
    neither for progress nor for review. Raises ProblemClosedError when the problem is solved
    or replaced (unless the token was already used), ValueError for a foreign problem.
    """
    if problem.copy_id != copy.pk:
        raise ValueError("the problem belongs to another copy")
    token = token if isinstance(token, uuid.UUID) else uuid.UUID(str(token))
    verdict = grade(problem.spec, text)
    try:
        return _attempt_store(copy=copy, problem=problem, text=text, token=token, verdict=verdict)
    except IntegrityError:
        # Two submits with one token raced past the check under the lock (where the lock is
        # not honoured, or on PostgreSQL when the check's snapshot predates the lock wait): the
        # unique constraint let one in, and this one returns it.
        existing = _attempt_by_token(copy=copy, token=token)
        if existing is None:
            raise
        return existing


def _attempt_store(
    *, copy: CourseCopy, problem: ProblemInstance, text: str, token: uuid.UUID, verdict: Verdict
) -> Attempt:
    """Store the graded attempt and its consequences in one transaction (see attempt_submit)."""
    status = Status(verdict.status)
    mistake = None
    if status == Status.INCORRECT and verdict.diagnosis is not None:
        mistake = str(verdict.diagnosis.mistake)
    with transaction.atomic():
        # The row lock serialises submits to one problem: a duplicate waits here, then finds
        # the first attempt. Only the state can have changed since the problem was read (the
        # rest of a stored problem never does), so only the state is read again, with whether
        # the token was used, in the same statement.
        state, used_pk = _lock_state_and_token(copy=copy, problem=problem, token=token)
        if used_pk is not None:
            return Attempt.objects.get(pk=used_pk)
        # On PostgreSQL a select that waited for the lock reads the locked row as it is now but
        # the attempts as they were before the wait: a duplicate that waited for a first submit
        # misses its attempt here. If that submit closed the problem, look again; if not, the
        # insert below meets the unique token constraint and attempt_submit returns the first.
        if state != ProblemInstance.State.OPEN:
            existing = _attempt_by_token(copy=copy, token=token)
            if existing is not None:
                return existing
            problem.state = state
            raise ProblemClosedError(problem)
        attempt = Attempt.objects.create(
            problem=problem,
            copy=copy,
            text=text,
            status=status.value,
            score=float(verdict.score),
            verdict=verdict.to_dict(),
            mistake=mistake,
            form_token=token,
        )
        if status == Status.INVALID:
            return attempt
        retried = None
        correct = status == Status.CORRECT
        _low, high = _level_bounds(ProblemKind(problem.kind))
        if correct:
            state = ProblemInstance.State.SOLVED
        if correct:
            retried = _mark_solved(problem)
        progress_record(
            copy=copy,
            page_slug=problem.page_slug,
            idea_slug=problem.idea_slug,
            correct=correct,
            max_level=high,
        )
        review_record_attempt(attempt=attempt, retried=retried)
        counts_on_commit(attempt=attempt)
    problem.state = state
    return attempt


def copy_export(*, copy: CourseCopy) -> dict[str, Any]:
    """Return the whole copy as plain JSON data: progress, notes, problems, attempts, review."""
    progress = [
        {
            "page": p.page_slug,
            "idea": p.idea_slug,
            "attempts": p.attempts,
            "correct": p.correct,
            "streak": p.streak,
            "level": p.level,
            "updated_at": p.updated_at.isoformat(),
        }
        for p in IdeaProgress.objects.filter(copy=copy).order_by("page_slug", "idea_slug")
    ]
    notes = [
        {"page": n.page_slug, "text": n.text, "updated_at": n.updated_at.isoformat()}
        for n in Note.objects.filter(copy=copy).order_by("page_slug")
    ]
    problems = [
        {
            "id": p.pk,
            "page": p.page_slug,
            "idea": p.idea_slug,
            "kind": p.kind,
            "generator": {"name": p.generator_name, "version": p.generator_version},
            "seed": p.seed,
            "level": p.level,
            "purpose": p.purpose,
            "state": p.state,
            "spec": p.spec,
            "created_at": p.created_at.isoformat(),
        }
        for p in ProblemInstance.objects.filter(copy=copy).order_by("created_at", "pk")
    ]
    attempts = [
        {
            "id": a.pk,
            "problem": a.problem_id,
            "text": a.text,
            "status": a.status,
            "score": a.score,
            "mistake": a.mistake,
            "verdict": a.verdict,
            "created_at": a.created_at.isoformat(),
        }
        for a in Attempt.objects.filter(copy=copy).order_by("created_at", "pk")
    ]
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "course": {"slug": copy.course.slug, "title": copy.course.title},
        "version": copy.version.number,
        "owner": copy.owner.get_username(),
        "progress": progress,
        "notes": notes,
        "problems": problems,
        "attempts": attempts,
        "review": review_export(copy=copy),
    }
