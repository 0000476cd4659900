"""Continue's next step read by the ORM, as ``practice.today.selectors.next_step`` read it
before its one statement (``practice.today.continue_sql``): the reference the tests compare
that statement against, up to six statements."""

from datetime import datetime

from django.db.models import Count, DateTimeField, Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from courses.models import MASTERY_CORRECT, CourseCopy, Idea, IdeaProgress
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem
from practice.review.selectors import review_next
from practice.today.selectors import (
    NextStep,
    _choose_idea,
    _idea_step,
    _problem_step,
    _review_step,
)


def _idea_titles(copy: CourseCopy) -> dict[tuple[str, str], str]:
    return {
        (page_slug, slug): title
        for page_slug, slug, title in Idea.objects.filter(page__version_id=copy.version_id)
        .order_by("page__order", "order")
        .values_list("page__slug", "slug", "title")
    }


def _unfinished_problem(copy: CourseCopy) -> ProblemInstance | None:
    """Return the open practice problem the learner touched last (answered or opened)."""
    return (
        ProblemInstance.objects.filter(
            copy=copy,
            purpose=ProblemInstance.Purpose.PRACTICE,
            state=ProblemInstance.State.OPEN,
        )
        .annotate(
            touched=Coalesce(
                Max("attempts__created_at"), "created_at", output_field=DateTimeField()
            )
        )
        .order_by("-touched", "-pk")
        .first()
    )


def _next_idea(copy: CourseCopy) -> tuple[Idea, IdeaProgress | None] | None:
    """Return the idea to practise next and its progress (see ``_choose_idea``), by the ORM."""
    ideas = list(
        Idea.objects.filter(page__version_id=copy.version_id)
        .select_related("page")
        .order_by("page__order", "order")
    )
    progress = {(p.page_slug, p.idea_slug): p for p in IdeaProgress.objects.filter(copy=copy)}
    mastered = {key for key, row in progress.items() if row.correct >= MASTERY_CORRECT}
    levels = {key: row.level for key, row in progress.items()}
    if _choose_idea(ideas, levels, mastered, None) is None:
        return None
    last_page = (
        Attempt.objects.filter(copy=copy, problem__purpose=ProblemInstance.Purpose.PRACTICE)
        .order_by("-created_at", "-pk")
        .values_list("problem__page_slug", flat=True)
        .first()
    )
    idea = _choose_idea(ideas, levels, mastered, last_page)
    return None if idea is None else (idea, progress.get((idea.page.slug, idea.slug)))


def _least_practised_kind(copy: CourseCopy, idea: Idea) -> str:
    """Return the idea's kind with the fewest answers by the learner (listed order on ties)."""
    counts = dict(
        Attempt.objects.filter(
            copy=copy, problem__page_slug=idea.page.slug, problem__idea_slug=idea.slug
        )
        .values_list("problem__kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    return min(idea.problem_kinds, key=lambda kind: counts.get(kind, 0))


def next_step_by_orm(*, copy: CourseCopy, now: datetime | None = None) -> NextStep:
    """Return what ``next_step`` returns, read by the ORM (up to six statements): the
    reference its one statement is tested against."""
    now = now or timezone.now()
    # Most of the time nothing is due: one query says so before the queue's three.
    due = ReviewItem.objects.filter(copy=copy, due__lte=now).exists()
    queue = review_next(copy=copy, now=now) if due else []
    if queue:
        return _review_step(copy, queue)
    problem = _unfinished_problem(copy)
    if problem is not None:
        title = _idea_titles(copy).get((problem.page_slug, problem.idea_slug), problem.idea_slug)
        return _problem_step(copy, problem, title)
    found = _next_idea(copy)
    if found is None:
        return _idea_step(copy, None, "", started=False)
    idea, progress = found
    return _idea_step(copy, idea, _least_practised_kind(copy, idea), started=progress is not None)
