"""`bpe_train`: the first k merges byte-pair encoding learns from words with counts.

Spec fields: `words` (a list of `[word, count]`: 2 to 6 distinct words of 1 to 12 lowercase
letters, counts 1 to 20), `merges` (k, from 2 to 6). The rules, stated in every problem: count
every adjacent pair of symbols inside each word, weighted by the word's count (pairs never span
two words); merge the most frequent pair into one symbol everywhere; count again; ties go to the
pair first in alphabetical order (left symbols compared first). The answer is the k merges in
order, one part per merge (`e s; es t`); a diagnosis's terms are `[step]`, the first merge
(0-based) where the mistaken procedure parts from the right one. The procedures are in
`grading.bpe`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .. import bpe
from ..shapes import Format, PieceSequence, Shape, TupleShape
from ..spec import SpecError
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

MIN_MERGES, MAX_MERGES = 2, 6
MAX_WORDS = 6
MAX_COUNT = 20
_WORD = re.compile(r"[a-z]{1,12}")

Merges = tuple[bpe.Pair, ...]


@dataclass(frozen=True)
class BpeTrainProblem:
    sample: tuple[tuple[str, int], ...]
    k: int
    steps: tuple[bpe.Step, ...]

    @property
    def merges(self) -> Merges:
        return tuple(s.merge for s in self.steps)


def pair_text(pair: bpe.Pair) -> str:
    """Return a merge as Markdown: *e s*."""
    return f"*{pair[0]} {pair[1]}*"


def merges_text(merges: Merges) -> str:
    """Return merges as the learner types them: `e s; es t`."""
    return "`" + "; ".join(f"{a} {b}" for a, b in merges) + "`"


def occurrence_sum(p: BpeTrainProblem, step: int, pair: bpe.Pair, *, types: bool = False) -> str:
    """Return how a pair's count at `step` adds up, as `6 + 3 = 9` (or `1 + 1 = 2` per word)."""
    words = bpe.words_before(p.sample, p.merges[:step])
    found = bpe.occurrences([(s, 1 if types else c) for s, c in words], pair)
    terms = [str(c) if times == 1 else f"{times}·{c}" for times, c in found]
    total = sum(times * c for times, c in found)
    if not terms:
        return "0"
    return (
        str(total) if len(terms) == 1 and "·" not in terms[0] else f"{' + '.join(terms)} = {total}"
    )


def _count(steps: tuple[bpe.Step, ...], step: int, pair: bpe.Pair) -> int:
    return dict(steps[step].counts).get(pair, 0)


def _first_difference(right: Merges, other: Merges) -> int | None:
    for k, (a, b) in enumerate(zip(right, other, strict=False)):
        if a != b:
            return k
    return None if len(right) == len(other) else min(len(right), len(other))


def _from_procedure(code: str, run):
    def variants(p: BpeTrainProblem) -> list[Variant]:
        merges = run(p)
        if len(merges) != p.k:
            return []
        step = _first_difference(p.merges, merges)
        return [] if step is None else [variant(code, (step,))]

    return variants


def _types_run(p: BpeTrainProblem) -> Merges:
    return tuple(s.merge for s in bpe.train(p.sample, p.k, types=True))


def _across_run(p: BpeTrainProblem) -> Merges:
    return tuple(s.merge for s in bpe.train_across_boundaries(p.sample, p.k))


def _flip_run(p: BpeTrainProblem) -> Merges:
    return tuple(s.merge for s in bpe.train(p.sample, p.k, flip_first_tie=True))


def _stale_run(p: BpeTrainProblem) -> Merges:
    return bpe.train_without_recounting(p.sample, p.k)


RUNS = {
    "counted_types": _types_run,
    "across_boundaries": _across_run,
    "tie_other_way": _flip_run,
    "stale_counts": _stale_run,
}


def _apply(p: BpeTrainProblem, v: Any) -> Merges:
    return RUNS[v.code](p)


def _where(step: int) -> str:
    return f"Merge {step + 1}"


def count_times(count: str | int) -> str:
    """Return a count with "time" or "times" after it, by the total it ends with ("1 time",
    "4 + 5 = 9 times")."""
    total = str(count).rsplit("=", 1)[-1].strip()
    return f"{count} time{'' if total == '1' else 's'}"


def _right_merges(p: BpeTrainProblem) -> str:
    return f"The merges are {merges_text(p.merges)}."


def _types_explain(p: BpeTrainProblem, d: Diagnosis) -> str:
    step = d.terms[0]
    right = p.merges[step]
    theirs = _types_run(p)[step]
    return (
        f"{_where(step)}: the pair {pair_text(right)} occurs "
        f"{count_times(occurrence_sum(p, step, right))}, not "
        f"{occurrence_sum(p, step, right, types=True)}: the counts are occurrences "
        f"of the word, not one per word. Counting each word once made {pair_text(theirs)} look "
        f"most frequent; with the counts it occurs {count_times(_count(p.steps, step, theirs))}. "
        f"{_right_merges(p)}"
    )


def _across_explain(p: BpeTrainProblem, d: Diagnosis) -> str:
    step = d.terms[0]
    right = p.merges[step]
    theirs = _across_run(p)[step]
    inside = _count(p.steps, step, theirs) if theirs in dict(p.steps[step].counts) else 0
    a, b = theirs
    where = (
        f"occurs only across the boundary between two words (a word ending in *{a[-1]}* "
        f"followed by one starting with *{b[0]}*)"
        if inside == 0
        else f"occurs {count_times(inside)} inside words; the rest of your count came from pairs "
        f"across the boundary between two words"
    )
    return (
        f"{_where(step)}: you seem to have merged {pair_text(theirs)}, which {where}. Pairs "
        f"never span two words: each word is counted on its own. Inside the words the most "
        f"frequent pair is {pair_text(right)}, {count_times(occurrence_sum(p, step, right))}. "
        f"{_right_merges(p)}"
    )


def _flip_explain(p: BpeTrainProblem, d: Diagnosis) -> str:
    step = d.terms[0]
    tied = p.steps[step].tied
    theirs = _flip_run(p)[step]
    count = _count(p.steps, step, tied[0])
    return (
        f"{_where(step)}: {' and '.join(pair_text(t) for t in tied)} "
        f"{'both' if len(tied) == 2 else 'all'} occur {count_times(count)}. "
        f"The rule breaks a tie by alphabetical order, so {pair_text(tied[0])} comes first; you "
        f"took {pair_text(theirs)}. {_right_merges(p)}"
    )


def _stale_explain(p: BpeTrainProblem, d: Diagnosis) -> str:
    step = d.terms[0]
    right = p.merges[step]
    theirs = _stale_run(p)[step]
    before = p.merges[step - 1] if step else None
    now = _count(p.steps, step, theirs)
    after = f"merge {step} ({pair_text(before)})" if before else "the previous merge"
    return (
        f"{_where(step)}: you took {pair_text(theirs)}, the next pair of the first count. After "
        f"{after} the words changed, so the pairs must be counted again: {pair_text(theirs)} "
        f"now occurs {count_times(now)} and {pair_text(right)} "
        f"{count_times(occurrence_sum(p, step, right))}. "
        f"{_right_merges(p)}"
    )


MISTAKES = (
    MistakeDef(
        code="counted_types",
        number=1,
        label="counted each word once, not by its count",
        parts="[step]: the first merge that differs",
        variants=_from_procedure("counted_types", _types_run),
        apply=_apply,
        explain=_types_explain,
    ),
    MistakeDef(
        code="across_boundaries",
        number=2,
        label="counted pairs across word boundaries",
        parts="[step]: the first merge that differs",
        variants=_from_procedure("across_boundaries", _across_run),
        apply=_apply,
        explain=_across_explain,
    ),
    MistakeDef(
        code="tie_other_way",
        number=3,
        label="broke a tie the other way",
        parts="[step]: the merge with the tie",
        variants=_from_procedure("tie_other_way", _flip_run),
        apply=_apply,
        explain=_flip_explain,
    ),
    MistakeDef(
        code="stale_counts",
        number=4,
        label="did not count again after a merge",
        parts="[step]: the first merge that differs",
        variants=_from_procedure("stale_counts", _stale_run),
        apply=_apply,
        explain=_stale_explain,
    ),
)


def _load_sample(spec: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    words = spec.get("words")
    if not isinstance(words, list) or not 2 <= len(words) <= MAX_WORDS:
        raise SpecError("words", f"is required and must list 2 to {MAX_WORDS} [word, count] pairs")
    out = []
    for index, item in enumerate(words):
        field = f"words[{index}]"
        if not isinstance(item, list) or len(item) != 2:
            raise SpecError(field, "must be a [word, count] pair")
        word, count = item
        if not isinstance(word, str) or not _WORD.fullmatch(word):
            raise SpecError(field, "the word must be 1 to 12 lowercase letters a-z")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise SpecError(field, f"the count must be a whole number from 1 to {MAX_COUNT}")
        out.append((word, count))
    if len({w for w, _ in out}) != len(out):
        raise SpecError("words", "lists a word twice")
    return tuple(out)


@register
class BpeTrain(Kind):
    name = "bpe_train"
    label = "The first merges of byte-pair encoding"
    # What its sentences number: merges from 1, in the order learned.
    numbering = {"merge": Numbered(lambda p: p.k)}
    mistakes = MISTAKES

    def load(self, spec: dict[str, Any]) -> BpeTrainProblem:
        sample = _load_sample(spec)
        k = spec.get("merges")
        if isinstance(k, bool) or not isinstance(k, int) or not MIN_MERGES <= k <= MAX_MERGES:
            raise SpecError("merges", f"must be a whole number from {MIN_MERGES} to {MAX_MERGES}")
        steps = bpe.train(sample, k)
        if len(steps) < k:
            raise SpecError("merges", f"the words allow only {len(steps)} merges")
        return BpeTrainProblem(sample, k, steps)

    def shape(self, problem: BpeTrainProblem) -> Shape:
        return TupleShape(
            [PieceSequence(2, space_marks=()) for _ in range(problem.k)],
            [f"merge {n + 1}" for n in range(problem.k)],
        )

    def right(self, problem: BpeTrainProblem) -> Merges:
        return problem.merges

    def size(self, problem: BpeTrainProblem) -> int:
        return problem.k

    def steps(self, problem: BpeTrainProblem) -> tuple[Step, ...]:
        words = [(bpe.spell(w), c) for w, c in problem.sample]
        listed = ", ".join(f"*{w}* ×{c}" for w, c in problem.sample)
        steps = [Step(f"Write each word as single letters, with its count: {listed}.")]
        merges: list[bpe.Pair] = []
        for n in range(problem.k):
            table = bpe.ranked(bpe.count_pairs(words))
            tied = bpe.top_tied(table)
            merge = tied[0]
            merges.append(merge)
            top = ", ".join(f"{pair_text(pair)} {count}" for pair, count in table[:4])
            tie = (
                f"; {len(tied)} pairs tie, and the first in alphabetical order wins"
                if len(tied) > 1
                else ""
            )
            words = [(bpe.apply_merge(symbols, merge), c) for symbols, c in words]
            shown = ", ".join(" ".join(symbols) for symbols, _ in words)
            steps.append(
                Step(
                    f"Merge {n + 1}: the most frequent pairs, counted inside the words times "
                    f"their counts, are {top}{tie}. Merge {pair_text(merge)} everywhere: "
                    f"`{shown}`.",
                    merge,
                )
            )
        steps.append(Step(f"The merges in order: {merges_text(tuple(merges))}.", tuple(merges)))
        return tuple(steps)

    def answer_formats(self, problem: BpeTrainProblem) -> tuple[Format, ...]:
        chains = (
            ("l o", "lo w", "e r", "er s", "low er", "t h"),
            ("a b", "ab c", "d e", "de f", "abc de", "x y"),
            ("x y", "xy z", "u v", "uv w", "xyz uv", "a b"),
        )
        return (
            Format(
                f"The {problem.k} merges in order, separated by ';', each as its two symbols "
                "with a space between",
                tuple("; ".join(chain[: problem.k]) for chain in chains),
            ),
        )

    def hint(self, problem: BpeTrainProblem) -> str:
        return (
            "Write each word as single letters. Count every adjacent pair inside each word, "
            "times the word's count; merge the most frequent pair everywhere (a tie goes to the "
            "pair first in alphabetical order), then count again on the merged words."
        )
