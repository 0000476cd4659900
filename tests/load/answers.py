"""The simulated learners' answers (tests/load/locustfile.py): for a stored problem spec, the
right answer and a catalogued wrong one, each as a learner types it for the problem's answer
shape (vector, scalar, integer, sequence, pieces, choice, ...), and an unreadable one.

Pure: no Django, no Locust; the grading engine's own right answer, mistake catalog and shapes,
typed by `tests.answers`.
"""

import random

from tests.answers import right_answer, typed, wrong_values


def typed_answers(spec: dict, rng: random.Random) -> tuple[str, str | None]:
    """Return (right, wrong) texts for the spec; wrong is a catalogued mistake whose answer
    differs from the right one, or None when every catalogued mistake gives the right answer
    on this problem (the learner then answers right at once)."""
    wrong = wrong_values(spec)
    return right_answer(spec), (typed(rng.choice(wrong)[1], spec) if wrong else None)


def unreadable(text: str) -> str:
    """Return the text with an unbalanced bracket and a dangling operator after it, which no
    answer shape reads (the Verdict is "invalid" and costs the learner nothing)."""
    return f"{text} + ("


def half_typed(text: str) -> str:
    """Return the first half of the text, as a preview sees it while the learner types."""
    return text[: len(text) // 2]
