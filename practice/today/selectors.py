"""Reads for today's practice: the next step Continue opens. Nothing here writes.

The day's amount and streak and the numbers the progress pictures draw are in
``practice.today.progress``.
"""

import enum
from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from courses.labels import kind_label
from courses.models import MASTERY_CORRECT, CourseCopy, Idea
from courses.selectors import copy_ideas
from practice.generators import GENERATORS
from practice.models import ProblemInstance
from practice.review.models import ReviewItem
from practice.review.selectors import review_next

from .continue_sql import OpenProblem, continue_facts


class StepKind(enum.StrEnum):
    REVIEW = "review"
    PROBLEM = "problem"
    IDEA = "idea"
    DONE = "done"


@dataclass(frozen=True)
class NextStep:
    """What Continue opens: where it goes and, in one line, what and why."""

    kind: StepKind
    url: str
    reason: str


def _choose_idea(
    ideas: list[Idea],
    levels: dict[tuple[str, str], int],
    mastered: set[tuple[str, str]],
    last_page: str | None,
) -> Idea | None:
    """Return the idea to practise next, or None when every idea with practice is mastered.

    On the page the learner last answered a practice problem, the unmastered idea with the
    lowest level (course order breaks ties); else the first unmastered idea in course order.
    """
    open_ideas = [
        idea for idea in ideas if idea.problem_kinds and (idea.page.slug, idea.slug) not in mastered
    ]
    if not open_ideas:
        return None
    on_last_page = [idea for idea in open_ideas if idea.page.slug == last_page]
    if not on_last_page:
        return open_ideas[0]
    # min() keeps the first of equals: course order breaks ties.
    return min(on_last_page, key=lambda i: levels.get((i.page.slug, i.slug), 1))


def _review_step(copy: CourseCopy, queue: list[ReviewItem]) -> NextStep:
    n = len(queue)
    return NextStep(
        kind=StepKind.REVIEW,
        url=reverse("review:review", kwargs={"copy_id": copy.pk, "item_id": queue[0].pk}),
        reason=ngettext("%(n)d review due", "%(n)d reviews due", n) % {"n": n},
    )


def _problem_step(copy: CourseCopy, problem: ProblemInstance | OpenProblem, title: str) -> NextStep:
    return NextStep(
        kind=StepKind.PROBLEM,
        url=reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk}),
        reason=_("unfinished problem: %(kind)s, under “%(idea)s”")
        % {"kind": kind_label(problem.kind), "idea": title},
    )


def _idea_step(copy: CourseCopy, idea: Idea | None, kind: str, started: bool) -> NextStep:
    """Return the step to the idea's problem of this kind (None: every idea is mastered)."""
    if idea is None:
        return NextStep(
            kind=StepKind.DONE,
            url=reverse("review:queue", kwargs={"copy_id": copy.pk}),
            reason=_("every idea is mastered: the review queue shows what comes back next"),
        )
    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": idea.page.slug,
            "idea_slug": idea.slug,
            "kind": kind,
        },
    )
    if started:
        reason = _("keep going: %(idea)s") % {"idea": idea.title}
    else:
        reason = _("next idea: %(idea)s") % {"idea": idea.title}
    return NextStep(kind=StepKind.IDEA, url=url, reason=reason)


def next_step(*, copy: CourseCopy, now: datetime | None = None) -> NextStep:
    """Return the next thing worth doing in the copy, the same for the dashboard and after a
    verdict: the first due review (the review queue's order, within today's limit), else the
    open problem touched last, else the next unmastered idea (see ``_choose_idea``), else the
    review queue with nothing left to learn.

    One statement unless something is due (``continue_sql``), and the course's ideas read once
    per process (``copy_ideas``); ``tests/practice/continue_by_orm.py`` reads the same answer
    by the ORM, as this did before, and the tests compare the two.
    """
    now = now or timezone.now()
    facts = continue_facts(copy_id=copy.pk, now=now)
    queue = review_next(copy=copy, now=now) if facts.due else []
    if queue:
        return _review_step(copy, queue)
    ideas = copy_ideas(copy=copy)
    problem = facts.problem
    if problem is not None:
        titles = {(i.page.slug, i.slug): i.title for i in ideas}
        title = titles.get((problem.page_slug, problem.idea_slug), problem.idea_slug)
        return _problem_step(copy, problem, title)
    mastered = {key for key, (correct, _lv) in facts.progress.items() if correct >= MASTERY_CORRECT}
    levels = {key: level for key, (_n, level) in facts.progress.items()}
    idea = _choose_idea(list(ideas), levels, mastered, facts.last_page)
    if idea is None:
        return _idea_step(copy, None, "", started=False)
    key = (idea.page.slug, idea.slug)
    # The idea's kind with the fewest answers by the learner (listed order on ties).
    kind = min(idea.problem_kinds, key=lambda k: facts.answers.get((*key, k), 0))
    return _idea_step(copy, idea, kind, started=key in facts.progress)


def idea_top_level(kinds: list[str]) -> int:
    """Return the highest problem level any of the kinds' generators offers (1 when none)."""
    tops = []
    for kind in kinds:
        generator = GENERATORS.get(kind)
        if generator is None:
            continue
        levels = generator.levels
        tops.append(levels if isinstance(levels, int) else max(int(level) for level in levels))
    return max(tops, default=1)
