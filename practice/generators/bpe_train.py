"""``bpe_train``: the first k merges learned from a few words with counts.

Words come from one family of ``words.pieces.BPE_FAMILIES`` (so frequent pairs emerge), with
counts drawn per word. A problem is kept when every catalogued mistake changes some merge, no
two mistakes give the same merges, the first tie at the top involves exactly two pairs, and
every tie at the top is one Hugging Face's BpeTrainer breaks the same way as the stated
alphabetical rule (it prefers single characters, by code point, then merged symbols in the order
they were made: ``hf_breaks_ties_alphabetically``), so the library can serve as the oracle on
every generated problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grading import bpe

from .base import Draw, ProblemGenerator
from .draw.boxes import Figure, text_width
from .statement import format_example, md_word
from .words.pieces import BPE_FAMILIES

# Format examples, tried in order (see statement.format_example).
_MERGE_EXAMPLES = ("l o; lo w; e r", "a b; ab c; d e", "x y; xy z; u v")


@dataclass(frozen=True)
class BpeTrainLevel:
    words: int
    merges: int
    high: int


LEVELS: dict[int, BpeTrainLevel] = {
    1: BpeTrainLevel(words=3, merges=3, high=6),
    2: BpeTrainLevel(words=4, merges=3, high=8),
    3: BpeTrainLevel(words=4, merges=4, high=9),
    4: BpeTrainLevel(words=5, merges=4, high=9),
}


def hf_breaks_ties_alphabetically(steps: tuple[bpe.Step, ...]) -> bool:
    """Return whether Hugging Face's trainer would pick the same pair at every tie.

    Its queue orders tied pairs by symbol ids: single characters first (by code point), merged
    symbols after them in the order they were made; the left symbol decides first.
    """
    made: dict[str, int] = {}
    for step in steps:
        if len(step.tied) > 1:

            def rank(pair: bpe.Pair) -> tuple[int, int]:
                return tuple(  # type: ignore[return-value]
                    made.get(s, ord(s) if len(s) == 1 else 1 << 40) for s in pair
                )

            if min(step.tied, key=rank) != step.merge:
                return False
        made[step.merge[0] + step.merge[1]] = (1 << 30) + len(made)
    return True


def merges_typed(merges: tuple[bpe.Pair, ...]) -> str:
    """Return merges as a learner types them: ``e s; es t``."""
    return "; ".join(f"{a} {b}" for a, b in merges)


class BpeTrainGenerator(ProblemGenerator):
    kind: ClassVar[str] = "bpe_train"
    name: ClassVar[str] = "bpe_train"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 7
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        family = draw.choice(BPE_FAMILIES)
        words = draw.sample(family, spec_level.words)
        return {
            "words": [[w, draw.integer(1, spec_level.high)] for w in words],
            "merges": spec_level.merges,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        sample = [(w, c) for w, c in spec["words"]]
        steps = bpe.train(sample, spec["merges"])
        if len(steps) < spec["merges"] or not hf_breaks_ties_alphabetically(steps):
            return False
        ties = [s for s in steps if len(s.tied) > 1]
        return bool(ties) and len(ties[0].tied) == 2

    def statement(self, spec: dict) -> str:
        words = spec["words"]
        k = spec["merges"]
        header = " | ".join(md_word(w) for w, _ in words)
        counts = " | ".join(str(c) for _, c in words)
        return "\n".join(
            [
                "A byte-pair encoder learns its merges from this sample of words:",
                "",
                f"| word | {header} |",
                "|" + "---|" * (len(words) + 1),
                f"| times in the sample | {counts} |",
                "",
                "Start with every word written as single letters. Count each pair of adjacent "
                "symbols inside each word, as many times as the word occurs; pairs never span "
                "two words. Merge the most frequent pair into one symbol everywhere it occurs, "
                "then count again on the merged words. When pairs tie, take the one that comes "
                "first in alphabetical order (compare the left symbols, then the right ones).",
                "",
                f"What are the first $k = {k}$ merges, in order? Type each merge as its two "
                "symbols with a space between, and separate the merges with `;`, for example "
                f"`{format_example(spec, _MERGE_EXAMPLES)}`.",
            ]
        )

    def picture(
        self, spec: dict, answer: tuple | None = None, *, solution: bool | None = None
    ) -> str | None:
        sample = [(w, c) for w, c in spec["words"]]
        if answer is None and not solution:
            return _sample_picture(sample)
        return _steps_picture(bpe.train(sample, spec["merges"]), answer)


def _sample_picture(sample: list[tuple[str, int]]) -> str:
    """Return the sample's words as rows of single letters with their counts (a fresh problem)."""
    fig = Figure(
        "The sample's words as single letters, with their counts",
        f"{len(sample)} words; no pair count or merge is shown.",
    )
    y = 8.0
    counts_x = 8.0 + 31 * max(len(word) for word, _ in sample) + 8  # the counts in one column
    for n, (word, count) in enumerate(sample):
        x = 8.0
        for ch in word:
            fig.box(x, y, 28, 28, ch, role="symbol", data={"word": n}, mono=True)
            x += 31
        fig.label(counts_x, y + 19, f"× {count}", role="count")
        y += 34
    return fig.render()


def _step_row(fig: Figure, n: int, step: bpe.Step, theirs: tuple | None, y: float) -> None:
    """Draw merge ``n``'s row: the top pair counts, the merged pair and the learner's marked."""
    fig.label(8, y + 18, f"merge {n + 1}", weight="bold")
    x = 90.0
    shown = list(step.counts[:5])
    if theirs is not None and theirs not in dict(shown) and len(theirs) == 2:
        count = dict(step.counts).get(theirs, 0)  # type: ignore[call-overload]
        shown.append((theirs, count))
    for pair, count in shown:
        text = f"{pair[0]} {pair[1]}: {count}"
        w = text_width(text, per_char=7.5)
        style = "merged" if pair == step.merge else "plain"
        if pair == theirs and pair != step.merge:
            style = "wrong"
        data = {"step": n, "count": count, "pair": f"{pair[0]} {pair[1]}"}
        fig.box(x, y, w, 28, text, role="pair", style=style, data=data, mono=True)
        x += w + 4
    if theirs is not None:
        ok = theirs == step.merge
        fig.label(
            x + 10,
            y + 19,
            f"yours: {' '.join(theirs)}" + (" ✓" if ok else " ✗"),
            role="answer",
            colour="#047857" if ok else "#b91c1c",
        )


def _steps_picture(steps: tuple[bpe.Step, ...], answer: tuple | None) -> str:
    """Return the pair counts at each merge, the merged pair highlighted, the learner's beside."""
    learner = tuple(tuple(m) for m in answer) if answer is not None else ()
    fig = Figure(
        "The pair counts at each step, the merged pair highlighted",
        f"The merges are {merges_typed(tuple(s.merge for s in steps))}"
        + (
            f"; your answer, {merges_typed(learner)}, is shown beside each step." if answer else "."
        ),
    )
    y = 8.0
    for n, step in enumerate(steps):
        _step_row(fig, n, step, learner[n] if n < len(learner) else None, y)
        y += 36
    fig.label(8, y + 14, "blue: the pair merged at that step (most frequent, ties alphabetical)")
    fig.label(8, y + 32, "red: yours where it differs", colour="#b91c1c")
    return fig.render()
