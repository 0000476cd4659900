"""Reads of the LTI app: the instructor's own context, and the class view's rows."""

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from courses.labels import kind_label
from courses.models import CourseCopy, Idea, IdeaProgress, Page
from grading.kinds import Status
from practice.labels import mistake_label
from practice.models import Attempt

from .claims import role_access
from .models import Context, Membership, ResourceLink, RosterEntry

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


def access_link(*, user: AbstractBaseUser | AnonymousUser, link_id: int) -> ResourceLink:
    """Return the link if the user launched into its context as an instructor; raise Http404."""
    if not user.is_authenticated:
        raise Http404("No such link")
    link = (
        ResourceLink.objects.select_related("context")
        .filter(
            pk=link_id,
            context__members__lti_user__user=user,
            context__members__instructor=True,
        )
        .first()
    )
    if link is None:
        raise Http404("No such link")
    return link


@dataclass(frozen=True)
class LinkRow:
    link: ResourceLink
    # What the link shows, in words ("" for a link not set up yet).
    shows: str


def context_links(*, context: Context) -> list[LinkRow]:
    """Return the context's links with what each shows (titles from the course's newest
    version), those not set up yet first, then by title."""
    links = sorted(
        context.links.all(), key=lambda link: (link.set_up, link.title, link.resource_link_id)
    )
    titles: dict[tuple[str, str], str] = {}
    slugs = {link.page_slug for link in links if link.page_slug}
    for page in (
        Page.objects.filter(version__course__slug=settings.BASISLAB_COURSE_SLUG, slug__in=slugs)
        .prefetch_related("ideas")
        .order_by("version__number")
    ):
        titles[(page.slug, "")] = page.title
        titles.update({(page.slug, idea.slug): idea.title for idea in page.ideas.all()})
    rows = []
    for link in links:
        title = titles.get((link.page_slug, link.idea_slug), link.idea_slug or link.page_slug)
        if link.target == ResourceLink.Target.COURSE:
            shows = str(_("the whole course"))
        elif link.target == ResourceLink.Target.IDEA:
            shows = str(_("Idea: %(title)s") % {"title": title})
        elif link.target == ResourceLink.Target.PAGE:
            shows = str(_("Page: %(title)s") % {"title": title})
        else:
            shows = ""
        rows.append(LinkRow(link, shows))
    return rows


@dataclass(frozen=True)
class IdeaColumn:
    page_slug: str
    idea_slug: str
    title: str


class Standing(StrEnum):
    """A learner's place in the class by the latest roster: only active learners are counted."""

    ACTIVE = "active"
    LEFT = "left"  # the latest roster answer no longer lists them (or lists them as Deleted)
    INACTIVE = "inactive"  # listed with the NRPS status Inactive


STANDING_LABELS = {
    Standing.ACTIVE: "",
    Standing.LEFT: _("left the course"),
    Standing.INACTIVE: _("inactive"),
}


@dataclass(frozen=True)
class LearnerRow:
    name: str
    sub: str
    launched: bool
    # (correct, attempts, percent) per column, in column order.
    cells: tuple[tuple[int, int, int], ...]
    standing: Standing = Standing.ACTIVE

    @property
    def standing_label(self) -> str:
        return str(STANDING_LABELS[self.standing])


@dataclass(frozen=True)
class ClassCounts:
    """The class's head counts: ``learners`` and ``started`` count active learners only."""

    learners: int
    started: int
    left: int
    inactive: int


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
    its practised ideas), or every practised idea of the course when it has no link set up yet
    or a link shows the whole course."""
    ideas = (
        Idea.objects.filter(page__version__course__slug=settings.BASISLAB_COURSE_SLUG)
        .select_related("page", "page__version")
        .order_by("-page__version__number", "page__order", "order")
    )
    newest = ideas.first()
    if newest is None:
        return []
    ideas = [idea for idea in ideas.filter(page__version=newest.page.version) if idea.problem_kinds]
    targets = list(context.links.exclude(target="").values_list("target", "page_slug", "idea_slug"))
    links = [(page, idea) for target, page, idea in targets if target != ResourceLink.Target.COURSE]
    if links and len(links) == len(targets):
        wanted_pages = {page for page, idea in links if not idea}
        wanted_ideas = set(links)
        ideas = [
            idea
            for idea in ideas
            if idea.page.slug in wanted_pages or (idea.page.slug, idea.slug) in wanted_ideas
        ]
    return [IdeaColumn(idea.page.slug, idea.slug, idea.title) for idea in ideas]


def class_learners(*, context: Context) -> list[Membership]:
    """Return the context's learners who launched (the members whose roles are scored), by
    name: not its instructors, observers, mentors or members without a role."""
    members = (
        Membership.objects.filter(context=context, instructor=False)
        .select_related("lti_user")
        .order_by("lti_user__name", "lti_user__sub")
    )
    return [member for member in members if role_access(member.roles).scored]


def standing(*, entry: RosterEntry | None, last_launch_at: datetime | None = None) -> Standing:
    """Return a member's standing by their roster row: left when the latest roster answer no
    longer listed them (unless they launched since), inactive when it says Inactive."""
    if entry is None:
        return Standing.ACTIVE
    if entry.left_at is not None and (last_launch_at is None or last_launch_at <= entry.left_at):
        return Standing.LEFT
    if entry.status.lower() == Standing.INACTIVE:
        return Standing.INACTIVE
    return Standing.ACTIVE


def _roster(context: Context) -> dict[str, RosterEntry]:
    return {
        entry.sub: entry
        for entry in RosterEntry.objects.filter(context=context).order_by("name", "sub")
    }


def active_learners(*, context: Context) -> list[Membership]:
    """Return the learners who launched and are active in the class (class_learners less those
    who left the course or are inactive): the ones the class's counts and mistakes count."""
    roster = _roster(context)
    return [
        member
        for member in class_learners(context=context)
        if standing(entry=roster.get(member.lti_user.sub), last_launch_at=member.last_launch_at)
        == Standing.ACTIVE
    ]


def class_rows(*, context: Context, columns: list[IdeaColumn]) -> list[LearnerRow]:
    """Return one row per learner with progress per column: active learners who launched,
    then active roster members who did not, then those who left the course or are inactive."""
    members = class_learners(context=context)
    roster = _roster(context)
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
                member.lti_user.name or member.lti_user.sub,
                member.lti_user.sub,
                True,
                tuple(cells),
                standing(
                    entry=roster.get(member.lti_user.sub), last_launch_at=member.last_launch_at
                ),
            )
        )
    launched = {member.lti_user.sub for member in members}
    empty = tuple((0, 0, 0) for _ in columns)
    for entry in roster.values():
        if entry.sub in launched or not role_access(entry.roles).scored:
            continue
        rows.append(
            LearnerRow(entry.name or entry.sub, entry.sub, False, empty, standing(entry=entry))
        )
    # Stable: each group keeps its order by name.
    rows.sort(key=lambda row: (row.standing != Standing.ACTIVE, not row.launched))
    return rows


def class_counts(*, rows: list[LearnerRow]) -> ClassCounts:
    """Count the class's rows: active learners (and how many of them launched), and apart
    those who left the course or are inactive."""
    active = [row for row in rows if row.standing == Standing.ACTIVE]
    return ClassCounts(
        learners=len(active),
        started=sum(row.launched for row in active),
        left=sum(row.standing == Standing.LEFT for row in rows),
        inactive=sum(row.standing == Standing.INACTIVE for row in rows),
    )


def class_mistakes(*, context: Context) -> list[MistakeRow]:
    """Return the class's most frequent named mistakes per kind, each with newest examples,
    counting active learners only (not those who left the course or are inactive)."""
    user_ids = [member.lti_user.user_id for member in active_learners(context=context)]
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
