"""``whitespace_pieces``: the pieces of a code line after its indentation changes by one space."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_code
from grading.kinds.whitespace_pieces import longest_match

from .base import Draw, ProblemGenerator
from .draw.text_figures import (
    BOX_HEIGHT,
    answer_pieces,
    box,
    label,
    legend,
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
        body: list[str] = [label(MARGIN, 18, "the example line, cut into pieces")]
        row, height = wrapped_row(26, list(longest_match(example, vocab)), role="piece")
        body.extend(row)
        body.append(label(MARGIN, height + 28, "the new line, one character a box"))
        row, height = wrapped_row(height + 36, list(line), role="char", gap=1)
        body.extend(row)
        title = "The example line's pieces and the re-indented line"
        desc = (
            f"The example line {shown(example)} in its pieces; below, the new line "
            f"{shown(line)} one character per box (spaces as ▁)."
        )
        if not reveal:
            return svg_root(WIDTH, height + 14, title, desc, body)
        right = longest_match(line, vocab)
        old = longest_match(example, vocab)
        roles = [
            "changed" if k >= len(old) or old[k] != p else "right" for k, p in enumerate(right)
        ]
        body.append(label(MARGIN, height + 28, "the new line's pieces"))
        body.append(label(MARGIN, height + 44, "(changed pieces in orange)"))
        row, height = wrapped_row(height + 52, list(right), role="right", roles=roles)
        body.extend(row)
        desc += f" Its pieces: {' '.join(shown(p) for p in right)}."
        entries = [("right", "the right pieces"), ("changed", "pieces unlike the example's")]
        learner = answer_pieces(answer)
        if learner is not None and learner != right:
            body.append(label(MARGIN, height + 28, "your pieces"))
            row, height = wrapped_row(height + 36, list(learner), role="answer", dashed=True)
            body.extend(row)
            entries.append(("answer", "your pieces"))
            desc += f" Your pieces: {' '.join(shown(p) for p in learner)}."
        body.extend(legend(MARGIN, height + 28, entries))
        return svg_root(WIDTH, height + 28 + 18 * len(entries), title, desc, body)


MARGIN = 12
WIDTH = 312  # a phone's verdict column (390 px screen): rows wrap rather than scroll


def wrapped_row(
    top: float,
    texts: list[str],
    *,
    role: str,
    gap: float = 4,
    roles: list[str] | None = None,
    dashed: bool = False,
) -> tuple[list[str], float]:
    """Return boxes of ``texts`` left to right, wrapping to a new row before one would pass
    ``WIDTH``; and the y below the last row."""
    out: list[str] = []
    x, y = float(MARGIN), top
    for index, text in enumerate(texts):
        markup, width = box(0, 0, text, role=role, index=index)
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, y = float(MARGIN), y + BOX_HEIGHT + 6
        kind = roles[index] if roles else role
        markup, width = box(x, y, text, role=kind, index=index, dashed=dashed)
        out.append(markup)
        x += width + gap
    return out, y + BOX_HEIGHT


def _piece_md(piece: str) -> str:
    """Return a piece as a code span, followed by its count of spaces as a subscript when it
    holds two or more (``▁▁▁▁`` in most fonts is one bar: four must not pass for eight)."""
    spaces = piece.count(" ")
    return md_code(piece) + (str(spaces).translate(_SUBSCRIPT) if spaces > 1 else "")


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
