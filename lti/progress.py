"""A learner's progress on a link's idea or page, 0..1, computed as the dashboard computes it."""

from django.conf import settings

from courses.models import CourseCopy
from courses.presenters import dashboard_pages
from courses.selectors import copy_progress

from .models import ResourceLink


def copy_fraction(*, copy: CourseCopy, page_slug: str, idea_slug: str) -> float:
    """Return the copy's progress on one idea (its bar) or, for ``idea_slug`` "", one page (the
    mean over its practised ideas), or, for ``page_slug`` "" too, the whole course (the mean
    over every practised idea); 0 when the copy's version lacks it."""
    summaries = dashboard_pages(copy=copy, progress=copy_progress(copy=copy))
    if not page_slug:
        practised = [
            box.fraction for summary in summaries for box in summary.ideas if box.idea.problem_kinds
        ]
        return sum(practised) / len(practised) if practised else 0.0
    for summary in summaries:
        if summary.page.slug != page_slug:
            continue
        if not idea_slug:
            return summary.fraction
        for box in summary.ideas:
            if box.idea.slug == idea_slug:
                return box.fraction
    return 0.0


def link_score(*, link: ResourceLink, user_id: int) -> float:
    """Return the user's progress on the link's idea, page or whole course, from 0 to 1; 0 for
    a link not set up yet."""
    if not link.set_up:
        return 0.0
    copy = (
        CourseCopy.objects.select_related("version")
        .filter(owner_id=user_id, course__slug=settings.BASISLAB_COURSE_SLUG)
        .first()
    )
    if copy is None:
        return 0.0
    return copy_fraction(copy=copy, page_slug=link.page_slug, idea_slug=link.idea_slug)
