"""Shape a copy's pages, ideas and progress for the templates (reads only, no writes)."""

from dataclasses import dataclass
from functools import lru_cache

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext

from grading.kinds import KINDS

from .loader import IDEA_MARKER
from .mathml import render_markdown
from .models import CourseCopy, Idea, IdeaProgress, Page

ProgressMap = dict[tuple[str, str], IdeaProgress]


@dataclass(frozen=True)
class KindLink:
    kind: str
    label: str
    url: str | None


@dataclass(frozen=True)
class IdeaBox:
    idea: Idea
    progress: IdeaProgress | None
    kinds: tuple[KindLink, ...]

    @property
    def fraction(self) -> float:
        return self.progress.fraction if self.progress else 0.0

    @property
    def percent(self) -> int:
        return round(self.fraction * 100)


@dataclass(frozen=True)
class PageSummary:
    page: Page
    ideas: tuple[IdeaBox, ...]

    @property
    def fraction(self) -> float:
        """Return the mean progress over the ideas that have practice; 0 when none has."""
        practised = [box.fraction for box in self.ideas if box.idea.problem_kinds]
        return sum(practised) / len(practised) if practised else 0.0

    @property
    def percent(self) -> int:
        return round(self.fraction * 100)

    @property
    def has_practice(self) -> bool:
        return any(box.idea.problem_kinds for box in self.ideas)


def _kind_links(copy: CourseCopy, page_slug: str, idea: Idea) -> tuple[KindLink, ...]:
    links = []
    for kind in idea.problem_kinds:
        try:
            url = reverse(
                "practice:problem_open",
                kwargs={
                    "copy_id": copy.pk,
                    "page_slug": page_slug,
                    "idea_slug": idea.slug,
                    "kind": kind,
                },
            )
        except NoReverseMatch:
            # Practice is not wired in (yet): name the kinds without links.
            url = None
        known = KINDS.get(kind)
        label = gettext(known.label) if known is not None else kind
        links.append(KindLink(kind=kind, label=label, url=url))
    return tuple(links)


def idea_box(*, copy: CourseCopy, page: Page, idea: Idea, progress: ProgressMap) -> IdeaBox:
    """Return the idea's box: its progress and links to its kinds of problem."""
    return IdeaBox(
        idea=idea,
        progress=progress.get((page.slug, idea.slug)),
        kinds=_kind_links(copy, page.slug, idea),
    )


def dashboard_pages(*, copy: CourseCopy, progress: ProgressMap) -> list[PageSummary]:
    """Return every page of the copy's version with its ideas' progress, in course order."""
    pages = copy.version.pages.order_by("order").prefetch_related("ideas")
    return [
        PageSummary(
            page=page,
            ideas=tuple(
                idea_box(copy=copy, page=page, idea=idea, progress=progress)
                for idea in page.ideas.all()
            ),
        )
        for page in pages
    ]


@lru_cache(maxsize=64)
def _split_body(body: str) -> tuple[tuple[str, str], ...]:
    """Split a page body at its idea markers: ("html", rendered) and ("idea", slug) parts."""
    parts: list[tuple[str, str]] = []
    chunk: list[str] = []
    for line in body.split("\n"):
        match = IDEA_MARKER.match(line.strip())
        if match:
            if "".join(chunk).strip():
                parts.append(("html", render_markdown("\n".join(chunk))))
            chunk = []
            parts.append(("idea", match.group(1)))
        else:
            chunk.append(line)
    if "".join(chunk).strip():
        parts.append(("html", render_markdown("\n".join(chunk))))
    return tuple(parts)


@dataclass(frozen=True)
class Segment:
    html: str = ""
    box: IdeaBox | None = None


def page_segments(*, copy: CourseCopy, page: Page, progress: ProgressMap) -> list[Segment]:
    """Return the page body as rendered HTML segments with each idea's box at its marker."""
    ideas = {idea.slug: idea for idea in page.ideas.all()}
    segments: list[Segment] = []
    for kind, value in _split_body(page.body):
        if kind == "html":
            segments.append(Segment(html=value))
        elif value in ideas:
            segments.append(
                Segment(box=idea_box(copy=copy, page=page, idea=ideas[value], progress=progress))
            )
    return segments
