"""Read the learner's answer without marking it: for the preview and for drawing it.

The grader's own bounded reader does the work, so a hostile text costs no more here than it
does when it is marked, and reading skips the diagnosis, which can cost tens of milliseconds
for symbolic problems (the preview runs on every pause in typing).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from grading import vector_tex
from grading.parse import AnswerError, Reading, read_answer
from grading.spec import load_problem


@dataclass(frozen=True)
class AnswerReading:
    """How an answer was read: its TeX when readable, else what could not be read and where."""

    tex: str = ""
    message: str = ""

    @property
    def readable(self) -> bool:
        return not self.message


def _read(text: str, spec: dict | None) -> Reading:
    """Read the text by the problem's answer shape (the vector reader when no spec is given)."""
    if spec is None:
        return read_answer(text)
    return load_problem(spec).shape.read(text)


def answer_reading(text: str, *, spec: dict | None = None) -> AnswerReading:
    """Return how the grader reads the text for the problem ``spec`` (a written-out sum also
    shows its value)."""
    try:
        reading = _read(text, spec)
    except AnswerError as error:
        return AnswerReading(message=error.message)
    except (RecursionError, MemoryError, OverflowError):
        return AnswerReading(message=_("the answer is too complex to read"))
    if reading.written_out and isinstance(reading.value, tuple):
        return AnswerReading(tex=f"{reading.tex} = {vector_tex(reading.value)}")
    return AnswerReading(tex=reading.tex)


def answer_vector(text: str, *, spec: dict | None = None) -> Sequence[Any] | None:
    """Return the value the learner's text reads as for the problem ``spec`` (any tuple-valued
    shape: a vector, a sequence, pieces, parts), or None when it does not read as one."""
    try:
        value = _read(text, spec).value
    except (AnswerError, ArithmeticError, ValueError, RecursionError, MemoryError):
        return None
    return value if isinstance(value, tuple) else None
