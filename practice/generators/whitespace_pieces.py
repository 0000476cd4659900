"""``whitespace_pieces``: the pieces of a code line after its indentation changes by one space."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_code
from grading.kinds.whitespace_pieces import longest_match

from .base import Draw, ProblemGenerator
from .text_figures import (
    BOX_HEIGHT,
    answer_and_legend,
    answer_pieces,
    box_row,
    label,
    shown,
    svg_root,
)

# Python lines, without indentation. Changing a tuple here changes generated problems: bump
# the generator's version.
SIMPLE_LINES: tuple[str, ...] = (
    "return total",
    "return count",
    "yield item",
    "raise error",
    "return result",
)
ASSIGNMENTS: tuple[str, ...] = (
    "count = count + 1",
    "total = total + price",
    "result = left - right",
    "size = size * 2",
)
UNDERSCORE_LINES: tuple[str, ...] = (
    "return user_id",
    "if user_id in seen:",
    "for item in line_items:",
    "max_len = max_len + 1",
    "print(user_name)",
    "seen.add(user_id)",
)
# Pieces a code vocabulary also has; some share a start with the lines' words.
DISTRACTORS: tuple[str, ...] = (
    " if",
    "else",
    " not",
    " None",
    "self",
    " self",
    " and",
    "def",
    " def",
    "import",
    " or",
    "ret",
    "  return",
    "to",
    " to",
)
RUNS = (" ", "  ", "    ", "        ")
LEXEME = re.compile(r"[A-Za-z]+|\d+|\S")


@dataclass(frozen=True)
class IndentLevel:
    lines: tuple[str, ...]
    indents: tuple[int, ...]  # the example's indentation
    distractors: int


INDENT_LEVELS: dict[int, IndentLevel] = {
    1: IndentLevel(lines=SIMPLE_LINES, indents=(4,), distractors=3),
    2: IndentLevel(lines=ASSIGNMENTS, indents=(4, 8), distractors=4),
    3: IndentLevel(lines=UNDERSCORE_LINES, indents=(4, 8), distractors=5),
    4: IndentLevel(lines=UNDERSCORE_LINES + ASSIGNMENTS, indents=(6, 10, 12), distractors=7),
}


def code_vocab(code: str) -> list[str]:
    """Return the pieces a code line needs: its lexemes, each also with the space before it,
    and the first lexeme with a leading space (for odd indentations)."""
    pieces: dict[str, None] = {}
    for match in LEXEME.finditer(code):
        pieces[match.group()] = None
        if match.start() == 0 or code[match.start() - 1] == " ":
            pieces[" " + match.group()] = None
    return list(pieces)


class WhitespacePiecesGenerator(ProblemGenerator):
    kind: ClassVar[str] = "whitespace_pieces"
    name: ClassVar[str] = "whitespace_pieces"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 14
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = INDENT_LEVELS[level]
        code = draw.choice(spec_level.lines)
        indent = draw.choice(spec_level.indents)
        change = draw.choice((-1, 1))
        needed = [*RUNS, *code_vocab(code)]
        spare = [p for p in DISTRACTORS if p not in needed]
        vocab = draw.shuffled([*needed, *draw.sample(spare, spec_level.distractors)])
        return {
            "vocab": vocab,
            "example": " " * indent + code,
            "line": " " * (indent + change) + code,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        # The line must cut differently from the example beyond its first space piece.
        vocab = spec["vocab"]
        return longest_match(spec["line"], vocab)[1:] != longest_match(spec["example"], vocab)[1:]

    def statement(self, spec: dict) -> str:
        vocab, example, line = spec["vocab"], spec["example"], spec["line"]
        pieces = longest_match(example, vocab)
        width = len(example) - len(example.lstrip(" "))
        new_width = len(line) - len(line.lstrip(" "))
        listed = ", ".join(_piece_md(p) for p in sorted(vocab, key=lambda p: (p.strip(), p)))
        return "\n".join(
            [
                "A code tokenizer's vocabulary has these pieces (`▁` is a space; `_` is the "
                f"underscore of Python names): {listed}.",
                "",
                "It cuts a line from left to right, at each point taking the **longest** "
                "vocabulary piece the rest of the line starts with.",
                "",
                f"The line {md_code(example)} (indented by ${width}$ spaces) is cut into "
                + " ".join(_piece_md(p) for p in pieces)
                + " (a small number after a piece counts its spaces).",
                "",
                f"The same code indented by ${new_width}$ spaces, {md_code(line)}: what are its "
                "pieces?",
                "",
                "Answer with the pieces separated by spaces, typing a space inside a piece as "
                "`▁`, for example `▁▁ if ▁x`; or as a list of quoted pieces, "
                '`["  ", "if", " x"]`.',
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        vocab, example, line = spec["vocab"], spec["example"], spec["line"]
        x0 = 16
        body: list[str] = [label(x0, 18, "the example line, cut into pieces")]
        row, end = box_row(x0, 26, list(longest_match(example, vocab)), role="piece")
        body.extend(row)
        width = end + x0
        height = 26 + BOX_HEIGHT + 28
        body.append(label(x0, height, "the new line, one character a box"))
        row, end = box_row(x0, height + 8, list(line), role="char", gap=1)
        body.extend(row)
        width = max(width, end + x0)
        height += BOX_HEIGHT + 30
        title = "The example line's pieces and the re-indented line"
        desc = (
            f"The example line {shown(example)} in its pieces; below, the new line "
            f"{shown(line)} one character per box (spaces as ▁)."
        )
        if reveal:
            right = longest_match(line, vocab)
            old = longest_match(example, vocab)
            roles = [
                "changed" if k >= len(old) or old[k] != p else "right" for k, p in enumerate(right)
            ]
            body.append(label(x0, height, "the new line's pieces (changed pieces in orange)"))
            row, end = box_row(x0, height + 8, list(right), role="right", roles=roles)
            body.extend(row)
            width = max(width, end + x0)
            height += BOX_HEIGHT + 30
            desc += f" Its pieces: {' '.join(shown(p) for p in right)}."
            learner = answer_pieces(answer)
            width, height, desc = answer_and_legend(
                body,
                [
                    ("right", "the right pieces"),
                    ("changed", "pieces that differ from the example's"),
                ],
                x=x0,
                width=width,
                height=height,
                desc=desc,
                learner=None if learner == right else learner,
            )
        return svg_root(max(width, 360), height, title, desc, body)


def _piece_md(piece: str) -> str:
    """Return a piece as a code span, followed by its count of spaces as a subscript when it
    holds two or more (``▁▁▁▁`` in most fonts is one bar: four must not pass for eight)."""
    spaces = piece.count(" ")
    return md_code(piece) + (str(spaces).translate(_SUBSCRIPT) if spaces > 1 else "")


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
