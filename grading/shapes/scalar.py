"""The scalar shape: one exact number, or a decimal read under the rounding policy."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..compare import Bound, approx, as_fraction, equal, float_bound
from ..parse import AnswerError, Reading, read_answer
from ..tex import scalar_tex
from .base import Format, Shape
from .differences import describe_offset, rounds


class ScalarShape(Shape):
    """One exact number: rational, or with `sqrt`, `exp`, `pi`, `e` (and `log`, the natural
    logarithm, with `logs`: an answer that may need one); decimals per the policy."""

    noun = "one number"

    def __init__(self, *, logs: bool = False) -> None:
        self.logs = logs

    def __repr__(self) -> str:
        return "ScalarShape(logs=True)" if self.logs else "ScalarShape()"

    def formats(self) -> tuple[Format, ...]:
        if self.logs:
            return (
                Format(
                    "One number, exact (log is the natural logarithm) or as a decimal with at "
                    "least three significant figures",
                    ("log(5/2)", "2*log(3)", "-7/4", "0.554"),
                ),
            )
        return (
            Format(
                "One number, exact or as a decimal with at least three significant figures",
                ("2/sqrt(13)", "-7/4", "0.554"),
            ),
        )

    def read(self, text: str) -> Reading:
        reading = read_answer(text, logs=self.logs)
        if isinstance(reading.value, tuple):
            raise AnswerError(
                f"a vector of {len(reading.value)} coordinates was read; the answer is one number",
                tex=reading.tex,
            )
        return reading

    def equal(self, answer: Any, expected: Any) -> bool:
        return equal(answer, expected)

    def key(self, value: Any) -> Hashable | None:
        return as_fraction(value)

    def tex(self, value: Any) -> str:
        return scalar_tex(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        offset = describe_offset(0, "number", answer, expected)
        return (offset or "your number is not the answer").replace("the first number", "it")

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        return (approx(value),)

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        found = float_bound(value)
        return None if found is None else (found,)

    def matches(self, reading: Reading, target: Any) -> bool:
        decimals = reading.coordinate_decimals
        return rounds(decimals[0] if decimals else None, reading.value, target)
