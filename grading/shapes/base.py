"""The contract every answer shape keeps (`Shape`), how a shape says it is typed (`Format`),
and the words its messages share (`ordinal`, `listed`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

from ..compare import Bound
from ..parse import Reading

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


class Format(NamedTuple):
    """One way of typing an answer: a phrase that starts a sentence ("A vector with 2
    coordinates in brackets") and examples of it, tried in order until one is neither the
    problem's answer nor a catalogued mistake's (none: the phrase says enough)."""

    phrase: str
    examples: tuple[str, ...] = ()


def ordinal(index: int) -> str:
    """Return 'first', 'second', ... for a 0-based index."""
    return _ORDINALS[index] if index < len(_ORDINALS) else f"number {index + 1}"


def listed(parts: Sequence[str]) -> str:
    """Return 'a', 'a and b' or 'a, b and c'."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


class Shape:
    """Base of every answer shape: the methods each shape defines (see the module docstring)."""

    #: What the answer is, for messages: "a vector with 2 coordinates", "a whole number".
    noun: str = "an answer"
    #: How the engine names a learner's whole answer: "the final vector".
    final: str = "the final answer"

    def read(self, text: str) -> Reading:
        """Read learner text, or raise AnswerError saying what could not be read and where."""
        raise NotImplementedError

    def equal(self, answer: Any, expected: Any) -> bool:
        """Return True when two values of this shape are exactly equal."""
        return bool(answer == expected)

    def key(self, value: Any) -> Hashable | None:
        """Return an exact canonical key of a value (None when it has none)."""
        return value

    def tex(self, value: Any) -> str:
        """Return TeX for a value: what "your answer was read as" shows."""
        raise NotImplementedError

    def typed(self, value: Any) -> str:
        """Return text a learner could type for a value, which this shape reads back as it
        (for question tests, examples and the command line)."""
        return str(value)

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        """Return the 0-based positions at which the answer differs from the expected value."""
        return () if self.equal(answer, expected) else (0,)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        """Return a phrase saying what differs (no capital, no full stop)."""
        return "your answer is not the right one"

    def matches(self, reading: Reading, target: Any) -> bool:
        """Return True when what was read is `target` (a typed decimal may round it)."""
        return self.equal(reading.value, target)

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        """Return high-precision approximations of a value's numbers for a cheap first test
        (None: the shape compares exactly only)."""
        return None

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        """Return a value's numbers as floats with error bounds, for the cheapest first test
        (None: the shape has none, or one is not available)."""
        return None

    def formats(self) -> tuple[Format, ...]:
        """Return how an answer of this shape is typed: one `Format` per way, each a phrase
        and example candidates (for the answer box's help; see grading.answer_help)."""
        return (Format(f"Type {self.noun}"),)
