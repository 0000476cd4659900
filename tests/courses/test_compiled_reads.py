"""The copy's compiled reads (basislab.compiled_reads) against the querysets they stand for: the
same statement with the same values, the same rows as the same models, the joins in place."""

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from courses import selectors
from courses.models import CourseCopy, IdeaProgress, Note


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _run(read) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        result = read()
    return result, [q["sql"] for q in captured.captured_queries]


def test_the_copy_is_the_querysets_with_its_course_and_version_joined(course_copy, learner):
    query = CourseCopy.objects.select_related("course", "version")
    orm, orm_sql = _run(lambda: list(query.filter(pk=course_copy.pk, owner_id=learner.pk)))
    copy, sql = _run(lambda: selectors.access_copy(user=learner, copy_id=course_copy.pk))
    assert sql == orm_sql
    assert _fields(copy) == _fields(orm[0])
    with CaptureQueriesContext(connection) as more:
        assert _fields(copy.course) == _fields(orm[0].course)
        assert _fields(copy.version) == _fields(orm[0].version)
    assert more.captured_queries == []


def test_another_learners_copy_or_a_missing_one_is_not_found(course_copy, other_learner, learner):
    for user, copy_id in ((other_learner, course_copy.pk), (learner, course_copy.pk + 1000)):
        with pytest.raises(Http404):
            selectors.access_copy(user=user, copy_id=copy_id)
        with pytest.raises(Http404):
            selectors.access_copy_noted(user=user, copy_id=copy_id, page_slug="first-page")


def test_progress_and_the_note_are_the_querysets_rows(course_copy, learner, make_user):
    for idea in ("one-row", "weighted-sum"):
        IdeaProgress.objects.create(
            copy=course_copy, page_slug="first-page", idea_slug=idea, attempts=3, correct=2
        )
    Note.objects.create(copy=course_copy, page_slug="first-page", text="mine <b>")
    stranger = make_user(username="stranger")
    other = CourseCopy.objects.create(
        owner=stranger, course=course_copy.course, version=course_copy.version
    )
    Note.objects.create(copy=other, page_slug="first-page", text="theirs")
    orm, orm_sql = _run(lambda: list(IdeaProgress.objects.filter(copy_id=course_copy.pk)))
    progress, sql = _run(lambda: selectors.copy_progress(copy=course_copy))
    assert sql == orm_sql
    assert sorted(map(_fields, progress.values()), key=str) == sorted(map(_fields, orm), key=str)
    assert set(progress) == {("first-page", "one-row"), ("first-page", "weighted-sum")}
    for user, copy, page_slug, text in (
        (learner, course_copy, "first-page", "mine <b>"),
        (stranger, other, "first-page", "theirs"),
        (learner, course_copy, "second-page", ""),
    ):
        (noted, note_text), sql = _run(
            lambda user=user, copy=copy, page_slug=page_slug: selectors.access_copy_noted(
                user=user, copy_id=copy.pk, page_slug=page_slug
            )
        )
        assert note_text == text and len(sql) == 1
        # The copy itself as access_copy reads it, course and version joined.
        alone = selectors.access_copy(user=user, copy_id=copy.pk)
        assert _fields(noted) == _fields(alone)
        with CaptureQueriesContext(connection) as more:
            assert _fields(noted.version) == _fields(alone.version)
            assert _fields(noted.course) == _fields(alone.course)
        assert more.captured_queries == []


def test_the_copy_with_its_note_is_the_querysets_statement(course_copy, learner):
    Note.objects.create(copy=course_copy, page_slug="first-page", text="mine")
    query = selectors._owned_copy_noted(course_copy.pk, learner.pk, "first-page")
    orm, orm_sql = _run(lambda: list(query))
    (copy, text), sql = _run(
        lambda: selectors.access_copy_noted(
            user=learner, copy_id=course_copy.pk, page_slug="first-page"
        )
    )
    assert sql == orm_sql and text == orm[0].note_text == "mine"
    assert _fields(copy) == _fields(orm[0])
