"""Problem generators: randomized, reproducible, diagnosable problem specs, and their rendering.

Pure code (NumPy for randomness, the grading engine for the mistake catalog; no Django).

    generate(ProblemKind.WEIGHTED_SUM, seed=7, level=2)            # a spec (plain JSON)
    generate(ProblemKind.WEIGHTED_SUM, seed=7, level=2, target=MistakeCode.OMITTED_TERM)
    render_statement(spec)  # Markdown with $...$ TeX, for courses.mathml.render_markdown
    render_svg(spec, answer=learner_vector)  # SVG for two-dimensional problems, else None
"""

from __future__ import annotations

from grading.kinds import MistakeCode, ProblemKind

from .base import GenerationError, ProblemGenerator
from .content_weights import ContentWeightsGenerator
from .contrast import ContrastGenerator
from .figures import render_svg
from .lookup import LookupGenerator
from .statement import render_statement
from .weighted_sum import WeightedSumGenerator

GENERATORS: dict[ProblemKind, ProblemGenerator] = {
    ProblemKind.LOOKUP: LookupGenerator(),
    ProblemKind.WEIGHTED_SUM: WeightedSumGenerator(),
    ProblemKind.CONTRAST: ContrastGenerator(),
    ProblemKind.CONTENT_WEIGHTS: ContentWeightsGenerator(),
}


def generate(
    kind: ProblemKind | str, *, seed: int, level: int, target: MistakeCode | None = None
) -> dict:
    """Return a valid, diagnosable spec of ``kind``; the same arguments always give the same spec.

    ``target`` asks for a problem in which that catalogued mistake shows clearly. Raises
    ``ValueError`` for an unknown kind, a level the generator lacks, a negative seed or a
    mistake of another kind.
    """
    return GENERATORS[ProblemKind(kind)].generate(seed=seed, level=level, target=target)


__all__ = [
    "GENERATORS",
    "GenerationError",
    "ProblemGenerator",
    "generate",
    "render_statement",
    "render_svg",
]
