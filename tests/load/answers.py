"""The simulated learners' answers (tests/load/locustfile.py): for a stored problem spec, the
right answer and a catalogued wrong one, each as a learner types it for the problem's answer
shape (vector, scalar, integer, sequence, pieces, choice, ...), and an unreadable one.

Pure: no Django, no Locust; the grading engine's own right answer, mistake catalog and shapes.
"""

import random

from grading.mistakes import expected_cached, mistaken
from grading.spec import load_problem


def typed_answers(spec: dict, rng: random.Random) -> tuple[str, str | None]:
    """Return (right, wrong) texts for the spec; wrong is a catalogued mistake whose answer
    differs from the right one, or None when every catalogued mistake gives the right answer
    on this problem (the learner then answers right at once)."""
    loaded = load_problem(spec)
    shape = loaded.shape
    right = expected_cached(loaded)
    # Some mistakes coincide with the right answer on some problems; a learner's wrong answer
    # here is one that is really wrong.
    wrong = [value for _, value in mistaken(loaded) if not shape.equal(value, right)]
    return shape.typed(right), (shape.typed(rng.choice(wrong)) if wrong else None)


def unreadable(text: str) -> str:
    """Return the text with an unbalanced bracket and a dangling operator after it, which no
    answer shape reads (the Verdict is "invalid" and costs the learner nothing)."""
    return f"{text} + ("


def half_typed(text: str) -> str:
    """Return the first half of the text, as a preview sees it while the learner types."""
    return text[: len(text) // 2]
