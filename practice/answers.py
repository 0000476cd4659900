"""Read the learner's answer without marking it: for the preview and for drawing it.

The grader's own bounded reader does the work, so a hostile text costs no more here than it
does when it is marked, and reading skips the diagnosis, which can cost tens of milliseconds
for symbolic problems (the preview runs on every pause in typing).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

import grading
from grading import vector_tex
from grading.errors import as_sentence
from grading.parse import AnswerError, read_answer


@dataclass(frozen=True)
class AnswerReading:
    """How an answer was read: its TeX when readable, else what could not be read and where."""

    tex: str = ""
    message: str = ""

    @property
    def readable(self) -> bool:
        return not self.message


def answer_reading(text: str, spec: dict | None = None) -> AnswerReading:
    """Return how the grader reads the text for the problem `spec`, by its answer shape (a
    written-out sum also shows its value); without a spec, as an arithmetic answer."""
    if spec is not None:
        try:
            return AnswerReading(tex=grading.read(spec, text)[1])
        except AnswerError as error:
            return AnswerReading(message=as_sentence(error.message))
    try:
        reading = read_answer(text)
    except AnswerError as error:
        return AnswerReading(message=as_sentence(error.message))
    except (RecursionError, MemoryError, OverflowError):
        return AnswerReading(message=_("The answer is too complex to read."))
    if reading.written_out and isinstance(reading.value, tuple):
        return AnswerReading(tex=f"{reading.tex} = {vector_tex(reading.value)}")
    return AnswerReading(tex=reading.tex)


def answer_vector(text: str) -> Sequence[Any] | None:
    """Return the vector the learner's text evaluates to, or None when it is not one vector."""
    try:
        value = read_answer(text).value
    except (AnswerError, ArithmeticError, ValueError, RecursionError, MemoryError):
        return None
    return value if isinstance(value, tuple) else None


def answer_value(text: str, spec: dict) -> Any:
    """Return the value the learner's text reads as for the problem `spec` (a value of its
    answer shape, for the kind's picture), or None when it cannot be read."""
    try:
        return grading.read(spec, text)[0]
    except (AnswerError, ArithmeticError, ValueError, RecursionError, MemoryError):
        return None
