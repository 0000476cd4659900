"""Words for a second sentence that differs from the first only outside the layers' reach.

``outside_swap`` picks a position outside the reach and a word to put there: another noun of the
same sense for the noun slot, or a plain alternative for a frame word (*moved* / *stayed*).
Changing these tuples changes generated problems: bump the two-layer generator's version.
"""

from __future__ import annotations

from collections.abc import Container

from .vocab import NOUN, Sentence

FRAME_SWAPS: dict[str, str] = {
    "the": "that",
    "a": "one",
    "that": "this",
    "this": "that",
    "one": "a",
    "near": "by",
    "by": "near",
    "see": "find",
    "moved": "stayed",
    "again": "today",
    "today": "again",
    "old": "new",
    "was": "looked",
    "very": "quite",
    "we": "they",
    "she": "he",
    "saw": "found",
    "found": "saw",
    "walked": "ran",
    "to": "past",
    "with": "without",
    "had": "lost",
    "many": "few",
}


def outside_swap(sentence: Sentence, reach: Container[int]) -> tuple[int, str] | None:
    """Return (position, new word) for the last position outside ``reach`` that has a swap."""
    tokens = sentence.tokens()
    for k in range(len(tokens) - 1, -1, -1):
        if k in reach:
            continue
        if sentence.frame[k] == NOUN:
            nouns = sentence.word.senses[sentence.sense].nouns
            other = nouns[(sentence.noun_index + 1) % len(nouns)]
            if other not in tokens:
                return k, other
        elif tokens[k] in FRAME_SWAPS and FRAME_SWAPS[tokens[k]] not in tokens:
            return k, FRAME_SWAPS[tokens[k]]
    return None
