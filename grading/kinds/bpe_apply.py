"""`bpe_apply`: the pieces of a new word after replaying a learned merge list in order.

Spec fields: `word` (2 to 14 lowercase letters), `merges` (2 to 12 pairs `[a, b]`, in the order
they were learned; each symbol a single letter or the result of an earlier merge, as training
makes them). The answer is the piece sequence `grading.bpe.replay` gives: every merge, in list
order, applied everywhere it occurs. A diagnosis's terms are merge indices (0-based) where the
mistake concerns one merge, else empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .. import bpe
from ..shapes import PieceSequence, Shape
from ..spec import SpecError
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

MIN_MERGES, MAX_MERGES = 2, 12
MAX_WORD = 14
_WORD = re.compile(r"[a-z]{2,14}")


@dataclass(frozen=True)
class BpeApplyProblem:
    word: str
    merges: tuple[bpe.Pair, ...]
    pieces: bpe.Symbols
    steps: tuple[tuple[int, bpe.Symbols], ...]  # (merge index, symbols after) for merges that apply

    @property
    def symbols(self) -> bpe.Symbols:
        return bpe.spell(self.word)


def pieces_text(pieces: bpe.Symbols) -> str:
    """Return pieces as Markdown, separated by middle dots: *low* · *est*."""
    return " · ".join(f"*{piece}*" for piece in pieces)


def merge_text(p: BpeApplyProblem, index: int) -> str:
    a, b = p.merges[index]
    return f"merge {index + 1} (*{a} {b}*)"


def _replay_story(p: BpeApplyProblem) -> str:
    steps = [f"{merge_text(p, m)} gives {pieces_text(after)}" for m, after in p.steps]
    return "In order, " + "; ".join(steps) + "."


def _reversed(p: BpeApplyProblem) -> bpe.Symbols:
    return bpe.reversed_replay(p.symbols, p.merges)


def _greedy(p: BpeApplyProblem) -> bpe.Symbols:
    return bpe.greedy_longest(p.word, bpe.vocabulary(p.symbols, p.merges))


def _out_of_order_variants(p: BpeApplyProblem) -> list[Variant]:
    return [variant("out_of_order")] if _reversed(p) != p.pieces else []


def _greedy_variants(p: BpeApplyProblem) -> list[Variant]:
    return [variant("greedy_longest")] if _greedy(p) != p.pieces else []


def _first_only_variants(p: BpeApplyProblem) -> list[Variant]:
    if len(p.steps) < 2:
        return []
    return [variant("first_merge_only", (p.steps[0][0],))]


def _out_of_order_explain(p: BpeApplyProblem, d: Diagnosis) -> str:
    return (
        f"You seem to have applied the merges out of order (from the last learned to the "
        f"first, which gives {pieces_text(_reversed(p))}). The merges are replayed in the "
        f"order they were learned, because a later merge may need the pieces an earlier one "
        f"made, and an earlier merge may take letters a later one would have wanted. "
        f"{_replay_story(p)} The pieces are {pieces_text(p.pieces)}."
    )


def _greedy_explain(p: BpeApplyProblem, d: Diagnosis) -> str:
    return (
        f"You seem to have cut the word into the longest pieces of the vocabulary from the left "
        f"({pieces_text(_greedy(p))}). A BPE tokenizer does not search for long pieces: it "
        f"replays its merges in order, and a pair an earlier merge has already used is no "
        f"longer there for a later one. {_replay_story(p)} The pieces are "
        f"{pieces_text(p.pieces)}."
    )


def _first_only_explain(p: BpeApplyProblem, d: Diagnosis) -> str:
    first = d.terms[0] if d.terms else p.steps[0][0]
    later = [merge_text(p, m) for m, _ in p.steps if m != first]
    return (
        f"You stopped after {merge_text(p, first)}, the first merge that applies. Keep going "
        f"down the list: {', '.join(later)} {'applies' if len(later) == 1 else 'apply'} too. "
        f"{_replay_story(p)} The pieces are "
        f"{pieces_text(p.pieces)}."
    )


def _first_only_apply(p: BpeApplyProblem, v: Any) -> bpe.Symbols:
    index = int(v.terms[0])
    return bpe.apply_merge(p.symbols, p.merges[index])


MISTAKES = (
    MistakeDef(
        code="out_of_order",
        number=1,
        label="applied the merges out of order",
        parts="[]",
        variants=_out_of_order_variants,
        apply=lambda p, v: _reversed(p),
        explain=_out_of_order_explain,
    ),
    MistakeDef(
        code="greedy_longest",
        number=2,
        label="took the longest vocabulary piece instead of replaying the merges",
        parts="[]",
        variants=_greedy_variants,
        apply=lambda p, v: _greedy(p),
        explain=_greedy_explain,
    ),
    MistakeDef(
        code="first_merge_only",
        number=3,
        label="stopped after the first merge",
        parts="[m]: the merge applied",
        variants=_first_only_variants,
        apply=_first_only_apply,
        explain=_first_only_explain,
    ),
)


def _load_merges(spec: dict[str, Any], word: str) -> tuple[bpe.Pair, ...]:
    merges = spec.get("merges")
    if not isinstance(merges, list) or not MIN_MERGES <= len(merges) <= MAX_MERGES:
        raise SpecError(
            "merges", f"is required and must list {MIN_MERGES} to {MAX_MERGES} [a, b] pairs"
        )
    made: set[str] = set()
    out: list[bpe.Pair] = []
    for index, item in enumerate(merges):
        field = f"merges[{index}]"
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(s, str) and re.fullmatch(r"[a-z]{1,13}", s) for s in item)
        ):
            raise SpecError(field, "must be a pair of symbols of lowercase letters, [a, b]")
        for symbol in item:
            if len(symbol) > 1 and symbol not in made:
                raise SpecError(
                    field, f"{symbol!r} is no single letter and no earlier merge made it"
                )
        pair = (item[0], item[1])
        if pair in out:
            raise SpecError(field, "repeats an earlier merge")
        out.append(pair)
        made.add(pair[0] + pair[1])
    return tuple(out)


@register
class BpeApply(Kind):
    name = "bpe_apply"
    label = "Split a new word by replaying merges"
    # What its sentences number: merges from 1, as listed.
    numbering = {"merge": Numbered(lambda p: len(p.merges))}
    mistakes = MISTAKES

    def load(self, spec: dict[str, Any]) -> BpeApplyProblem:
        word = spec.get("word")
        if not isinstance(word, str) or not _WORD.fullmatch(word):
            raise SpecError(
                "word", f"is required and must be 2 to {MAX_WORD} lowercase letters a-z"
            )
        merges = _load_merges(spec, word)
        symbols = bpe.spell(word)
        pieces = bpe.replay(symbols, merges)
        return BpeApplyProblem(word, merges, pieces, tuple(bpe.replay_steps(symbols, merges)))

    def shape(self, problem: BpeApplyProblem) -> Shape:
        return PieceSequence(MAX_WORD + 4, space_marks=())

    def right(self, problem: BpeApplyProblem) -> bpe.Symbols:
        return problem.pieces

    def size(self, problem: BpeApplyProblem) -> int:
        return len(problem.merges)

    def steps(self, problem: BpeApplyProblem) -> tuple[Step, ...]:
        symbols = bpe.spell(problem.word)
        steps = [Step(f"Write *{problem.word}* as single letters: {pieces_text(symbols)}.")]
        skipped = []
        for index, pair in enumerate(problem.merges):
            after = bpe.apply_merge(symbols, pair)
            if after == symbols:
                skipped.append(merge_text(problem, index))
                continue
            symbols = after
            steps.append(
                Step(
                    f"{merge_text(problem, index)} joins the pair wherever it stands side by side: "
                    f"{pieces_text(symbols)}."
                )
            )
        if skipped:
            listed = ", ".join(skipped)
            steps.append(
                Step(
                    f"Nothing changes under {listed}: the pair never stands side by side when "
                    "its turn comes."
                )
            )
        steps.append(Step(f"The pieces left at the end: {pieces_text(symbols)}.", symbols))
        return tuple(steps)

    def hint(self, problem: BpeApplyProblem) -> str:
        return (
            "Write the word as single letters, then go down the merge list in order: wherever "
            "the pair of a merge stands side by side, join it into one piece; then the next "
            "merge. The pieces left at the end are the answer."
        )
