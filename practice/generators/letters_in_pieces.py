"""``letters_in_pieces``: spell a phrase from the ids a model receives and count one letter."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_code

from .base import Draw, ProblemGenerator
from .draw.text_figures import (
    BOX_HEIGHT,
    COLOURS,
    box,
    box_row,
    first_part_pieces,
    label,
    shown,
    svg_root,
    text_width,
)
from .words.letters import ADJECTIVES, NOUNS, NUMBERS, VERBS, all_pieces, phrase_pieces


@dataclass(frozen=True)
class LettersLevel:
    tables: tuple[dict[str, tuple[str, ...]], ...]  # one word from each, in order
    vocab_size: int


LETTERS_LEVELS: dict[int, LettersLevel] = {
    1: LettersLevel(tables=(NUMBERS, ADJECTIVES, NOUNS), vocab_size=7),
    2: LettersLevel(tables=(NUMBERS, ADJECTIVES, NOUNS), vocab_size=10),
    3: LettersLevel(tables=(NUMBERS, ADJECTIVES, NOUNS), vocab_size=14),
    4: LettersLevel(tables=(NUMBERS, ADJECTIVES, NOUNS, VERBS), vocab_size=18),
}
PIECES = all_pieces()
MIN_DISTRACTORS = 2


def _doubled_letters(pieces: list[str]) -> list[str]:
    """Return the letters doubled inside exactly one piece (and nowhere else in the text)."""
    text = "".join(pieces)
    out = []
    for letter in sorted(set(text) - {" "}):
        inside = [p for p in pieces if letter * 2 in p]
        if len(inside) == 1 and len(re.findall(f"(?={letter}{letter})", text)) == 1:
            out.append(letter)
    return out


def _counts_differ(pieces: list[str], letter: str) -> bool:
    """Return whether the right count and the counts of the three counting mistakes (pieces
    holding the letter, the doubled piece alone, the double counted once) are all different,
    as the grading engine will require."""
    counts = [p.count(letter) for p in pieces]
    total = sum(counts)
    holding = sum(1 for c in counts if c)
    doubled = [c for p, c in zip(pieces, counts, strict=True) if letter * 2 in p]
    return len({total, holding, total - 1, *doubled}) == 3 + len(doubled)


class LettersInPiecesGenerator(ProblemGenerator):
    kind: ClassVar[str] = "letters_in_pieces"
    name: ClassVar[str] = "letters_in_pieces"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 12
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    max_redraws: ClassVar[int] = 2000

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LETTERS_LEVELS[level]
        words = [table[draw.choice(list(table))] for table in spec_level.tables]
        pieces = phrase_pieces(words)
        distinct = list(dict.fromkeys(pieces))
        spare = [p for p in PIECES if p not in distinct]
        # The level's table size, or more: the phrase's pieces always stand among at least
        # MIN_DISTRACTORS others.
        size = max(spec_level.vocab_size, len(distinct) + MIN_DISTRACTORS)
        vocab = draw.shuffled([*distinct, *draw.sample(spare, size - len(distinct))])
        letters = [x for x in _doubled_letters(pieces) if _counts_differ(pieces, x)]
        # The letter e is doubled in many words; another letter is asked whenever one can be.
        others = [x for x in letters if x != "e"]
        letter = draw.choice(others or letters or ["e"])
        return {"vocab": vocab, "ids": [vocab.index(p) for p in pieces], "letter": letter}

    def plausible(self, spec: dict, target: str | None) -> bool:
        pieces = [spec["vocab"][i] for i in spec["ids"]]
        letter = spec["letter"]
        holding = sum(1 for p in pieces if letter in p)
        return holding >= 2 and letter in _doubled_letters(pieces)

    def statement(self, spec: dict) -> str:
        vocab, ids, letter = spec["vocab"], spec["ids"], spec["letter"]
        rows = [f"| {k} | {md_code(piece)} |" for k, piece in enumerate(vocab)]
        return "\n".join(
            [
                "A model receives a short phrase as these ids, one per piece: "
                + ", ".join(f"${i}$" for i in ids)
                + ".",
                "",
                "Its vocabulary table gives each id's piece (the id is the row number; `▁` is a "
                "space that belongs to the piece):",
                "",
                "| id | piece |",
                "|---:|:---|",
                *rows,
                "",
                f"Spell the phrase's pieces from the ids, then count how many times the letter "
                f"*{letter}* occurs in the phrase.",
                "",
                "Answer with the pieces, a semicolon, then the count, for example "
                "`ab ▁cd; 2`. A piece's leading space is the mark `▁`, as in the table; it may be "
                "typed as an underscore from the keyboard.",
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        vocab, ids, letter = spec["vocab"], spec["ids"], spec["letter"]
        pieces = [vocab[i] for i in ids]
        body: list[str] = [label(MARGIN, 18, "ids the model receives")]
        row, height = _wrapped_boxes([str(i) for i in ids], 26, role="id")
        body.extend(row)
        height += 20
        title = "The ids the model receives"
        desc = "One box per id; the pieces and their letters are what the problem asks for."
        if not reveal:
            for line in ("each id is only a row number:", "its spelling is in the table"):
                body.append(label(MARGIN, height, line))
                height += 16
            return svg_root(WIDTH, height, title, desc, body)
        counts = [p.count(letter) for p in pieces]
        title = "ids, their pieces, and the letters inside"
        desc = (
            f"The ids spell {' '.join(shown(p) for p in pieces)}; the letter {letter} "
            f"occurs {' + '.join(map(str, counts))} = {sum(counts)} times."
        )
        body.append(label(MARGIN, height, "pieces, spelled from the table"))
        row, height = _wrapped_boxes(pieces, height + 8, role="right")
        body.extend(row)
        body.append(label(MARGIN, height + 20, f"letters, each {letter} shaded"))
        row, height = _letter_groups(pieces, letter, height + 28)
        body.extend(row)
        right_count = f"{letter}: {' + '.join(map(str, counts))} = {sum(counts)}"
        body.append(label(MARGIN, height + 20, right_count, colour=COLOURS["right"]))
        height += 28
        learner, lines = _learner_parts(answer, pieces, sum(counts))
        if learner is not None:
            body.append(label(MARGIN, height + 16, "your pieces", colour=COLOURS["answer"]))
            row, height = _wrapped_boxes(learner, height + 24, role="answer", dashed=True)
            body.extend(row)
            desc += f" Your pieces: {' '.join(shown(p) for p in learner)}."
        for line in lines:
            body.append(label(MARGIN, height + 20, line, colour=COLOURS["answer"], role="answer"))
            height += 18
            desc += f" {line[0].upper()}{line[1:]}."
        return svg_root(WIDTH, height + 14, title, desc, body)


MARGIN = 8
WIDTH = 312  # a phone's verdict column (390 px screen): rows wrap rather than scroll


def _wrapped_boxes(
    texts: list[str], top: float, *, role: str, dashed: bool = False
) -> tuple[list[str], float]:
    """Return boxes of ``texts`` left to right, wrapping to a new row before one would pass
    ``WIDTH``; and the y below the last row."""
    out: list[str] = []
    x, y = float(MARGIN), top
    for index, text in enumerate(texts):
        if x > MARGIN and x + text_width(text) > WIDTH - MARGIN:
            x, y = float(MARGIN), y + BOX_HEIGHT + 6
        markup, width = box(x, y, text, role=role, index=index, dashed=dashed)
        out.append(markup)
        x += width + 4
    return out, y + BOX_HEIGHT


def _letter_groups(pieces: list[str], letter: str, top: float) -> tuple[list[str], float]:
    """Return each piece's letters as boxes (``letter`` shaded) with its count of the letter
    under the group, a group wrapping to a new row before it would pass ``WIDTH``; and the y
    below the last row."""
    out: list[str] = []
    x, y = float(MARGIN), top
    for piece in pieces:
        span = sum(text_width(ch) + 1 for ch in piece) - 1
        if x > MARGIN and x + span > WIDTH - MARGIN:
            x, y = float(MARGIN), y + BOX_HEIGHT + 26
        fills = ["#fde68a" if ch == letter else "none" for ch in piece]
        row, end = box_row(x, y, list(piece), role="char", gap=1, fills=fills)
        out.extend(row)
        out.append(
            label((x + end - 1) / 2, y + BOX_HEIGHT + 16, str(piece.count(letter)), anchor="middle")
        )
        x = end + 10
    return out, y + BOX_HEIGHT + 16


def _learner_parts(
    answer: Any, pieces: list[str], count: int
) -> tuple[tuple[str, ...] | None, list[str]]:
    """Return the learner's pieces when they differ from the right ones, and a line for their
    count when it differs."""
    mine = first_part_pieces(answer)
    lines = []
    try:
        theirs = int(answer[1])
    except (TypeError, ValueError, IndexError, KeyError):
        theirs = None
    if theirs is not None and theirs != count:
        lines.append(f"your count: {theirs}")
    return (None if mine == tuple(pieces) else mine), lines
