"""The whole-number shape: one integer, such as `7` or `-3`."""

from __future__ import annotations

from typing import Any

from ..parse import AnswerError, Reading
from .base import Format, Shape
from .reading import MAX_SEQUENCE_CHARS, check_integer_text, length_bound, read_integer


class IntegerShape(Shape):
    """One whole number, such as `7` or `-3`."""

    noun = "a whole number"

    def __repr__(self) -> str:
        return "IntegerShape()"

    def formats(self) -> tuple[Format, ...]:
        return (Format("A whole number", ("7", "12", "-3")),)

    def read(self, text: str) -> Reading:
        length_bound(text, MAX_SEQUENCE_CHARS)
        folded = check_integer_text(text)
        item = folded.strip()
        if not item:
            raise AnswerError("the answer is empty: type a whole number such as 7")
        value = read_integer(item, folded.index(item[0]) + 1)
        return Reading(value=value, tex=str(value))

    def tex(self, value: Any) -> str:
        return str(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return f"{answer} is not the answer"
