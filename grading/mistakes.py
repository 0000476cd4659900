"""Search a kind's mistake catalog: every variant of every mistake on a problem, what each
gives, and an index to find the ones a learner's answer equals.

The catalog itself lives with each kind (`grading/kinds/<kind>.py`); this module is generic:
it enumerates `MistakeDef.variants_of`, applies them (`apply`, or a vector `form`), and indexes
the mistaken answers by the shape's exact key. For vector kinds whose mistakes all have forms,
every mistaken vector is evaluated in integers over one common denominator, so diagnosing an
exact rational answer is one dict lookup.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

import sympy

from .compare import Bound, to_sympy
from .exact import floats, is_rational, rational_combine, scaled_key
from .kinds.base import Form, Gap, MistakeDef, Variant
from .shapes import ScalarShape, Vector
from .spec import Loaded, load_problem
from .verdict import Diagnosis


def form_vector(loaded: Loaded, form: Form) -> tuple[Fraction, ...]:
    """Return the vector a form stands for, exactly (Fractions)."""
    a, changes = form
    weights = [Fraction(a)] + [c for c, _ in changes]
    rows = [expected_cached(loaded)] + [row for _, row in changes]
    return rational_combine(weights, rows)  # type: ignore[arg-type]


def _apply_def(loaded: Loaded, mistake: MistakeDef, diagnosis: Any) -> Any:
    if mistake.apply is not None:
        return mistake.apply(loaded.problem, diagnosis)
    if mistake.form is None:
        raise TypeError(f"{loaded.name}: mistake {mistake.code} has neither apply nor form")
    return form_vector(loaded, mistake.form(loaded.problem, diagnosis))


def variants(loaded: Loaded) -> list[Diagnosis]:
    """Return every variant of every catalogued mistake of the problem's kind."""
    return [v.diagnosis() for m in loaded.kind.mistakes for v in m.variants_of(loaded.problem)]


def apply(loaded: Loaded, diagnosis: Diagnosis | Variant) -> Any:
    """Return what a learner making `diagnosis` answers on the problem (internal values)."""
    try:
        mistake = loaded.kind.mistake(diagnosis.mistake)
    except KeyError:
        raise ValueError(f"{diagnosis.mistake} is not a {loaded.name} mistake") from None
    size = loaded.kind.size(loaded.problem)
    if size is not None and any(not 0 <= k < size for k in diagnosis.terms):
        raise ValueError(f"terms {list(diagnosis.terms)} are outside 0..{size - 1}")
    return _apply_def(loaded, mistake, diagnosis)


@lru_cache(maxsize=512)
def _mistaken_cached(loaded: Loaded) -> tuple[tuple[Diagnosis, Any], ...]:
    out = []
    for mistake in loaded.kind.mistakes:
        for v in mistake.variants_of(loaded.problem):
            diagnosis = v.diagnosis()
            out.append((diagnosis, _apply_def(loaded, mistake, diagnosis)))
    return tuple(out)


def mistaken(loaded: Loaded) -> tuple[tuple[Diagnosis, Any], ...]:
    """Return (diagnosis, internal value) for every mistake variant; cached per problem."""
    return _mistaken_cached(loaded)


@lru_cache(maxsize=512)
def expected_cached(loaded: Loaded) -> Any:
    """Return the right answer of a problem, cached."""
    return loaded.kind.right(loaded.problem)


class MistakeIndex:
    """Hold, per problem, the mistaken answers that differ from the right one, ready to match.

    `by_key` maps the shape's exact key of each mistaken answer (for rational vector kinds:
    all coordinates times the common denominator `scale`) to the variants giving it, so an
    exact answer is diagnosed with one dict lookup. `wrong` lists (diagnosis, exact value) in
    catalog order: what answers typed with decimals or irrational values are matched against;
    for rational kinds it is only built when such an answer comes. `bounds(k)` gives the k-th
    one's numbers as floats with error bounds (the first filter), computed when first needed.
    """

    def __init__(
        self,
        loaded: Loaded,
        by_key: dict[Hashable, tuple[Variant | Diagnosis, ...]],
        scale: int,
        wrong: tuple[tuple[Diagnosis, Any], ...] | None = None,
        *,
        keyed: bool = True,
    ) -> None:
        self.loaded = loaded
        self.by_key = by_key
        self.scale = scale
        self.keyed = keyed  # every mistaken answer has an exact key
        self._diagnoses: dict[Hashable, tuple[Diagnosis, ...]] = {}
        self._bounds: dict[int, tuple[Bound, ...] | None] = {}
        if wrong is not None:
            self.__dict__["wrong"] = wrong

    @property
    def all_rational(self) -> bool:
        """Return True when every mistaken answer is indexed by an exact key."""
        return self.keyed

    def key_of(self, value: Any) -> Hashable | None:
        """Return the index key of an answer (None: it is none of the mistaken answers)."""
        if self.scale:
            return scaled_key(value, self.scale)
        return self.loaded.shape.key(value)

    def exact_matches(self, value: Any) -> tuple[Diagnosis, ...]:
        """Return the mistakes whose answer is exactly `value` (keyed indexes only)."""
        key = self.key_of(value)
        if key is None or key not in self.by_key:
            return ()
        made = self._diagnoses.get(key)
        if made is None:  # the same Diagnosis objects on every lookup
            made = tuple(v.diagnosis() if isinstance(v, Variant) else v for v in self.by_key[key])
            self._diagnoses[key] = made
        return made

    @cached_property
    def wrong(self) -> tuple[tuple[Diagnosis, Any], ...]:
        """Return (diagnosis, exact value) for every mistaken answer that differs from the
        right one, in catalog order."""
        return _wrong(self.loaded)

    # What answers typed with decimals or irrational values are matched against, one by one
    # in catalog order: candidate k's diagnosis, its numbers as bounded floats (the first
    # filter) and its exact value (None when it is the right answer).

    @property
    def size(self) -> int:
        """Return how many candidates there are."""
        return len(self.wrong)

    def diagnosis(self, k: int) -> Diagnosis:
        """Return candidate k's diagnosis."""
        return self.wrong[k][0]

    def target(self, k: int) -> Any:
        """Return candidate k's exact value (None when it is the right answer)."""
        return self.wrong[k][1]

    def bounds(self, k: int) -> tuple[Bound, ...] | None:
        """Return candidate k's numbers as floats with error bounds (None when the shape has
        none or one is not available)."""
        if k not in self._bounds:
            self._bounds[k] = self.loaded.shape.bounds(self.wrong[k][1])
        return self._bounds[k]


class EstimatedIndex(MistakeIndex):
    """The candidates of a kind whose every mistake has `estimate`: each variant of each
    mistake in catalog order, its bounded floats from the estimate, and its exact value
    applied only when asked for (when a learner's answer is not surely apart from it)."""

    def __init__(self, loaded: Loaded) -> None:
        super().__init__(loaded, {}, 0, keyed=False)
        problem = loaded.problem
        self._variants = [(m, v) for m in loaded.kind.mistakes for v in m.variants_of(problem)]
        self._targets: dict[int, Any] = {}

    @property
    def size(self) -> int:
        return len(self._variants)

    def diagnosis(self, k: int) -> Diagnosis:
        return self._variants[k][1].diagnosis()

    def target(self, k: int) -> Any:
        if k not in self._targets:
            mistake, variant = self._variants[k]
            value = _apply_def(self.loaded, mistake, variant)
            same = self.loaded.shape.equal(value, expected_cached(self.loaded))
            self._targets[k] = None if same else value
        return self._targets[k]

    def bounds(self, k: int) -> tuple[Bound, ...] | None:
        if k not in self._bounds:
            mistake, variant = self._variants[k]
            assert mistake.estimate is not None
            try:
                self._bounds[k] = mistake.estimate(self.loaded.problem, variant)
            except (OverflowError, ZeroDivisionError):
                self._bounds[k] = None  # no bound: the exact value is tested
        return self._bounds[k]

    @cached_property
    def wrong(self) -> tuple[tuple[Diagnosis, Any], ...]:
        found = ((self.diagnosis(k), self.target(k)) for k in range(self.size))
        return tuple((d, value) for d, value in found if value is not None)


def _wrong(loaded: Loaded) -> tuple[tuple[Diagnosis, Any], ...]:
    expected = expected_cached(loaded)
    shape = loaded.shape
    return tuple(
        (diagnosis, value)
        for diagnosis, value in mistaken(loaded)
        if not shape.equal(value, expected)
    )


def _scaled_index(loaded: Loaded) -> MistakeIndex | None:
    """Return the index of a vector kind whose mistakes all have forms, in integers."""
    if not isinstance(loaded.shape, Vector):
        return None
    forms: list[tuple[Variant, Form]] = []
    problem = loaded.problem
    for mistake in loaded.kind.mistakes:
        if mistake.form is None or mistake.apply is not None:
            return None
        forms.extend((v, mistake.form(problem, v)) for v in mistake.variants_of(problem))
    expected = expected_cached(loaded)
    if not is_rational(expected):
        return None
    rows: dict[int, Sequence[Fraction]] = {}
    for _, (_, changes) in forms:
        for _, row in changes:
            rows[id(row)] = row
    coefficient_scale = math.lcm(*(c.denominator for _, (_, cs) in forms for c, _ in cs))
    row_scale = math.lcm(
        *(x.denominator for row in rows.values() for x in row), *(x.denominator for x in expected)
    )
    scale = coefficient_scale * row_scale
    scaled_rows = {
        key: [x.numerator * (row_scale // x.denominator) for x in row] for key, row in rows.items()
    }
    right = scaled_key(expected, scale)
    assert right is not None  # the right answer's denominators divide row_scale
    zero = [0] * len(right)
    by_key: dict[Hashable, list[Variant]] = {}
    for v, (a, changes) in forms:
        vector = [a * x for x in right] if a else zero
        for c, row in changes:
            factor = c.numerator * (coefficient_scale // c.denominator)
            if factor:
                vector = [s + factor * x for s, x in zip(vector, scaled_rows[id(row)], strict=True)]
        key = tuple(vector)
        if key != right:
            by_key.setdefault(key, []).append(v)
    return MistakeIndex(loaded, {k: tuple(v) for k, v in by_key.items()}, scale)


# per kind class: its catalog, and whether every mistake in it solves (checked again when the
# catalog is another object)
_SOLVES: dict[type, tuple[tuple[MistakeDef, ...], bool]] = {}


def _kind_solves(kind: Any) -> bool:
    """Return whether every mistake of a kind (at least one) has a form and solves for it."""
    mistakes = kind.mistakes
    found = _SOLVES.get(type(kind))
    if found is None or found[0] is not mistakes:
        solves = bool(mistakes) and all(
            m.solve is not None and m.form is not None for m in mistakes
        )
        found = _SOLVES[type(kind)] = (mistakes, solves)
    return found[1]


@lru_cache(maxsize=512)
def _solvable(loaded: Loaded) -> tuple[float, ...] | None:
    """Return the right answer as floats when every mistake of the kind solves for its
    variants (`MistakeDef.solve`) on a vector problem whose right answer is rational and
    whose numbers the kind's float filters are sure of (`Kind.solves`); else None."""
    if not isinstance(loaded.shape, Vector) or not _kind_solves(loaded.kind):
        return None
    if not loaded.kind.solves(loaded.problem):
        return None
    expected = expected_cached(loaded)
    return floats(expected) if is_rational(expected) else None


SOLVED_ANSWERS = 2  # a problem's first answers are solved; the next builds its index


@lru_cache(maxsize=512)
def _answers_solved(loaded: Loaded) -> list[int]:
    return [0]


def solved_matches(loaded: Loaded, value: Any) -> tuple[Diagnosis, ...] | None:
    """Return the mistakes whose answer is exactly the rational vector `value`, in catalog
    order, solved from each mistake's form (no index built); None when the kind cannot, or
    when the problem has had SOLVED_ANSWERS answers already (then its index, built once and
    looked up in a µs, pays for itself: solving costs tens of µs an answer)."""
    right_approx = _solvable(loaded)
    if right_approx is None:
        return None
    solved = _answers_solved(loaded)
    if solved[0] >= SOLVED_ANSWERS:
        return None
    solved[0] += 1
    return _solve(loaded, value, right_approx)


def solve_matches(loaded: Loaded, value: Any) -> tuple[Diagnosis, ...] | None:
    """Return what `solved_matches` returns, solving every time (None when the kind cannot):
    for tests that compare solving with the index."""
    right_approx = _solvable(loaded)
    return None if right_approx is None else _solve(loaded, value, right_approx)


def _solve(loaded: Loaded, value: Any, right_approx: tuple[float, ...]) -> tuple[Diagnosis, ...]:
    expected = expected_cached(loaded)
    if len(value) != len(expected) or value == expected:
        return ()
    gap = Gap(tuple(value), expected, right_approx)
    problem = loaded.problem
    return tuple(v.diagnosis() for m in loaded.kind.mistakes for v in m.solve(problem, gap))


@lru_cache(maxsize=512)
def mistake_index(loaded: Loaded) -> MistakeIndex:
    """Return the cached MistakeIndex of a problem."""
    index = _scaled_index(loaded)
    if index is not None:
        return index
    if loaded.kind.mistakes and all(m.estimate is not None for m in loaded.kind.mistakes):
        return EstimatedIndex(loaded)
    wrong = _wrong(loaded)
    shape = loaded.shape
    keys = [shape.key(value) for _, value in wrong]
    if any(key is None for key in keys):
        return MistakeIndex(loaded, {}, 0, wrong, keyed=False)
    by_key: dict[Hashable, list[Diagnosis]] = {}
    for (diagnosis, _), key in zip(wrong, keys, strict=True):
        by_key.setdefault(key, []).append(diagnosis)
    return MistakeIndex(loaded, {k: tuple(v) for k, v in by_key.items()}, 0, wrong)


# ---------------------------------------------------------------- public API


def public(loaded: Loaded, value: Any) -> Any:
    """Return a value as the public API gives it: SymPy numbers in vectors and scalars."""
    if isinstance(loaded.shape, Vector):
        return tuple(to_sympy(x) for x in value)
    if isinstance(loaded.shape, ScalarShape):
        return to_sympy(value)
    return value


def expected_answer(spec: dict) -> Any:
    """Return the exact right answer of a spec (vectors as SymPy numbers); SpecError if
    malformed."""
    loaded = load_problem(spec)
    return public(loaded, expected_cached(loaded))


def mistaken_answers(spec: dict) -> list[tuple[Diagnosis, Any]]:
    """Return every catalogued mistake applied to the spec, with every choice of terms/details."""
    loaded = load_problem(spec)
    return [(d, public(loaded, v)) for d, v in mistaken(loaded)]


def apply_mistake(spec: dict, diagnosis: Diagnosis) -> Any:
    """Return the answer a learner making `diagnosis` would give (ValueError if it can't)."""
    loaded = load_problem(spec)
    return public(loaded, apply(loaded, diagnosis))


def sympy_vector(values: Sequence[Any]) -> tuple[sympy.Expr, ...]:
    """Return a vector's coordinates as SymPy numbers."""
    return tuple(to_sympy(x) for x in values)
