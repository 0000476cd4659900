"""Grading: safe reading of answers, exact comparison, the mistake catalog, explanations.

Pure Python and SymPy; no Django. The public contract:
`grade(spec, text) -> Verdict`, `validate_spec`, `SpecError`, `expected_answer`,
`mistaken_answers`, `apply_mistake`, `read(spec, text)` (read by the
problem's shape, without marking), `answer_help(spec)` (how the answer is typed),
`kind(name) -> Kind`, `KINDS`, `Verdict`, `Diagnosis`, `vector_tex`. Each problem kind is one
module of `grading.kinds` (see `grading/kinds/base.py`).
"""

from .answer_help import answer_help
from .kinds import (
    KIND_LABELS,
    KINDS,
    MISTAKE_LABELS,
    MISTAKES_BY_KIND,
    Kind,
    MistakeCode,
    ProblemKind,
    kind,
)
from .marking import grade, read
from .mistakes import apply_mistake, expected_answer, mistaken_answers
from .spec import SpecError, validate_spec
from .tex import vector_tex
from .verdict import Diagnosis, Status, Verdict

__all__ = [
    "KINDS",
    "KIND_LABELS",
    "MISTAKES_BY_KIND",
    "MISTAKE_LABELS",
    "Diagnosis",
    "Kind",
    "MistakeCode",
    "ProblemKind",
    "SpecError",
    "Status",
    "Verdict",
    "answer_help",
    "apply_mistake",
    "expected_answer",
    "grade",
    "kind",
    "mistaken_answers",
    "read",
    "validate_spec",
    "vector_tex",
]
