"""The kind interface: what one problem kind tells the engine, in one module of its own.

A kind is a subclass of `Kind` decorated with `@register`, in `grading/kinds/<kind>.py`; the
package discovers every module, so adding a kind is adding a module. The engine (`grading/`
outside `kinds/`) reads the answer by the kind's shape, compares it with the kind's right
answer, searches the kind's mistake catalog and assembles the Verdict; it names no kind.

    @register
    class Lookup(Kind):
        name = "lookup"                  # the spec's "kind": stable forever
        label = "Look up a row"          # the one label (stats page, review queue, dashboard)
        mistakes = (MistakeDef(code="row_by_position", number=7, label="...", parts="[]",
                               variants=..., apply=..., explain=...), ...)
        def load(self, spec) -> LookupProblem: ...     # validate every field; SpecError names it
        def shape(self, problem) -> Shape: ...         # grading.shapes
        def right(self, problem): ...                  # the right answer's value
        def right_tex(self, problem) -> str: ...       # shown in explanations
        def hint(self, problem) -> str: ...            # advice when no catalogued mistake explains
        def steps(self, problem) -> tuple[Step, ...]: ...  # the worked solution, step by step

A mistake (`MistakeDef`) is defined once: its `code` (stored in attempts and review items:
unique within the kind and stable forever), its `number` (seeds targeted problems: unique within
the kind and stable), its one `label`, what its diagnosis's terms point at (`parts`), its
`variants` on a problem (which term, weight, row, position: `Variant(code, terms, detail)`), how
a variant transforms the right answer (`apply`, returning a value of the kind's shape), and the
words that explain it (`explain`, Markdown with TeX: which step, position or term went wrong,
what the learner seems to have done, what it should have been).

Optional, for kinds that need them:
- `MistakeDef.describe(problem, diagnosis)`: a short phrase used when an answer is what several
  mistakes give (default: the label);
- `MistakeDef.form(problem, variant)`: for a vector kind whose mistaken answers are rational,
  `(a, ((c, row), ...))` meaning `a * right + sum of c * row`; then `apply` may be left out and
  the engine indexes every variant in integer arithmetic;
- `MistakeDef.solve(problem, gap)`: with `form`, the variants (in `variants` order) whose form
  gives the learner's rational vector `gap.answer` (`gap.difference` = answer − right, never
  all 0; `gap.approx` its floats, for a quick filter before an exact test), found from the
  form directly instead of building every variant's vector; when every mistake of a kind has
  one, an exact rational answer is diagnosed without building an index (the tests check it
  finds what the index finds, in the same order); `Kind.solves(problem)` may turn it off for a
  problem whose numbers are too large for the float filters to be sure;
- `MistakeDef.estimate(problem, variant)`: for a kind whose mistaken answers are not all
  rational, the numbers of what `apply` gives as floats with bounds on their errors
  (`grading.compare.Bound`, built with `bound_exp`, `bound_sum`, `bound_product`,
  `bound_quotient`), from the problem's own numbers without SymPy; when every mistake of a kind
  has one, a learner's answer is first compared with these, and only the variants they cannot
  tell apart from it are applied (the tests check every bound holds the exact value);
- `Kind.terms(problem) -> TermTable`: a vector kind whose answer is a weighted sum declares its
  terms (weights, rows, names), and the engine then compares a written-out sum term by term;
  with it, `MistakeDef.weights(problem)` (the weight each term gets under a whole-sum mistake,
  None for a term left out) and `MistakeDef.from_terms(problem, report)` (the diagnosis a
  term-by-term report shows) let the engine name a mistake from the terms;
- `Kind.numbering`: what the kind numbers in the sentences a learner reads (its statements,
  explanations and worked solutions): for each of the words in `NUMBERED_WORDS` it writes
  with a number ("position 3", "step 2", "piece 1", "merge 4"), a `Numbered` saying how many
  there are on a problem and the first one's number (1, except the sentence positions the
  vector kinds write as subscripts from 0); tests/kinds/test_numbering.py reads every kind's
  text and checks each number against it, so a kind writing such a word undeclared fails;
- `Kind.normal(problem) -> dict`: the spec's fields in canonical form (validate_spec returns
  them); `Kind.size(problem)`: how many parts terms may index (`apply_mistake` checks it);
  `Kind.ambiguity_note(problem)`: a sentence added when several mistakes give the answer.

The required parts are the ones every registered kind defines; the optional parts above are
additions some kinds use (docs/kinds.md, "How a kind is built").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..exact import floats
from ..fraction_parts import num_den
from ..shapes import Format, Shape, Vector, sum_examples
from ..verdict import Diagnosis

if TYPE_CHECKING:
    from ..compare import Bound
    from ..terms import TermReport, TermTable

EMPTY: Mapping[str, Any] = MappingProxyType({})


def gettext_noop(text: str) -> str:
    """Return `text` unchanged, marking it for translation: Django's makemessages extracts
    labels written as `gettext_noop("...")`, and the practice app translates them at display
    (grading itself imports no Django)."""
    return text


# A rational vector mistake as `a * right answer + sum of c * row` (a is -1, 0 or 1).
Form = tuple[int, tuple[tuple[Fraction, tuple[Fraction, ...]], ...]]


class Variant(NamedTuple):
    """One variant of a mistake on one problem (which term, weight, row or position), before it
    becomes a Diagnosis. A problem has dozens; a Diagnosis is built only for those an answer
    matches. `apply`, `form` and `explain` read a Variant as they read a Diagnosis (`.code`,
    `.terms`, `.detail`)."""

    code: str
    terms: tuple[int, ...] = ()
    detail: Mapping[str, Any] = EMPTY

    @property
    def mistake(self) -> str:
        """Return the code (the name a Diagnosis gives it)."""
        return self.code

    def diagnosis(self) -> Diagnosis:
        """Return the Diagnosis naming this variant."""
        return Diagnosis.named(self.code, self.terms, dict(self.detail))


class Gap:
    """A learner's rational vector answer as `MistakeDef.solve` reads it: `answer` and `right`
    (Fractions), `approx` (answer − right as floats: a filter, never a verdict) and
    `difference` (answer − right exactly, computed when first asked for; never all 0), and
    `memo`, where a kind's mistakes may share work on one answer."""

    __slots__ = ("_difference", "answer", "answer_approx", "approx", "memo", "right")

    def __init__(
        self, answer: tuple[Fraction, ...], right: tuple[Fraction, ...], right_approx: Any
    ) -> None:
        self.answer = answer
        self.right = right
        self.answer_approx = floats(answer)
        # answer and right have one length (`mistakes._solve` checks it before making a Gap).
        # Each difference is computed in integers and rounded once, so its float is within
        # half an ulp of it however large answer and right are (their floats subtracted
        # would be off by up to an ulp of the larger, more than the filters' tolerance once
        # the numbers are large and the difference small).
        self.approx = tuple(
            (an * rd - rn * ad) / (ad * rd)
            # same length, checked above
            for (an, ad), (rn, rd) in zip(map(num_den, answer), map(num_den, right))  # noqa: B905
        )
        self._difference: tuple[Fraction, ...] | None = None
        self.memo: dict[str, Any] = {}  # what a kind's mistakes share while solving

    @property
    def difference(self) -> tuple[Fraction, ...]:
        """Return answer − right, exactly."""
        if self._difference is None:
            self._difference = tuple(a - r for a, r in zip(self.answer, self.right, strict=True))
        return self._difference


# The float filters of the rational kinds' `solve` compare products and sums of a problem's
# numbers with a tolerance of 1e-9 (`near`), and the answer's difference from the right one
# is rounded once (`Gap`): with every weight and row at most SOLVE_BOUND in size those
# products stay below about 10^4 and double rounding some 30 times under the tolerance. The
# generators' numbers are at most 12; a problem with larger ones is diagnosed from its index
# (exact in integers): past about 10^3, solving missed diagnoses the index found.
SOLVE_BOUND = 100


def near(a: float, b: float) -> bool:
    """Return True when two floats computed from small exact rationals may be equal (a
    filter before an exact test: a true equality always passes)."""
    return abs(a - b) <= 1e-9 * (1.0 + abs(a) + abs(b))


_make_variant = tuple.__new__  # a Variant without NamedTuple's Python-level __new__


def variant(code: str, terms: tuple[int, ...] = (), detail: Mapping[str, Any] = EMPTY) -> Variant:
    """Return a Variant quickly (generators build thousands while drawing problems)."""
    return _make_variant(Variant, (code, terms, detail))


# A kind's own validated problem object: best a `@dataclass(frozen=True, eq=False)`, so caches
# keyed on it hash by identity (the engine keeps one object per distinct spec while cached).
Problem = Any


@dataclass(frozen=True)
class MistakeDef:
    """One catalogued mistake, defined once (see the module docstring for every field)."""

    code: str
    number: int
    label: str
    explain: Callable[[Problem, Diagnosis], str]
    parts: str = "[]"
    variants: Callable[[Problem], Iterable[Variant]] | None = None
    apply: Callable[[Problem, Any], Any] | None = None
    form: Callable[[Problem, Any], Form] | None = None
    solve: Callable[[Problem, Gap], Iterable[Variant]] | None = None
    estimate: Callable[[Problem, Any], tuple[Bound, ...]] | None = None
    describe: Callable[[Problem, Diagnosis], str] | None = None
    weights: Callable[[Problem], tuple[Any, ...] | None] | None = None
    from_terms: Callable[[Problem, TermReport], Diagnosis | None] | None = None

    def variants_of(self, problem: Problem) -> Iterable[Variant]:
        """Return the mistake's variants on a problem (one, with no terms, by default)."""
        if self.variants is None:
            return (variant(self.code),)
        return self.variants(problem)

    def phrase(self, problem: Problem, diagnosis: Diagnosis) -> str:
        """Return the short phrase for a diagnosis (the label when there is no `describe`)."""
        if self.describe is None:
            return self.label
        return self.describe(problem, diagnosis)


# The words a learner reads with a number after them that must count something on the
# problem (`Kind.numbering`): the first is 1, none is 0, none is past the last.
NUMBERED_WORDS = ("position", "step", "piece", "merge")


@dataclass(frozen=True)
class Numbered:
    """How a kind numbers one word (one of `NUMBERED_WORDS`) in what a learner reads: `count`
    gives how many there are on a problem (the last one is numbered `first + count - 1`), and
    `first` the first one's number: 1, as everything told in words counts, except the sentence
    positions of the vector kinds, which their statements write as subscripts from 0."""

    count: Callable[[Problem], int]
    first: int = 1

    def numbers(self, problem: Problem) -> range:
        """Return the numbers that name one of them on this problem."""
        return range(self.first, self.first + self.count(problem))


@dataclass(frozen=True)
class Step:
    """One step of a worked solution: Markdown with TeX (the problem's own numbers), and the
    value it arrives at when it is one of the answer's parts or the answer itself (None for a
    step that only reads the problem). The last step's value is the whole answer: the
    worked solution checks it equals `Kind.right` (grading.solution)."""

    text: str
    value: Any = None


class Kind(ABC):
    """One problem kind: spec, shape, right answer, mistake catalog (see the module docstring)."""

    name: ClassVar[str]
    label: ClassVar[str]
    mistakes: ClassVar[tuple[MistakeDef, ...]] = ()
    # What the kind's sentences number, by word ("position", "step", ...): see `Numbered`.
    numbering: ClassVar[Mapping[str, Numbered]] = EMPTY

    @abstractmethod
    def load(self, spec: dict[str, Any]) -> Problem:
        """Return the kind's validated problem object; raise SpecError naming a bad field."""

    @abstractmethod
    def shape(self, problem: Problem) -> Shape:
        """Return the shape of the problem's answer."""

    @abstractmethod
    def right(self, problem: Problem) -> Any:
        """Return the right answer's value (a value of the shape)."""

    def right_tex(self, problem: Problem) -> str:
        """Return the right answer in TeX, for explanations."""
        return self.shape(problem).tex(self.right(problem))

    def hint(self, problem: Problem) -> str:
        """Return advice for an answer no catalogued mistake explains ("" for none)."""
        return ""

    def steps(self, problem: Problem) -> tuple[Step, ...]:
        """Return the worked solution, the way the course works its examples: each step with
        the problem's numbers, the last one arriving at the whole answer (empty: none)."""
        return ()

    def normal(self, problem: Problem) -> dict[str, Any]:
        """Return the spec's fields in canonical form (default: none rewritten)."""
        return {}

    def solves(self, problem: Problem) -> bool:
        """Return True when the float filters of this kind's `MistakeDef.solve` are sure on
        this problem (default); False sends its answers to the index, exact in integers. A
        kind whose filters compare products of the problem's numbers answers False when those
        numbers are too large for double rounding to stay far below the filters' tolerance."""
        return True

    def size(self, problem: Problem) -> int | None:
        """Return how many parts a diagnosis's terms may index (None: not checked)."""
        return None

    def terms(self, problem: Problem) -> TermTable | None:
        """Return the terms of the sum the answer is (vector kinds), or None."""
        return None

    def answer_formats(self, problem: Problem) -> tuple[Format, ...]:
        """Return how the answer is typed, for the answer box's help: the shape's ways, and
        the sum written out term by term when the kind has `terms`. A kind may refine it."""
        shape = self.shape(problem)
        formats = shape.formats()
        if self.terms(problem) is not None and isinstance(shape, Vector):
            formats += (Format("or the sum written out term by term", sum_examples(shape.dim)),)
        return formats

    def ambiguity_note(self, problem: Problem) -> str:
        """Return a sentence added when several mistakes give the learner's answer."""
        return ""

    def mistake(self, code: str) -> MistakeDef:
        """Return the mistake of this kind with that code (KeyError when it has none)."""
        return self._by_code[code]

    @property
    def codes(self) -> tuple[str, ...]:
        """Return the kind's mistake codes in catalog order."""
        return tuple(m.code for m in self.mistakes)

    _by_code: ClassVar[dict[str, MistakeDef]] = {}


REGISTRY: dict[str, Kind] = {}


def register(cls: type[Kind]) -> type[Kind]:
    """Register a Kind subclass under its `name`; check its catalog is well formed.

    Raises TypeError for a repeated kind name, a repeated mistake code or number within the kind,
    or a numbered word that is not one of `NUMBERED_WORDS`.
    """
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} has no name")
    if name in REGISTRY and type(REGISTRY[name]) is not cls:
        raise TypeError(f"two kinds are named {name!r}")
    codes = [m.code for m in cls.mistakes]
    numbers = [m.number for m in cls.mistakes]
    if len(set(codes)) != len(codes):
        raise TypeError(f"{name}: a mistake code is repeated")
    if len(set(numbers)) != len(numbers) or any(n < 1 for n in numbers):
        raise TypeError(f"{name}: mistake numbers must be distinct and positive")
    unknown = set(cls.numbering) - set(NUMBERED_WORDS)
    if unknown:
        raise TypeError(f"{name}: numbering names {sorted(unknown)}, not {NUMBERED_WORDS}")
    cls._by_code = {m.code: m for m in cls.mistakes}
    REGISTRY[name] = cls()
    # Kept in name order whatever registers when (a declared kind after the built-ins, or
    # again after `check_kind` reloaded it): every walk of the registry is the same.
    ordered = sorted(REGISTRY.items())
    REGISTRY.clear()
    REGISTRY.update(ordered)
    return cls
