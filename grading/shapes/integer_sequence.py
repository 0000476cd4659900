"""The integer-sequence shape: whole numbers in order, such as `[4, 0, 7]` or `4 0 7`."""

from __future__ import annotations

import re
from typing import Any

from ..parse import AnswerError, Reading
from .base import Format, Shape
from .differences import describe_sequence, sequence_differences
from .reading import MAX_SEQUENCE_CHARS, check_integer_text, length_bound, read_integer


class IntegerSequence(Shape):
    """A sequence of whole numbers: `[4, 0, 7]`, `4 0 7` or `4, 0, 7` (at most `max_len`).

    With `hexadecimal`, an entry may also be written `0xC3` (any letter case after `0x`),
    mixed with decimal ones; the value and "read as" are decimal.
    """

    def __init__(self, max_len: int, *, min_len: int = 1, hexadecimal: bool = False) -> None:
        self.max_len = max_len
        self.min_len = min_len
        self.hexadecimal = hexadecimal
        self.noun = "a sequence of whole numbers"

    def __repr__(self) -> str:
        return f"IntegerSequence({self.max_len})"

    def formats(self) -> tuple[Format, ...]:
        if self.hexadecimal:
            return (
                Format(
                    "Whole numbers in order, separated by spaces or commas, in decimal or in "
                    "hexadecimal with 0x",
                    ("67 97 195 169", "0x43 0x61 0xC3 0xA9", "[7, 0x20, 201]"),
                ),
            )
        return (
            Format(
                "Whole numbers in order, separated by spaces or commas",
                ("[4, 0, 7]", "4 0 7", "[5, 2, 9, 1]", "3 1 2"),
            ),
        )

    def read(self, text: str) -> Reading:
        length_bound(text, MAX_SEQUENCE_CHARS)
        folded = check_integer_text(text, hexadecimal=self.hexadecimal)
        body, offset = _unbracket(folded)
        items: list[int] = []
        for match in re.finditer(r"[^\s,]+", body):
            if len(items) >= self.max_len:
                raise AnswerError(
                    f"the answer has more than {self.max_len} numbers",
                    column=offset + match.start() + 1,
                    bound="count",
                )
            items.append(
                read_integer(
                    match.group(), offset + match.start() + 1, hexadecimal=self.hexadecimal
                )
            )
        _check_separators(body, offset)
        if len(items) < self.min_len:
            raise AnswerError(
                f"the answer has {len(items)} number{'s' if len(items) != 1 else ''}; "
                f"type at least {self.min_len}, such as [4, 0, 7]"
            )
        value = tuple(items)
        return Reading(value=value, tex=self.tex(value))

    def tex(self, value: Any) -> str:
        return "\\left[" + ",\\ ".join(str(x) for x in value) + "\\right]"

    def typed(self, value: Any) -> str:
        return "[" + ", ".join(str(x) for x in value) + "]"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return sequence_differences(answer, expected)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return describe_sequence(answer, expected, "number", str)


def _unbracket(text: str) -> tuple[str, int]:
    """Return the text inside one pair of [] or () around it (or the text), and its offset."""
    stripped = text.strip()
    start = text.index(stripped[0]) if stripped else 0
    if stripped[:1] in "[(" and stripped:
        close = "]" if stripped[0] == "[" else ")"
        if stripped[-1:] != close:
            raise AnswerError(f"the bracket {stripped[0]!r} is not closed", column=start + 1)
        inner = stripped[1:-1]
        if any(bracket in inner for bracket in "[]()"):
            raise AnswerError("brackets inside the sequence are not read; type [4, 0, 7]")
        return inner, start + 1
    for index, char in enumerate(text):
        if char in "[]()":
            raise AnswerError(f"the bracket {char!r} is out of place", column=index + 1)
    return text, 0


def _check_separators(body: str, offset: int) -> None:
    """Refuse empty entries such as `4,,7` or a comma before the first number."""
    for match in re.finditer(r",", body):
        before = body[: match.start()].rstrip()
        after = body[match.end() :].lstrip()
        if not before or before.endswith(",") or not after:
            raise AnswerError(
                "an entry is missing around a comma", column=offset + match.start() + 1
            )
