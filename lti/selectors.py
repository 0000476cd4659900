"""Reads of the LTI app: the instructor's own context, and the class view's rows."""

from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from courses.labels import kind_label
from courses.models import CourseCopy, Idea, IdeaProgress
from grading.kinds import Status
from practice.labels import mistake_label
from practice.models import Attempt

from .models import Context, Membership, RosterEntry

EXAMPLES_PER_MISTAKE = 2
MISTAKES_PER_KIND = 3


def access_context(*, user: AbstractBaseUser | AnonymousUser, context_id: int) -> Context:
    """Return the context if the user launched into it as an instructor; raise Http404."""
    if not user.is_authenticated:
        raise Http404("No such class")
    context = (
        Context.objects.select_related("platform")
        .filter(
            pk=context_id,
            members__lti_user__user=user,
            members__instructor=True,
        )
        .first()
    )
    if context is None:
        raise Http404("No such class")
    return context


@dataclass(frozen=True)
class IdeaColumn:
    page_slug: str
    idea_slug: str
    title: str


@dataclass(frozen=True)
class LearnerRow:
    name: str
    sub: str
    launched: bool
    # (correct, attempts, percent) per column, in column order.
    cells: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class MistakeRow:
    kind: str
    kind_label: str
    mistake: str
    label: str
    count: int
    examples: tuple[str, ...]


def class_columns(*, context: Context) -> list[IdeaColumn]:
    """Return the ideas the class view shows: those the context's links name (a page link names
    its practised ideas), or every practised idea of the course when it has no link yet."""
    ideas = (
        Idea.objects.filter(page__version__course__slug=settings.BASISLAB_COURSE_SLUG)
        .select_related("page", "page__version")
        .order_by("-page__version__number", "page__order", "order")
    )
    newest = ideas.first()
    if newest is None:
        return []
    ideas = [idea for idea in ideas.filter(page__version=newest.page.version) if idea.problem_kinds]
    links = list(context.links.values_list("page_slug", "idea_slug"))
    if links:
        wanted_pages = {page for page, idea in links if not idea}
        wanted_ideas = set(links)
        ideas = [
            idea
            for idea in ideas
            if idea.page.slug in wanted_pages or (idea.page.slug, idea.slug) in wanted_ideas
        ]
    return [IdeaColumn(idea.page.slug, idea.slug, idea.title) for idea in ideas]


def class_learners(*, context: Context) -> list[Membership]:
    """Return the context's learners who launched (not its instructors), by name."""
    return list(
        Membership.objects.filter(context=context, instructor=False)
        .select_related("lti_user")
        .order_by("lti_user__name", "lti_user__sub")
    )


def class_rows(*, context: Context, columns: list[IdeaColumn]) -> list[LearnerRow]:
    """Return one row per learner (launched, then roster-only), with progress per column."""
    members = class_learners(context=context)
    user_ids = [member.lti_user.user_id for member in members]
    progress: dict[tuple[int, str, str], IdeaProgress] = {
        (row.copy.owner_id, row.page_slug, row.idea_slug): row
        for row in IdeaProgress.objects.filter(
            copy__owner_id__in=user_ids, copy__course__slug=settings.BASISLAB_COURSE_SLUG
        ).select_related("copy")
    }
    rows = []
    for member in members:
        cells = []
        for column in columns:
            found = progress.get((member.lti_user.user_id, column.page_slug, column.idea_slug))
            cells.append(
                (found.correct, found.attempts, round(found.fraction * 100)) if found else (0, 0, 0)
            )
        rows.append(
            LearnerRow(
                member.lti_user.name or member.lti_user.sub, member.lti_user.sub, True, tuple(cells)
            )
        )
    launched = {member.lti_user.sub for member in members}
    empty = tuple((0, 0, 0) for _ in columns)
    for entry in RosterEntry.objects.filter(context=context).order_by("name", "sub"):
        if entry.sub in launched or any("Instructor" in role for role in entry.roles):
            continue
        rows.append(LearnerRow(entry.name or entry.sub, entry.sub, False, empty))
    return rows


def class_mistakes(*, context: Context) -> list[MistakeRow]:
    """Return the class's most frequent named mistakes per kind, each with newest examples."""
    user_ids = [member.lti_user.user_id for member in class_learners(context=context)]
    attempts = Attempt.objects.filter(
        copy__owner_id__in=user_ids,
        copy__course__slug=settings.BASISLAB_COURSE_SLUG,
        status=Status.INCORRECT.value,
        mistake__isnull=False,
    )
    counts = Counter(
        {
            (row["problem__kind"], row["mistake"]): row["n"]
            for row in attempts.values("problem__kind", "mistake")
            .annotate(n=Count("id"))
            .order_by()
        }
    )
    examples: dict[tuple[str, str], list[str]] = {}
    ranked = attempts.annotate(
        rank=Window(
            expression=RowNumber(),
            partition_by=[F("problem__kind"), F("mistake")],
            order_by=[F("created_at").desc(), F("pk").desc()],
        )
    ).filter(rank__lte=EXAMPLES_PER_MISTAKE)
    for kind, mistake, text in ranked.values_list("problem__kind", "mistake", "text"):
        examples.setdefault((kind, mistake), []).append(text)
    per_kind: dict[str, list[MistakeRow]] = {}
    for (kind, mistake), count in counts.most_common():
        rows = per_kind.setdefault(kind, [])
        if len(rows) < MISTAKES_PER_KIND:
            rows.append(
                MistakeRow(
                    kind=kind,
                    kind_label=kind_label(kind),
                    mistake=mistake,
                    label=mistake_label(mistake, kind),
                    count=count,
                    examples=tuple(examples.get((kind, mistake), ())),
                )
            )
    return [row for kind in sorted(per_kind) for row in per_kind[kind]]


def learner_copy(*, user: AbstractBaseUser) -> CourseCopy | None:
    """Return the user's copy of the site's course, or None."""
    return CourseCopy.objects.filter(owner=user, course__slug=settings.BASISLAB_COURSE_SLUG).first()
