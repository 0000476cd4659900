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
from grading.parse import AnswerError, read_answer
from grading.shapes import Shape
from grading.spec import load_problem


@dataclass(frozen=True)
class AnswerReading:
    """How an answer was read: its TeX when readable, else what could not be read and where."""

    tex: str = ""
    message: str = ""

    @property
    def readable(self) -> bool:
        return not self.message


def answer_reading(text: str, spec: dict | None = None) -> AnswerReading:
    """Return how the grader reads the text: by the answer shape of the problem ``spec`` when
    given (a pair typed ``a; b``, pieces, a choice), else as a number or vector (a written-out
    sum also shows its value)."""
    shape = _shape(spec)
    try:
        reading = shape.read(text) if shape is not None else read_answer(text)
    except AnswerError as error:
        return AnswerReading(message=error.message)
    except (RecursionError, MemoryError, OverflowError):
        return AnswerReading(message=_("the answer is too complex to read"))
    if reading.written_out and isinstance(reading.value, tuple):
        shown = shape.tex(reading.value) if shape is not None else vector_tex(reading.value)
        return AnswerReading(tex=f"{reading.tex} = {shown}")
    return AnswerReading(tex=reading.tex)


def answer_value(spec: dict, text: str) -> Any:
    """Return the value the learner's text reads as by the problem's answer shape, or None when
    it cannot be read (for drawing the answer beside the right one)."""
    shape = _shape(spec)
    if shape is None:
        return answer_vector(text)
    try:
        return shape.read(text).value
    except (AnswerError, ArithmeticError, ValueError, RecursionError, MemoryError):
        return None


def _shape(spec: dict | None) -> Shape | None:
    if spec is None:
        return None
    return load_problem(spec).shape


def answer_vector(text: str) -> Sequence[Any] | None:
    """Return the vector the learner's text evaluates to, or None when it is not one vector."""
    try:
        value = read_answer(text).value
    except (AnswerError, ArithmeticError, ValueError, RecursionError, MemoryError):
        return None
    return value if isinstance(value, tuple) else None
