"""What the staff preview of a problem kind shows: one generated problem of any seed and level,
its right answer, and every catalogued mistake's answer with the diagnosis and explanation the
grader gives it, and the problem's picture drawn solved when the kind has one. Pure
(generation and grading; no database)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import grading
from grading.declared import DeclaredKind, source_of
from grading.solution import solution
from grading.spec import load_problem
from practice.generators import generate, generator_of, render_statement
from practice.presenters import solved_picture


@dataclass(frozen=True)
class MistakePreview:
    code: str
    label: str
    terms: tuple[int, ...]
    typed: str
    diagnosed: str  # the code (and terms) the grader names for that answer
    explanation: str


@dataclass(frozen=True)
class KindPreview:
    kind: str
    label: str
    level: int
    seed: int
    levels: tuple[int, ...]
    statement: str
    right_typed: str
    right_tex: str
    solution: str
    mistakes: tuple[MistakePreview, ...]
    declared_in: str | None  # a course folder's kind's file: <course>/kinds/name.yaml or .py
    left_out: tuple[str, ...]  # a declared kind's derived variants that are no mistake
    picture: Any = None  # the problem's picture drawn solved (SafeString), or None


def _in_course(path: str) -> str:
    """The kind file named from its course folder (`<course>/kinds/<name>.yaml`): what the
    author knows it by, and never the server's own directories."""
    return "/".join(PurePath(path).parts[-3:])


def kind_preview(*, kind: str, seed: int, level: int) -> KindPreview:
    """Return the preview of one problem; ValueError for a level the kind lacks."""
    spec = generate(kind, seed=seed, level=level)
    loaded = load_problem(spec)
    right = loaded.kind.right(loaded.problem)
    mistakes = []
    for diagnosis, value in grading.mistaken_answers(spec):
        typed = loaded.shape.typed(value)
        verdict = grading.grade(spec, typed)
        got = verdict.diagnosis
        mistakes.append(
            MistakePreview(
                code=diagnosis.mistake,
                label=loaded.kind.mistake(diagnosis.mistake).label,
                terms=tuple(diagnosis.terms),
                typed=typed,
                diagnosed=f"{got.mistake} {list(got.terms)}" if got else str(verdict.status),
                explanation=verdict.explanation,
            )
        )
    declared = loaded.kind if isinstance(loaded.kind, DeclaredKind) else None
    python = source_of(loaded.kind)
    declared_in = declared.source.path if declared else python.path if python else None
    return KindPreview(
        kind=kind,
        label=loaded.kind.label,
        level=level,
        seed=seed,
        levels=tuple(generator_of(kind).levels),
        statement=render_statement(spec),
        right_typed=loaded.shape.typed(right),
        right_tex=loaded.shape.tex(right),
        solution=solution(spec).markdown(),
        mistakes=tuple(mistakes),
        declared_in=_in_course(declared_in) if declared_in else None,
        left_out=tuple(f"{code} {list(terms)}" for code, terms in sorted(declared.dropped))
        if declared
        else (),
        picture=solved_picture(spec),
    )
