"""The piece-sequence shape: text pieces in order, such as `low est` or `["low", "est"]`."""

from __future__ import annotations

import re
from typing import Any

from ..parse import AnswerError, Reading
from .base import Format, Shape
from .differences import describe_sequence, sequence_differences
from .reading import MAX_PIECE_CHARS, MAX_PIECES, MAX_SEQUENCE_CHARS, check_text, text_tex

_QUOTED = re.compile(r"\s*(?:\"((?:[^\"\\]|\\[\"\\])*)\"|'((?:[^'\\]|\\['\\])*)')\s*(,|$)")


def _looks_listed(text: str) -> bool:
    """Return True for text typed as a list of quoted pieces (`["low", "est"]`, or `[a, b]`,
    which is then refused with the form to use); `[UNK] low` is two plain pieces."""
    if text[:2] in ('["', "['"):
        return True
    return text.startswith("[") and text.endswith("]") and "," in text


class PieceSequence(Shape):
    """A sequence of text pieces: `low est`, `low|est` or `["low", "est"]`.

    Pieces are NFC-normalised; `▁` (and `_`, unless the kind leaves it out of `space_marks`)
    types a space inside a piece, so the value holds real spaces. At most `max_pieces` pieces of
    at most `max_chars` characters each.
    """

    def __init__(
        self,
        max_pieces: int,
        *,
        space_marks: tuple[str, ...] = ("▁", "_"),
        max_chars: int = MAX_PIECE_CHARS,
    ) -> None:
        if max_pieces > MAX_PIECES:
            raise ValueError(f"max_pieces is at most {MAX_PIECES}")
        self.max_pieces = max_pieces
        self.space_marks = space_marks
        self.max_chars = max_chars
        self.noun = "a sequence of pieces"
        self._spaces = str.maketrans(dict.fromkeys(space_marks, " "))

    def __repr__(self) -> str:
        return f"PieceSequence({self.max_pieces}, space_marks={self.space_marks!r})"

    def formats(self) -> tuple[Format, ...]:
        phrase = "The pieces in order, separated by spaces (or by |)"
        if self.space_marks == ("▁",):
            phrase += "; type a space inside a piece as ▁ (_ is an underscore)"
            return (Format(phrase, ("▁▁ if ▁x", "▁ return ▁y", "▁▁▁ for")),)
        if "▁" in self.space_marks:
            phrase += "; type a piece's leading space as an underscore"
            return (Format(phrase, ("low est", "ab _cd", "x yz")),)
        return (Format(phrase, ("low est", "ab cd ef", "x yz")),)

    def read(self, text: str) -> Reading:
        normal = check_text(text, MAX_SEQUENCE_CHARS)
        stripped = normal.strip()
        if not stripped:
            raise AnswerError("the answer is empty: type the pieces, such as low est")
        if _looks_listed(stripped):
            raw = self._listed(stripped)
        elif "|" in stripped:
            raw = [piece.strip() for piece in stripped.split("|")]
        else:
            raw = stripped.split()
        pieces = []
        for index, piece in enumerate(raw):
            if not piece:
                raise AnswerError(f"piece {index} is empty")
            if len(piece) > self.max_chars:
                raise AnswerError(
                    f"piece {index} has {len(piece)} characters; at most {self.max_chars} are read",
                    bound="length",
                )
            pieces.append(piece.translate(self._spaces))
        if len(pieces) > self.max_pieces:
            raise AnswerError(
                f"the answer has {len(pieces)} pieces; at most {self.max_pieces} are read",
                bound="count",
            )
        value = tuple(pieces)
        return Reading(value=value, tex=self.tex(value))

    def _listed(self, text: str) -> list[str]:
        """Read `["low", "est"]` (double or single quotes; `\\"` and `\\\\` inside them)."""
        if not text.endswith("]"):
            raise AnswerError("the list is not closed with ]")
        body = text[1:-1]
        if not body.strip():
            return []
        pieces, at = [], 0
        while at < len(body):
            if len(pieces) > self.max_pieces:
                raise AnswerError(
                    f"the answer has more than {self.max_pieces} pieces", bound="count"
                )
            match = _QUOTED.match(body, at)
            if match is None:
                raise AnswerError(
                    'inside [ ] each piece is quoted and separated by commas: ["low", "est"]',
                    column=at + 2,
                )
            quoted = match.group(1) if match.group(1) is not None else match.group(2)
            pieces.append(re.sub(r"\\(.)", r"\1", quoted))
            at = match.end()
            if match.group(3) == "," and at >= len(body):
                raise AnswerError("a piece is missing after the last comma")
        return pieces

    def typed(self, value: Any) -> str:
        quoted = (piece.replace("\\", "\\\\").replace('"', '\\"') for piece in value)
        return "[" + ", ".join(f'"{piece}"' for piece in quoted) + "]"

    def tex(self, value: Any) -> str:
        shown = [text_tex(piece.replace(" ", "▁")) for piece in value]
        return "\\;|\\;".join(shown) if shown else "\\text{(no pieces)}"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return sequence_differences(answer, expected)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return describe_sequence(answer, expected, "piece", lambda p: repr(p.replace(" ", "▁")))
