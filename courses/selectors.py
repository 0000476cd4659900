"""Reads that need care: permission-checked lookups of a learner's course copy."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from .models import CourseCopy, CourseVersion, IdeaProgress, Note, Page


def access_copy(*, user: AbstractBaseUser | AnonymousUser, copy_id: int) -> CourseCopy:
    """Return the copy with this id if the user owns it; raise Http404 otherwise.

    Another learner's copy and a copy that does not exist look the same from outside.
    """
    if not user.is_authenticated:
        raise Http404("No such course copy")
    try:
        return CourseCopy.objects.select_related("course", "version").get(pk=copy_id, owner=user)
    except CourseCopy.DoesNotExist:
        raise Http404("No such course copy") from None


def copy_page(*, copy: CourseCopy, page_slug: str) -> Page:
    """Return the page of the copy's version with this slug, with its ideas; raise Http404."""
    page = copy.version.pages.prefetch_related("ideas").filter(slug=page_slug).first()
    if page is None:
        raise Http404("No such page")
    return page


def copy_progress(*, copy: CourseCopy) -> dict[tuple[str, str], IdeaProgress]:
    """Return the copy's progress rows keyed by (page slug, idea slug)."""
    return {(p.page_slug, p.idea_slug): p for p in IdeaProgress.objects.filter(copy=copy)}


def copy_note_text(*, copy: CourseCopy, page_slug: str) -> str:
    """Return the learner's note on the page, or an empty string."""
    note = Note.objects.filter(copy=copy, page_slug=page_slug).first()
    return note.text if note else ""


def copy_newer_version(*, copy: CourseCopy) -> CourseVersion | None:
    """Return the course's newest version when it is newer than the copy's, else None."""
    latest = copy.course.latest_version()
    if latest is not None and latest.number > copy.version.number:
        return latest
    return None


def copies_of(*, user: AbstractBaseUser) -> list[CourseCopy]:
    """Return the learner's course copies, with their courses."""
    return list(CourseCopy.objects.filter(owner=user).select_related("course").order_by("pk"))


def version_pages(*, version_id: int) -> list[Page]:
    """Return the pages of a course version in course order (slug, title and order only)."""
    return list(
        Page.objects.filter(version_id=version_id).order_by("order").only("slug", "title", "order")
    )
