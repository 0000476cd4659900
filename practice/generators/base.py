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
from grading.kinds import MISTAKES_BY_KIND, MistakeCode, ProblemKind

T = TypeVar("T")

# Stable numbers for the seed sequence: never reorder.
KIND_NUMBERS: dict[ProblemKind, int] = {
    ProblemKind.LOOKUP: 1,
    ProblemKind.WEIGHTED_SUM: 2,
    ProblemKind.CONTRAST: 3,
    ProblemKind.CONTENT_WEIGHTS: 4,
}
# Written out, so that adding a code to the enum cannot renumber older ones; a new code gets
# the next number here (a test checks every code has one).
MISTAKE_NUMBERS: dict[MistakeCode, int] = {
    MistakeCode.OMITTED_TERM: 1,
    MistakeCode.WRONG_WEIGHT: 2,
    MistakeCode.WRONG_ROW: 3,
    MistakeCode.SWAPPED_WEIGHTS: 4,
    MistakeCode.UNWEIGHTED_SUM: 5,
    MistakeCode.PLAIN_AVERAGE: 6,
    MistakeCode.ROW_BY_POSITION: 7,
    MistakeCode.OFF_BY_ONE_ROW: 8,
    MistakeCode.OTHER_TOKEN_ROW: 9,
    MistakeCode.FORGOT_WEIGHT: 10,
    MistakeCode.REVERSED_DIFFERENCE: 11,
    MistakeCode.ANSWERED_ONE_SIDE: 12,
    MistakeCode.UNNORMALISED_WEIGHTS: 13,
    MistakeCode.POSITIONAL_WEIGHTS: 14,
    MistakeCode.OMITTED_SELF_SCORE: 15,
    MistakeCode.RAW_SCORES: 16,
}

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
    return (MistakeCode(diagnosis.mistake), tuple(diagnosis.terms), diagnosis.coordinate)


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


class ProblemGenerator(ABC):
    """A generator of one problem kind: ``generate(seed=..., level=..., target=...)`` -> spec.

    Subclasses set ``kind``, ``name``, ``version``, ``levels`` and implement ``draw_fields``
    (one random candidate) and ``shows_clearly`` (whether a targeted mistake is visible).
    """

    kind: ClassVar[ProblemKind]
    name: ClassVar[str]
    version: ClassVar[int]
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    # Two different diagnoses must be at least this far apart (max norm) to count as different.
    separation: ClassVar[float] = EXACT_SEPARATION
    max_redraws: ClassVar[int] = 500

    @property
    def mistakes(self) -> tuple[MistakeCode, ...]:
        return MISTAKES_BY_KIND[self.kind]

    def generate(self, *, seed: int, level: int, target: MistakeCode | None = None) -> dict:
        """Return a valid, diagnosable spec; identical for identical arguments and version."""
        seed, level, target = self._check_arguments(seed, level, target)
        draw = Draw(
            [
                seed,
                level,
                self.version,
                KIND_NUMBERS[self.kind],
                MISTAKE_NUMBERS[target] if target else 0,
            ]
        )
        redraws = 0
        while True:
            fields = self.draw_fields(draw, level, target)
            spec = {"kind": self.kind.value, **fields}
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
            "target": target.value if target else None,
            "redraws": redraws,
        }
        return spec

    def _check_arguments(
        self, seed: int, level: int, target: MistakeCode | str | None
    ) -> tuple[int, int, MistakeCode | None]:
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise TypeError("seed must be an integer")
        if not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed must be between 0 and {MAX_SEED}")
        if isinstance(level, bool) or int(level) not in self.levels:
            raise ValueError(f"level must be one of {self.levels}")
        if target is not None:
            target = MistakeCode(target)
            if target not in self.mistakes:
                raise ValueError(f"{target} is not a mistake of {self.kind}")
        return int(seed), int(level), target

    @abstractmethod
    def draw_fields(self, draw: Draw, level: int, target: MistakeCode | None) -> dict:
        """Draw one candidate's kind-specific fields (everything but ``kind``)."""

    def plausible(self, spec: dict, target: MistakeCode | None) -> bool:
        """Reject a candidate cheaply before asking the grading engine (default: keep it)."""
        return True

    def relevant(self, spec: dict, diagnosis: Any) -> bool:
        """Return whether a catalogued variant is a mistake on this problem at all (default:
        yes). A variant that changes nothing, whatever the numbers, is left out of the check."""
        return True

    def shows_clearly(
        self,
        spec: dict,
        target: MistakeCode,
        right: tuple[float, ...],
        answers: list[tuple[Any, tuple[float, ...]]],
    ) -> bool:
        """Return whether ``target``'s answers (already evaluated) stand out from ``right``."""
        return any(distance(vector, right) >= 0.5 for _, vector in answers)

    def acceptable(self, spec: dict, target: MistakeCode | None) -> bool:
        """Return whether the candidate is diagnosable (and, if targeted, shows the target)."""
        grading.validate_spec(spec)
        right = grading.expected_answer(spec)
        mistaken = [(d, v) for d, v in grading.mistaken_answers(spec) if self.relevant(spec, d)]
        found = {MistakeCode(d.mistake) for d, _ in mistaken}
        # Every catalogued mistake must be possible here, or its review could never come up.
        if found != set(self.mistakes):
            return False
        if ambiguities(right, mistaken, separation=self.separation):
            return False
        if target is None:
            return True
        answers = [(d, as_floats(v)) for d, v in mistaken if MistakeCode(d.mistake) == target]
        return self.shows_clearly(spec, target, as_floats(right), answers)
