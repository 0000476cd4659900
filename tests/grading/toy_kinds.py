"""Small kinds of every answer shape, for testing the engine without the course's kinds.

They are registered by the `toy_kinds` fixture only (and removed after), so the registry the
rest of the suite sees is the package's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from grading.kinds.base import Kind, MistakeDef, variant
from grading.shapes import (
    Choice,
    IntegerSequence,
    IntegerShape,
    PieceSequence,
    ScalarShape,
    TupleShape,
)
from grading.spec import SpecError


@dataclass(frozen=True)
class Word:
    word: str


def _word(spec: dict[str, Any]) -> Word:
    word = spec.get("word")
    if not isinstance(word, str) or not 1 <= len(word) <= 12:
        raise SpecError("word", "must be a word of 1 to 12 characters")
    return Word(word)


class ToyBytes(Kind):
    """UTF-8 bytes of a word (an integer sequence)."""

    name = "toy_bytes"
    label = "Bytes of a word"
    mistakes = (
        MistakeDef(
            code="code_points",
            number=1,
            label="wrote the code points instead of the bytes",
            apply=lambda p, d: tuple(ord(c) for c in p.word),
            explain=lambda p, d: f"You wrote the code points of *{p.word}*, not its bytes.",
        ),
        MistakeDef(
            code="dropped_byte",
            number=2,
            label="left one byte out",
            parts="[k]: the byte left out",
            variants=lambda p: [
                variant("dropped_byte", (k,)) for k in range(len(p.word.encode("utf-8")))
            ],
            apply=lambda p, d: tuple(
                b for k, b in enumerate(p.word.encode("utf-8")) if k != d.terms[0]
            ),
            explain=lambda p, d: f"You left out byte {d.terms[0]}.",
            describe=lambda p, d: f"leaving out byte {d.terms[0]}",
        ),
    )

    def load(self, spec: dict[str, Any]) -> Word:
        return _word(spec)

    def shape(self, problem: Word) -> IntegerSequence:
        return IntegerSequence(48)

    def right(self, problem: Word) -> tuple[int, ...]:
        return tuple(problem.word.encode("utf-8"))

    def size(self, problem: Word) -> int:
        return len(problem.word.encode("utf-8"))

    def hint(self, problem: Word) -> str:
        return "Encode each character, then list the bytes in order."


class ToyPieces(Kind):
    """The word cut after its first two characters (a piece sequence)."""

    name = "toy_pieces"
    label = "Cut a word"
    mistakes = (
        MistakeDef(
            code="uncut",
            number=1,
            label="left the word whole",
            apply=lambda p, d: (p.word,),
            explain=lambda p, d: "You left the word whole.",
        ),
        MistakeDef(
            code="cut_late",
            number=2,
            label="cut one character late",
            apply=lambda p, d: (p.word[:3], p.word[3:]),
            explain=lambda p, d: "You cut one character late.",
        ),
    )

    def load(self, spec: dict[str, Any]) -> Word:
        problem = _word(spec)
        if len(problem.word) < 4:
            raise SpecError("word", "must have at least 4 characters")
        return problem

    def shape(self, problem: Word) -> PieceSequence:
        return PieceSequence(8)

    def right(self, problem: Word) -> tuple[str, ...]:
        return (problem.word[:2], problem.word[2:])


class ToyChoice(Kind):
    """Static or contextual (one choice); both mistakes give the same answer on purpose."""

    name = "toy_choice"
    label = "Static or contextual"
    mistakes = (
        MistakeDef(
            code="thought_static",
            number=1,
            label="thought the row is looked up once",
            apply=lambda p, d: "static",
            explain=lambda p, d: "You thought the row is looked up once.",
        ),
        MistakeDef(
            code="ignored_layers",
            number=2,
            label="forgot the layers",
            apply=lambda p, d: "static",
            explain=lambda p, d: "You forgot the layers.",
        ),
    )

    def load(self, spec: dict[str, Any]) -> str:
        return "contextual"

    def shape(self, problem: str) -> Choice:
        return Choice(["static", "contextual"])

    def right(self, problem: str) -> str:
        return problem


@dataclass(frozen=True)
class Pair:
    a: tuple[int, int]
    b: tuple[int, int]


class ToyCosine(Kind):
    """The cosine of two integer vectors (a scalar with sqrt)."""

    name = "toy_cosine"
    label = "Cosine of two vectors"
    mistakes = (
        MistakeDef(
            code="dot_only",
            number=1,
            label="gave the dot product without dividing",
            apply=lambda p, d: Fraction(_dot(p)),
            explain=lambda p, d: f"You gave the dot product, {_dot(p)}, without dividing.",
        ),
    )

    def load(self, spec: dict[str, Any]) -> Pair:
        return Pair(tuple(spec["a"]), tuple(spec["b"]))

    def shape(self, problem: Pair) -> ScalarShape:
        return ScalarShape()

    def right(self, problem: Pair) -> sympy.Expr:
        norms = sympy.sqrt(sum(x * x for x in problem.a)) * sympy.sqrt(
            sum(x * x for x in problem.b)
        )
        return sympy.Integer(_dot(problem)) / norms

    def hint(self, problem: Pair) -> str:
        return "Divide the dot product by both lengths."


def _dot(p: Pair) -> int:
    return sum(x * y for x, y in zip(p.a, p.b, strict=True))


class ToyPair(Kind):
    """A count and a yes/no (a tuple); the mistake is in the second part only."""

    name = "toy_pair"
    label = "Count and decide"
    mistakes = (
        MistakeDef(
            code="said_no",
            number=1,
            label="said no",
            apply=lambda p, d: (len(p.word), "no"),
            explain=lambda p, d: "You said no.",
        ),
    )

    def load(self, spec: dict[str, Any]) -> Word:
        return _word(spec)

    def shape(self, problem: Word) -> TupleShape:
        return TupleShape([IntegerShape(), Choice(["yes", "no"])], ["count", "same"])

    def right(self, problem: Word) -> tuple[int, str]:
        return (len(problem.word), "yes")


TOYS = (ToyBytes, ToyPieces, ToyChoice, ToyCosine, ToyPair)
