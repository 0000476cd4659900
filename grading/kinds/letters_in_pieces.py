"""``letters_in_pieces``: spell a text from the ids a model receives, then count one letter.

The model receives one id per piece; the vocabulary table gives each id's piece (the id is the
row number, counting from 0). The learner spells the pieces from the ids and counts how often
the letter occurs in the whole text. A piece may begin with a space (written ``▁``).

The answer is a tuple: part 0 the pieces (a piece sequence), part 1 the count (an integer).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import Format, IntegerShape, PieceSequence, TupleShape
from grading.spec import SpecError

from .base import Numbered

MAX_VOCAB = 60
MAX_IDS = 16
MAX_PIECE_CHARS = 16

Answer = tuple[tuple[str, ...], int]


@dataclass(frozen=True)
class LettersProblem:
    """The vocabulary table (piece by id), the ids received and the letter to count."""

    vocab: tuple[str, ...]
    ids: tuple[int, ...]
    letter: str

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(self.vocab[i] for i in self.ids)

    def counts(self, pieces: Iterable[str] | None = None) -> list[int]:
        return [p.count(self.letter) for p in (self.pieces if pieces is None else pieces)]

    def doubled_pieces(self) -> list[int]:
        """Return the positions of the pieces that hold the letter twice in a row."""
        return [k for k, p in enumerate(self.pieces) if self.letter * 2 in p]

    def doubles(self) -> int:
        """Return how many times the letter follows itself in the text (``rr`` once, ``rrr``
        twice)."""
        return len(re.findall(f"(?={re.escape(self.letter * 2)})", "".join(self.pieces)))


def _shown(piece: str) -> str:
    return piece.replace(" ", "▁")


def _code(piece: str) -> str:
    return f"`{_shown(piece)}`"


def _sum_md(p: LettersProblem, pieces: tuple[str, ...] | None = None) -> str:
    """Return ``str`` 1 + ``aw`` 0 + ``berry`` 2 = 3, in Markdown."""
    pieces = p.pieces if pieces is None else pieces
    counts = p.counts(pieces)
    terms = " + ".join(f"{c} ({_code(piece)})" for piece, c in zip(pieces, counts, strict=True))
    return f"{terms} = {sum(counts)}"


def _right(p: LettersProblem) -> Answer:
    return p.pieces, sum(p.counts())


# -- mistakes ------------------------------------------------------------------------------


def _pieces_variants(p: LettersProblem) -> Iterable[Variant]:
    yield Variant("counted_pieces", (1,), {})


def _pieces_apply(p: LettersProblem, v: Variant) -> Answer:
    return p.pieces, sum(1 for c in p.counts() if c)


def _pieces_explain(p: LettersProblem, d: object) -> str:
    holding = [piece for piece, c in zip(p.pieces, p.counts(), strict=True) if c]
    return (
        f"You gave {len(holding)}: the number of pieces that hold the letter *{p.letter}* "
        f"({', '.join(_code(x) for x in holding)}). The question counts letters, and a piece "
        f"can hold the letter more than once: {_sum_md(p)}."
    )


def _one_piece_variants(p: LettersProblem) -> Iterable[Variant]:
    for k in p.doubled_pieces():
        yield Variant("one_piece_only", (1, k), {"piece": k})


def _one_piece_apply(p: LettersProblem, v: Variant) -> Answer:
    return p.pieces, p.counts()[v.terms[1]]


def _one_piece_explain(p: LettersProblem, d: object) -> str:
    k = d.terms[1]
    piece = p.pieces[k]
    others = [
        (x, c) for j, (x, c) in enumerate(zip(p.pieces, p.counts(), strict=True)) if c and j != k
    ]
    listed = ", ".join(f"{_code(x)} holds {c}" for x, c in others)
    return (
        f"You gave {piece.count(p.letter)}: the *{p.letter}*s of piece {k + 1}, {_code(piece)}, "
        f"alone, where the doubled letter stands out. The other pieces count too ({listed}): "
        f"{_sum_md(p)}."
    )


def _double_variants(p: LettersProblem) -> Iterable[Variant]:
    if p.doubles():
        yield Variant("missed_double", (1,), {})


def _double_apply(p: LettersProblem, v: Variant) -> Answer:
    return p.pieces, sum(p.counts()) - p.doubles()


def _double_explain(p: LettersProblem, d: object) -> str:
    doubled = [_code(p.pieces[k]) for k in p.doubled_pieces()] or ["the text"]
    return (
        f"You gave {sum(p.counts()) - p.doubles()}: that counts the doubled "
        f"*{p.letter}{p.letter}* in {', '.join(doubled)} as one letter. Both letters of a "
        f"double are letters: {_sum_md(p)}."
    )


def _position_variants(p: LettersProblem) -> Iterable[Variant]:
    if len(p.ids) <= len(p.vocab) and tuple(p.vocab[: len(p.ids)]) != p.pieces:
        yield Variant("piece_by_position", (0,), {})


def _by_position(p: LettersProblem) -> tuple[str, ...]:
    return tuple(p.vocab[: len(p.ids)])


def _position_apply(p: LettersProblem, v: Variant) -> Answer:
    wrong = _by_position(p)
    return wrong, sum(p.counts(wrong))


def _position_explain(p: LettersProblem, d: object) -> str:
    first = next(
        k for k, (a, b) in enumerate(zip(_by_position(p), p.pieces, strict=True)) if a != b
    )
    return (
        f"Your pieces are the table's rows 0, 1, 2, ... in order: the pieces numbered by "
        f"position, not by the ids. An id is the row number to look up: at position {first + 1} "
        f"the model receives id {p.ids[first]}, which is {_code(p.pieces[first])}, not row "
        f"{first}, "
        f"{_code(p.vocab[first])}. Spelled from the ids: {_sum_md(p)}."
    )


@register
class LettersInPieces(Kind):
    """Spell a text from its piece ids and count one letter in it."""

    name = "letters_in_pieces"
    label = "Letters inside pieces"
    # What its sentences number: the pieces of the id sequence, and their positions, from 1.
    numbering = {
        "piece": Numbered(lambda p: len(p.ids)),
        "position": Numbered(lambda p: len(p.ids)),
    }
    mistakes = (
        MistakeDef(
            code="counted_pieces",
            number=1,
            label="counted the pieces holding the letter, not the letters",
            parts="[1]: the count",
            variants=_pieces_variants,
            apply=_pieces_apply,
            explain=_pieces_explain,
        ),
        MistakeDef(
            code="one_piece_only",
            number=2,
            label="counted the letter in one piece only",
            parts="[1, k]: the count, from piece k alone",
            variants=_one_piece_variants,
            apply=_one_piece_apply,
            explain=_one_piece_explain,
        ),
        MistakeDef(
            code="missed_double",
            number=3,
            label="counted a doubled letter once",
            parts="[1]: the count",
            variants=_double_variants,
            apply=_double_apply,
            explain=_double_explain,
        ),
        MistakeDef(
            code="piece_by_position",
            number=4,
            label="read the pieces by position instead of by id",
            parts="[0]: the pieces",
            variants=_position_variants,
            apply=_position_apply,
            explain=_position_explain,
        ),
    )

    def load(self, spec: dict) -> LettersProblem:
        """Validate ``vocab``, ``ids`` and ``letter``; raise ``SpecError`` naming the field."""
        vocab, ids, letter = spec.get("vocab"), spec.get("ids"), spec.get("letter")
        if not isinstance(vocab, list) or not 1 <= len(vocab) <= MAX_VOCAB:
            raise SpecError("vocab", f"must be a list of 1 to {MAX_VOCAB} pieces")
        for k, piece in enumerate(vocab):
            if not isinstance(piece, str) or not 1 <= len(piece) <= MAX_PIECE_CHARS:
                raise SpecError(
                    f"vocab[{k}]", f"must be a piece of 1 to {MAX_PIECE_CHARS} characters"
                )
            if not piece.strip() or not all(ch.isalpha() or ch == " " for ch in piece):
                raise SpecError(f"vocab[{k}]", "must hold letters and spaces only")
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "must not list a piece twice")
        if not isinstance(ids, list) or not 1 <= len(ids) <= MAX_IDS:
            raise SpecError("ids", f"must be a list of 1 to {MAX_IDS} ids")
        for k, piece_id in enumerate(ids):
            if isinstance(piece_id, bool) or not isinstance(piece_id, int):
                raise SpecError(f"ids[{k}]", "must be an integer id")
            if not 0 <= piece_id < len(vocab):
                raise SpecError(f"ids[{k}]", f"must be an id from 0 to {len(vocab) - 1}")
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha():
            raise SpecError("letter", "must be one letter")
        return LettersProblem(vocab=tuple(vocab), ids=tuple(ids), letter=letter)

    def shape(self, problem: LettersProblem) -> TupleShape:
        return TupleShape(
            (PieceSequence(MAX_IDS), IntegerShape()),
            ("the pieces", f"the count of {problem.letter}"),
        )

    def right(self, problem: LettersProblem) -> Answer:
        return _right(problem)

    def right_tex(self, problem: LettersProblem) -> str:
        pieces = r"\;".join(r"\text{" + _shown(x) + "}" for x in problem.pieces)
        return f"{pieces};\\quad {sum(problem.counts())}"

    def steps(self, problem: LettersProblem) -> tuple[Step, ...]:
        pieces = tuple(problem.vocab[i] for i in problem.ids)
        looked = ", ".join(
            f"{i} → {_code(piece)}" for i, piece in zip(problem.ids, pieces, strict=True)
        )
        counts = [piece.count(problem.letter) for piece in pieces]
        total = sum(counts)
        return (
            Step(
                f"Each id is a row number of the table (from 0): {looked}. The text is "
                f"{_code(''.join(pieces))}.",
                pieces,
            ),
            Step(
                f"Count *{problem.letter}* in every piece, a doubled letter as two: "
                f"{_sum_md(problem, pieces)}.",
                total,
            ),
            Step(f"The answer is the pieces, then {total}.", (pieces, total)),
        )

    def answer_formats(self, problem: LettersProblem) -> tuple[Format, ...]:
        return (
            Format(
                "Two parts separated by ';': the pieces separated by spaces (type a piece's "
                f"leading space as an underscore), then the count of {problem.letter} (a whole "
                "number)",
                ("ab _cd; 2", "ro _se; 3", "x _yz; 1"),
            ),
        )

    def hint(self, problem: LettersProblem) -> str:
        return (
            "Look up each id as a row number of the table to spell the pieces, then count every "
            f"*{problem.letter}* in every piece, a doubled letter as two."
        )
