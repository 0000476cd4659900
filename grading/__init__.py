"""Grading: safe reading of answers, exact comparison, the mistake catalog, explanations.

Pure Python and SymPy; no Django. The public contract:
`validate_spec`, `SpecError`, `grade`, `Verdict`, `Diagnosis`, `expected_answer`,
`mistaken_answers`, `apply_mistake`, `vector_tex`.
"""

from .kinds import MISTAKES_BY_KIND, MistakeCode, ProblemKind, Status
from .marking import grade
from .mistakes import CATALOG, apply_mistake, expected_answer, mistaken_answers
from .spec import SpecError, validate_spec
from .tex import vector_tex
from .verdict import Diagnosis, Verdict

__all__ = [
    "CATALOG",
    "MISTAKES_BY_KIND",
    "Diagnosis",
    "MistakeCode",
    "ProblemKind",
    "SpecError",
    "Status",
    "Verdict",
    "apply_mistake",
    "expected_answer",
    "grade",
    "mistaken_answers",
    "validate_spec",
    "vector_tex",
]
