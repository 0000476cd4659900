"""``digit_chunks``: the pieces of a number under a stated chunking rule, and a digit's worth.

A run of digits is cut into pieces of up to ``group`` digits, counting from the left (so only
the last piece may be shorter). The learner writes the pieces and what one marked digit is worth
in the whole number: the digit times ten to the number of digits that follow it *in the
number*, which the piece it sits in does not show.

The answer is a tuple: part 0 the pieces (a piece sequence), part 1 the worth (an integer).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import Format, IntegerShape, PieceSequence, TupleShape
from grading.spec import SpecError

MAX_DIGITS = 15
MAX_CONTEXT_CHARS = 120
GROUPS = (2, 3, 4)

Answer = tuple[tuple[str, ...], int]


@dataclass(frozen=True)
class DigitChunksProblem:
    """A digit string, the largest piece, and the marked digit's 0-based position."""

    number: str
    group: int
    marked: int

    @property
    def digit(self) -> int:
        return int(self.number[self.marked])

    @property
    def after(self) -> int:
        """Return how many digits follow the marked one in the whole number."""
        return len(self.number) - 1 - self.marked

    def piece_of_marked(self) -> tuple[int, int]:
        """Return (index of the piece holding the marked digit, digits after it in that piece)."""
        pieces = chunks_from_left(self.number, self.group)
        start = 0
        for index, piece in enumerate(pieces):
            if start <= self.marked < start + len(piece):
                return index, start + len(piece) - 1 - self.marked
            start += len(piece)
        raise AssertionError("marked digit outside the number")


def chunks_from_left(digits: str, group: int) -> tuple[str, ...]:
    """Cut ``digits`` into pieces of ``group`` digits from the left; the last may be shorter."""
    return tuple(digits[k : k + group] for k in range(0, len(digits), group))


def chunks_from_right(digits: str, group: int) -> tuple[str, ...]:
    """Cut ``digits`` into pieces of ``group`` digits from the right; the first may be shorter."""
    head = len(digits) % group
    return ((digits[:head],) if head else ()) + chunks_from_left(digits[head:], group)


def _pieces_md(pieces: Iterable[str]) -> str:
    return " | ".join(f"`{p}`" for p in pieces)  # bars: "`1` `965`" would read as a number


def _follow(count: int) -> str:
    """Return '1 digit follows' or '2 digits follow'."""
    return "1 digit follows" if count == 1 else f"{count} digits follow"


def _worth_tex(digit: int, power: int) -> str:
    return f"{digit} \\times 10^{{{power}}} = {digit * 10**power}"


# -- mistakes ------------------------------------------------------------------------------


def _from_right_variants(p: DigitChunksProblem) -> Iterable[Variant]:
    yield Variant("grouped_from_right", (0,), {})


def _from_right_apply(p: DigitChunksProblem, v: Variant) -> Answer:
    return chunks_from_right(p.number, p.group), worth(p)


def _from_right_explain(p: DigitChunksProblem, d: object) -> str:
    wrong = chunks_from_right(p.number, p.group)
    right = chunks_from_left(p.number, p.group)
    return (
        f"Your pieces {_pieces_md(wrong)} group the digits from the right, as thousands "
        f"separators do. The rule cuts from the left: the first piece takes the first "
        f"{p.group} digits, `{right[0]}`, and only the last piece may be shorter, so the "
        f"pieces are {_pieces_md(right)}."
    )


def _one_digit_variants(p: DigitChunksProblem) -> Iterable[Variant]:
    yield Variant("one_digit_per_piece", (0,), {})


def _one_digit_apply(p: DigitChunksProblem, v: Variant) -> Answer:
    return tuple(p.number), worth(p)


def _one_digit_explain(p: DigitChunksProblem, d: object) -> str:
    right = chunks_from_left(p.number, p.group)
    return (
        f"Your answer has one piece per digit, {len(p.number)} pieces. Some tokenizers do cut "
        f"numbers that way, but this one puts up to {p.group} digits in a piece: "
        f"{_pieces_md(right)}, {len(right)} pieces."
    )


def _within_piece_variants(p: DigitChunksProblem) -> Iterable[Variant]:
    index, inside = p.piece_of_marked()
    yield Variant("place_within_piece", (1,), {"piece": index, "inside": inside})


def _within_piece_apply(p: DigitChunksProblem, v: Variant) -> Answer:
    return chunks_from_left(p.number, p.group), p.digit * 10 ** p.piece_of_marked()[1]


def _within_piece_explain(p: DigitChunksProblem, d: object) -> str:
    index, inside = p.piece_of_marked()
    piece = chunks_from_left(p.number, p.group)[index]
    return (
        f"You gave ${_worth_tex(p.digit, inside)}$: what the {p.digit} is worth inside its piece "
        f"`{piece}`, where {_follow(inside)} it. "
        f"In the whole number {_follow(p.after)} it, so it is worth "
        f"${_worth_tex(p.digit, p.after)}$. The piece's id is the same wherever the piece "
        f"stands; how many digits come after it is exactly what the piece does not say."
    )


def _off_by_one_variants(p: DigitChunksProblem) -> Iterable[Variant]:
    yield Variant("place_off_by_one", (1,), {})


def _off_by_one_apply(p: DigitChunksProblem, v: Variant) -> Answer:
    return chunks_from_left(p.number, p.group), p.digit * 10 ** (p.after + 1)


def _off_by_one_explain(p: DigitChunksProblem, d: object) -> str:
    return (
        f"You gave ${_worth_tex(p.digit, p.after + 1)}$: that counts the {p.digit} itself among "
        f"the digits after it: {_follow(p.after)} it, so its place value is "
        f"$10^{{{p.after}}}$ and it is worth ${_worth_tex(p.digit, p.after)}$."
    )


def worth(p: DigitChunksProblem) -> int:
    """Return what the marked digit stands for in the whole number."""
    return p.digit * 10**p.after


@register
class DigitChunks(Kind):
    """Cut a number into digit pieces from the left; give one digit's worth in the number."""

    name = "digit_chunks"
    label = "Digit pieces of a number and a digit's worth"
    mistakes = (
        MistakeDef(
            code="grouped_from_right",
            number=1,
            label="grouped the digits from the right",
            parts="[0]: the pieces",
            variants=_from_right_variants,
            apply=_from_right_apply,
            explain=_from_right_explain,
        ),
        MistakeDef(
            code="one_digit_per_piece",
            number=2,
            label="cut one digit per piece",
            parts="[0]: the pieces",
            variants=_one_digit_variants,
            apply=_one_digit_apply,
            explain=_one_digit_explain,
        ),
        MistakeDef(
            code="place_within_piece",
            number=3,
            label="took the digit's place value within its piece",
            parts="[1]: the digit's worth",
            variants=_within_piece_variants,
            apply=_within_piece_apply,
            explain=_within_piece_explain,
        ),
        MistakeDef(
            code="place_off_by_one",
            number=4,
            label="counted the digit itself among the digits after it",
            parts="[1]: the digit's worth",
            variants=_off_by_one_variants,
            apply=_off_by_one_apply,
            explain=_off_by_one_explain,
        ),
    )

    def load(self, spec: dict) -> DigitChunksProblem:
        """Validate ``number`` (digits), ``group``, ``marked`` and the optional ``context`` (the
        sentence the number stands in, ``{n}`` marking it); raise ``SpecError`` naming the
        field."""
        number, group, marked = spec.get("number"), spec.get("group"), spec.get("marked")
        if not isinstance(number, str) or not number.isascii() or not number.isdigit():
            raise SpecError("number", "must be a string of the digits 0-9")
        if not 2 <= len(number) <= MAX_DIGITS:
            raise SpecError("number", f"must have 2 to {MAX_DIGITS} digits")
        if number[0] == "0":
            raise SpecError("number", "must not start with 0")
        if isinstance(group, bool) or group not in GROUPS:
            raise SpecError("group", f"must be one of {list(GROUPS)}")
        if isinstance(marked, bool) or not isinstance(marked, int):
            raise SpecError("marked", "must be an integer position")
        if not 0 <= marked < len(number):
            raise SpecError("marked", f"must be a position from 0 to {len(number) - 1}")
        context = spec.get("context", "{n}")
        if not isinstance(context, str) or len(context) > MAX_CONTEXT_CHARS:
            raise SpecError(
                "context", f"must be a sentence of at most {MAX_CONTEXT_CHARS} characters"
            )
        if context.count("{n}") != 1 or not context.isprintable():
            raise SpecError("context", "must be one line holding {n} (the number) once")
        return DigitChunksProblem(number=number, group=group, marked=marked)

    def shape(self, problem: DigitChunksProblem) -> TupleShape:
        return TupleShape(
            (PieceSequence(len(problem.number), space_marks=("▁",)), IntegerShape()),
            ("the pieces", "the digit's worth"),
        )

    def right(self, problem: DigitChunksProblem) -> Answer:
        return chunks_from_left(problem.number, problem.group), worth(problem)

    def right_tex(self, problem: DigitChunksProblem) -> str:
        pieces = r"\;".join(
            rf"\boxed{{{p}}}" for p in chunks_from_left(problem.number, problem.group)
        )
        return f"{pieces};\\quad {worth(problem)}"

    def steps(self, problem: DigitChunksProblem) -> tuple[Step, ...]:
        number, group, marked = problem.number, problem.group, problem.marked
        pieces = tuple(number[k : k + group] for k in range(0, len(number), group))
        digit = int(number[marked])
        after = len(number) - 1 - marked
        return (
            Step(
                f"Cut {len(number)} digits into pieces of {group} from the left; only the last "
                f"may be shorter: {_pieces_md(pieces)}.",
                pieces,
            ),
            Step(
                f"The marked digit {digit} is digit {marked + 1} of {len(number)}, so "
                f"{_follow(after)} it in the whole number (the piece it sits in does not "
                "show them)."
            ),
            Step(
                f"Its worth: ${_worth_tex(digit, after)}$. The answer is the pieces, then "
                f"{digit * 10**after}.",
                (pieces, digit * 10**after),
            ),
        )

    def answer_formats(self, problem: DigitChunksProblem) -> tuple[Format, ...]:
        return (
            Format(
                # Bars, not spaces, between the pieces in the examples: "12 345" reads as the
                # number twelve thousand, three hundred and forty-five.
                "Two parts separated by ';': the pieces (groups of digits separated by | or by "
                "spaces), then the digit's worth (a whole number)",
                ("12 | 345; 300", "123 | 4; 40", "98 | 76; 6000"),
            ),
        )

    def hint(self, problem: DigitChunksProblem) -> str:
        return (
            f"Cut the digits into pieces of {problem.group} starting from the left (only the "
            f"last piece may be shorter). The marked digit is worth the digit times $10^k$, "
            f"where $k$ is the number of digits after it in the whole number."
        )
