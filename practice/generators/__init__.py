"""Problem generators: randomized, reproducible, diagnosable problem specs, and their rendering.

Pure code (NumPy for randomness, the grading engine for the mistake catalog; no Django). One
module per kind, `practice/generators/<kind>.py`, holds the kind's generator, its statement and
its picture, drawn with the helpers of `draw/` from the word lists of `words/`; the package
imports every module of this folder (not those two packages), and defining a generator
registers it. `docs/kinds.md` has the table of where each part of a kind lives.

    generate("weighted_sum", seed=7, level=2)                       # a spec (plain JSON)
    generate("weighted_sum", seed=7, level=2, target="omitted_term")
    render_statement(spec)  # Markdown with $...$ TeX, for courses.mathml.render_markdown
    render_svg(spec, answer=learner_value)  # SVG, or None when the kind or problem has none
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .base import REGISTRY, GenerationError, ProblemGenerator

# Modules of this folder that define no generator: shared machinery. The packages beside the
# kinds (`draw`, the pictures' helpers; `words`, the word lists) are not kinds either, and are
# skipped as packages; `declared` makes the generators of the declared kinds, so it is imported.
_SHARED = {"base", "statement"}


def _discover() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.ispkg or module.name in _SHARED or module.name.startswith("_"):
            continue
        importlib.import_module(f"{__name__}.{module.name}")


_discover()
for _kind in sorted(REGISTRY):  # in kind order, the same in every process
    REGISTRY[_kind] = REGISTRY.pop(_kind)

GENERATORS: dict[str, ProblemGenerator] = REGISTRY  # the registry itself


def generator_of(kind: str) -> ProblemGenerator:
    """Return the generator of a kind; ValueError names the kinds that have one."""
    try:
        return GENERATORS[str(kind)]
    except KeyError:
        raise ValueError(f"{str(kind)[:40]!r} is not one of {', '.join(GENERATORS)}") from None


def generate(kind: str, *, seed: int, level: int, target: str | None = None) -> dict:
    """Return a valid, diagnosable spec of ``kind``; the same arguments always give the same spec.

    ``target`` asks for a problem in which that catalogued mistake shows clearly. Raises
    ``ValueError`` for an unknown kind, a level the generator lacks, a negative seed or a
    mistake of another kind.
    """
    return generator_of(kind).generate(seed=seed, level=level, target=target)


def render_statement(spec: dict) -> str:
    """Return the problem statement as Markdown with TeX: the data, what to compute, how to
    answer. Raises ``ValueError`` for an unknown kind."""
    return generator_of(spec["kind"]).statement(spec)


def render_svg(spec: dict, *, answer: Any = None, solution: bool | None = None) -> str | None:
    """Return the kind's SVG picture of a problem, or None when there is none. The picture of a
    fresh problem (no ``answer``, ``solution`` not True) never gives the answer away."""
    drawer = generator_of(spec["kind"])
    if solution is None:  # a kind's picture may take (spec, answer) only, as the contract has it
        return drawer.picture(spec, answer)
    return drawer.picture(spec, answer, solution=solution)


__all__ = [
    "GENERATORS",
    "GenerationError",
    "ProblemGenerator",
    "generate",
    "generator_of",
    "render_statement",
    "render_svg",
]
