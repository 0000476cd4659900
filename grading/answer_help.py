"""The answer box's help: how this problem's answer is typed, with examples that give nothing
away.

The words come from the problem's answer shape (`Shape.formats`) as its kind refines them
(`Kind.answer_formats`): a vector, a merge list, a piece sequence with `▁`, a choice, a `;`
pair. Each example shown is the first of its candidates that the grader, asked about this very
problem, finds neither right nor the answer of a catalogued mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .marking import grade
from .spec import load_problem
from .verdict import Status


def gives_nothing_away(spec: dict[str, Any], example: str) -> bool:
    """Return True when `example`, graded as an answer to `spec`, is neither right nor the
    answer of a catalogued mistake (it may be unreadable for this problem: still a format)."""
    verdict = grade(spec, example)
    return verdict.status != Status.CORRECT and verdict.diagnosis is None


def safe_example(spec: dict[str, Any], candidates: Sequence[str]) -> str | None:
    """Return the first candidate that gives nothing away on `spec` (None when none does)."""
    return next((c for c in candidates if gives_nothing_away(spec, c)), None)


def answer_help(spec: dict[str, Any]) -> str:
    """Return one sentence saying how the answer to `spec` is typed, with an example of each
    way; raise SpecError for a malformed spec."""
    loaded = load_problem(spec)
    clauses = []
    for way in loaded.kind.answer_formats(loaded.problem):
        example = safe_example(spec, way.examples) if way.examples else None
        clauses.append(way.phrase if example is None else f"{way.phrase}, such as {example}")
    return "; ".join(clauses) + "."
