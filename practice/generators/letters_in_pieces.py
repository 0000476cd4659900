"""``letters_in_pieces``: spell a phrase from the ids a model receives and count one letter."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_code

from .base import Draw, ProblemGenerator
from .text_figures import (
    BOX_HEIGHT,
    answer_and_legend,
    box_row,
    first_part_pieces,
    label,
    shown,
    svg_root,
)
from .words_letters import ADJECTIVES, NOUNS, NUMBERS, VERBS, all_pieces, phrase_pieces


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
        x0 = 16
        body: list[str] = [label(x0, 18, "ids the model receives")]
        row, end = box_row(x0, 26, [str(i) for i in ids], role="id")
        body.extend(row)
        height = 26 + BOX_HEIGHT + 20
        width = end + x0
        title = "The ids the model receives"
        desc = "One box per id; the pieces and their letters are what the problem asks for."
        if not reveal:
            body.append(
                label(x0, height, "each id is only a row number: its spelling is in the table")
            )
            height += 16
        else:
            counts = [p.count(letter) for p in pieces]
            title = "ids, their pieces, and the letters inside"
            desc = (
                f"The ids spell {' '.join(shown(p) for p in pieces)}; the letter {letter} "
                f"occurs {' + '.join(map(str, counts))} = {sum(counts)} times."
            )
            body.append(label(x0, height, "pieces, spelled from the table"))
            row, end = box_row(x0, height + 8, pieces, role="right")
            body.extend(row)
            width = max(width, end + x0)
            height += BOX_HEIGHT + 30
            body.append(label(x0, height, f"letters, each {letter} shaded"))
            x = x0
            for k, piece in enumerate(pieces):
                fills = ["#fde68a" if ch == letter else "none" for ch in piece]
                row, x_end = box_row(x, height + 8, list(piece), role="char", gap=1, fills=fills)
                body.extend(row)
                body.append(
                    label(
                        (x + x_end) / 2, height + BOX_HEIGHT + 24, str(counts[k]), anchor="middle"
                    )
                )
                x = x_end + 10
            width = max(width, x + x0)
            height += BOX_HEIGHT + 40
            learner = first_part_pieces(answer)
            width, height, desc = answer_and_legend(
                body,
                [("right", "the right pieces")],
                x=x0,
                width=width,
                height=height,
                desc=desc,
                learner=None if learner == tuple(pieces) else learner,
            )
        return svg_root(max(width, 480), height, title, desc, body)
