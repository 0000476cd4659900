"""Write paths for courses: one service per action, each owning its transaction."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.http import Http404
from django.utils import timezone

from .graph import graph_to_json
from .loader import CourseSource, read_course
from .models import (
    FIRST_LEVEL,
    LEVEL_UP_STREAK,
    Answer,
    Course,
    CourseCopy,
    CourseVersion,
    Idea,
    IdeaProgress,
    Note,
    Page,
)


@dataclass(frozen=True)
class LoadResult:
    version: CourseVersion
    created: bool
    # (page slug, idea slug) of the previous version that this one no longer has: learners'
    # history of them is kept but no longer shown, so a rename by mistake is worth a warning.
    removed_ideas: tuple[tuple[str, str], ...] = ()


def course_load(*, directory: Path | str) -> LoadResult:
    """Load an authored course directory; a new version only when the content changed.

    The files are read and validated in full before anything is written (a malformed file
    raises ``courses.loader.CourseSourceError``), and the rows are written in one transaction.
    """
    return course_source_save(source=read_course(directory))


def course_source_save(*, source: CourseSource) -> LoadResult:
    """Store validated course content as the course's next version, unless it equals the latest."""
    content_hash = source.content_hash
    with transaction.atomic():
        course, _ = Course.objects.get_or_create(slug=source.slug, defaults={"title": source.title})
        # Lock the course row so two loads at once cannot both take the next number.
        course = Course.objects.select_for_update().get(pk=course.pk)
        latest = course.latest_version()
        if latest is not None and latest.content_hash == content_hash:
            return LoadResult(version=latest, created=False)
        if course.title != source.title:
            course.title = source.title
            course.save(update_fields=["title"])
        version = CourseVersion.objects.create(
            course=course,
            number=(latest.number + 1) if latest else 1,
            content_hash=content_hash,
            title=source.title,
            summary=source.summary,
            credit_graph=graph_to_json(source.graph),
        )
        _version_rows_create(version=version, source=source)
    removed: tuple[tuple[str, str], ...] = ()
    if latest is not None:
        before = set(Idea.objects.filter(page__version=latest).values_list("page__slug", "slug"))
        now = {(page.slug, idea.slug) for page in source.pages for idea in page.ideas}
        removed = tuple(sorted(before - now))
    return LoadResult(version=version, created=True, removed_ideas=removed)


def _version_rows_create(*, version: CourseVersion, source: CourseSource) -> None:
    """Write the pages, ideas and answers of a new course version (inside its transaction)."""
    pages: dict[str, Page] = {}
    for order, page_source in enumerate(source.pages, start=1):
        page = pages[page_source.slug] = Page.objects.create(
            version=version,
            slug=page_source.slug,
            title=page_source.title,
            order=order,
            question=page_source.question,
            summary=page_source.summary,
            body=page_source.body,
        )
        Idea.objects.bulk_create(
            Idea(
                page=page,
                slug=idea.slug,
                title=idea.title,
                order=order,
                summary=idea.summary,
                problem_kinds=list(idea.problem_kinds),
            )
            for order, idea in enumerate(page_source.ideas, start=1)
        )
    Answer.objects.bulk_create(
        Answer(
            version=version,
            page=pages[answer.page],
            slug=answer.slug,
            order=order,
            question=answer.question,
            summary=answer.summary,
            body=answer.body,
            worth_keeping=list(answer.worth_keeping),
            related=list(answer.related),
        )
        for order, answer in enumerate(source.answers, start=1)
    )


# The progress row's columns as the upsert in ``progress_record`` inserts them.
_PROGRESS_COLUMNS = (
    "copy",
    "page_slug",
    "idea_slug",
    "attempts",
    "correct",
    "streak",
    "level",
    "updated_at",
)


def _progress_counted(
    *, attempts: int, correct: int, streak: int, level: int, right: bool, max_level: int | None
) -> tuple[int, int, int, int]:
    """Return (attempts, correct, streak, level) after one more marked attempt; the upsert in
    ``progress_record`` computes the same in SQL."""
    attempts += 1
    if not right:
        return attempts, correct, 0, level
    correct, streak = correct + 1, streak + 1
    if streak >= LEVEL_UP_STREAK and (max_level is None or level < max_level):
        level, streak = level + 1, 0
    return attempts, correct, streak, max(level, FIRST_LEVEL)


def _progress_sets(
    old: Callable[[str], str], *, correct: bool, max_level: int | None
) -> tuple[dict[str, str], list[object]]:
    """Return the SQL each counted column is set to when the idea's row exists (``old`` names
    a column's current value), and the parameters those expressions take, in order."""
    if not correct:
        return {"correct": old("correct"), "streak": "0", "level": old("level")}, []
    # The level rises when this answer completes a streak (and the level may still rise).
    up = f"{old('streak')} + 1 >= %s"
    params: list[object] = [LEVEL_UP_STREAK]
    if max_level is not None:
        up += f" AND {old('level')} < %s"
        params.append(max_level)
    sets = {
        "correct": f"{old('correct')} + 1",
        "streak": f"CASE WHEN {up} THEN 0 ELSE {old('streak')} + 1 END",
        "level": f"CASE WHEN {up} THEN {old('level')} + 1 ELSE {old('level')} END",
    }
    return sets, params * 2  # the condition appears twice


def _progress_upsert(*, correct: bool, max_level: int | None) -> tuple[str, list[object]]:
    """Return the upsert of ``progress_record`` and the parameters of its update part (the
    inserted row's values and the two ``updated_at`` go around them)."""
    meta = IdeaProgress._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    column = {name: quote(meta.get_field(name).column) for name in _PROGRESS_COLUMNS}
    sets, params = _progress_sets(
        lambda name: f"{table}.{column[name]}", correct=correct, max_level=max_level
    )
    # Only quoted names and fixed SQL are spliced in; every value is a parameter.
    names = ", ".join(column[name] for name in _PROGRESS_COLUMNS)
    sql = (
        f"INSERT INTO {table} ({names}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(_PROGRESS_COLUMNS))}) "
        f"ON CONFLICT ({column['copy']}, {column['page_slug']}, {column['idea_slug']}) "
        f"DO UPDATE SET {column['attempts']} = {table}.{column['attempts']} + 1, "
        f"{column['correct']} = {sets['correct']}, {column['streak']} = {sets['streak']}, "
        f"{column['level']} = {sets['level']}, {column['updated_at']} = %s "
        f"RETURNING {quote(meta.pk.column)}, {column['attempts']}, {column['correct']}, "
        f"{column['streak']}, {column['level']}"
    )
    return sql, params


class ProgressUpsert(NamedTuple):
    """The one statement ``progress_record`` runs, its values, and the time it stamps."""

    sql: str
    params: list[object]
    at: datetime


def progress_statement(
    *, copy_id: int, page_slug: str, idea_slug: str, correct: bool, max_level: int | None
) -> ProgressUpsert:
    """Return the statement ``progress_record`` runs for one marked attempt.

    It ends with its ``RETURNING`` list (the row's id, attempts, correct, streak and level, in
    that order).
    """
    now = timezone.now()
    first = _progress_counted(
        attempts=0, correct=0, streak=0, level=FIRST_LEVEL, right=correct, max_level=max_level
    )
    sql, params = _progress_upsert(correct=correct, max_level=max_level)
    updated_at = IdeaProgress._meta.get_field("updated_at").get_db_prep_value(now, connection)
    values = [copy_id, page_slug, idea_slug, *first, updated_at, *params, updated_at]
    return ProgressUpsert(sql, values, now)


def progress_record(
    *,
    copy: CourseCopy,
    page_slug: str,
    idea_slug: str,
    correct: bool,
    max_level: int | None = None,
) -> IdeaProgress:
    """Count one marked attempt on an idea and return the updated progress row.

    Every ``LEVEL_UP_STREAK`` consecutive correct answers raise the level by one (never above
    ``max_level`` when given); a wrong answer resets the streak but keeps the level.
    One statement: an insert that, when the idea's row exists, updates it from its own current
    values instead (``ON CONFLICT ... DO UPDATE``, on PostgreSQL and SQLite). The row stays
    locked until the caller's transaction ends, and two concurrent first answers on an idea
    cannot both insert: the second waits and updates.
    """
    upsert = progress_statement(
        copy_id=copy.pk,
        page_slug=page_slug,
        idea_slug=idea_slug,
        correct=correct,
        max_level=max_level,
    )
    with connection.cursor() as cursor:
        cursor.execute(upsert.sql, upsert.params)
        pk, attempts, right, streak, level = cursor.fetchone()
    # A row as the database holds it (Django's own constructor for loaded rows), with the copy
    # in hand kept on it.
    row = {
        "id": pk,
        "copy_id": copy.pk,
        "page_slug": page_slug,
        "idea_slug": idea_slug,
        "attempts": attempts,
        "correct": right,
        "streak": streak,
        "level": level,
        "updated_at": upsert.at,
    }
    fields = IdeaProgress._meta.concrete_fields
    progress = IdeaProgress.from_db(
        connection.alias, [f.attname for f in fields], [row[f.attname] for f in fields]
    )
    progress.copy = copy
    return progress


def note_save(*, copy: CourseCopy, page_slug: str, text: str) -> Note:
    """Save the learner's note on a page (one note per page), replacing the earlier text."""
    with transaction.atomic():
        note, created = Note.objects.select_for_update().get_or_create(
            copy=copy, page_slug=page_slug, defaults={"text": text}
        )
        if not created and note.text != text:
            note.text = text
            note.save(update_fields=["text", "updated_at"])
    return note


def copy_upgrade(*, copy: CourseCopy) -> CourseCopy:
    """Move the copy to its course's newest version, keeping every progress row and note.

    History is keyed by page and idea slugs, so nothing is rewritten: ideas that still exist
    find their rows again, and rows of ideas that vanished stay in the database unshown.
    """
    with transaction.atomic():
        locked = CourseCopy.objects.select_for_update().get(pk=copy.pk)
        latest = locked.course.latest_version()
        if latest is not None and latest.number > locked.version.number:
            locked.version = latest
            locked.upgraded_at = timezone.now()
            locked.save(update_fields=["version", "upgraded_at"])
    copy.version = locked.version
    copy.upgraded_at = locked.upgraded_at
    return copy


def copy_get_or_create(*, user: AbstractBaseUser, course_slug: str) -> CourseCopy:
    """Return the user's copy of the course, creating it on the newest version on first visit.

    Raises Http404 when the course does not exist or has no loaded version yet.
    """
    course = Course.objects.filter(slug=course_slug).first()
    if course is None:
        raise Http404("No such course")
    existing = (
        CourseCopy.objects.select_related("course", "version").filter(owner=user, course=course)
    ).first()
    if existing is not None:
        return existing
    version = course.latest_version()
    if version is None:
        raise Http404("The course has not been loaded yet")
    try:
        with transaction.atomic():
            return CourseCopy.objects.create(owner=user, course=course, version=version)
    except IntegrityError:
        # Two first visits at once: the other request created it.
        return CourseCopy.objects.select_related("course", "version").get(owner=user, course=course)
