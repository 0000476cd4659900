"""The parts every generator shares: a stable random source, exact numbers, the re-draw loop.

Reproducibility rule: the same (generator name, version, seed, level, target) gives the same
spec forever. Randomness therefore comes only from the raw 64-bit output of NumPy's PCG64 seeded
through ``SeedSequence`` (both stable by NumPy's policy), never from ``Generator`` methods such
as ``integers`` or ``choice``, whose algorithms NumPy may improve between releases. A generator's
``version`` is bumped whenever its output for some (seed, level, target) would change —
including when the grading catalog changes which draws are accepted.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

import numpy as np

import grading
from grading.mistakes import expected_cached, mistaken
from grading.shapes import ScalarShape, Shape, Vector
from grading.spec import load_problem

T = TypeVar("T")

MAX_SEED = 2**63 - 1
# Below this, "different" means exactly different (rational answers are compared exactly).
EXACT_SEPARATION = 1e-9


class GenerationError(RuntimeError):
    """Raised when no acceptable problem was drawn within the re-draw budget."""


class Draw:
    """Draw integers, choices and shuffles from the raw output of a seeded PCG64.

    Only ``random_raw`` is used, so the stream is fixed by NumPy's stability promise for bit
    generators and seed sequences, not by the algorithms behind ``Generator`` methods.
    """

    def __init__(self, entropy: Sequence[int]) -> None:
        self._bits = np.random.default_rng(list(entropy)).bit_generator

    def below(self, n: int) -> int:
        """Return an integer uniformly in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (2**64 // n) * n
        while True:
            raw = int(self._bits.random_raw())
            if raw < limit:
                return raw % n

    def integer(self, low: int, high: int) -> int:
        """Return an integer uniformly in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """Return one item, uniformly."""
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Return ``k`` distinct items in random order (a partial Fisher–Yates shuffle)."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        for index in range(k):
            other = index + self.below(len(pool) - index)
            pool[index], pool[other] = pool[other], pool[index]
        return pool[:k]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return all items in random order."""
        return self.sample(items, len(items))


def frac_str(value: Fraction | int) -> str:
    """Write an exact rational as the spec does: ``"1/4"``, ``"-3"``."""
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def composition(draw: Draw, total: int, parts: int) -> list[int]:
    """Split ``total`` into ``parts`` positive integers, uniformly over all such splits."""
    cuts = sorted(draw.sample(range(1, total), parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[k + 1] - bounds[k] for k in range(parts)]


def distinct_rows(draw: Draw, count: int, dim: int, low: int, high: int) -> list[tuple[int, ...]]:
    """Draw ``count`` pairwise different nonzero integer rows with entries in ``[low, high]``."""
    rows: list[tuple[int, ...]] = []
    while len(rows) < count:
        row = tuple(draw.integer(low, high) for _ in range(dim))
        if any(row) and row not in rows:
            rows.append(row)
    return rows


def as_floats(vector: Sequence[Any]) -> tuple[float, ...]:
    """Evaluate a vector of SymPy numbers (or Fractions) to floats."""
    return tuple(float(x) for x in vector)


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the largest coordinate difference (the max norm of ``a - b``)."""
    if len(a) != len(b):
        return math.inf
    return max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0)


def diagnosis_key(diagnosis: Any) -> tuple:
    """Return what tells two diagnoses apart for a learner: the mistake and the terms."""
    return (str(diagnosis.mistake), tuple(diagnosis.terms), diagnosis.coordinate)


def exact_ambiguities(
    shape: Shape, right: Any, mistaken: Sequence[tuple[Any, Any]]
) -> list[str] | None:
    """List why an answer of any shape could be misread, comparing exactly: by the shape's
    key when every answer has one (linear time), else pairwise with the shape's `equal`.
    Returns None when an answer has no key and the shape is numeric (then `ambiguities`
    compares with a separation instead)."""
    keys = [shape.key(right), *(shape.key(value) for _, value in mistaken)]
    if None in keys:
        if isinstance(shape, (Vector, ScalarShape)):
            return None
        groups: list[tuple[Any, set[tuple]]] = [(right, {("right answer",)})]
        for diagnosis, value in mistaken:
            for other, members in groups:
                if shape.equal(value, other):
                    members.add(diagnosis_key(diagnosis))
                    break
            else:
                groups.append((value, {diagnosis_key(diagnosis)}))
        found = [members for _, members in groups]
    else:
        by_key: dict[Any, set[tuple]] = {keys[0]: {("right answer",)}}
        for (diagnosis, _), key in zip(mistaken, keys[1:], strict=True):
            by_key.setdefault(key, set()).add(diagnosis_key(diagnosis))
        found = list(by_key.values())
    return [f"{sorted(keys, key=str)} give the same answer" for keys in found if len(keys) > 1]


def ambiguities(
    right: Sequence[Any],
    mistaken: Sequence[tuple[Any, Sequence[Any]]],
    *,
    separation: float,
) -> list[str]:
    """List why a final vector could be misread: a mistake that gives the right answer, or two
    different diagnoses (mistake and terms) whose answers are closer than ``separation``.

    An empty list means the problem is diagnosable: every catalogued mistake's answer names
    exactly one diagnosis.
    """
    problems: list[str] = []
    exact = _exact(right)
    if separation <= EXACT_SEPARATION and exact is not None:
        # Rational answers: group by exact value (linear time, no tolerance needed).
        keys_by_vector: dict[tuple[Fraction, ...], set[tuple]] = {exact: {("right answer",)}}
        for diagnosis, vector in mistaken:
            vector_q = _exact(vector)
            if vector_q is None:
                break
            keys_by_vector.setdefault(vector_q, set()).add(diagnosis_key(diagnosis))
        else:
            return [
                f"{sorted(keys, key=str)} give the same answer"
                for keys in keys_by_vector.values()
                if len(keys) > 1
            ]
    right_f = as_floats(right)
    seen: list[tuple[tuple, tuple[float, ...]]] = []
    for diagnosis, vector in mistaken:
        key = diagnosis_key(diagnosis)
        vector_f = as_floats(vector)
        if distance(vector_f, right_f) < separation:
            problems.append(f"{key} gives the right answer")
        for other_key, other_f in seen:
            if other_key != key and distance(vector_f, other_f) < separation:
                problems.append(f"{key} and {other_key} give the same answer")
        seen.append((key, vector_f))
    return problems


def _exact(vector: Sequence[Any]) -> tuple[Fraction, ...] | None:
    """Return the vector as Fractions if every coordinate is rational, else None."""
    out = []
    for x in vector:
        if isinstance(x, Fraction | int):
            out.append(Fraction(x))
        elif getattr(x, "is_Rational", False):
            out.append(Fraction(int(x.p), int(x.q)))
        else:
            return None
    return tuple(out)


REGISTRY: dict[str, ProblemGenerator] = {}


class ProblemGenerator(ABC):
    """A generator of one problem kind: ``generate(seed=..., level=..., target=...)`` -> spec.

    A subclass in ``practice/generators/<kind>.py`` sets ``kind`` (the grading kind's name),
    ``name``, ``version``, ``number`` (stable seed entropy: the kind's number in the contract),
    ``levels``, and implements ``draw_fields`` (one random candidate, every rule stated in the
    spec), ``statement`` (Markdown with ``$...$`` TeX) and, when it has one, ``picture`` (SVG);
    ``plausible`` (a cheap pre-filter) and ``shows_clearly`` (whether a targeted mistake is
    visible) when the defaults do not fit. Defining the class registers it (the package
    imports every module of its folder), so adding a kind's generator is adding its module.
    """

    kind: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[int]
    number: ClassVar[int]
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    # Two different diagnoses must be at least this far apart (max norm) to count as different.
    separation: ClassVar[float] = EXACT_SEPARATION
    max_redraws: ClassVar[int] = 500

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__ and not getattr(cls, "__abstractmethods__", None):
            if cls.kind in REGISTRY and type(REGISTRY[cls.kind]) is not cls:
                raise TypeError(f"two generators for the kind {cls.kind!r}")
            numbers = {type(g).number: k for k, g in REGISTRY.items() if k != cls.kind}
            if cls.number in numbers:
                raise TypeError(f"{cls.__name__}: number {cls.number} is {numbers[cls.number]}'s")
            REGISTRY[cls.kind] = cls()

    @property
    def mistakes(self) -> tuple[str, ...]:
        """Return the kind's mistake codes, in catalog order."""
        return grading.kind(self.kind).codes

    def generate(self, *, seed: int, level: int, target: str | None = None) -> dict:
        """Return a valid, diagnosable spec; identical for identical arguments and version."""
        seed, level, target = self._check_arguments(seed, level, target)
        mistake_number = grading.kind(self.kind).mistake(target).number if target else 0
        draw = Draw([seed, level, self.version, self.number, mistake_number])
        redraws = 0
        while True:
            fields = self.draw_fields(draw, level, target)
            spec = {"kind": self.kind, **fields}
            if self.plausible(spec, target) and self.acceptable(spec, target):
                break
            redraws += 1
            if redraws >= self.max_redraws:
                raise GenerationError(
                    f"{self.name}: no diagnosable problem in {self.max_redraws} draws "
                    f"(seed={seed}, level={level}, target={target})"
                )
        spec["level"] = level
        spec["generator"] = {
            "name": self.name,
            "version": self.version,
            "seed": seed,
            "level": level,
            "target": str(target) if target else None,
            "redraws": redraws,
        }
        return spec

    def _check_arguments(
        self, seed: int, level: int, target: str | None
    ) -> tuple[int, int, str | None]:
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise TypeError("seed must be an integer")
        if not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed must be between 0 and {MAX_SEED}")
        if isinstance(level, bool) or int(level) not in self.levels:
            raise ValueError(f"level must be one of {self.levels}")
        if target is not None:
            if not isinstance(target, str) or target not in self.mistakes:
                raise ValueError(f"{str(target)[:40]} is not a mistake of {self.kind}")
            target = str(target)
        return int(seed), int(level), target

    @abstractmethod
    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        """Draw one candidate's kind-specific fields (everything but ``kind``)."""

    @abstractmethod
    def statement(self, spec: dict) -> str:
        """Return the problem statement: Markdown with ``$...$`` TeX (the data, what to
        compute, how to answer)."""

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        """Return an SVG picture of the problem, or None when the kind has none.

        With ``answer`` None (and ``solution`` not True) the picture never gives the answer
        away; with the learner's ``answer`` it draws it beside the right one."""
        return None

    def plausible(self, spec: dict, target: str | None) -> bool:
        """Reject a candidate cheaply before asking the grading engine (default: keep it)."""
        return True

    def relevant(self, spec: dict, diagnosis: Any) -> bool:
        """Return whether a catalogued variant is a mistake on this problem at all (default:
        yes). A variant that changes nothing, whatever the numbers, is left out of the check."""
        return True

    def shows_clearly(
        self, spec: dict, target: str, right: Any, answers: list[tuple[Any, Any]]
    ) -> bool:
        """Return whether ``target``'s answers stand out from ``right``.

        For vector and scalar answers ``right`` and each answer are tuples of floats (a scalar
        as a 1-tuple); for other shapes they are the values themselves. The default asks a
        numeric answer to differ by at least 0.5 somewhere, any other to differ at all."""
        if isinstance(right, tuple) and all(isinstance(x, float) for x in right):
            return any(distance(vector, right) >= 0.5 for _, vector in answers)
        return any(value != right for _, value in answers)

    def acceptable(self, spec: dict, target: str | None) -> bool:
        """Return whether the candidate is diagnosable (and, if targeted, shows the target):
        every catalogued mistake possible, none giving the right answer, no two diagnoses
        giving equal answers; compared by the kind's answer shape."""
        loaded = load_problem(spec)
        shape = loaded.shape
        right = expected_cached(loaded)
        mistaken_values = [(d, v) for d, v in mistaken(loaded) if self.relevant(spec, d)]
        found = {str(d.mistake) for d, _ in mistaken_values}
        # Every catalogued mistake must be possible here, or its review could never come up.
        if found != set(self.mistakes):
            return False
        numeric = isinstance(shape, (Vector, ScalarShape))
        problems = (
            None
            if self.separation > EXACT_SEPARATION
            else exact_ambiguities(shape, right, mistaken_values)
        )
        if problems is None:
            problems = ambiguities(
                _floats_of(right),
                [(d, _floats_of(v)) for d, v in mistaken_values],
                separation=self.separation,
            )
        if problems:
            return False
        if target is None:
            return True
        answers = [
            (d, _floats_of(v) if numeric else v) for d, v in mistaken_values if d.mistake == target
        ]
        return self.shows_clearly(spec, target, _floats_of(right) if numeric else right, answers)


def _floats_of(value: Any) -> tuple[float, ...]:
    """Return a vector's (or a scalar's, as a 1-tuple) coordinates as floats."""
    return as_floats(value if isinstance(value, tuple) else (value,))
