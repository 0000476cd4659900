"""Worked solutions: a kind's own steps with the problem's numbers, checked against its answer.

Each kind writes its steps (`Kind.steps`) beside its right answer (`Kind.right`); this module
asks for them and refuses a solution whose last step does not arrive at the graded right
answer, so a learner is never shown a worked solution that disagrees with the grader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kinds.base import Step
from .spec import load_problem


class NoSolutionError(ValueError):
    """Raised when a kind writes no worked solution, or one that disagrees with its answer."""


@dataclass(frozen=True)
class Solution:
    """A worked solution: its steps, the answer they arrive at (TeX) and how it is typed."""

    steps: tuple[Step, ...]
    answer_tex: str
    typed: str

    def markdown(self) -> str:
        """Return the steps as a numbered Markdown list (TeX inside `$...$`)."""
        return "\n".join(
            f"{n}. " + step.text.replace("\n", "\n   ") for n, step in enumerate(self.steps, 1)
        )


def solution(spec: dict[str, Any]) -> Solution:
    """Return the worked solution of a spec.

    Raises SpecError for a malformed spec, NoSolutionError when the kind writes no steps or
    its last step's value is not the right answer.
    """
    loaded = load_problem(spec)
    kind, problem, shape = loaded.kind, loaded.problem, loaded.shape
    steps = tuple(kind.steps(problem))
    if not steps:
        raise NoSolutionError(f"{kind.name} writes no worked solution")
    last = steps[-1].value
    right = kind.right(problem)
    if last is None or not shape.equal(last, right):
        raise NoSolutionError(f"{kind.name}: the last step {last!r} is not the answer {right!r}")
    return Solution(steps=steps, answer_tex=kind.right_tex(problem), typed=shape.typed(right))
