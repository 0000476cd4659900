"""Reads that need care: ownership-checked lookups, history, and the authors' mistake counts."""

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from basislab.compiled_reads import CompiledRead
from basislab.literal import Choice
from courses.models import CourseCopy
from grading.kinds import MISTAKES_BY_KIND, MistakeCode, ProblemKind, Status

from .models import Attempt, ProblemInstance

# How many example answers the authors' page shows for each mistake.
EXAMPLES_PER_MISTAKE = 3


# The ownership-checked lookups every practice request makes, built by the ORM once per process
# (basislab.compiled_reads): the problem with its copy and the copy's version; the attempt with its
# problem, the problem's copy and that copy's version (Continue finds the course's ideas by it).
def _owned_problem(problem_id: int, owner_id: int, copy_id: int | None = None) -> QuerySet:
    found = ProblemInstance.objects.select_related("copy__version")
    found = found.filter(pk=problem_id, copy__owner_id=owner_id)
    return found if copy_id is None else found.filter(copy_id=copy_id)


def _owned_attempt(attempt_id: int, owner_id: int, copy_id: int | None = None) -> QuerySet:
    found = Attempt.objects.select_related("problem__copy__version")
    found = found.filter(pk=attempt_id, copy__owner_id=owner_id)
    return found if copy_id is None else found.filter(copy_id=copy_id)


_PROBLEM = CompiledRead(_owned_problem, problem_id=int, owner_id=int)
_PROBLEM_IN_COPY = CompiledRead(_owned_problem, problem_id=int, owner_id=int, copy_id=int)
_ATTEMPT = CompiledRead(_owned_attempt, attempt_id=int, owner_id=int)
_ATTEMPT_IN_COPY = CompiledRead(_owned_attempt, attempt_id=int, owner_id=int, copy_id=int)
# How many of a problem's own attempts its page lists, newest first.
PROBLEM_ATTEMPTS_SHOWN = 20


def _attempts_beside(attempt_id: int, owner_id: int, copy_id: int) -> QuerySet:
    # The problem's attempts as problem_attempts lists them, of the problem whose attempt the
    # owner's copy holds: each with that problem, its copy and the copy's version joined.
    owned = _owned_attempt(attempt_id, owner_id, copy_id).values("problem_id")[:1]
    found = Attempt.objects.select_related("problem__copy__version")
    found = found.filter(problem_id=Subquery(owned))
    return found.order_by("-created_at", "-pk")[:PROBLEM_ATTEMPTS_SHOWN]


_ATTEMPTS_BESIDE = CompiledRead(_attempts_beside, attempt_id=int, owner_id=int, copy_id=int)


def _owned(
    user: AbstractBaseUser | AnonymousUser,
    reads: tuple[CompiledRead, CompiledRead],
    copy_id: int | None,
    **ids: int,
):
    """Return the row the user owns through its copy (in copy_id when given), or None."""
    if not user.is_authenticated:
        return None
    anywhere, in_copy = reads
    if copy_id is None:
        rows = anywhere.rows(owner_id=user.pk, **ids)
    else:
        rows = in_copy.rows(owner_id=user.pk, copy_id=copy_id, **ids)
    return rows[0] if rows else None


def access_problem(
    *, user: AbstractBaseUser | AnonymousUser, problem_id: int, copy_id: int | None = None
) -> ProblemInstance:
    """Return the problem if the user owns its copy (and it is in copy_id when given).

    Raises Http404 otherwise: another learner's problem and a missing one look the same.
    """
    problem = _owned(user, (_PROBLEM, _PROBLEM_IN_COPY), copy_id, problem_id=problem_id)
    if problem is None:
        raise Http404("No such problem")
    return problem


def access_attempt(
    *, user: AbstractBaseUser | AnonymousUser, attempt_id: int, copy_id: int | None = None
) -> Attempt:
    """Return the attempt if the user owns its copy (and it is in copy_id when given).

    Raises Http404 otherwise.
    """
    attempt = _owned(user, (_ATTEMPT, _ATTEMPT_IN_COPY), copy_id, attempt_id=attempt_id)
    if attempt is None:
        raise Http404("No such attempt")
    # The attempt's copy is its problem's (joined), so the page never reads it again.
    if attempt.copy_id == attempt.problem.copy_id:
        attempt.copy = attempt.problem.copy
    return attempt


def access_attempt_listed(
    *, user: AbstractBaseUser | AnonymousUser, attempt_id: int, copy_id: int
) -> tuple[Attempt, list[Attempt]]:
    """Return the attempt if the user owns it in copy_id (as ``access_attempt``), with its
    problem's attempts as ``problem_attempts`` lists them: what the Verdict page shows.

    One statement when the attempt is among those listed (the newest, as after a submit); an
    older one is then read by ``access_attempt``. Raises Http404 as ``access_attempt`` does.
    """
    listed: list[Attempt] = []
    if user.is_authenticated:
        listed = _ATTEMPTS_BESIDE.rows(attempt_id=attempt_id, owner_id=user.pk, copy_id=copy_id)
    attempt = next((row for row in listed if row.pk == attempt_id), None)
    if attempt is None:
        # Not listed: no such attempt of the user's, or one older than those listed.
        return access_attempt(user=user, attempt_id=attempt_id, copy_id=copy_id), listed
    attempt.copy = attempt.problem.copy
    return attempt, listed


def attempt_history(*, copy: CourseCopy) -> QuerySet[Attempt]:
    """Return the copy's attempts, newest first, with their problems."""
    return (
        Attempt.objects.filter(copy=copy).select_related("problem").order_by("-created_at", "-pk")
    )


def problem_attempts(*, problem: ProblemInstance) -> list[Attempt]:
    """Return the problem's own attempts, newest first, the first PROBLEM_ATTEMPTS_SHOWN."""
    return list(
        Attempt.objects.filter(problem_id=problem.pk).order_by("-created_at", "-pk")[
            :PROBLEM_ATTEMPTS_SHOWN
        ]
    )


def open_practice_problem(
    *, copy_id: int, page_slug: str, idea_slug: str, kind: str
) -> ProblemInstance | None:
    """Return the copy's open practice problem for the idea and kind (at most one: a partial
    unique constraint; the newest if ever more), or None."""
    return (
        ProblemInstance.objects.filter(
            copy_id=copy_id,
            page_slug=page_slug,
            idea_slug=idea_slug,
            kind=kind,
            # Written into the text: bound, SQLite compiles again on every run (basislab.literal).
            purpose=Choice(ProblemInstance.Purpose.PRACTICE),
            state=Choice(ProblemInstance.State.OPEN),
        )
        .order_by("-created_at", "-pk")
        .first()
    )


def problem_current(*, problem: ProblemInstance) -> ProblemInstance | None:
    """Return the open practice problem that stands for the same idea and kind now, if any."""
    return open_practice_problem(
        copy_id=problem.copy_id,
        page_slug=problem.page_slug,
        idea_slug=problem.idea_slug,
        kind=problem.kind,
    )


@dataclass(frozen=True)
class MistakeCount:
    """How often one mistake (None: incorrect, no catalogued mistake) was made, with examples."""

    mistake: MistakeCode | None
    count: int
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class KindStats:
    """Attempts at one problem kind across all learners, by status and by mistake."""

    kind: ProblemKind
    attempts: int
    correct: int
    incorrect: int
    invalid: int
    learners: int
    mistakes: tuple[MistakeCount, ...] = field(default_factory=tuple)


def kind_stats(*, kind: ProblemKind) -> KindStats:
    """Count attempts and each mistake code for a kind over all learners, with example answers.

    Three queries whatever the number of attempts: totals, counts per mistake, and the newest
    few answers per mistake (a window function), all done by the database.
    """
    attempts = Attempt.objects.filter(problem__kind=kind.value)
    totals = attempts.aggregate(
        attempts=Count("id"),
        correct=Count("id", filter=Q(status=Status.CORRECT.value)),
        incorrect=Count("id", filter=Q(status=Status.INCORRECT.value)),
        invalid=Count("id", filter=Q(status=Status.INVALID.value)),
        learners=Count("copy__owner", distinct=True),
    )
    incorrect = attempts.filter(status=Status.INCORRECT.value)
    counts = {
        row["mistake"]: row["n"]
        for row in incorrect.values("mistake").annotate(n=Count("id")).order_by()
    }
    examples: dict[str | None, list[str]] = {}
    ranked = incorrect.annotate(
        rank=Window(
            expression=RowNumber(),
            partition_by=[F("mistake")],
            order_by=[F("created_at").desc(), F("pk").desc()],
        )
    ).filter(rank__lte=EXAMPLES_PER_MISTAKE)
    for mistake, text in ranked.values_list("mistake", "text"):
        examples.setdefault(mistake, []).append(text)
    catalog = list(MISTAKES_BY_KIND.get(kind, ()))
    # Codes stored but not (or no longer) in the kind's catalogue still show.
    known = {code.value for code in MistakeCode}
    extra = sorted(code for code in counts if code in known and code not in catalog)
    rows = [
        MistakeCount(
            mistake=MistakeCode(code),
            count=counts.get(str(code), 0),
            examples=tuple(examples.get(str(code), ())),
        )
        for code in [*catalog, *extra]
    ]
    rows.sort(key=lambda row: -row.count)
    rows.append(
        MistakeCount(
            mistake=None, count=counts.get(None, 0), examples=tuple(examples.get(None, ()))
        )
    )
    return KindStats(kind=kind, mistakes=tuple(rows), **totals)


def kinds_overview() -> dict[str, int]:
    """Return the number of attempts per problem kind, every kind listed."""
    counts = {
        row["problem__kind"]: row["n"]
        for row in Attempt.objects.values("problem__kind").annotate(n=Count("id")).order_by()
    }
    return {kind.value: counts.get(kind.value, 0) for kind in ProblemKind}
