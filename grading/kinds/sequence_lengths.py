"""``sequence_lengths``: positions at character level and at piece level, and their ratio.

The problem shows a passage and the pieces a subword tokenizer cuts it into. The learner counts
the passage's characters (every character is a position: letters, spaces and punctuation
alike), counts the pieces, and gives how many times longer the character sequence is,
``characters / pieces``.

The answer is a tuple: part 0 the characters, part 1 the pieces (integers), part 2 the ratio
(an exact scalar; a decimal counts under the engine's decimal policy).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from grading.kinds._markdown import md_code
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import IntegerShape, ScalarShape, TupleShape
from grading.spec import SpecError
from grading.tex import ratio_tex

MAX_PIECES = 40
MAX_PIECE_CHARS = 20

Answer = tuple[int, int, Fraction]


@dataclass(frozen=True)
class SequenceLengthsProblem:
    """A passage given as its pieces, in order (spaces inside the pieces as real spaces)."""

    pieces: tuple[str, ...]

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    @property
    def characters(self) -> int:
        return len(self.text)

    @property
    def spaces(self) -> int:
        return self.text.count(" ")

    @property
    def words(self) -> int:
        return len(self.text.split())


def _ratio_tex(a: int, b: int) -> str:
    """Return ``\\frac{a}{b}``, reduced and rounded when that says more: ``27/6 = 9/2 = 4.5``."""
    value = Fraction(a, b)
    text = f"\\frac{{{a}}}{{{b}}}"
    if value.denominator == 1:
        return f"{text} = {value.numerator}"
    if value.denominator != b:
        text += f" = \\frac{{{value.numerator}}}{{{value.denominator}}}"
    relation = "=" if value * 1000 == int(value * 1000) else "\\approx"
    return f"{text} {relation} {float(value):.3g}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _answer(characters: int, pieces: int) -> Answer:
    return characters, pieces, Fraction(characters, pieces)


# -- mistakes ------------------------------------------------------------------------------


def _no_spaces_variants(p: SequenceLengthsProblem) -> Iterable[Variant]:
    yield Variant("spaces_not_counted", (0,), {})


def _no_spaces_apply(p: SequenceLengthsProblem, v: Variant) -> Answer:
    return _answer(p.characters - p.spaces, len(p.pieces))


def _no_spaces_explain(p: SequenceLengthsProblem, d: object) -> str:
    return (
        f"You counted {_plural(p.characters - p.spaces, 'character')}: the passage without "
        f"its {_plural(p.spaces, 'space')}. A space is a character like any other and takes "
        f"a position of its own, so the passage has {p.characters} characters and the ratio is "
        f"${_ratio_tex(p.characters, len(p.pieces))}$."
    )


def _words_variants(p: SequenceLengthsProblem) -> Iterable[Variant]:
    yield Variant("counted_words", (1,), {})


def _words_apply(p: SequenceLengthsProblem, v: Variant) -> Answer:
    return _answer(p.characters, p.words)


def _words_explain(p: SequenceLengthsProblem, d: object) -> str:
    return (
        f"You gave {_plural(p.words, 'position')} at piece level: the number of words. "
        f"The tokenizer's pieces are what take positions, and they are not the words: a rare "
        f"word is cut into several pieces and punctuation is a piece of its own. Count the "
        f"pieces as shown: {len(p.pieces)}, so the ratio is "
        f"${_ratio_tex(p.characters, len(p.pieces))}$."
    )


def _inverted_variants(p: SequenceLengthsProblem) -> Iterable[Variant]:
    yield Variant("ratio_inverted", (2,), {})


def _inverted_apply(p: SequenceLengthsProblem, v: Variant) -> Answer:
    return p.characters, len(p.pieces), Fraction(len(p.pieces), p.characters)


def _inverted_explain(p: SequenceLengthsProblem, d: object) -> str:
    return (
        f"Your ratio is upside down: ${_ratio_tex(len(p.pieces), p.characters)}$ is pieces per "
        f"character, less than 1. The question asks how many times longer the character "
        f"sequence is: characters divided by pieces, "
        f"${_ratio_tex(p.characters, len(p.pieces))}$."
    )


@register
class SequenceLengths(Kind):
    """Count a passage's positions as characters and as pieces; give the ratio."""

    name = "sequence_lengths"
    label = "Positions as characters and as pieces"
    mistakes = (
        MistakeDef(
            code="spaces_not_counted",
            number=1,
            label="did not count spaces as characters",
            parts="[0]: the characters",
            variants=_no_spaces_variants,
            apply=_no_spaces_apply,
            explain=_no_spaces_explain,
        ),
        MistakeDef(
            code="counted_words",
            number=2,
            label="counted words instead of pieces",
            parts="[1]: the pieces",
            variants=_words_variants,
            apply=_words_apply,
            explain=_words_explain,
        ),
        MistakeDef(
            code="ratio_inverted",
            number=3,
            label="turned the ratio upside down",
            parts="[2]: the ratio",
            variants=_inverted_variants,
            apply=_inverted_apply,
            explain=_inverted_explain,
        ),
    )

    def load(self, spec: dict) -> SequenceLengthsProblem:
        """Validate ``pieces`` (non-empty strings); raise ``SpecError`` naming the field."""
        pieces = spec.get("pieces")
        if not isinstance(pieces, list) or not 1 <= len(pieces) <= MAX_PIECES:
            raise SpecError("pieces", f"must be a list of 1 to {MAX_PIECES} pieces")
        for k, piece in enumerate(pieces):
            if not isinstance(piece, str) or not 1 <= len(piece) <= MAX_PIECE_CHARS:
                raise SpecError(
                    f"pieces[{k}]", f"must be a string of 1 to {MAX_PIECE_CHARS} characters"
                )
            if any(ch in piece for ch in "\n\t\r"):
                raise SpecError(f"pieces[{k}]", "must not hold tabs or line breaks")
        if not "".join(pieces).strip():
            raise SpecError("pieces", "must hold some text besides spaces")
        return SequenceLengthsProblem(tuple(pieces))

    def shape(self, problem: SequenceLengthsProblem) -> TupleShape:
        return TupleShape(
            (IntegerShape(), IntegerShape(), ScalarShape()),
            ("characters", "pieces", "the ratio"),
        )

    def right(self, problem: SequenceLengthsProblem) -> Answer:
        return _answer(problem.characters, len(problem.pieces))

    def right_tex(self, problem: SequenceLengthsProblem) -> str:
        c, n = problem.characters, len(problem.pieces)
        return f"{c};\\ {n};\\ {_ratio_tex(c, n)}"

    def steps(self, problem: SequenceLengthsProblem) -> tuple[Step, ...]:
        lengths = [len(piece) for piece in problem.pieces]
        characters = sum(lengths)
        pieces = len(problem.pieces)
        counted = " + ".join(
            f"{md_code(piece)} {n}" for piece, n in zip(problem.pieces, lengths, strict=True)
        )
        spaces = problem.text.count(" ")
        return (
            Step(
                "Characters: every character is a position, spaces (▁) and punctuation "
                f"included; piece by piece, {counted} = {characters} "
                f"({_plural(spaces, 'space')} among them).",
                characters,
            ),
            Step(f"Pieces: the tokenizer cut the passage into {pieces} pieces.", pieces),
            Step(
                f"How many times longer: ${_ratio_tex(characters, pieces)}$. The answer is "
                f"${characters};\\ {pieces};\\ {ratio_tex(characters, pieces)}$.",
                (characters, pieces, Fraction(characters, pieces)),
            ),
        )

    def hint(self, problem: SequenceLengthsProblem) -> str:
        return (
            "Count every character of the passage, spaces and punctuation included; count the "
            "pieces as they are shown (not the words); then divide characters by pieces."
        )
