"""The text a synthetic learner types: the right answer, a catalogued mistake's answer as the
grading engine computes it (``grading.mistaken_answers``), or a slip no mistake explains.

Pure (grading only, no Django). Answers are typed as every test types them
(``tests.answers.typed``).
"""

import random
from functools import lru_cache
from typing import Any

import sympy

import grading
from grading import Status
from grading.shapes import Choice, IntegerSequence, IntegerShape, PieceSequence, TupleShape
from grading.spec import load_problem
from tests.answers import typed


class Answers:
    """The answers to one problem spec: right, per mistake, and slips (computed lazily)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.shape = load_problem(spec).shape
        self.right_value = grading.expected_answer(spec)
        self._by_mistake: dict[str, list[Any]] = {}

    @property
    def right(self) -> str:
        """Return the right answer as a learner types it."""
        return typed(self.right_value, self.shape)

    def _values(self, mistake: str) -> list[Any]:
        """Return the answers of every way of making the mistake that differ from the right
        one (computed for this mistake only: some kinds' full catalog is slow to apply)."""
        if mistake not in self._by_mistake:
            loaded = load_problem(self.spec)
            variants = loaded.kind.mistake(mistake).variants_of(loaded.problem)
            values = (grading.apply_mistake(self.spec, v.diagnosis()) for v in variants)
            self._by_mistake[mistake] = [
                value for value in values if not self.shape.equal(value, self.right_value)
            ]
        return self._by_mistake[mistake]

    def shows(self, mistake: str) -> bool:
        """Return whether making the mistake on this problem gives a wrong answer."""
        return bool(self._values(mistake))

    def mistaken(self, mistake: str, rng: random.Random) -> str:
        """Return the answer of one way of making the mistake (one choice of its terms)."""
        return typed(rng.choice(self._values(mistake)), self.shape)

    def slip(self, rng: random.Random) -> str | None:
        """Return a wrong answer that grading explains by no catalogued mistake, or None when
        none of a few perturbations of the right answer is one."""
        for _try in range(4):
            value = _perturb(self.shape, self.right_value, rng)
            if value is None:
                return None
            text = typed(value, self.shape)
            verdict = grading.grade(self.spec, text)
            if verdict.status == Status.INCORRECT and verdict.diagnosis is None:
                return text
        return None


def _perturb(shape: Any, value: Any, rng: random.Random) -> Any:
    """Return the value with one part changed as a careless slip would change it."""
    if isinstance(shape, TupleShape):
        parts = list(value)
        k = rng.randrange(len(parts))
        changed = _perturb(shape.parts[k], parts[k], rng)
        if changed is None:
            return None
        parts[k] = changed
        return tuple(parts)
    if isinstance(shape, Choice):
        others = [o for o in shape.options if o != value]
        return rng.choice(others) if others else None
    if isinstance(shape, IntegerShape):
        return int(value) + rng.choice([-3, 2, 3, 5])
    if isinstance(shape, PieceSequence):
        pieces = list(value)
        if not pieces:
            return None
        k = rng.randrange(len(pieces))
        pieces[k] = pieces[k] + "q"
        return tuple(pieces)
    if isinstance(shape, IntegerSequence):
        items = list(value)
        if not items:
            return None
        k = rng.randrange(len(items))
        items[k] = int(items[k]) + rng.choice([-3, 2, 3, 5])
        return tuple(items)
    if isinstance(value, tuple):  # a vector
        items = list(value)
        k = rng.randrange(len(items))
        items[k] = sympy.sympify(items[k]) + sympy.Rational(rng.choice([1, 2, 3]), 7)
        return tuple(items)
    return sympy.sympify(value) + sympy.Rational(rng.choice([1, 2, 3]), 7)  # a scalar


@lru_cache(maxsize=256)
def _answers_cached(key: str) -> Answers:
    import json

    return Answers(json.loads(key))


def answers_for(spec: dict[str, Any]) -> Answers:
    """Return the (cached) answers of a spec."""
    import json

    return _answers_cached(json.dumps(spec, sort_keys=True))
