"""Write paths for courses: one service per action, each owning its transaction."""

from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
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
    removed: tuple[tuple[str, str], ...] = ()
    if latest is not None:
        before = set(Idea.objects.filter(page__version=latest).values_list("page__slug", "slug"))
        now = {(page.slug, idea.slug) for page in source.pages for idea in page.ideas}
        removed = tuple(sorted(before - now))
    return LoadResult(version=version, created=True, removed_ideas=removed)


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
    Inside a caller's transaction (an attempt's) it adds no savepoint of its own: no caller
    recovers from an error here, which rolls the caller's transaction back as a whole.
    """
    with transaction.atomic(savepoint=False):
        progress, _ = IdeaProgress.objects.select_for_update().get_or_create(
            copy=copy, page_slug=page_slug, idea_slug=idea_slug
        )
        progress.attempts += 1
        if correct:
            progress.correct += 1
            progress.streak += 1
            if progress.streak >= LEVEL_UP_STREAK and (
                max_level is None or progress.level < max_level
            ):
                progress.level += 1
                progress.streak = 0
        else:
            progress.streak = 0
        progress.level = max(progress.level, FIRST_LEVEL)
        progress.save(update_fields=["attempts", "correct", "streak", "level", "updated_at"])
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
