"""The choice shape: one option among named ones, in any letter case."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from ..parse import AnswerError, Reading
from .base import Format, Shape, listed
from .reading import MAX_CHOICE_CHARS, check_text, text_tex


class Choice(Shape):
    """One option among named ones, read case-insensitively (`options` as listed).

    Letter case only: `str.lower`, not `casefold`, whose compatibility folding would read
    *ſell* as *sell*, *ﬁlled* as *filled* and *glaß* as *glass*."""

    def __init__(self, options: Sequence[str]) -> None:
        if not options:
            raise ValueError("a choice needs at least one option")
        self.options = tuple(options)
        self._by_fold = {unicodedata.normalize("NFC", o).lower(): o for o in self.options}
        if len(self._by_fold) != len(self.options):
            raise ValueError("two options differ only in letter case")
        self.noun = "one of " + listed(list(self.options))

    def __repr__(self) -> str:
        return f"Choice({self.options!r})"

    def formats(self) -> tuple[Format, ...]:
        return (
            Format(f"One of the options as listed, in any letter case: {', '.join(self.options)}"),
        )

    def read(self, text: str) -> Reading:
        normal = check_text(text, MAX_CHOICE_CHARS)
        word = " ".join(normal.split())
        option = self._by_fold.get(word.lower())
        if option is None:
            shown = f"{word[:40]!r} is not" if word else "the answer is empty; it must be"
            raise AnswerError(f"{shown} one of the options: {', '.join(self.options)}")
        return Reading(value=option, tex=self.tex(option))

    def tex(self, value: Any) -> str:
        return text_tex(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return f"{answer} is not the right option"
