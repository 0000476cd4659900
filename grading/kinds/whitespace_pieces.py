"""``whitespace_pieces``: cut an indented code line into pieces by longest match, after its
indentation changed by one space.

The vocabulary holds runs of spaces (``"    "``) and code words with and without a leading
space (``"return"``, ``" return"``). The rule, stated in the problem: cut from left to right,
at each point taking the longest vocabulary piece the rest of the line starts with. The problem
shows an ``example`` line and its pieces, then asks for the pieces of ``line``, the same code
indented by one space more or less.

The answer is one piece sequence (spaces inside a piece typed as ``▁``; ``_`` is a character of
code here, never a space mark).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grading.kinds._markdown import md_code
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import PieceSequence
from grading.spec import SpecError

MAX_VOCAB = 80
MAX_PIECE_CHARS = 16
MAX_LINE_CHARS = 60
MAX_PIECES = 40

Pieces = tuple[str, ...]


class NoCut(ValueError):
    """Raised when no vocabulary piece matches at some point of a line."""


def longest_match(text: str, vocab: Iterable[str]) -> Pieces:
    """Cut ``text`` left to right, taking the longest piece of ``vocab`` at each point."""
    pieces = sorted(set(vocab), key=len, reverse=True)
    out: list[str] = []
    at = 0
    while at < len(text):
        piece = next((p for p in pieces if text.startswith(p, at)), None)
        if piece is None:
            raise NoCut(f"no piece matches at character {at}")
        out.append(piece)
        at += len(piece)
    return tuple(out)


def indentation(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@dataclass(frozen=True)
class WhitespaceProblem:
    """The vocabulary, the example line (its pieces are shown) and the line to cut."""

    vocab: tuple[str, ...]
    example: str
    line: str

    def cut(self, text: str) -> Pieces:
        return longest_match(text, self.vocab)

    @property
    def pieces(self) -> Pieces:
        return self.cut(self.line)


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _md(pieces: Iterable[str]) -> str:
    """Return pieces as code spans, a piece of two or more spaces followed by its count as a
    subscript, as the statement writes them (four ``▁`` in a row must not pass for eight)."""
    return " ".join(
        md_code(p) + (str(p.count(" ")).translate(_SUBSCRIPT) if p.count(" ") > 1 else "")
        for p in pieces
    )


def _spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


# -- mistakes ------------------------------------------------------------------------------


def _dropped_variants(p: WhitespaceProblem) -> Iterable[Variant]:
    try:
        p.cut(p.line.lstrip(" "))
    except NoCut:
        return
    yield Variant("dropped_whitespace", (), {})


def _dropped_apply(p: WhitespaceProblem, v: Variant) -> Pieces:
    return p.cut(p.line.lstrip(" "))


def _dropped_explain(p: WhitespaceProblem, d: object) -> str:
    return (
        f"Your pieces leave out the indentation: they cut the line as if it started at its "
        f"first word. The {_spaces(indentation(p.line))} in front are characters of the line "
        f"and take pieces too (in Python they decide which block the line belongs to): "
        f"{_md(p.pieces)}."
    )


def _per_space_variants(p: WhitespaceProblem) -> Iterable[Variant]:
    try:
        p.cut(p.line.lstrip(" "))
    except NoCut:
        return
    yield Variant("space_per_piece", (), {})


def _per_space_apply(p: WhitespaceProblem, v: Variant) -> Pieces:
    return (" ",) * indentation(p.line) + p.cut(p.line.lstrip(" "))


def _per_space_explain(p: WhitespaceProblem, d: object) -> str:
    runs = sorted((x for x in p.vocab if x and not x.strip()), key=len, reverse=True)
    return (
        f"Your answer gives every space of the indentation a piece of its own. The vocabulary "
        f"has runs of spaces as pieces ({_md(runs)}), and the longest match takes the longest "
        f"run that fits: {_md(p.pieces)}."
    )


def _moved(pieces: Pieces) -> Pieces:
    """Move the single leading space of each word piece to the end of the piece before it."""
    out = list(pieces)
    for k in range(1, len(out)):
        piece = out[k]
        if piece.startswith(" ") and piece[1:2].strip():
            out[k - 1] += " "
            out[k] = piece[1:]
    return tuple(out)


def _moved_variants(p: WhitespaceProblem) -> Iterable[Variant]:
    if _moved(p.pieces) != p.pieces:
        yield Variant("space_on_previous_piece", (), {})


def _moved_apply(p: WhitespaceProblem, v: Variant) -> Pieces:
    return _moved(p.pieces)


def _moved_explain(p: WhitespaceProblem, d: object) -> str:
    attached = [x for x in p.pieces[1:] if x.startswith(" ") and x[1:2].strip()]
    return (
        f"Your pieces attach each space to the end of the piece before it. In this vocabulary "
        f"a space goes with the word after it ({_md(attached)}), and the longest match finds "
        f"those pieces: {_md(p.pieces)}."
    )


def _edited(p: WhitespaceProblem) -> Pieces | None:
    """Return the example's pieces with the last run of spaces before its first word made one
    space longer or shorter, as the line's indentation is (None if the example has none)."""
    example = list(p.cut(p.example))
    lead = 0
    while lead < len(example) and not example[lead].strip():
        lead += 1
    if lead == 0:
        return None
    edited = " " * (len(example[lead - 1]) + indentation(p.line) - indentation(p.example))
    example[lead - 1 : lead] = [edited] if edited else []
    return tuple(example)


def _edited_variants(p: WhitespaceProblem) -> Iterable[Variant]:
    if abs(indentation(p.line) - indentation(p.example)) == 1 and _edited(p) is not None:
        yield Variant("edited_example_pieces", (), {})


def _edited_apply(p: WhitespaceProblem, v: Variant) -> Pieces:
    edited = _edited(p)
    assert edited is not None
    return edited


def _edited_explain(p: WhitespaceProblem, d: object) -> str:
    return (
        f"Your pieces are the example's pieces with the run of spaces made one space "
        f"{'longer' if indentation(p.line) > indentation(p.example) else 'shorter'}: "
        f"{_md(_edited(p) or ())}. No such piece is in the vocabulary, so the longest match "
        f"cuts the new line differently: {_md(p.pieces)}. One space of indentation can change "
        f"which pieces the whole line starts with."
    )


@register
class WhitespacePieces(Kind):
    """Cut a re-indented code line into vocabulary pieces by longest match."""

    name = "whitespace_pieces"
    label = "Pieces of an indented code line"
    mistakes = (
        MistakeDef(
            code="dropped_whitespace",
            number=1,
            label="dropped the indentation",
            parts="the pieces",
            variants=_dropped_variants,
            apply=_dropped_apply,
            explain=_dropped_explain,
        ),
        MistakeDef(
            code="space_per_piece",
            number=2,
            label="gave each space its own piece",
            parts="the pieces",
            variants=_per_space_variants,
            apply=_per_space_apply,
            explain=_per_space_explain,
        ),
        MistakeDef(
            code="space_on_previous_piece",
            number=3,
            label="attached the spaces to the word before",
            parts="the pieces",
            variants=_moved_variants,
            apply=_moved_apply,
            explain=_moved_explain,
        ),
        MistakeDef(
            code="edited_example_pieces",
            number=4,
            label="changed the example's space piece by one space",
            parts="the pieces",
            variants=_edited_variants,
            apply=_edited_apply,
            explain=_edited_explain,
        ),
    )

    def load(self, spec: dict) -> WhitespaceProblem:
        """Validate ``vocab``, ``example`` and ``line``; both lines must cut with the
        vocabulary. Raise ``SpecError`` naming the field."""
        vocab = spec.get("vocab")
        if not isinstance(vocab, list) or not 1 <= len(vocab) <= MAX_VOCAB:
            raise SpecError("vocab", f"must be a list of 1 to {MAX_VOCAB} pieces")
        for k, piece in enumerate(vocab):
            if (
                not isinstance(piece, str)
                or not 1 <= len(piece) <= MAX_PIECE_CHARS
                or not piece.isprintable()
            ):
                raise SpecError(
                    f"vocab[{k}]", f"must be a piece of 1 to {MAX_PIECE_CHARS} printable characters"
                )
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "must not list a piece twice")
        for field in ("example", "line"):
            text = spec.get(field)
            if not isinstance(text, str) or not 1 <= len(text) <= MAX_LINE_CHARS:
                raise SpecError(field, f"must be a line of 1 to {MAX_LINE_CHARS} characters")
            if not text.isprintable():
                raise SpecError(field, "must be one line of printable characters")
            try:
                longest_match(text, vocab)
            except NoCut as error:
                raise SpecError(field, f"cannot be cut with the vocabulary: {error}") from None
        if spec["example"].lstrip(" ") != spec["line"].lstrip(" "):
            raise SpecError("line", "must be the example's code with another indentation")
        return WhitespaceProblem(vocab=tuple(vocab), example=spec["example"], line=spec["line"])

    def shape(self, problem: WhitespaceProblem) -> PieceSequence:
        return PieceSequence(MAX_PIECES, space_marks=("▁",))

    def right(self, problem: WhitespaceProblem) -> Pieces:
        return problem.pieces

    def right_tex(self, problem: WhitespaceProblem) -> str:
        return r"\;".join(
            r"\text{" + piece.replace(" ", "▁").replace("_", r"\_") + "}"
            for piece in problem.pieces
        )

    def steps(self, problem: WhitespaceProblem) -> tuple[Step, ...]:
        line = problem.line
        vocab = sorted(set(problem.vocab), key=len, reverse=True)
        pieces: list[str] = []
        at = 0
        while at < len(line):
            piece = next(p for p in vocab if line.startswith(p, at))
            pieces.append(piece)
            at += len(piece)
        walk = "; ".join(
            f"at character {sum(map(len, pieces[:k]))}, {md_code(piece)}"
            for k, piece in enumerate(pieces)
        )
        before, now = indentation(problem.example), indentation(line)
        return (
            Step(
                f"The example was indented by {_spaces(before)}; this line by {_spaces(now)}, "
                "so its first pieces differ even though the code is the same."
            ),
            Step(
                "Cut from the left, each time taking the longest vocabulary piece the rest of "
                f"the line starts with: {walk}."
            ),
            Step(f"The pieces: {_md(pieces)}.", tuple(pieces)),
        )

    def hint(self, problem: WhitespaceProblem) -> str:
        return (
            "Start at the line's first character and take the longest vocabulary piece the line "
            "starts with there; repeat from where that piece ends. Spaces are characters too."
        )
