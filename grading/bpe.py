"""Byte-pair encoding by hand: the procedures a learner follows, and the ways they go wrong.

Pure and small (words of a few letters, a handful of merges), so everything is recomputed
rather than cached. A word is a tuple of symbols; a merge is a pair of symbols ``(a, b)``
that becomes the symbol ``a + b``.

Counting rule: a pair is counted at every adjacent position where it occurs (``a a a`` holds
``a a`` twice); merging replaces occurrences from the left, never overlapping. Words drawn by
the generators have no doubled letters, so the two never disagree there.

Tie rule: among pairs with the highest count, the first in alphabetical order wins (compare
the left symbols, then the right ones, as strings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

Pair = tuple[str, str]
Symbols = tuple[str, ...]
Sample = tuple[tuple[Symbols, int], ...]


@dataclass(frozen=True)
class Step:
    """Record one training step: the pair counts it saw, the pairs tied at the top, the merge."""

    counts: tuple[tuple[Pair, int], ...]  # most frequent first, ties in rule order
    tied: tuple[Pair, ...]
    merge: Pair


def spell(word: str) -> Symbols:
    """Return a word as single characters, the symbols training starts from."""
    return tuple(word)


def apply_merge(symbols: Symbols, pair: Pair) -> Symbols:
    """Replace every occurrence of ``pair`` in ``symbols`` by the merged symbol, from the left."""
    a, b = pair
    out: list[str] = []
    k = 0
    while k < len(symbols):
        if k + 1 < len(symbols) and symbols[k] == a and symbols[k + 1] == b:
            out.append(a + b)
            k += 2
        else:
            out.append(symbols[k])
            k += 1
    return tuple(out)


def count_pairs(sample: Iterable[tuple[Symbols, int]]) -> Counter[Pair]:
    """Count adjacent pairs inside each word, each word weighted by its count."""
    counts: Counter[Pair] = Counter()
    for symbols, count in sample:
        for pair in pairwise(symbols):
            counts[pair] += count
    return counts


def ranked(counts: Counter[Pair]) -> tuple[tuple[Pair, int], ...]:
    """Return the pairs most frequent first, ties in alphabetical order."""
    return tuple(
        sorted(((p, c) for p, c in counts.items() if c > 0), key=lambda pc: (-pc[1], pc[0]))
    )


def top_tied(table: Sequence[tuple[Pair, int]]) -> tuple[Pair, ...]:
    """Return the pairs sharing the highest count, in rule order."""
    if not table:
        return ()
    best = table[0][1]
    return tuple(p for p, c in table if c == best)


def train(
    sample: Sequence[tuple[str, int]],
    k: int,
    *,
    types: bool = False,
    flip_first_tie: bool = False,
) -> tuple[Step, ...]:
    """Learn up to ``k`` merges from words with counts, applying each merge before recounting.

    ``types`` counts every word once (the counts ignored); ``flip_first_tie`` takes the last
    tied pair instead of the first at the first step with a tie (later ties follow the rule).
    Stops early when no pair is left.
    """
    words: list[tuple[Symbols, int]] = [(spell(w), 1 if types else c) for w, c in sample]
    steps: list[Step] = []
    flipped = not flip_first_tie
    for _ in range(k):
        table = ranked(count_pairs(words))
        if not table:
            break
        tied = top_tied(table)
        merge = tied[0]
        if not flipped and len(tied) > 1:
            merge = tied[-1]
            flipped = True
        steps.append(Step(table, tied, merge))
        words = [(apply_merge(s, merge), c) for s, c in words]
    return tuple(steps)


def running_text(sample: Sequence[tuple[str, int]]) -> Symbols:
    """Return the sample as one string of symbols: each word its count times, in listed order,
    with nothing between the words (the boundaries forgotten)."""
    return tuple(ch for word, count in sample for _ in range(count) for ch in word)


def train_across_boundaries(sample: Sequence[tuple[str, int]], k: int) -> tuple[Step, ...]:
    """Learn ``k`` merges from the running text, counting pairs across word boundaries too."""
    text = running_text(sample)
    steps: list[Step] = []
    for _ in range(k):
        table = ranked(count_pairs([(text, 1)]))
        if not table:
            break
        tied = top_tied(table)
        steps.append(Step(table, tied, tied[0]))
        text = apply_merge(text, tied[0])
    return tuple(steps)


def train_without_recounting(sample: Sequence[tuple[str, int]], k: int) -> tuple[Pair, ...]:
    """Return the ``k`` most frequent pairs of the first count (no merge applied in between)."""
    table = ranked(count_pairs([(spell(w), c) for w, c in sample]))
    return tuple(p for p, _ in table[:k])


def occurrences(sample: Sequence[tuple[Symbols, int]], pair: Pair) -> list[tuple[int, int]]:
    """Return ``(times in the word, word count)`` for every word holding ``pair``."""
    out = []
    for symbols, count in sample:
        times = sum(1 for p in pairwise(symbols) if p == pair)
        if times:
            out.append((times, count))
    return out


def words_before(
    sample: Sequence[tuple[str, int]], merges: Sequence[Pair]
) -> list[tuple[Symbols, int]]:
    """Return the sample's words after the given merges, with their counts."""
    words = [(spell(w), c) for w, c in sample]
    for merge in merges:
        words = [(apply_merge(s, merge), c) for s, c in words]
    return words


# Applying a learned merge list to a new word.


def replay(symbols: Symbols, merges: Sequence[Pair]) -> Symbols:
    """Apply the merges in the order they were learned (the right procedure)."""
    for merge in merges:
        symbols = apply_merge(symbols, merge)
    return symbols


def replay_steps(symbols: Symbols, merges: Sequence[Pair]) -> list[tuple[int, Symbols]]:
    """Return ``(merge index, symbols after it)`` for each merge that changes the word."""
    out = []
    for index, merge in enumerate(merges):
        after = apply_merge(symbols, merge)
        if after != symbols:
            out.append((index, after))
        symbols = after
    return out


def replay_first_only(symbols: Symbols, merges: Sequence[Pair]) -> tuple[int, Symbols] | None:
    """Apply only the first merge that changes the word; None when none does."""
    for index, merge in enumerate(merges):
        after = apply_merge(symbols, merge)
        if after != symbols:
            return index, after
    return None


def leftmost_first(symbols: Symbols, merges: Sequence[Pair]) -> Symbols:
    """Merge, again and again, the leftmost adjacent pair that is in the list (its rank ignored)."""
    listed = set(merges)
    while True:
        for k in range(len(symbols) - 1):
            if (symbols[k], symbols[k + 1]) in listed:
                symbols = (*symbols[:k], symbols[k] + symbols[k + 1], *symbols[k + 2 :])
                break
        else:
            return symbols


def reversed_replay(symbols: Symbols, merges: Sequence[Pair]) -> Symbols:
    """Apply the merges from the last learned to the first."""
    return replay(symbols, list(reversed(merges)))


def vocabulary(symbols: Iterable[str], merges: Sequence[Pair]) -> set[str]:
    """Return the pieces a merge list yields over the given base symbols."""
    return set(symbols) | {a + b for a, b in merges}


def greedy_longest(word: str, pieces: set[str]) -> Symbols:
    """Cut ``word`` from the left into the longest piece of ``pieces`` at each point."""
    out: list[str] = []
    k = 0
    while k < len(word):
        for end in range(len(word), k, -1):
            if word[k:end] in pieces or end == k + 1:
                out.append(word[k:end])
                k = end
                break
    return tuple(out)


def well_formed(merges: Sequence[Pair]) -> bool:
    """Return whether every merge joins single characters or pieces earlier merges made, as a
    learned merge list does (the order the replay and a rank-based tokenizer agree on)."""
    made: set[str] = set()
    for a, b in merges:
        if any(len(s) > 1 and s not in made for s in (a, b)):
            return False
        made.add(a + b)
    return True
