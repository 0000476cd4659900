"""Storing a generated problem: the one place a spec becomes a stored ProblemInstance.

Practice (a learner's problems under an idea) and spaced review (variants aimed at a mistake)
both store generated problems; this module sits below both, so neither reaches into the other.
"""

from courses.models import CourseCopy
from grading.kinds import ProblemKind
from practice.generators import generator_of

from .models import ProblemInstance


def problem_store(
    *,
    copy: CourseCopy | None = None,
    copy_id: int | None = None,
    page_slug: str,
    idea_slug: str,
    kind: ProblemKind,
    seed: int,
    level: int,
    spec: dict,
    purpose: str,
) -> ProblemInstance:
    """Store a generated spec with the generator's name and version, so it stays reproducible.

    Give the copy itself or, where only its id is at hand, ``copy_id``. No transaction of its
    own: the caller's write path owns it. Raises ValueError, before any row is written, for a
    kind that has no registered generator.
    """
    generator = generator_of(kind)
    copy_field = {"copy": copy} if copy is not None else {"copy_id": copy_id}
    return ProblemInstance.objects.create(
        **copy_field,
        page_slug=page_slug,
        idea_slug=idea_slug,
        kind=generator.kind,
        generator_name=generator.name,
        generator_version=str(generator.version),
        seed=seed,
        level=level,
        spec=spec,
        purpose=purpose,
    )


def problem_replace(*, problem: ProblemInstance) -> str:
    """Mark an open practice problem replaced, under its row lock; return its state after.

    A practice problem is replaced when the learner asks for a new variant: an idea keeps at
    most one open practice problem per kind (a partial unique constraint). A problem that is
    solved, already replaced, or a review variant (which belongs to spaced review) is left as
    it is. No transaction of its own: the caller's write path owns it.
    """
    locked = ProblemInstance.objects.select_for_update().get(pk=problem.pk)
    if (
        locked.state == ProblemInstance.State.OPEN
        and locked.purpose == ProblemInstance.Purpose.PRACTICE
    ):
        locked.state = ProblemInstance.State.REPLACED
        locked.save(update_fields=["state"])
    problem.state = locked.state
    return locked.state
