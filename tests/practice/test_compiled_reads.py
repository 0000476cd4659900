"""The compiled reads (basislab.compiled_reads) against the querysets they stand for.

Each compiled read must send the very statement its queryset sends, with the same values, and
give back the same rows as the same models: every field converted as the ORM converts it (the
spec's JSON, times with their zone) and the joined objects in place, read without a query.
"""

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Exists, F, OuterRef
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from basislab.compiled_reads import CompiledRead
from courses.models import IdeaProgress, Note
from courses.services import copy_get_or_create
from grading.kinds import ProblemKind
from practice import selectors, services
from practice.models import Attempt, ProblemInstance

from .conftest import IDEA_SLUG, PAGE_SLUG


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _statements(run) -> tuple[list, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        result = list(run())
    return result, [q["sql"] for q in captured.captured_queries]


@pytest.fixture
def attempts(copy, problem, submit):
    submit(problem, "[1, 2]")
    submit(problem, "not an answer")
    return list(Attempt.objects.filter(problem=problem))


@pytest.mark.parametrize("in_copy", [True, False])
def test_a_compiled_problem_lookup_sends_the_querysets_statement_and_makes_the_same_models(
    learner, copy, problem, in_copy
):
    copy_id = copy.pk if in_copy else None
    args = (problem.pk, learner.pk, copy_id) if in_copy else (problem.pk, learner.pk)
    orm_rows, orm_sql = _statements(lambda: selectors._owned_problem(*args))
    compiled = selectors._PROBLEM_IN_COPY if in_copy else selectors._PROBLEM
    values = {"problem_id": problem.pk, "owner_id": learner.pk}
    if in_copy:
        values["copy_id"] = copy.pk
    rows, sql = _statements(lambda: compiled.rows(**values))
    assert sql == orm_sql
    assert [_fields(r) for r in rows] == [_fields(r) for r in orm_rows]
    assert isinstance(rows[0].spec, dict) and rows[0].spec == problem.spec
    with CaptureQueriesContext(connection) as more:
        assert _fields(rows[0].copy.version) == _fields(problem.copy.version)
    assert more.captured_queries == []


def test_a_compiled_attempt_lookup_joins_the_problem_its_copy_and_version(learner, copy, attempts):
    for attempt in attempts:
        orm = list(selectors._owned_attempt(attempt.pk, learner.pk, copy.pk))
        with CaptureQueriesContext(connection) as captured:
            got = selectors.access_attempt(user=learner, attempt_id=attempt.pk, copy_id=copy.pk)
            assert _fields(got) == _fields(orm[0]) == _fields(attempt)
            assert got.verdict == attempt.verdict and got.created_at == attempt.created_at
            assert got.created_at.tzinfo is not None
            assert _fields(got.problem) == _fields(orm[0].problem)
            assert got.copy is got.problem.copy
            assert got.problem.copy.version.pk == copy.version_id
        assert len(captured.captured_queries) == 1


def test_the_problem_attempts_are_the_querysets_newest_first_and_at_most_twenty(problem, submit):
    for index in range(selectors.PROBLEM_ATTEMPTS_SHOWN + 3):
        submit(problem, f"[{index}, 0]")
    query = Attempt.objects.filter(problem=problem).order_by("-created_at", "-pk")
    orm, orm_sql = _statements(lambda: query[: selectors.PROBLEM_ATTEMPTS_SHOWN])
    rows, sql = _statements(lambda: selectors.problem_attempts(problem=problem))
    assert sql == orm_sql
    assert [a.pk for a in rows] == [a.pk for a in orm]
    assert [_fields(a) for a in rows] == [_fields(a) for a in orm]
    assert len(rows) == selectors.PROBLEM_ATTEMPTS_SHOWN


def test_the_verdict_pages_attempt_comes_with_its_problems_list_in_one_statement(
    learner, copy, problem, submit
):
    for index in range(selectors.PROBLEM_ATTEMPTS_SHOWN + 3):
        submit(problem, f"[{index}, 0]")
    listed = selectors.problem_attempts(problem=problem)
    oldest_listed, newest = listed[-1], listed[0]
    older = Attempt.objects.filter(problem=problem).order_by("created_at", "pk").first()
    assert older.pk not in {a.pk for a in listed}
    for attempt, statements in ((newest, 1), (oldest_listed, 1), (older, 2)):
        beside = selectors._attempts_beside(attempt.pk, learner.pk, copy.pk)
        orm_sql = _statements(lambda beside=beside: beside)[1]
        with CaptureQueriesContext(connection) as captured:
            got, rows = selectors.access_attempt_listed(
                user=learner, attempt_id=attempt.pk, copy_id=copy.pk
            )
            assert got.copy is got.problem.copy
            assert got.problem.copy.version.pk == copy.version_id
        assert len(captured.captured_queries) == statements
        assert captured.captured_queries[0]["sql"] == orm_sql[0]
        alone = selectors.access_attempt(user=learner, attempt_id=attempt.pk, copy_id=copy.pk)
        assert _fields(got) == _fields(alone) and _fields(got.problem) == _fields(alone.problem)
        assert [a.pk for a in rows] == [a.pk for a in listed]
        assert [_fields(a) for a in rows] == [_fields(a) for a in listed]


def test_the_verdict_pages_read_finds_no_attempt_of_another_copy_or_learner(
    learner, other_learner, copy, problem, submit
):
    submit(problem, "[1, 2]")
    attempt = Attempt.objects.get(problem=problem)
    for user, attempt_id, copy_id in (
        (other_learner, attempt.pk, copy.pk),
        (learner, attempt.pk, copy.pk + 1),
        (learner, attempt.pk + 1000, copy.pk),
        (AnonymousUser(), attempt.pk, copy.pk),
    ):
        with pytest.raises(Http404):
            selectors.access_attempt_listed(user=user, attempt_id=attempt_id, copy_id=copy_id)


def test_another_learners_or_a_missing_id_is_not_found(learner, other_learner, copy, problem):
    for user, problem_id, copy_id in (
        (other_learner, problem.pk, copy.pk),
        (other_learner, problem.pk, None),
        (learner, problem.pk, copy.pk + 1),
        (learner, problem.pk + 1000, None),
    ):
        with pytest.raises(Http404):
            selectors.access_problem(user=user, problem_id=problem_id, copy_id=copy_id)
        with pytest.raises(Http404):
            selectors.access_attempt(user=user, attempt_id=problem_id, copy_id=copy_id)


def test_a_select_is_built_once_per_connection(problem):
    built = []

    def build(problem_id):
        built.append(problem_id)
        return ProblemInstance.objects.filter(pk=problem_id)

    compiled = CompiledRead(build, problem_id=int)
    assert [p.pk for p in compiled.rows(problem_id=problem.pk)] == [problem.pk]
    assert compiled.rows(problem_id=problem.pk + 1000) == []
    assert [p.pk for p in compiled.rows(problem_id=str(problem.pk))] == [problem.pk]
    assert len(built) == 1 and built[0] < 0  # the placeholder, never a real id


def test_a_string_value_is_bound_too(copy):
    Note.objects.create(copy=copy, page_slug="first-page", text="mine")
    compiled = CompiledRead(
        lambda copy_id, slug: Note.objects.filter(copy_id=copy_id, page_slug=slug),
        copy_id=int,
        slug=str,
    )
    assert [n.text for n in compiled.rows(copy_id=copy.pk, slug="first-page")] == ["mine"]
    assert compiled.rows(copy_id=copy.pk, slug="other-page") == []


@pytest.mark.django_db
def test_what_cannot_be_compiled_is_refused_with_the_reason():
    with pytest.raises(TypeError, match="int or str"):
        CompiledRead(lambda token: Attempt.objects.filter(form_token=token), token=uuid.UUID)
    rewritten = CompiledRead(lambda text: Attempt.objects.filter(text__contains=text), text=str)
    with pytest.raises(ValueError, match=r"does not bind \['text'\]"):
        rewritten.rows(text="1")
    values = CompiledRead(lambda pk: Attempt.objects.filter(pk=pk).values("text"), pk=int)
    with pytest.raises(ValueError, match="not values"):
        values.rows(pk=1)
    plain = CompiledRead(lambda pk: Attempt.objects.filter(pk=pk), pk=int)
    with pytest.raises(TypeError, match="expected values for"):
        plain.rows(id=1)


def test_the_open_problem_of_an_idea_and_kind_is_the_newest_open_one_of_this_copy(
    copy, problem, other_learner
):

    def open_one(of_copy, kind=ProblemKind.WEIGHTED_SUM):
        return services._open_problem(
            copy=of_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind=kind
        )

    assert open_one(copy) == problem
    assert open_one(copy, ProblemKind.CONTRAST) is None
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    assert fresh.pk != problem.pk and open_one(copy) == fresh
    theirs = copy_get_or_create(user=other_learner, course_slug=copy.course.slug)
    assert open_one(theirs) is None


def test_a_new_problem_is_made_at_the_learners_level_on_the_idea(copy):

    def level() -> int:
        return services._current_level(
            copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind=ProblemKind.WEIGHTED_SUM
        )

    low, high = services._level_bounds(ProblemKind.WEIGHTED_SUM)
    assert level() == low
    row = IdeaProgress.objects.create(copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG)
    for stored, expected in ((low + 1, min(low + 1, high)), (high + 5, high)):
        row.level = stored
        row.save(update_fields=["level"])
        assert level() == expected
    IdeaProgress.objects.create(copy=copy, page_slug=PAGE_SLUG, idea_slug="one-row", level=high)
    row.level = low
    row.save(update_fields=["level"])
    assert level() == low


@pytest.mark.django_db
def test_a_placeholder_the_orm_drops_as_out_of_range_is_refused_by_name():
    # A positive field: the ORM drops a negative value before any SQL, so no placeholder fits.
    counted = CompiledRead(lambda n: Attempt.objects.filter(problem__level=n), n=int)
    with pytest.raises(ValueError, match="out of a field's range"):
        counted.rows(n=1)


@pytest.mark.django_db
def test_placeholders_fit_a_32_bit_id():
    from django.contrib.auth import get_user_model

    users = CompiledRead(lambda pk: get_user_model().objects.filter(pk=pk), pk=int)
    assert users.rows(pk=1) == list(get_user_model().objects.filter(pk=1))


def test_an_annotation_comes_with_its_model_converted_as_the_orm_does(problem, submit):
    submit(problem, "[1, 2]")
    submit(problem, "[3, 4]")

    def build(problem_id):
        later = Attempt.objects.filter(problem_id=OuterRef("problem_id"), pk__gt=OuterRef("pk"))
        return (
            Attempt.objects.filter(problem_id=problem_id)
            .annotate(superseded=Exists(later), twice=F("pk") * 2)
            .order_by("pk")
        )

    compiled = CompiledRead(build, problem_id=int)
    rows, sql = _statements(lambda: compiled.rows(problem_id=problem.pk))
    orm, orm_sql = _statements(lambda: build(problem.pk))
    assert sql == orm_sql
    assert [(a.pk, a.superseded, a.twice) for a in rows] == [
        (a.pk, a.superseded, a.twice) for a in orm
    ]
    assert [a.superseded for a in rows] == [True, False]  # booleans, on SQLite too
