"""Showing a problem's worked solution ("Show me how"): the write path and the text shown.

Revealing an open problem closes it as revealed: no credit toward the idea's level, and spaced
review brings the kind back (``practice.review.services.revealing``). A problem already closed
(solved, replaced, revealed) shows its solution and records nothing.
"""

import logging

from django.db import IntegrityError, transaction

from courses.models import CourseCopy
from grading.solution import NoSolutionError, Solution, solution

from .models import ProblemInstance, Reveal
from .review.services.revealing import review_record_reveal

logger = logging.getLogger(__name__)


def problem_reveal(*, copy: CourseCopy, problem: ProblemInstance) -> Reveal | None:
    """Close an open problem as revealed and schedule its kind for review, exactly once.

    Returns the new Reveal, or None when the problem was no longer open (solved, replaced or
    revealed before): then nothing changes. Holds the problem's row lock, as a submitted answer
    does, so an answer and a reveal racing on one problem are serialised. Raises ValueError for
    another copy's problem.
    """
    if problem.copy_id != copy.pk:
        raise ValueError("the problem belongs to another copy")
    try:
        with transaction.atomic():
            state = (
                ProblemInstance.objects.select_for_update()
                .filter(pk=problem.pk)
                .values_list("state", flat=True)
                .get()
            )
            if state != ProblemInstance.State.OPEN:
                problem.state = state
                return None
            ProblemInstance.objects.filter(pk=problem.pk).update(
                state=ProblemInstance.State.REVEALED
            )
            reveal = Reveal.objects.create(problem=problem, copy=copy)
            review_record_reveal(reveal=reveal)
    except IntegrityError:
        # Two reveals raced past the lock (possible only where it is not honoured): the
        # one-to-one let the first in, and this one records nothing.
        problem.state = ProblemInstance.State.REVEALED
        return None
    problem.state = ProblemInstance.State.REVEALED
    return reveal


def problem_solution(spec: dict) -> Solution | None:
    """Return the problem's worked solution, or None (logged) when its kind writes none or one
    that disagrees with the graded answer: the page then says so instead of failing."""
    try:
        return solution(spec)
    except NoSolutionError:
        logger.exception("no worked solution for a %s problem", spec.get("kind"))
        return None
