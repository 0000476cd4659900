"""The tuple shape: two or more answers in one, each of its own shape, separated by `;`."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..parse import AnswerError, Reading
from .base import Format, Shape, listed, ordinal
from .reading import MAX_PARTS, MAX_SEQUENCE_CHARS, length_bound

_COUNTS = {2: "Two", 3: "Three", 4: "Four", 5: "Five"}


class TupleShape(Shape):
    """Two or more answers in one, typed separated by `;` (`parts` and their `names`)."""

    def __init__(self, parts: Sequence[Shape], names: Sequence[str]) -> None:
        if not 2 <= len(parts) <= MAX_PARTS or len(parts) != len(names):
            raise ValueError(f"a tuple has 2 to {MAX_PARTS} parts, each with a name")
        self.parts = tuple(parts)
        self.names = tuple(names)
        self.noun = listed(
            [f"{name} ({part.noun})" for part, name in zip(parts, names, strict=True)]
        )

    def __repr__(self) -> str:
        return f"TupleShape({self.parts!r}, {self.names!r})"

    def formats(self) -> tuple[Format, ...]:
        ways = [part.formats()[0] for part in self.parts]
        # A part without examples (a choice) contributes its options, in turn.
        pools = [
            way.examples or getattr(part, "options", ("…",))
            for way, part in zip(ways, self.parts, strict=True)
        ]
        count = max(len(pool) for pool in pools)
        examples = tuple(
            "; ".join(pool[(k + i) % len(pool)] for i, pool in enumerate(pools))
            for k in range(count)
        )
        return (
            Format(
                f"{_COUNTS.get(len(self.parts), str(len(self.parts)))} parts separated by ';': "
                + ", then ".join(
                    f"{name} ({part.noun})"
                    for name, part in zip(self.names, self.parts, strict=True)
                ),
                examples,
            ),
        )

    def read(self, text: str) -> Reading:
        length_bound(text, MAX_SEQUENCE_CHARS * len(self.parts))
        pieces = _split_parts(text)
        if len(pieces) != len(self.parts):
            raise AnswerError(
                f"the answer has {len(pieces)} part{'s' if len(pieces) != 1 else ''}; type "
                f"{len(self.parts)} separated by ';': {self.noun}"
            )
        readings = []
        for index, (part, (start, piece)) in enumerate(zip(self.parts, pieces, strict=True)):
            try:
                readings.append(part.read(piece))
            except AnswerError as error:
                column = "" if error.column is None else f" (at column {start + error.column})"
                raise AnswerError(
                    f"in the {ordinal(index)} part ({self.names[index]}): "
                    f"{error.message.rsplit(' (at column', 1)[0]}{column}",
                    bound=error.bound,
                ) from None
        value = tuple(r.value for r in readings)
        # A part typed as one decimal (a scalar part) carries it up, so the decimal policy
        # applies to it as to a scalar answer; other parts are compared exactly.
        decimals = tuple(
            r.coordinate_decimals[0] if len(r.coordinate_decimals) == 1 else None for r in readings
        )
        return Reading(
            value=value,
            tex=";\\quad ".join(r.tex for r in readings),
            parts=tuple(readings),
            coordinate_decimals=decimals if any(decimals) else (),
        )

    def equal(self, answer: Any, expected: Any) -> bool:
        return all(
            part.equal(a, b) for part, a, b in zip(self.parts, answer, expected, strict=True)
        )

    def key(self, value: Any) -> Hashable | None:
        keys = tuple(part.key(v) for part, v in zip(self.parts, value, strict=True))
        return None if None in keys else keys

    def tex(self, value: Any) -> str:
        return ";\\quad ".join(part.tex(v) for part, v in zip(self.parts, value, strict=True))

    def typed(self, value: Any) -> str:
        return "; ".join(part.typed(v) for part, v in zip(self.parts, value, strict=True))

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return tuple(
            k
            for k, (part, a, b) in enumerate(zip(self.parts, answer, expected, strict=True))
            if not part.equal(a, b)
        )

    def describe_differences(self, answer: Any, expected: Any) -> str:
        parts = [
            f"in the {ordinal(k)} part ({self.names[k]}), "
            + self.parts[k].describe_differences(answer[k], expected[k])
            for k in self.differences(answer, expected)
        ]
        return listed(parts) if parts else "your answer is not the right one"

    def matches(self, reading: Reading, target: Any) -> bool:
        if not reading.parts:
            return self.equal(reading.value, target)
        return all(
            part.matches(r, t) for part, r, t in zip(self.parts, reading.parts, target, strict=True)
        )


def _split_parts(text: str) -> list[tuple[int, str]]:
    """Split at `;` outside quotes and brackets; return (0-based start, text) per part."""
    parts: list[tuple[int, str]] = []
    depth, quote, start, escaped = 0, "", 0, False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in "\"'":
            quote = char
        elif char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            parts.append((start, text[start:index]))
            start = index + 1
            if len(parts) > MAX_PARTS:
                break
    parts.append((start, text[start:]))
    return parts
