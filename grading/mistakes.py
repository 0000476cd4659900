"""The mistake catalog: for each kind, what a learner making each mistake would answer.

Every entry has a stable code (`MistakeCode`), the kind it belongs to, the terms it concerns,
a one-line summary, the variants it has on a given problem (which term, which weight, which
row) and a function applying one variant. `mistaken_answers` enumerates every variant;
diagnosis of a final vector is matching the learner's vector against that list.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

import mpmath
import sympy

from .compare import Scalar, approx, to_sympy, vectors_equal
from .kinds import MISTAKES_BY_KIND, MistakeCode, ProblemKind
from .spec import Problem, load_problem
from .verdict import Diagnosis

Vector = tuple[Scalar, ...]
# A rational mistake's answer as `a * right answer + sum of c * row` (a is -1, 0 or 1).
Form = tuple[int, tuple[tuple[Fraction, Vector], ...]]


# ---------------------------------------------------------------- arithmetic


def _add(a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    return to_sympy(a) + to_sympy(b)


def _mul(a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    return to_sympy(a) * to_sympy(b)


def _rational_combine(weights: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]) -> Vector:
    """Return sum_j weights[j] * rows[j] with integer arithmetic and one Fraction per coordinate
    (Fraction's own + and * reduce by a gcd at every step, which dominates mistake listing)."""
    out = []
    for d in range(len(rows[0])):
        num, den = 0, 1
        for weight, row in zip(weights, rows, strict=True):
            x = row[d]
            if weight and x:
                term_den = weight.denominator * x.denominator
                num = num * term_den + weight.numerator * x.numerator * den
                den *= term_den
        out.append(Fraction(num, den))
    return tuple(out)


def combine(weights: Sequence[Scalar], rows: Sequence[Sequence[Scalar]]) -> Vector:
    """Return sum_j weights[j] * rows[j], exactly."""
    if all(type(w) is Fraction for w in weights) and all(
        type(x) is Fraction for row in rows for x in row
    ):
        return _rational_combine(weights, rows)  # type: ignore[arg-type]
    dim = len(rows[0])
    total: list[Scalar] = [Fraction(0)] * dim
    for weight, row in zip(weights, rows, strict=True):
        for d in range(dim):
            total[d] = _add(total[d], _mul(weight, row[d]))
    return tuple(total)


def scores(problem: Problem) -> tuple[Fraction, ...]:
    """Return the content scores s_ij = x_i . x_j for a content_weights problem."""
    own = problem.rows[problem.position]
    return tuple(
        sum((a * b for a, b in zip(own, row, strict=True)), Fraction(0)) for row in problem.rows
    )


def softmax(exponents: Sequence[Fraction]) -> tuple[sympy.Expr, ...]:
    """Return exact softmax weights exp(a_j) / sum_k exp(a_k)."""
    powers = [sympy.exp(sympy.Rational(a.numerator, a.denominator)) for a in exponents]
    total = sympy.Add(*powers)
    return tuple(p / total for p in powers)


def _softmax_combine(exponents: Sequence[Fraction], rows: Sequence[Sequence[Scalar]]) -> Vector:
    """Return sum_j softmax(a)_j x_j as one fraction per coordinate (numerator / total)."""
    powers = [sympy.exp(sympy.Rational(a.numerator, a.denominator)) for a in exponents]
    total = sympy.Add(*powers)
    dim = len(rows[0])
    return tuple(
        sympy.Add(*[p * to_sympy(row[d]) for p, row in zip(powers, rows, strict=True)]) / total
        for d in range(dim)
    )


def content_weights(problem: Problem) -> tuple[sympy.Expr, ...]:
    """Return the exact weights w_ij = softmax_j(x_i . x_j) of a content_weights problem."""
    return softmax(scores(problem))


def term_weights(problem: Problem) -> tuple[Scalar, ...]:
    """Return the right weight of every term of the sum (weighted_sum, content_weights)."""
    if problem.kind == ProblemKind.CONTENT_WEIGHTS:
        return content_weights(problem)
    return problem.weights


def _positional_exponents(problem: Problem) -> tuple[Fraction, ...]:
    return tuple(Fraction(-abs(problem.position - j)) for j in range(len(problem.rows)))


def whole_sum_weightings(problem: Problem) -> list[tuple[Diagnosis, tuple[Scalar | None, ...]]]:
    """Return, per whole-sum mistake, the weight each term gets (None: the term is left out)."""
    n = len(problem.rows)
    if problem.kind == ProblemKind.WEIGHTED_SUM:
        return [
            (Diagnosis(MistakeCode.UNWEIGHTED_SUM), (Fraction(1),) * n),
            (Diagnosis(MistakeCode.PLAIN_AVERAGE), (Fraction(1, n),) * n),
        ]
    if problem.kind != ProblemKind.CONTENT_WEIGHTS:
        return []
    s = scores(problem)
    i = problem.position
    out: list[tuple[Diagnosis, tuple[Scalar | None, ...]]] = [
        (
            Diagnosis(MistakeCode.UNNORMALISED_WEIGHTS),
            tuple(sympy.exp(to_sympy(x)) for x in s),
        ),
        (Diagnosis(MistakeCode.POSITIONAL_WEIGHTS), softmax(_positional_exponents(problem))),
        (Diagnosis(MistakeCode.RAW_SCORES), s),
    ]
    if n > 1:
        others = softmax([x for j, x in enumerate(s) if j != i])
        weights: list[Scalar | None] = list(others)
        weights.insert(i, None)
        out.insert(2, (Diagnosis(MistakeCode.OMITTED_SELF_SCORE), tuple(weights)))
    return out


# ---------------------------------------------------------------- the right answer


def right_answer(problem: Problem) -> Vector:
    """Return the exact right vector of a problem (Fractions, or SymPy for content_weights)."""
    if problem.kind == ProblemKind.LOOKUP:
        return problem.table[problem.token_id(problem.position)]
    if problem.kind == ProblemKind.WEIGHTED_SUM:
        return combine(problem.weights, problem.rows)
    if problem.kind == ProblemKind.CONTRAST:
        # h^B - h^A as one sum: +w_k x_k^B and -w_k x_k^A
        return combine(
            (*problem.weights, *(-w for w in problem.weights)), (*problem.rows_b, *problem.rows_a)
        )
    return _softmax_combine(scores(problem), problem.rows)


# ---------------------------------------------------------------- the catalog


class Variant(NamedTuple):
    """One variant of a mistake on a problem (which term, weight or row), before it becomes a
    Diagnosis. A problem has dozens; they are built for every new problem, and a Diagnosis
    only for those an answer matches. Forms read it as they read a Diagnosis."""

    mistake: MistakeCode
    terms: tuple[int, ...]
    detail: Mapping[str, Any]

    def diagnosis(self) -> Diagnosis:
        """Return the Diagnosis naming this variant."""
        return Diagnosis(self.mistake, self.terms, detail=dict(self.detail))


_NO_DETAIL: Mapping[str, Any] = MappingProxyType({})
_make_variant = tuple.__new__  # a Variant without NamedTuple's Python-level __new__


def _variant(
    code: MistakeCode, terms: tuple[int, ...] = (), *, detail: Mapping[str, Any] = _NO_DETAIL
) -> Variant:
    return _make_variant(Variant, (code, terms, detail))


@dataclass(frozen=True)
class Mistake:
    """One catalogued mistake: code, kind, the terms it names, and how to apply it."""

    code: MistakeCode
    kind: ProblemKind
    terms: str
    summary: str
    variants: Callable[[Problem], list[Variant]]
    apply: Callable[[Problem, Diagnosis], Vector]
    # Rational mistakes are defined by their form (`a * right answer + sum of c * row`), from
    # which `apply` is derived; the index of a problem's mistakes evaluates forms in integers.
    form: Callable[[Problem, Diagnosis], Form] | None = None


def _weight(p: Problem, text: object) -> Fraction:
    """Return the weight a `detail["weight"]` names ("1/2", "1"), without Fraction's regex."""
    numerator, _, denominator = str(text).partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def _unique(values: Sequence[Fraction]) -> list[Fraction]:
    seen: list[Fraction] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


# weighted_sum


def _omitted_variants(p: Problem) -> list[Variant]:
    return [_variant(MistakeCode.OMITTED_TERM, (k,)) for k in range(len(p.rows))]


def _shifted(p: Problem, changes: Sequence[tuple[Fraction, Vector]]) -> Form:
    """Return the form of the right answer plus sum(c * row): a mistake changes one or two
    terms only."""
    return (1, tuple(changes))


def _omitted_form(p: Problem, d: Diagnosis) -> Form:
    (k,) = d.terms
    return _shifted(p, [(-p.weights[k], p.rows[k])])


def _wrong_weight_variants(p: Problem) -> list[Variant]:
    out = []
    for k, own in enumerate(p.weights):
        others = [w for j, w in enumerate(p.weights) if j != k] + [Fraction(1)]
        for weight in _unique(others):
            if weight != own:
                out.append(_variant(MistakeCode.WRONG_WEIGHT, (k,), detail={"weight": str(weight)}))
    return out


def _wrong_weight_form(p: Problem, d: Diagnosis) -> Form:
    (k,) = d.terms
    return _shifted(p, [(_weight(p, d.detail["weight"]) - p.weights[k], p.rows[k])])


def _wrong_row_variants(p: Problem) -> list[Variant]:
    n = len(p.rows)
    return [
        _variant(MistakeCode.WRONG_ROW, (k,), detail={"row": r})
        for k in range(n)
        for r in range(n)
        if r != k
    ]


def _wrong_row_form(p: Problem, d: Diagnosis) -> Form:
    (k,) = d.terms
    row = p.rows[int(d.detail["row"])]
    return _shifted(p, [(p.weights[k], row), (-p.weights[k], p.rows[k])])


def _swapped_variants(p: Problem) -> list[Variant]:
    n = len(p.weights)
    return [
        _variant(MistakeCode.SWAPPED_WEIGHTS, (a, b))
        for a in range(n)
        for b in range(a + 1, n)
        if p.weights[a] != p.weights[b]
    ]


def _swapped_form(p: Problem, d: Diagnosis) -> Form:
    a, b = d.terms
    change = p.weights[b] - p.weights[a]
    return _shifted(p, [(change, p.rows[a]), (-change, p.rows[b])])


def _single(code: MistakeCode) -> Callable[[Problem], list[Variant]]:
    return lambda p: [_variant(code)]


def _unweighted_form(p: Problem, d: Diagnosis) -> Form:
    return (0, tuple((Fraction(1), row) for row in p.rows))


def _average_form(p: Problem, d: Diagnosis) -> Form:
    weight = Fraction(1, len(p.rows))
    return (0, tuple((weight, row) for row in p.rows))


# lookup


def _row_by_position_variants(p: Problem) -> list[Variant]:
    if p.position >= len(p.table):
        return []
    return [_variant(MistakeCode.ROW_BY_POSITION, detail={"row": p.position})]


def _table_row_form(p: Problem, d: Diagnosis) -> Form:
    return (0, ((Fraction(1), p.table[int(d.detail["row"])]),))


def _off_by_one_variants(p: Problem) -> list[Variant]:
    right = p.token_id(p.position)
    return [
        _variant(MistakeCode.OFF_BY_ONE_ROW, detail={"row": row})
        for row in (right - 1, right + 1)
        if 0 <= row < len(p.table)
    ]


def _other_token_variants(p: Problem) -> list[Variant]:
    right = p.token_id(p.position)
    out: list[Diagnosis] = []
    seen = {right}
    for position, token in enumerate(p.tokens):
        row = p.vocab.index(token)
        if row not in seen:
            seen.add(row)
            detail = {"row": row, "position": position, "token": token}
            out.append(_variant(MistakeCode.OTHER_TOKEN_ROW, detail=detail))
    return out


# contrast


def _forgot_weight_variants(p: Problem) -> list[Variant]:
    return [_variant(MistakeCode.FORGOT_WEIGHT, (k,)) for k in range(len(p.rows_a))]


def _forgot_weight_form(p: Problem, d: Diagnosis) -> Form:
    (k,) = d.terms
    change = 1 - p.weights[k]
    return _shifted(p, [(change, p.rows_b[k]), (-change, p.rows_a[k])])


def _reversed_form(p: Problem, d: Diagnosis) -> Form:
    return (-1, ())


def _one_side_variants(p: Problem) -> list[Variant]:
    return [_variant(MistakeCode.ANSWERED_ONE_SIDE, detail={"side": side}) for side in ("b", "a")]


def _one_side_form(p: Problem, d: Diagnosis) -> Form:
    rows = p.rows_b if d.detail.get("side", "b") == "b" else p.rows_a
    return (0, tuple(zip(p.weights, rows, strict=True)))


# content_weights


def _unnormalised_apply(p: Problem, d: Diagnosis) -> Vector:
    return combine([sympy.exp(to_sympy(s)) for s in scores(p)], p.rows)


def _positional_apply(p: Problem, d: Diagnosis) -> Vector:
    return _softmax_combine(_positional_exponents(p), p.rows)


def _omitted_self_variants(p: Problem) -> list[Variant]:
    return [_variant(MistakeCode.OMITTED_SELF_SCORE, (p.position,))] if len(p.rows) > 1 else []


def _omitted_self_apply(p: Problem, d: Diagnosis) -> Vector:
    i = p.position
    s = scores(p)
    keep = [j for j in range(len(p.rows)) if j != i]
    return _softmax_combine([s[j] for j in keep], [p.rows[j] for j in keep])


def _raw_scores_apply(p: Problem, d: Diagnosis) -> Vector:
    return combine(scores(p), p.rows)


def form_vector(p: Problem, form: Form) -> Vector:
    """Return the vector a form stands for, exactly (Fractions)."""
    a, changes = form
    weights = [Fraction(a)] + [c for c, _ in changes]
    rows = [expected_cached(p)] + [row for _, row in changes]
    return _rational_combine(weights, rows)  # type: ignore[arg-type]


def _from_form(
    form: Callable[[Problem, Diagnosis], Form],
) -> Callable[[Problem, Diagnosis], Vector]:
    return lambda p, d: form_vector(p, form(p, d))


def _entry(
    code: MistakeCode,
    kind: ProblemKind,
    terms: str,
    summary: str,
    variants: Callable[[Problem], list[Variant]],
    apply: Callable[[Problem, Diagnosis], Vector] | None = None,
    *,
    form: Callable[[Problem, Diagnosis], Form] | None = None,
) -> Mistake:
    if apply is None:
        assert form is not None
        apply = _from_form(form)
    return Mistake(code, kind, terms, summary, variants, apply, form)


W, L, C, K = (
    ProblemKind.WEIGHTED_SUM,
    ProblemKind.LOOKUP,
    ProblemKind.CONTRAST,
    ProblemKind.CONTENT_WEIGHTS,
)
M = MistakeCode

CATALOG: dict[MistakeCode, Mistake] = {
    m.code: m
    for m in (
        _entry(M.OMITTED_TERM, W, "[k]", "left term k out of the sum (k = i is the self term)",
               _omitted_variants, form=_omitted_form),
        _entry(M.WRONG_WEIGHT, W, "[k]", "multiplied row k by another term's weight, or by 1",
               _wrong_weight_variants, form=_wrong_weight_form),
        _entry(M.WRONG_ROW, W, "[k]", "used a row other than x_k in term k",
               _wrong_row_variants, form=_wrong_row_form),
        _entry(M.SWAPPED_WEIGHTS, W, "[a, b]", "exchanged the weights of terms a and b",
               _swapped_variants, form=_swapped_form),
        _entry(M.UNWEIGHTED_SUM, W, "[]", "added the rows without weights",
               _single(M.UNWEIGHTED_SUM), form=_unweighted_form),
        _entry(M.PLAIN_AVERAGE, W, "[]", "averaged the rows with equal weights",
               _single(M.PLAIN_AVERAGE), form=_average_form),
        _entry(M.ROW_BY_POSITION, L, "[]", "took the row numbered by the position, not the id",
               _row_by_position_variants, form=_table_row_form),
        _entry(M.OFF_BY_ONE_ROW, L, "[]", "took the row next to the right one",
               _off_by_one_variants, form=_table_row_form),
        _entry(M.OTHER_TOKEN_ROW, L, "[]", "took the row of another token in the sentence",
               _other_token_variants, form=_table_row_form),
        _entry(M.FORGOT_WEIGHT, C, "[k]", "gave x_k^B - x_k^A without its weight",
               _forgot_weight_variants, form=_forgot_weight_form),
        _entry(M.REVERSED_DIFFERENCE, C, "[]", "gave h^A - h^B",
               _single(M.REVERSED_DIFFERENCE), form=_reversed_form),
        _entry(M.ANSWERED_ONE_SIDE, C, "[]", "gave h^B (or h^A) instead of the difference",
               _one_side_variants, form=_one_side_form),
        _entry(M.UNNORMALISED_WEIGHTS, K, "[]", "used exp(s_ij) as weights, without dividing",
               _single(M.UNNORMALISED_WEIGHTS), _unnormalised_apply),
        _entry(M.POSITIONAL_WEIGHTS, K, "[]", "weighted by position, softmax_j(-|i-j|)",
               _single(M.POSITIONAL_WEIGHTS), _positional_apply),
        _entry(M.OMITTED_SELF_SCORE, K, "[i]", "left the self score out of the softmax and sum",
               _omitted_self_variants, _omitted_self_apply),
        _entry(M.RAW_SCORES, K, "[]", "used the scores s_ij themselves as weights",
               _single(M.RAW_SCORES), _raw_scores_apply),
    )
}  # fmt: skip


def variants(problem: Problem) -> list[Diagnosis]:
    """Return every variant of every catalogued mistake of the problem's kind."""
    return [
        v.diagnosis()
        for code in MISTAKES_BY_KIND[problem.kind]
        for v in CATALOG[code].variants(problem)
    ]


def apply(problem: Problem, diagnosis: Diagnosis) -> Vector:
    """Return what a learner making `diagnosis` answers on `problem` (internal values)."""
    mistake = CATALOG.get(diagnosis.mistake)
    if mistake is None or mistake.kind != problem.kind:
        raise ValueError(f"{diagnosis.mistake} is not a {problem.kind} mistake")
    size = problem.size
    if any(not 0 <= k < size for k in diagnosis.terms):
        raise ValueError(f"terms {list(diagnosis.terms)} are outside 0..{size - 1}")
    return mistake.apply(problem, diagnosis)


@lru_cache(maxsize=512)
def _mistaken_cached(problem: Problem) -> tuple[tuple[Diagnosis, Vector], ...]:
    return tuple((d, apply(problem, d)) for d in variants(problem))


def mistaken(problem: Problem) -> tuple[tuple[Diagnosis, Vector], ...]:
    """Return (diagnosis, internal vector) for every mistake variant; cached per problem."""
    return _mistaken_cached(problem)


@lru_cache(maxsize=512)
def expected_cached(problem: Problem) -> Vector:
    """Return the right answer of a problem, cached."""
    return right_answer(problem)


class MistakeIndex:
    """Hold, per problem, the mistaken vectors that differ from the right one, ready to match.

    For the rational kinds every mistaken vector is evaluated from its form in integers: all
    coordinates times one common denominator `scale`, so no Fraction is built and diagnosing an
    exact rational answer is one dict lookup on its scaled coordinates. The list `wrong` (exact
    vectors, and for irrational ones a high-precision approximation for a cheap first test) is
    what answers typed with decimals or irrational values are matched against; for the rational
    kinds it is only built when such an answer comes.
    """

    def __init__(
        self,
        problem: Problem,
        by_key: dict[tuple[int, ...], tuple[Variant | Diagnosis, ...]],
        scale: int,
        wrong: tuple[tuple[Diagnosis, Vector, tuple[mpmath.mpf, ...] | None], ...] | None = None,
    ) -> None:
        self.problem = problem
        self.by_key = by_key
        self.scale = scale
        self._diagnoses: dict[tuple[int, ...], tuple[Diagnosis, ...]] = {}
        self.all_rational = scale > 0
        if wrong is not None:
            self.__dict__["wrong"] = wrong

    def exact_matches(self, vector: Sequence[Fraction]) -> tuple[Diagnosis, ...]:
        """Return the mistakes whose vector is exactly `vector` (rational kinds only)."""
        key = scaled_key(vector, self.scale)
        if key is None or key not in self.by_key:
            return ()
        made = self._diagnoses.get(key)
        if made is None:  # the same Diagnosis objects on every lookup
            made = tuple(v.diagnosis() if isinstance(v, Variant) else v for v in self.by_key[key])
            self._diagnoses[key] = made
        return made

    @cached_property
    def wrong(self) -> tuple[tuple[Diagnosis, Vector, tuple[mpmath.mpf, ...] | None], ...]:
        """Return (diagnosis, exact vector, approximation or None) for every mistaken vector
        that differs from the right answer, in catalog order."""
        return _wrong(self.problem)


def scaled_key(vector: Sequence[Fraction], scale: int) -> tuple[int, ...] | None:
    """Return the coordinates times `scale` when all are integers, else None (then the vector
    is none of the mistaken vectors, whose coordinates all are)."""
    key = []
    for x in vector:
        denominator = x.denominator
        if scale % denominator:
            return None
        key.append(x.numerator * (scale // denominator))
    return tuple(key)


def _is_rational(vector: Vector) -> bool:
    return all(type(x) is Fraction for x in vector)


def _wrong(problem: Problem) -> tuple[tuple[Diagnosis, Vector, tuple[mpmath.mpf, ...] | None], ...]:
    expected = expected_cached(problem)
    return tuple(
        (diagnosis, vector, None if _is_rational(vector) else tuple(approx(x) for x in vector))
        for diagnosis, vector in mistaken(problem)
        if not vectors_equal(vector, expected)
    )


def _scaled_index(problem: Problem) -> MistakeIndex | None:
    """Return the index of a kind whose mistakes all have forms, computed in integers."""
    forms: list[tuple[Variant, Form]] = []
    for code in MISTAKES_BY_KIND[problem.kind]:
        mistake = CATALOG[code]
        if mistake.form is None:
            return None
        forms.extend((d, mistake.form(problem, d)) for d in mistake.variants(problem))
    expected = expected_cached(problem)
    rows: dict[int, Vector] = {}
    for _, (_, changes) in forms:
        for _, row in changes:
            rows[id(row)] = row
    coefficient_scale = math.lcm(*(c.denominator for _, (_, cs) in forms for c, _ in cs))
    row_scale = math.lcm(
        *(x.denominator for row in rows.values() for x in row), *(x.denominator for x in expected)
    )
    scale = coefficient_scale * row_scale
    scaled_rows = {
        key: [x.numerator * (row_scale // x.denominator) for x in row]  # type: ignore[union-attr]
        for key, row in rows.items()
    }
    right = scaled_key(expected, scale)  # type: ignore[arg-type]
    assert right is not None  # the right answer's denominators divide row_scale
    zero = [0] * len(right)
    by_key: dict[tuple[int, ...], list[Variant]] = {}
    for diagnosis, (a, changes) in forms:
        vector = [a * x for x in right] if a else zero
        for c, row in changes:
            factor = c.numerator * (coefficient_scale // c.denominator)
            if factor:
                vector = [v + factor * x for v, x in zip(vector, scaled_rows[id(row)], strict=True)]
        key = tuple(vector)
        if key != right:
            by_key.setdefault(key, []).append(diagnosis)
    return MistakeIndex(problem, {k: tuple(v) for k, v in by_key.items()}, scale)


@lru_cache(maxsize=512)
def mistake_index(problem: Problem) -> MistakeIndex:
    """Return the cached MistakeIndex of a problem."""
    index = _scaled_index(problem)
    if index is not None:
        return index
    wrong = _wrong(problem)
    # Keyed exact lookup only when every mistaken vector is rational (then scale them all).
    if any(approximation is not None for _, _, approximation in wrong):
        return MistakeIndex(problem, {}, 0, wrong)
    scale = math.lcm(*(x.denominator for _, v, _ in wrong for x in v))  # type: ignore[union-attr]
    by_key: dict[tuple[int, ...], list[Diagnosis]] = {}
    for diagnosis, vector, _ in wrong:
        by_key.setdefault(scaled_key(vector, scale), []).append(diagnosis)  # type: ignore
    return MistakeIndex(problem, {k: tuple(v) for k, v in by_key.items()}, scale, wrong)


# ---------------------------------------------------------------- public API


def _public(vector: Vector) -> tuple[sympy.Expr, ...]:
    return tuple(to_sympy(x) for x in vector)


def expected_answer(spec: dict) -> tuple[sympy.Expr, ...]:
    """Return the exact right vector of a spec as SymPy numbers (raise SpecError if malformed)."""
    return _public(expected_cached(load_problem(spec)))


def mistaken_answers(spec: dict) -> list[tuple[Diagnosis, tuple[sympy.Expr, ...]]]:
    """Return every catalogued mistake applied to the spec, with every choice of terms/details."""
    return [(d, _public(v)) for d, v in mistaken(load_problem(spec))]


def apply_mistake(spec: dict, diagnosis: Diagnosis) -> tuple[sympy.Expr, ...]:
    """Return the vector a learner making `diagnosis` would answer (ValueError if it can't)."""
    return _public(apply(load_problem(spec), diagnosis))
