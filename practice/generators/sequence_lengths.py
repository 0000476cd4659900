"""``sequence_lengths``: count a passage's positions as characters and as pieces; the ratio."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds._markdown import md_code, md_emphasis

from .base import Draw, ProblemGenerator
from .draw.text_figures import COLOURS, label, legend, shown, svg_root
from .words.characters import draw_words, passage_pieces


@dataclass(frozen=True)
class LengthLevel:
    sentences: int
    name: bool  # a rare name (cut into several pieces) instead of "She"
    long: bool  # a long word a subword vocabulary cuts in two


LENGTH_LEVELS: dict[int, LengthLevel] = {
    1: LengthLevel(sentences=1, name=False, long=False),
    2: LengthLevel(sentences=1, name=False, long=True),
    3: LengthLevel(sentences=1, name=True, long=True),
    4: LengthLevel(sentences=2, name=True, long=True),
}

CELL = 12  # pixels per character cell
# Characters per line of the picture: 24 cells and the margins make 304 px, which fits the
# verdict's column on a 390 px phone (312 px), so the passage wraps rather than scrolls.
LINE_CHARS = 24
MARGIN = 8


def draw_passage(draw: Draw, level: int) -> list[str]:
    """Draw a passage's pieces for ``level``."""
    spec_level = LENGTH_LEVELS[level]
    sentences = []
    for k in range(spec_level.sentences):
        words = draw_words(draw, long=spec_level.long if k == 0 else False)
        if not spec_level.name or k > 0:
            words[0] = draw.choice(("She", "He"))
        sentences.append(words)
    return passage_pieces(sentences)


class SequenceLengthsGenerator(ProblemGenerator):
    kind: ClassVar[str] = "sequence_lengths"
    name: ClassVar[str] = "sequence_lengths"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 10
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        return {"pieces": draw_passage(draw, level)}

    def statement(self, spec: dict) -> str:
        pieces = spec["pieces"]
        text = "".join(pieces)
        boxes = " ".join(md_code(p) for p in pieces)
        return "\n".join(
            [
                f"The passage {md_emphasis(text)} reaches a model in two ways.",
                "",
                "- **One character at a time:** every character is a position: letters, "
                "spaces and punctuation alike.",
                f"- **As subword pieces:** {boxes} (a `▁` is a space that belongs to the piece).",
                "",
                "How many positions does the passage take as characters, how many as pieces, "
                "and how many times longer is the character sequence, "
                r"$\text{characters} / \text{pieces}$?",
                "",
                "Answer with the three numbers separated by semicolons, for example "
                "`20; 8; 5/2` (the ratio as a fraction, or a decimal such as `2.5`).",
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        pieces = spec["pieces"]
        body: list[str] = []
        body, height = _passage_rows(pieces)
        title = "The passage as characters and as pieces"
        desc = (
            "Top of each line: one box per character (spaces shown as ▁). Below: one box per "
            "piece, spanning its characters."
        )
        if reveal:
            text = "".join(pieces)
            right = (len(text), len(pieces), Fraction(len(text), len(pieces)))
            desc += f" {right[0]} characters, {right[1]} pieces, ratio {right[2]}." + _answer_words(
                answer
            )
            lines = [
                (f"right: {right[0]} characters, {right[1]} pieces", "right", None),
                (f"ratio {right[0]} / {right[1]} = {right[2]}", "right", None),
            ]
            mine = _answer_parts(answer)
            if mine:
                lines += [
                    (f"yours: {mine[0]} characters, {mine[1]} pieces", "answer", "answer"),
                    (f"ratio {mine[2]}", "answer", "answer"),
                ]
            for n, (words, colour, role) in enumerate(lines):
                body.append(
                    label(MARGIN, height + 4 + 18 * n, words, colour=COLOURS[colour], role=role)
                )
            height += 18 * len(lines) + 4
        else:
            body.extend(legend(MARGIN, height, [("char", "characters"), ("piece", "pieces")]))
            height += 40
        return svg_root(MARGIN * 2 + LINE_CHARS * CELL, height, title, desc, body)


def _passage_rows(pieces: list[str]) -> tuple[list[str], float]:
    """Return the passage drawn as lines of character cells over piece boxes, a line breaking
    before a piece that would pass ``LINE_CHARS``; and the height drawn."""
    body: list[str] = []
    x, y, column = MARGIN, 16, 0
    for index, piece in enumerate(pieces):
        if column and column + len(piece) > LINE_CHARS:
            x, column = MARGIN, 0
            y += 2 * CELL + 30
        for offset, ch in enumerate(piece):
            cx = x + offset * CELL
            body.append(
                f'<rect x="{cx}" y="{y}" width="{CELL - 1}" height="{CELL + 8}" '
                f'fill="none" stroke="{COLOURS["char"]}" stroke-width="1" data-role="char" '
                f'data-text="{_attr(shown(ch))}"/>'
            )
            body.append(label(cx + CELL / 2, y + CELL + 2, shown(ch), anchor="middle"))
        width = len(piece) * CELL - 1
        body.append(
            f'<rect x="{x}" y="{y + CELL + 12}" width="{width}" height="{CELL + 6}" rx="4" '
            f'fill="#dbeafe" stroke="{COLOURS["piece"]}" stroke-width="1.5" '
            f'data-role="piece" data-index="{index}" data-text="{_attr(shown(piece))}"/>'
        )
        x += len(piece) * CELL
        column += len(piece)
    return body, y + 2 * CELL + 30


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _answer_parts(answer: Any) -> tuple[int, int, Any] | None:
    """Return a readable answer's characters, pieces and ratio, else None."""
    try:
        characters, count, ratio = answer
        return int(characters), int(count), ratio
    except (TypeError, ValueError):
        return None


def _answer_words(answer: Any) -> str:
    """Return ' Your answer: a characters, b pieces, ratio r.' for a readable answer, else ''."""
    parts = _answer_parts(answer)
    if parts is None:
        return ""
    return f" Your answer: {parts[0]} characters, {parts[1]} pieces, ratio {parts[2]}."
