"""``bpe_apply``: the pieces of a new word after replaying a learned merge list in order.

The merge list is built around the word: one chain of merges that builds pieces of it, a second
chain that competes for the same letters woven in at random places (keeping each chain's order,
so every merge joins letters or pieces made earlier, as training would), and from level 3 merges
learned on other words. A problem is kept when at least two merges apply and the reversed
replay, the greedy longest-piece cut and stopping after the first merge each give pieces of
their own, none the right ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grading import bpe

from .base import Draw, ProblemGenerator
from .draw.boxes import Figure, text_width
from .statement import format_example, md_word
from .words.pieces import BPE_FAMILIES, BPE_NEW_WORDS


@dataclass(frozen=True)
class BpeApplyLevel:
    longest: int
    chain: int
    rival: int
    others: int


LEVELS: dict[int, BpeApplyLevel] = {
    1: BpeApplyLevel(longest=6, chain=2, rival=2, others=0),
    2: BpeApplyLevel(longest=7, chain=3, rival=2, others=0),
    3: BpeApplyLevel(longest=8, chain=3, rival=2, others=1),
    4: BpeApplyLevel(longest=8, chain=4, rival=2, others=2),
}


def random_chain(draw: Draw, symbols: bpe.Symbols, steps: int) -> list[bpe.Pair]:
    """Merge random adjacent pairs of the word, one after another."""
    out: list[bpe.Pair] = []
    for _ in range(steps):
        if len(symbols) < 2:
            break
        k = draw.below(len(symbols) - 1)
        pair = (symbols[k], symbols[k + 1])
        out.append(pair)
        symbols = bpe.apply_merge(symbols, pair)
    return out


def weave(draw: Draw, first: list[bpe.Pair], second: list[bpe.Pair]) -> list[bpe.Pair]:
    """Interleave two lists at random, each keeping its own order, without repeats."""
    out: list[bpe.Pair] = []
    a, b = list(first), [p for p in second if p not in first]
    while a or b:
        take_a = bool(a) and (not b or draw.below(2) == 0)
        pair = a.pop(0) if take_a else b.pop(0)
        if pair not in out:
            out.append(pair)
    return out


def _spans(pieces: tuple[str, ...]) -> list[tuple[int, str]]:
    """Return each piece with the offset of its first letter in the word."""
    out, at = [], 0
    for piece in pieces:
        out.append((at, piece))
        at += len(piece)
    return out


class BpeApplyGenerator(ProblemGenerator):
    kind: ClassVar[str] = "bpe_apply"
    name: ClassVar[str] = "bpe_apply"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 8
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        word = draw.choice([w for w in BPE_NEW_WORDS if len(w) <= spec_level.longest])
        symbols = bpe.spell(word)
        merges = weave(
            draw,
            random_chain(draw, symbols, spec_level.chain),
            random_chain(draw, symbols, spec_level.rival),
        )
        for _ in range(spec_level.others):
            other = draw.choice(draw.choice(BPE_FAMILIES))
            merges = weave(draw, merges, random_chain(draw, bpe.spell(other), 1))
        return {"word": word, "merges": [list(m) for m in merges]}

    def plausible(self, spec: dict, target: str | None) -> bool:
        merges = [tuple(m) for m in spec["merges"]]
        return 2 <= len(merges) <= 12 and bpe.well_formed(merges)

    def statement(self, spec: dict) -> str:
        merges = [f"{n + 1}. *{a} {b}* → *{a}{b}*" for n, (a, b) in enumerate(spec["merges"])]
        return "\n".join(
            [
                f"A byte-pair encoder learned these ${len(spec['merges'])}$ merges, in this order:",
                "",
                *merges,
                "",
                f"It now meets the word {md_word(spec['word'])}. Write the word as single "
                "letters and replay the merges in the order they were learned: for each merge, "
                "join every place where its two symbols stand side by side, then go on to the "
                "next merge.",
                "",
                "Which pieces come out? Type them in order separated by spaces, for example "
                f"`{format_example(spec, ('low est', 'ab cd ef', 'xy z'))}`.",
            ]
        )

    def picture(
        self, spec: dict, answer: tuple[str, ...] | None = None, *, solution: bool | None = None
    ) -> str | None:
        word = spec["word"]
        merges = [tuple(m) for m in spec["merges"]]
        symbols = bpe.spell(word)
        if answer is None and not solution:
            fig = Figure(
                "The word as single letters, and the merge list",
                f"The word {word} in {len(word)} letters and {len(merges)} merges in order; the "
                "pieces are not shown.",
            )
            self._row(fig, 8, symbols, role="symbol", caption="start")
            y = 52.0
            fig.label(8, y + 10, "merges, in order", weight="bold")
            x = 8.0
            for n, (a, b) in enumerate(merges):
                text = f"{n + 1}. {a} {b}"
                w = text_width(text, per_char=7.5)
                fig.box(
                    x,
                    y + 18,
                    w,
                    26,
                    text,
                    role="merge",
                    style="muted",
                    data={"index": n},
                    mono=True,
                )
                x += w + 4
            return fig.render()
        steps = bpe.replay_steps(symbols, merges)
        right = bpe.replay(symbols, merges)
        fig = Figure(
            "The word's symbols merging step by step",
            f"The pieces are {' · '.join(right)}"
            + (f"; your answer, {' · '.join(answer)}, is below." if answer else "."),
        )
        y = 8.0
        self._row(fig, y, symbols, role="symbol", caption="start")
        for index, after in steps:
            y += 36
            a, b = merges[index]
            self._row(
                fig,
                y,
                after,
                role="step",
                caption=f"{index + 1}. {a} {b}",
                highlight=a + b,
                data={"merge": index},
            )
        if answer is not None:
            y += 44
            spans = _spans(right)
            styles = ["right" if span in spans else "wrong" for span in _spans(tuple(answer))]
            self._row(fig, y, tuple(answer), role="answer", caption="yours", styles=styles)
        return fig.render()

    @staticmethod
    def _row(
        fig: Figure,
        y: float,
        pieces: tuple[str, ...],
        *,
        role: str,
        caption: str,
        highlight: str | None = None,
        styles: list[str] | None = None,
        data: dict | None = None,
    ) -> None:
        fig.label(8, y + 18, caption, role="caption")
        x = 92.0
        for n, piece in enumerate(pieces):
            w = text_width(piece, per_char=9)
            fig.box(
                x,
                y,
                w,
                28,
                piece,
                role=role,
                mono=True,
                style="merged" if piece == highlight else (styles[n] if styles else "plain"),
                data={"index": n, **(data or {})},
            )
            x += w + 3
