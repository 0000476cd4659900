"""What Continue needs to know of a copy, read in one hand-written statement.

``selectors.next_step`` runs on the dashboard, on every course page and after every Verdict. Its
ORM form (kept as the tests' reference in ``tests/practice/continue_by_orm.py``) took
up to six statements; this one statement returns, as tagged rows of one ``UNION ALL``:

- ``due``: one row when any review item of the copy is due (the queue itself is read only then);
- ``problem``: the open practice problem touched last (its newest answer, else its opening);
- ``progress``: the copy's progress rows (correct answers and level per idea);
- ``last``: the page of the copy's newest answer to a practice problem;
- ``answers``: the copy's answers counted per (page, idea, kind), only when no practice problem
  is open (then the next idea's least practised kind is wanted; otherwise nothing reads them).
  That test is a one-row table on the left of a ``CROSS JOIN``, which SQLite keeps as the outer
  loop: with a problem open the row is not there and the attempts are not read at all. (As a
  condition beside the join's, SQLite read every answer of the copy first: about 85 µs on every
  page at 2000 answers; PostgreSQL makes either form a one-time filter.)

The text is built once per process from the models' table names and two of their choice values
(below); every other value is a bound parameter. It is plain SQL that SQLite and PostgreSQL both
run.

The problem's purpose and state ("practice", "open") are written into the text, not bound
(``basislab.literal``): bound, SQLite compiled the statement again on every run, about 90 µs of
its 110 µs on every page that shows Continue.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from basislab.literal import choice_literal
from courses.models import IdeaProgress
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem

IdeaKey = tuple[str, str]


@dataclass(frozen=True)
class OpenProblem:
    """The open practice problem touched last: enough to link to it and name it."""

    pk: int
    page_slug: str
    idea_slug: str
    kind: str


@dataclass(frozen=True)
class ContinueFacts:
    """The copy's state as Continue reads it (see the module's docstring)."""

    due: bool
    problem: OpenProblem | None
    # (page slug, idea slug) -> (correct answers, level)
    progress: dict[IdeaKey, tuple[int, int]]
    last_page: str | None
    # (page slug, idea slug, kind) -> answers; empty while a practice problem is open
    answers: dict[tuple[str, str, str], int]


def _build() -> str:
    item = ReviewItem._meta.db_table
    problem = ProblemInstance._meta.db_table
    attempt = Attempt._meta.db_table
    progress = IdeaProgress._meta.db_table
    practice = choice_literal(ProblemInstance.Purpose.PRACTICE.value)
    is_open = choice_literal(ProblemInstance.State.OPEN.value)
    # The first member's casts fix every column's type (PostgreSQL types a UNION by them).
    # Only the models' table names and these two choice values (see the module's docstring)
    # are formatted in; every other value is a bound parameter.
    return f"""
SELECT CAST('due' AS VARCHAR(10)) AS tag, CAST(NULL AS BIGINT) AS pk,
       CAST(NULL AS VARCHAR(100)) AS page_slug, CAST(NULL AS VARCHAR(100)) AS idea_slug,
       CAST(NULL AS VARCHAR(100)) AS kind, CAST(NULL AS BIGINT) AS n, CAST(NULL AS BIGINT) AS lv
WHERE EXISTS (SELECT 1 FROM "{item}" r WHERE r.copy_id = %s AND r.due <= %s)
UNION ALL
SELECT 'problem', t.id, t.page_slug, t.idea_slug, t.kind, NULL, NULL FROM (
    SELECT p.id, p.page_slug, p.idea_slug, p.kind FROM "{problem}" p
    WHERE p.copy_id = %s AND p.purpose = {practice} AND p.state = {is_open}
    ORDER BY COALESCE(
        (SELECT MAX(a.created_at) FROM "{attempt}" a WHERE a.problem_id = p.id), p.created_at
    ) DESC, p.id DESC
    LIMIT 1
) t
UNION ALL
SELECT 'progress', NULL, g.page_slug, g.idea_slug, NULL, g.correct, g.level
FROM "{progress}" g WHERE g.copy_id = %s
UNION ALL
SELECT 'last', NULL, t.page_slug, NULL, NULL, NULL, NULL FROM (
    SELECT p.page_slug FROM "{attempt}" a INNER JOIN "{problem}" p ON p.id = a.problem_id
    WHERE a.copy_id = %s AND p.purpose = {practice}
    ORDER BY a.created_at DESC, a.id DESC
    LIMIT 1
) t
UNION ALL
SELECT 'answers', NULL, p.page_slug, p.idea_slug, p.kind, COUNT(*), NULL
FROM (
    SELECT 1 AS x WHERE NOT EXISTS (
        SELECT 1 FROM "{problem}" q
        WHERE q.copy_id = %s AND q.purpose = {practice} AND q.state = {is_open}
    )
) idle CROSS JOIN "{attempt}" a INNER JOIN "{problem}" p ON p.id = a.problem_id
WHERE a.copy_id = %s
GROUP BY p.page_slug, p.idea_slug, p.kind
"""  # noqa: S608


CONTINUE_SQL = _build()


def continue_params(*, copy_id: int, now: datetime) -> list:
    """Return CONTINUE_SQL's parameters for the copy at `now`, in the statement's order."""
    # due; problem; progress; last; answers (the idle test, then the answers)
    return [
        copy_id,
        connection.ops.adapt_datetimefield_value(now),
        copy_id,
        copy_id,
        copy_id,
        copy_id,
        copy_id,
    ]


def continue_facts(*, copy_id: int, now: datetime) -> ContinueFacts:
    """Return what Continue needs to know of the copy at `now`, in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(CONTINUE_SQL, continue_params(copy_id=copy_id, now=now))
        rows = cursor.fetchall()
    due, problem, last_page = False, None, None
    progress: dict[IdeaKey, tuple[int, int]] = {}
    answers: dict[tuple[str, str, str], int] = {}
    for tag, pk, page_slug, idea_slug, kind, n, level in rows:
        if tag == "due":
            due = True
        elif tag == "problem":
            problem = OpenProblem(pk=pk, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
        elif tag == "progress":
            progress[(page_slug, idea_slug)] = (n, level)
        elif tag == "last":
            last_page = page_slug
        else:
            answers[(page_slug, idea_slug, kind)] = n
    return ContinueFacts(
        due=due, problem=problem, progress=progress, last_page=last_page, answers=answers
    )
