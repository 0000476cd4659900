"""On SQLite, a warm request of the practice loop compiles no statement again.

Python's sqlite3 keeps each statement it has compiled (by its text) and runs it again with new
values. SQLite throws that compiled form away on every run when a bound value is compared with a
partial index's condition (``practice_one_open_problem_per_idea_kind`` is on ``state = 'open'``
and ``purpose = 'practice'``): it compiles again in case the value lets it use the index. For
Continue's statement that was about 90 µs of 110 on every page showing it.

SQLite asks its authorizer about a statement only while compiling it, so an authorizer that
records what is being compiled shows which statements of a request were compiled again. Each
request below runs once to warm every cache, then once more with the recorder on: nothing but
transaction control (savepoint names count up by design) may be compiled.

These checks are SQLite's (``database("sqlite")``): on another database (CI runs PostgreSQL)
they are deselected and the module's last test runs them in a pytest process of its own on
SQLite (tests/other_database.py), so they run whichever database the suite is given.
"""

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.urls import reverse

from practice import services
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem
from tests import other_database
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG

sqlite_only = pytest.mark.database("sqlite")

# Statements whose text changes by design (Django numbers its savepoints).
TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT")


class Recorder:
    """What SQLite compiles once ``recording`` is set (transaction control left out)."""

    def __init__(self) -> None:
        self.recording = False
        self.compiled: list[str] = []
        self.current = ""

    def authorizer(self, *_args) -> int:
        sql = self.current
        # Empty: not sent through Django's cursor (sqlite3's own COMMIT), so not the site's.
        control = not sql or sql.lstrip().upper().startswith(TRANSACTION_CONTROL)
        if self.recording and not control and sql not in self.compiled:
            self.compiled.append(sql)
        return 0  # SQLITE_OK

    def note(self, execute, sql, params, many, context):
        self.current = sql
        try:
            return execute(sql, params, many, context)
        finally:
            self.current = ""


@contextmanager
def recorder() -> Iterator[Recorder]:
    """Yield a recorder installed on the connection. Installing an authorizer makes SQLite
    throw away every compiled statement, so a request must run (unrecorded) before one whose
    compiling is recorded."""
    rec = Recorder()
    connection.ensure_connection()
    raw = connection.connection
    with connection.execute_wrapper(rec.note):
        raw.set_authorizer(rec.authorizer)
        try:
            yield rec
        finally:
            raw.set_authorizer(None)


def _assert_warm(request: Callable[[], object]) -> None:
    with recorder() as rec:
        request()
        rec.recording = True
        request()
    assert rec.compiled == [], "compiled again on a warm request:\n" + "\n".join(
        sql[:300] for sql in rec.compiled
    )


@sqlite_only
def test_the_recorder_sees_a_statement_compiled_on_every_run(course_copy):
    # The failure this guards against, shown on a small statement: a bound state compared with
    # the partial index's condition is compiled on every run; the same values written in are not.
    table = ProblemInstance._meta.db_table
    bound = f'SELECT id FROM "{table}" WHERE copy_id = %s AND purpose = %s AND state = %s'
    written = (
        f"SELECT id FROM \"{table}\" WHERE copy_id = %s AND purpose = 'practice' AND state = 'open'"
    )
    with connection.cursor() as cursor:
        for sql, params in (
            (bound, [course_copy.pk, "practice", "open"]),
            (written, [course_copy.pk]),
        ):
            with recorder() as rec:
                cursor.execute(sql, params)
                rec.recording = True
                cursor.execute(sql, params)
            assert rec.compiled == ([sql] if sql is bound else [])


@pytest.fixture
def answered(learner_client, course_copy):
    """A problem with one wrong answer, and the URLs of the practice loop's pages around it."""
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    url = reverse("practice:problem", kwargs={"copy_id": course_copy.pk, "problem_id": problem.pk})
    response = learner_client.post(url, {"text": wrong_answer(problem)[1], "token": uuid.uuid4()})
    assert response.status_code == 302
    return problem, url, response["Location"]


@sqlite_only
@pytest.mark.parametrize(
    "page",
    [
        "open the problem",
        "problem",
        "verdict",
        "course page",
        "dashboard",
        "history",
        "review queue",
        "continue",
    ],
)
def test_a_warm_page_compiles_no_statement_again(page, learner_client, course_copy, answered):
    _problem, problem_url, verdict_url = answered
    url = {
        # Opening an idea's problem of a kind that is open already goes to it (opens no other).
        "open the problem": reverse(
            "practice:problem_open",
            kwargs={
                "copy_id": course_copy.pk,
                "page_slug": PAGE_SLUG,
                "idea_slug": IDEA_SLUG,
                "kind": "weighted_sum",
            },
        ),
        "problem": problem_url,
        "verdict": verdict_url,
        "course page": reverse(
            "courses:page", kwargs={"copy_id": course_copy.pk, "page_slug": PAGE_SLUG}
        ),
        "dashboard": reverse("courses:dashboard"),
        "history": reverse("practice:history", kwargs={"copy_id": course_copy.pk}),
        "review queue": reverse("review:queue", kwargs={"copy_id": course_copy.pk}),
        "continue": reverse("practice:continue", kwargs={"copy_id": course_copy.pk}),
    }[page]

    def get() -> None:
        assert learner_client.get(url).status_code in (200, 302)

    _assert_warm(get)


@sqlite_only
def test_a_warm_wrong_answer_and_preview_compile_no_statement_again(learner_client, answered):
    problem, problem_url, _verdict_url = answered
    wrong = wrong_answer(problem)[1]
    preview_url = reverse(
        "practice:preview", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )

    def submit() -> None:
        response = learner_client.post(problem_url, {"text": wrong, "token": uuid.uuid4()})
        assert response.status_code == 302

    def preview() -> None:
        response = learner_client.post(preview_url, {"text": wrong}, headers={"HX-Request": "true"})
        assert response.status_code == 200

    _assert_warm(submit)
    _assert_warm(preview)
    assert Attempt.objects.filter(problem=problem).count() == 3


@sqlite_only
def test_a_warm_right_answer_compiles_no_statement_again(learner_client, course_copy, answered):
    # A right answer closes its problem: each run answers a fresh variant of it (made outside
    # the recorder), first wrongly, then rightly, as a learner would.
    problem = answered[0]

    def answer_a_fresh_variant(record: bool) -> None:
        nonlocal problem
        problem = services.problem_new_variant(copy=course_copy, problem=problem)
        url = reverse(
            "practice:problem", kwargs={"copy_id": course_copy.pk, "problem_id": problem.pk}
        )
        for text in (wrong_answer(problem)[1], right_answer(problem)):
            rec.recording = record
            response = learner_client.post(url, {"text": text, "token": uuid.uuid4()})
            assert response.status_code == 302

    with recorder() as rec:
        answer_a_fresh_variant(record=False)
        answer_a_fresh_variant(record=True)
    assert rec.compiled == [], "compiled again:\n" + "\n".join(s[:300] for s in rec.compiled)
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.SOLVED


@sqlite_only
def test_warm_review_pages_and_answers_compile_no_statement_again(learner_client, answered):
    # The mistake made in `answered` comes due; its review item, a wrong answer to its variant
    # (twice, with new tokens) and the result page, each warm.
    problem = answered[0]
    copy_id = problem.copy_id
    item = ReviewItem.objects.get(copy_id=copy_id)
    with time_machine.travel(item.due + timedelta(minutes=1), tick=False):
        pages = [
            reverse("review:queue", kwargs={"copy_id": copy_id}),
            reverse("review:review", kwargs={"copy_id": copy_id, "item_id": item.pk}),
            reverse("practice:continue", kwargs={"copy_id": copy_id}),
            reverse("courses:dashboard"),
        ]
        for url in pages:
            _assert_warm(lambda url=url: learner_client.get(url))
        variant = ProblemInstance.objects.get(purpose=ProblemInstance.Purpose.REVIEW)
        answer_url = reverse("review:answer", kwargs={"copy_id": copy_id, "problem_id": variant.pk})
        wrong = wrong_answer(variant)[1]
        results = []

        def answer() -> None:
            response = learner_client.post(answer_url, {"text": wrong, "token": uuid.uuid4()})
            assert response.status_code == 302
            results.append(response["Location"])

        _assert_warm(answer)
        _assert_warm(lambda: learner_client.get(results[-1]))
    assert Attempt.objects.filter(problem=variant).count() == 2


test_on_another_database_the_checks_run_on_sqlite_in_a_process_of_their_own = other_database.runner(
    "sqlite", __file__
)
