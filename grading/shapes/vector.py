"""The vector shape: a column vector of exact coordinates, or a sum of weighted vectors."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..compare import Bound, approx, as_fraction, equal, float_bound, vectors_equal
from ..parse import AnswerError, Reading, read_answer
from ..tex import vector_tex
from .base import Format, Shape, listed
from .differences import describe_offset, rounds

# Coordinates of the example vectors in the answer box's help, cycled to the shape's dimension.
_EXAMPLE_COORDINATES = (
    ("1/2", "1", "0", "-2"),
    ("-7/3", "5/4", "2", "1/3"),
    ("9/7", "-2/9", "-1", "4"),
)


def sum_examples(dim: int) -> tuple[str, ...]:
    """Return sums of two weighted vectors of `dim` coordinates, written out term by term."""
    rows = [
        "[" + ", ".join(row[k % len(row)] for k in range(dim)) + "]"
        for row in (("1", "0", "2"), ("0", "2", "-1"), ("-2", "3", "1"), ("4", "-1", "0"))
    ]
    return (
        f"1/2*{rows[0]} + 1/2*{rows[1]}",
        f"1/3*{rows[0]} + 2/3*{rows[1]}",
        f"5/7*{rows[2]} + 2/7*{rows[3]}",
    )


class Vector(Shape):
    """A column vector of `dim` exact coordinates, or a sum of weighted vectors written out."""

    def __init__(self, dim: int, *, logs: bool = False) -> None:
        self.dim = dim
        self.logs = logs  # log(x), the natural logarithm, is read in coordinates
        self.final = "the final vector"
        self.noun = f"a vector with {dim} coordinate{'s' if dim != 1 else ''}"

    def __repr__(self) -> str:
        return f"Vector({self.dim}, logs=True)" if self.logs else f"Vector({self.dim})"

    def formats(self) -> tuple[Format, ...]:
        examples = tuple(
            "[" + ", ".join(row[k % len(row)] for k in range(self.dim)) + "]"
            for row in _EXAMPLE_COORDINATES
        )
        if self.logs:
            return (
                Format(
                    f"A vector with {self.dim} coordinates in brackets (log is the natural "
                    "logarithm)",
                    examples,
                ),
            )
        return (Format(f"A vector with {self.dim} coordinates in brackets", examples),)

    def read(self, text: str) -> Reading:
        reading = read_answer(text, logs=self.logs)
        value = reading.value
        if not isinstance(value, tuple):
            raise AnswerError(
                f"a single number was read; the answer is {self.noun}", tex=reading.tex
            )
        if len(value) != self.dim:
            raise AnswerError(
                f"your vector has {len(value)} coordinate{'s' if len(value) != 1 else ''}; "
                f"this problem's vectors have {self.dim}",
                tex=reading.tex,
            )
        return reading

    def equal(self, answer: Any, expected: Any) -> bool:
        return vectors_equal(answer, expected)

    def key(self, value: Any) -> Hashable | None:
        fractions = tuple(as_fraction(x) for x in value)
        return None if None in fractions else fractions

    def tex(self, value: Any) -> str:
        return vector_tex(value)

    def typed(self, value: Any) -> str:
        return "[" + ", ".join(str(x) for x in value) + "]"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return tuple(
            d for d, (x, y) in enumerate(zip(answer, expected, strict=True)) if not equal(x, y)
        )

    def describe_differences(self, answer: Any, expected: Any) -> str:
        parts = [
            part
            for d, (got, want) in enumerate(zip(answer, expected, strict=True))
            if (part := describe_offset(d, "coordinate", got, want)) is not None
        ]
        return listed(parts) if parts else "your vector is not the answer"

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        return tuple(approx(x) for x in value)

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        found = tuple(float_bound(x) for x in value)
        return None if None in found else found  # type: ignore[return-value]

    def matches(self, reading: Reading, target: Any) -> bool:
        decimals = reading.coordinate_decimals
        for d, (got, want) in enumerate(zip(reading.value, target, strict=True)):
            if not rounds(decimals[d] if d < len(decimals) else None, got, want):
                return False
        return True
