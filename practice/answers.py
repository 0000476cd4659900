"""Read the learner's answer back into a vector, to draw it beside the right one."""

from collections.abc import Sequence
from typing import Any

from grading.parse import AnswerError, read_answer


def answer_vector(text: str) -> Sequence[Any] | None:
    """Return the vector the learner's text evaluates to, or None when it is not one vector.

    The grader's own bounded reader does the work, so a hostile text costs no more here than
    it did when it was marked.
    """
    try:
        value = read_answer(text).value
    except (AnswerError, ArithmeticError, ValueError):
        return None
    return value if isinstance(value, tuple) else None
