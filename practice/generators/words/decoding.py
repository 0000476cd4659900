"""Pieces for *The Repetition Loop*: small sets of words a toy model decodes one at a time.

Each set holds six pieces that make plausible text in many orders. A problem draws 3 to 6 of
them. Changing a tuple changes generated problems: bump the version of every generator that
reads it (``greedy_steps``, ``greedy_loop``, ``repetition_penalty``).
"""

from __future__ import annotations

PIECE_SETS: tuple[tuple[str, ...], ...] = (
    ("the", "cat", "sat", "on", "mat", "and"),
    ("we", "went", "to", "the", "sea", "again"),
    ("it", "was", "a", "very", "good", "day"),
    ("she", "said", "that", "it", "is", "fine"),
    ("one", "more", "time", "and", "then", "home"),
    ("i", "like", "my", "dog", "and", "tea"),
    ("the", "rain", "fell", "all", "night", "long"),
)
