"""Shape a copy's pages, ideas and progress for the templates (reads only, no writes)."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from django.urls import reverse

from .labels import kind_label
from .loader import IDEA_MARKER
from .mathml import render_markdown
from .models import CourseCopy, Idea, IdeaProgress, Page
from .selectors import copy_outline

ProgressMap = dict[tuple[str, str], IdeaProgress]


@dataclass(frozen=True)
class KindLink:
    kind: str
    label: str
    url: str


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
        url = reverse(
            "practice:problem_open",
            kwargs={
                "copy_id": copy.pk,
                "page_slug": page_slug,
                "idea_slug": idea.slug,
                "kind": kind,
            },
        )
        links.append(KindLink(kind=kind, label=kind_label(kind), url=url))
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
    pages = copy_outline(copy=copy)
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
    box: "IdeaBox | PublicIdeaBox | None" = None


def page_segments(*, copy: CourseCopy, page: Page, progress: ProgressMap) -> list[Segment]:
    """Return the page body as rendered HTML segments with each idea's box at its marker."""
    return _segments(
        page, lambda idea: idea_box(copy=copy, page=page, idea=idea, progress=progress)
    )


def _segments(page: Page, box_of: Callable[[Idea], "IdeaBox | PublicIdeaBox"]) -> list[Segment]:
    """Return the page body as HTML segments with ``box_of(idea)`` at each idea's marker."""
    ideas = {idea.slug: idea for idea in page.ideas.all()}
    segments: list[Segment] = []
    for kind, value in _split_body(page.body):
        if kind == "html":
            segments.append(Segment(html=value))
        elif value in ideas:
            segments.append(Segment(box=box_of(ideas[value])))
    return segments


@dataclass(frozen=True)
class PublicIdeaBox:
    """An idea as everyone reads it: the practice under it, and a signed-in learner's progress."""

    idea: Idea
    labels: tuple[str, ...]
    progress: IdeaProgress | None = None

    @property
    def percent(self) -> int:
        return round(self.progress.fraction * 100) if self.progress else 0


def public_idea_box(
    *, page: Page, idea: Idea, progress: ProgressMap | None = None
) -> PublicIdeaBox:
    """Return the idea's public box; ``progress`` only for a signed-in learner's own page."""
    return PublicIdeaBox(
        idea=idea,
        labels=tuple(kind_label(kind) for kind in idea.problem_kinds),
        progress=(progress or {}).get((page.slug, idea.slug)),
    )


def public_segments(*, page: Page, progress: ProgressMap | None = None) -> list[Segment]:
    """Return the page body as HTML segments with each idea's public box at its marker."""
    return _segments(page, lambda idea: public_idea_box(page=page, idea=idea, progress=progress))


def page_fraction(*, page: Page, progress: ProgressMap) -> float:
    """Return the mean progress over the page's ideas that have practice; 0 when none has."""
    practised = [
        progress[(page.slug, idea.slug)].fraction if (page.slug, idea.slug) in progress else 0.0
        for idea in page.ideas.all()
        if idea.problem_kinds
    ]
    return sum(practised) / len(practised) if practised else 0.0
