"""Reads that need care: permission-checked lookups of a learner's course copy."""

from datetime import datetime
from functools import lru_cache

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404

from basislab.compiled_reads import CompiledRead

from .graph import CreditEdge, credit_targets, graph_from_json
from .models import CourseCopy, CourseVersion, Idea, IdeaProgress, Note, Page


# Reads every page of a copy makes, built by the ORM once per process (basislab.compiled_reads).
def _owned_copy(copy_id: int, owner_id: int) -> QuerySet:
    return CourseCopy.objects.select_related("course", "version").filter(
        pk=copy_id, owner_id=owner_id
    )


def _owned_copy_noted(copy_id: int, owner_id: int, page_slug: str) -> QuerySet:
    # With the learner's note on one page (at most one a page: unique per copy and page), NULL
    # when there is none.
    notes = Note.objects.filter(copy_id=OuterRef("pk"), page_slug=page_slug).values("text")[:1]
    return _owned_copy(copy_id, owner_id).annotate(note_text=Subquery(notes))


_COPY = CompiledRead(_owned_copy, copy_id=int, owner_id=int)
_COPY_NOTED = CompiledRead(_owned_copy_noted, copy_id=int, owner_id=int, page_slug=str)


def access_copy(*, user: AbstractBaseUser | AnonymousUser, copy_id: int) -> CourseCopy:
    """Return the copy with this id if the user owns it; raise Http404 otherwise.

    Another learner's copy and a copy that does not exist look the same from outside.
    """
    if not user.is_authenticated:
        raise Http404("No such course copy")
    rows = _COPY.rows(copy_id=copy_id, owner_id=user.pk)
    if not rows:
        raise Http404("No such course copy")
    return rows[0]


def access_copy_noted(
    *, user: AbstractBaseUser | AnonymousUser, copy_id: int, page_slug: str
) -> tuple[CourseCopy, str]:
    """Return the copy as ``access_copy`` does, with the learner's note on the page (an empty
    string when there is none), in one statement."""
    if not user.is_authenticated:
        raise Http404("No such course copy")
    rows = _COPY_NOTED.rows(copy_id=copy_id, owner_id=user.pk, page_slug=page_slug)
    if not rows:
        raise Http404("No such course copy")
    return rows[0], rows[0].note_text or ""


# A stored course version never changes (new content makes a new version), so its pages are
# read once per process. The key holds the content hash and the creation time besides the id:
# an id used again (a database rebuilt, a test's rolled-back version) never finds old pages.
VersionKey = tuple[int, str, datetime]


def _version_key(version: CourseVersion) -> VersionKey:
    return (version.pk, version.content_hash, version.created_at)


@lru_cache(maxsize=512)
def _version_page(key: VersionKey, page_slug: str) -> Page:
    # Raises for a missing slug: an exception is not cached, so unknown slugs fill nothing.
    page = Page.objects.filter(version_id=key[0], slug=page_slug).prefetch_related("ideas").first()
    if page is None:
        raise Http404("No such page")
    return page


@lru_cache(maxsize=64)
def _version_pages(key: VersionKey) -> tuple[Page, ...]:
    return tuple(
        Page.objects.filter(version_id=key[0]).order_by("order").only("slug", "title", "order")
    )


@lru_cache(maxsize=64)
def _version_ideas(key: VersionKey) -> tuple[Idea, ...]:
    return tuple(
        Idea.objects.filter(page__version_id=key[0])
        .select_related("page")
        .order_by("page__order", "order")
    )


@lru_cache(maxsize=64)
def _version_outline(key: VersionKey) -> tuple[Page, ...]:
    return tuple(Page.objects.filter(version_id=key[0]).order_by("order").prefetch_related("ideas"))


def copy_page(*, copy: CourseCopy, page_slug: str) -> Page:
    """Return the page of the copy's version with this slug, with its ideas; raise Http404.

    Read once per process and version (a version never changes); treat the page as read-only.
    """
    return _version_page(_version_key(copy.version), page_slug)


def copy_pages(*, copy: CourseCopy) -> tuple[Page, ...]:
    """Return the pages of the copy's version in course order (slug, title and order only).

    Read once per process and version, as ``copy_page``; treat them as read-only.
    """
    return _version_pages(_version_key(copy.version))


def copy_outline(*, copy: CourseCopy) -> tuple[Page, ...]:
    """Return every page of the copy's version in course order, whole, with its ideas.

    Read once per process and version, as ``copy_page``; treat them as read-only.
    """
    return _version_outline(_version_key(copy.version))


def copy_ideas(*, copy: CourseCopy) -> tuple[Idea, ...]:
    """Return every idea of the copy's version with its page, in course order (page, idea).

    One query, read once per process and version, as ``copy_page``; treat them as read-only.
    """
    return _version_ideas(_version_key(copy.version))


@lru_cache(maxsize=64)
def _version_graph(key: VersionKey) -> tuple[CreditEdge, ...]:
    stored = CourseVersion.objects.filter(pk=key[0]).values_list("credit_graph", flat=True).first()
    return graph_from_json(stored)


@lru_cache(maxsize=1024)
def _version_credit_targets(
    key: VersionKey, kind: str
) -> tuple[tuple[tuple[str, str | None], float], ...]:
    return tuple(credit_targets(_version_graph(key), kind).items())


def copy_credit_graph(*, copy: CourseCopy) -> tuple[CreditEdge, ...]:
    """Return the credit graph's edges of the copy's version, read once per process and
    version (``courses.graph``)."""
    return _version_graph(_version_key(copy.version))


def copy_credit_targets(*, copy: CourseCopy, kind: str) -> dict[tuple[str, str | None], float]:
    """Return what a right answer to ``kind`` credits down the copy's version's graph
    (``courses.graph.credit_targets``), worked out once per process, version and kind; the
    dict is the caller's own."""
    return dict(_version_credit_targets(_version_key(copy.version), kind))


def version_caches_clear(**_kwargs: object) -> None:
    """Forget every version read above. A stored version never changes in the site; this is
    for whatever saves one again (a test, the admin) in this process."""
    for cached in (
        _version_page,
        _version_pages,
        _version_ideas,
        _version_outline,
        _version_graph,
        _version_credit_targets,
    ):
        cached.cache_clear()


def copy_progress(*, copy: CourseCopy) -> dict[tuple[str, str], IdeaProgress]:
    """Return the copy's progress rows keyed by (page slug, idea slug)."""
    return {(p.page_slug, p.idea_slug): p for p in IdeaProgress.objects.filter(copy_id=copy.pk)}


def copy_newer_version(*, copy: CourseCopy) -> CourseVersion | None:
    """Return the course's newest version when it is newer than the copy's, else None."""
    latest = copy.course.latest_version()
    if latest is not None and latest.number > copy.version.number:
        return latest
    return None


def copies_of(*, user: AbstractBaseUser) -> list[CourseCopy]:
    """Return the learner's course copies, with their courses."""
    return list(CourseCopy.objects.filter(owner=user).select_related("course").order_by("pk"))


def export_copies(*, user: AbstractBaseUser) -> list[CourseCopy]:
    """Return the user's course copies with their versions, for the account pages' exports
    (named by the setting ``ACCOUNTS_COPIES``)."""
    return list(CourseCopy.objects.filter(owner=user).select_related("version").order_by("pk"))
