"""Explanations a learner can act on, assembled from the kind's own words.

Each mistake's explanation lives with its kind (`MistakeDef.explain`); this module looks it up
(cached: it depends on the problem and the diagnosis only, and both repeat), and writes the
sentences the engine adds: an answer several mistakes give, and an answer none explains.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .shapes import ordinal
from .spec import Loaded
from .verdict import Diagnosis

__all__ = ["describe", "explain", "no_mistake_explains", "ordinal"]


@lru_cache(maxsize=2048)
def explain(loaded: Loaded, diagnosis: Diagnosis) -> str:
    """Return the explanation of one diagnosed mistake, naming the part and its right form."""
    return loaded.kind.mistake(diagnosis.mistake).explain(loaded.problem, diagnosis)


def describe(loaded: Loaded, diagnosis: Diagnosis) -> str:
    """Return a short phrase for a diagnosis, for listing ambiguous matches."""
    mistake = loaded.kind.mistake(diagnosis.mistake)
    if mistake.describe is None:
        return diagnosis.mistake.replace("_", " ")
    return mistake.describe(loaded.problem, diagnosis)


def no_mistake_explains(loaded: Loaded, answer: Any, expected: Any) -> str:
    """Return the sentences for an answer no catalogued mistake explains: what differs (by the
    shape) and the kind's hint."""
    what = loaded.shape.describe_differences(answer, expected)
    text = f"No common mistake explains this answer: {what}."
    if what.startswith("your "):
        text = what[0].upper() + what[1:] + "."
    hint = loaded.kind.hint(loaded.problem)
    return f"{text} {hint}" if hint else text


def ambiguous(loaded: Loaded, matches: list[Diagnosis]) -> str:
    """Return the sentences for an answer that several catalogued mistakes give."""
    listed = "; ".join(describe(loaded, d) for d in matches)
    hint = (
        " Writing the sum out term by term would show which."
        if loaded.kind.terms(loaded.problem) is not None
        else ""
    )
    note = loaded.kind.ambiguity_note(loaded.problem)
    note = f" {note}" if note else ""
    return (
        "Your answer is what more than one common mistake gives, so "
        f"{loaded.shape.final} alone cannot tell which happened: {listed}.{hint}{note}"
    )
