"""Mark one answer: read it, compare it exactly, and explain a wrong one.

Partial credit (the rule, also in the README): a sum written out term by term scores m/n when
m of its n terms are right (weight and row), less one for every term that does not belong to
the sum, never below 0. A bare final vector scores 1 when right and 0 otherwise. An invalid
answer scores 0 and costs the learner nothing (it is not a wrong attempt).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .compare import (
    Rounding,
    Scalar,
    TooComplex,
    approx,
    as_fraction,
    close,
    confirmation_budget,
    decimal_places,
    equal,
    rounding,
    vectors_equal,
)
from .explain import coordinate_offsets, describe, explain, lookup_answer, term_name
from .kinds import MistakeCode, ProblemKind, Status
from .mistakes import (
    Vector,
    combine,
    expected_cached,
    mistake_index,
    term_weights,
    whole_sum_weightings,
)
from .parse import TIME_BUDGET_SECONDS, AnswerError, Reading, Term, read_answer
from .spec import Problem, load_problem
from .tex import scalar_tex, term_tex, vector_tex
from .verdict import Diagnosis, Verdict

logger = logging.getLogger(__name__)

_TERM_KINDS = (ProblemKind.WEIGHTED_SUM, ProblemKind.CONTENT_WEIGHTS, ProblemKind.CONTRAST)


def _invalid(message: str, interpreted: str = "") -> Verdict:
    return Verdict(status=Status.INVALID, score=0.0, interpreted=interpreted, message=message)


def _rounding_note(text: str, exact: Scalar, verdict: Rounding) -> str | None:
    if verdict == Rounding.ROUNDED:
        return (
            f"{text} is accepted: it rounds the exact value ${scalar_tex(exact)}$ correctly "
            "at the digits typed."
        )
    if verdict == Rounding.TOO_FEW_DIGITS:
        return (
            f"{text} rounds ${scalar_tex(exact)}$ to fewer than 3 significant figures; give at "
            f"least 3, or the exact form ${scalar_tex(exact)}$."
        )
    return None


def _typed(text: str) -> Fraction:
    return Fraction(text)


def _matches(value: Sequence[Scalar], decimals: Sequence[str | None], target: Vector) -> bool:
    """Return True when the learner's vector is `target` (typed decimals may round it)."""
    for d, (got, want) in enumerate(zip(value, target, strict=True)):
        text = decimals[d] if d < len(decimals) else None
        if text is not None:
            if rounding(text, _typed(text), want) == Rounding.WRONG:
                return False
        elif not equal(got, want):
            return False
    return True


# ---------------------------------------------------------------- written-out sums


@dataclass
class TermReport:
    """The result of matching a written-out sum against the problem's terms."""

    n: int
    right: int = 0
    extras: int = 0
    issues: list[tuple[str, int, Any]] = field(default_factory=list)  # (what, k, used)
    notes: list[str] = field(default_factory=list)
    weights_by_term: dict[int, Term] = field(default_factory=dict)
    extra_terms: list[Term] = field(default_factory=list)

    @property
    def score(self) -> float:
        return max(0, self.right - self.extras) / self.n if self.n else 0.0

    @property
    def all_right(self) -> bool:
        return not self.issues and not self.extras and self.right == self.n


@dataclass(frozen=True)
class TermTable:
    """The terms a written-out answer is matched against: weight, row and name of each."""

    weights: tuple[Scalar, ...]
    rows: tuple[Vector, ...]
    names: tuple[str, ...]


@lru_cache(maxsize=512)
def term_table(problem: Problem) -> TermTable:
    """Return the problem's terms (cached per problem). For contrast, h^B - h^A is the terms
    +w_k x_k^B and -w_k x_k^A; a position whose row is the same in both sentences cancels and
    is left out."""
    if problem.kind != ProblemKind.CONTRAST:
        n = len(problem.rows)
        names = tuple(term_name(problem, k) for k in range(n))
        return TermTable(term_weights(problem), problem.rows, names)
    weights: list[Scalar] = []
    rows: list[Vector] = []
    names: list[str] = []
    for k, weight in enumerate(problem.weights):
        if problem.rows_a[k] == problem.rows_b[k]:
            continue
        for sign, side, row, tokens in (
            (1, "B", problem.rows_b[k], problem.tokens_b),
            (-1, "A", problem.rows_a[k], problem.tokens_a),
        ):
            weights.append(sign * weight)
            rows.append(row)
            token = f", *{tokens[k]}*" if tokens else ""
            names.append(f"the term for position {k} of sentence {side}{token}")
    return TermTable(tuple(weights), tuple(rows), tuple(names))


def _cancel_pairs(terms: Sequence[Term]) -> list[Term]:
    """Drop pairs of learner terms that cancel (c v and -c v): they add nothing."""
    kept = list(terms)
    changed = True
    while changed:
        changed = False
        for a in range(len(kept)):
            for b in range(a + 1, len(kept)):
                if vectors_equal(kept[a].vector, kept[b].vector) and equal(
                    kept[a].coefficient, -kept[b].coefficient
                ):
                    del kept[b], kept[a]
                    changed = True
                    break
            if changed:
                break
    return kept


def _weight_check(term: Term, weight: Scalar) -> Rounding:
    if term.decimal is None and type(term.coefficient) is Fraction and type(weight) is Fraction:
        return Rounding.EXACT if term.coefficient == weight else Rounding.WRONG
    if term.decimal is not None:
        return rounding(term.decimal, term.coefficient, weight)  # type: ignore[arg-type]
    return Rounding.EXACT if equal(term.coefficient, weight) else Rounding.WRONG


def _pick(candidates: list[int], preferred: int) -> int:
    return preferred if preferred in candidates else candidates[0]


def match_terms(problem: Problem, terms: Sequence[Term]) -> TermReport:
    """Assign each learner term to a problem term and say what is wrong with each."""
    table = term_table(problem)
    if problem.kind == ProblemKind.CONTRAST:
        terms = _cancel_pairs(terms)
    weights, rows = table.weights, table.rows
    n = len(rows)
    report = TermReport(n=n)
    free_k = list(range(n))
    free_t = list(range(len(terms)))
    row_of = {t: [k for k in range(n) if vectors_equal(terms[t].vector, rows[k])] for t in free_t}
    # pass 1: weight and row right (or the weight already multiplied into a bare vector)
    for t in list(free_t):
        term = terms[t]
        good: list[int] = []
        for k in free_k:
            weight_right = _weight_check(term, weights[k]) in (Rounding.EXACT, Rounding.ROUNDED)
            folded = not term.explicit and vectors_equal(
                combine([term.coefficient], [term.vector]), combine([weights[k]], [rows[k]])
            )
            if (k in row_of[t] and weight_right) or folded:
                good.append(k)
        if good:
            k = _pick(good, t)
            if k in row_of[t]:
                note = _rounding_note(
                    term.decimal or "", weights[k], _weight_check(term, weights[k])
                )
                if note and term.decimal:
                    report.notes.append(note)
            report.right += 1
            report.weights_by_term[k] = term
            free_k.remove(k)
            free_t.remove(t)
    # pass 2: right row, wrong weight
    for t in list(free_t):
        candidates = [k for k in free_k if k in row_of[t]]
        if candidates:
            k = _pick(candidates, t)
            check = _weight_check(terms[t], weights[k])
            if check == Rounding.TOO_FEW_DIGITS:
                note = _rounding_note(terms[t].decimal or "", weights[k], check)
                if note:
                    report.notes.append(note)
                report.issues.append(("digits", k, terms[t].decimal))
            else:
                report.issues.append(("weight", k, terms[t].coefficient))
            report.weights_by_term[k] = terms[t]
            free_k.remove(k)
            free_t.remove(t)
    # pass 3: right weight, wrong row
    for t in list(free_t):
        candidates = [k for k in free_k if _weight_check(terms[t], weights[k]) != Rounding.WRONG]
        if candidates and terms[t].explicit:
            k = _pick(candidates, t)
            report.issues.append(("row", k, terms[t].vector))
            report.weights_by_term[k] = terms[t]
            free_k.remove(k)
            free_t.remove(t)
    # pass 4: both wrong, paired in order
    for t, k in zip(list(free_t), list(free_k), strict=False):
        report.issues.append(("both", k, terms[t]))
        free_k.remove(k)
        free_t.remove(t)
    for k in free_k:
        report.issues.append(("omitted", k, None))
    report.extras = len(free_t)
    report.extra_terms = [terms[t] for t in free_t]
    return report


def _term_diagnosis(problem: Problem, report: TermReport) -> Diagnosis | None:
    """Return the one catalogued mistake the term-by-term comparison shows, if there is one."""
    kinds = {what for what, _, _ in report.issues}
    if report.extras or not report.issues:
        return None
    if "digits" in kinds:
        return None
    if not kinds & {"row", "both"}:
        # whole-sum mistakes: every row in place, the weights all follow one wrong rule
        for diagnosis, wrong_weights in whole_sum_weightings(problem):
            if all(
                (weight is None) == (k not in report.weights_by_term)
                and (
                    weight is None
                    or _weight_check(report.weights_by_term[k], weight) != Rounding.WRONG
                )
                for k, weight in enumerate(wrong_weights)
            ):
                return diagnosis
    if problem.kind != ProblemKind.WEIGHTED_SUM:
        return None
    if len(report.issues) == 2 and kinds == {"weight"}:
        (_, a, used_a), (_, b, used_b) = sorted(report.issues, key=lambda x: x[1])
        if equal(used_a, problem.weights[b]) and equal(used_b, problem.weights[a]):
            return Diagnosis(MistakeCode.SWAPPED_WEIGHTS, (a, b))
    if len(report.issues) != 1:
        return None
    what, k, used = report.issues[0]
    if what == "omitted":
        return Diagnosis(MistakeCode.OMITTED_TERM, (k,))
    if what == "row":
        rows = [r for r, row in enumerate(problem.rows) if vectors_equal(used, row)]
        if rows:
            return Diagnosis(MistakeCode.WRONG_ROW, (k,), detail={"row": rows[0]})
        vector = [str(as_fraction(x)) if as_fraction(x) is not None else str(x) for x in used]
        return Diagnosis(MistakeCode.WRONG_ROW, (k,), detail={"vector": vector})
    fraction = as_fraction(used) if what == "weight" else None
    if fraction is None:
        return None
    return Diagnosis(MistakeCode.WRONG_WEIGHT, (k,), detail={"weight": str(fraction)})


def _issue_sentence(table: TermTable, what: str, k: int, used: Any) -> str:
    name = table.names[k][0].upper() + table.names[k][1:]
    weight, row = table.weights[k], table.rows[k]
    right = f"${term_tex(weight, row)}$"
    if what == "omitted":
        return f"{name} is missing; it should be {right}."
    if what == "digits":
        return (
            f"{name} has the weight {used}, which rounds ${scalar_tex(weight)}$ "
            f"too coarsely; the term should be {right}."
        )
    if what == "weight":
        return (
            f"{name} has the weight ${scalar_tex(used)}$; its weight is "
            f"${scalar_tex(weight)}$, so the term should be {right}."
        )
    if what == "row":
        owners = [r for r, other in enumerate(table.rows) if vectors_equal(used, other)]
        whose = f" (the row of {table.names[owners[0]]})" if owners else ""
        return (
            f"{name} uses the row ${vector_tex(used)}${whose}; its row is "
            f"${vector_tex(row)}$, so the term should be {right}."
        )
    return (
        f"{name} was written as ${term_tex(used.coefficient, used.vector)}$; it should be {right}."
    )


def _explain_terms(problem: Problem, report: TermReport) -> str:
    table = term_table(problem)
    sentences = [_issue_sentence(table, what, k, used) for what, k, used in report.issues]
    for term in report.extra_terms:
        sentences.append(
            f"The term ${term_tex(term.coefficient, term.vector)}$ is one more than the "
            f"{report.n} positions of the sentence have; it does not belong to the sum."
        )
    right = f"{report.right} of {report.n} terms {'is' if report.right == 1 else 'are'} right."
    return " ".join([*sentences, right])


# ---------------------------------------------------------------- grade


def _check_clock(deadline: float) -> None:
    if time.perf_counter() > deadline:
        raise AnswerError(
            f"marking the answer took longer than {TIME_BUDGET_SECONDS:g} s", bound="time"
        )


def _candidates(problem: Problem, reading: Reading, deadline: float) -> list[Diagnosis]:
    """Return every mistake variant whose vector is the learner's (decimals may round it)."""
    value: Vector = reading.value  # type: ignore[assignment]
    decimals = reading.coordinate_decimals or (None,) * len(value)
    index = mistake_index(problem)
    _check_clock(deadline)
    exact_rational = all(type(x) is Fraction for x in value) and not any(decimals)
    if exact_rational and index.all_rational:
        return list(index.exact_matches(value))  # type: ignore[arg-type]
    learner = [approx(x) for x in value]
    halves = [
        approx(Fraction(1, 2 * 10 ** decimal_places(text))) if text else None for text in decimals
    ]
    found = []
    for diagnosis, target, target_approx in index.wrong:
        _check_clock(deadline)
        if target_approx is None:  # a rational vector: exact arithmetic is cheap enough
            if _matches(value, decimals, target):
                found.append(diagnosis)
            continue
        # cheap numeric test first; exact confirmation only for the survivors
        if not all(
            (abs(got - want) <= half) if half is not None else close(got, want)
            for got, want, half in zip(learner, target_approx, halves, strict=True)
        ):
            continue
        if _matches(value, decimals, target):
            found.append(diagnosis)
    return found


def _final_vector_verdict(
    problem: Problem, reading: Reading, deadline: float = math.inf
) -> tuple[Diagnosis | None, str]:
    value: Vector = reading.value  # type: ignore[assignment]
    expected = expected_cached(problem)
    matches: list[Diagnosis] = []
    seen: set[tuple[MistakeCode, tuple[int, ...]]] = set()
    for diagnosis in _candidates(problem, reading, deadline):
        key = (diagnosis.mistake, diagnosis.terms)
        if key not in seen:
            seen.add(key)
            matches.append(diagnosis)
    if len(matches) == 1:
        return matches[0], explain(problem, matches[0])
    offsets = coordinate_offsets(value, expected)
    if matches:
        listed = "; ".join(describe(problem, d) for d in matches)
        hint = (
            " Writing the sum out term by term would show which."
            if problem.kind in _TERM_KINDS
            else ""
        )
        right = f" {lookup_answer(problem)}" if problem.kind == ProblemKind.LOOKUP else ""
        return None, (
            "Your answer is what more than one common mistake gives, so the final vector alone "
            f"cannot tell which happened: {listed}.{hint}{right}"
        )
    return None, offsets + _HINTS[problem.kind]


_HINTS = {
    ProblemKind.WEIGHTED_SUM: " Check each term's weight and row.",
    ProblemKind.CONTENT_WEIGHTS: " Check the scores, their softmax, and each weighted row.",
    ProblemKind.CONTRAST: " Compute each sentence's sum, then subtract A from B.",
    ProblemKind.LOOKUP: " Find the token's id in the vocabulary, then take that row of the table.",
}


def _grade(problem: Problem, answer: str) -> Verdict:
    deadline = time.perf_counter() + TIME_BUDGET_SECONDS
    try:
        reading = read_answer(answer)
    except AnswerError as error:
        return _invalid(error.message)
    except (RecursionError, MemoryError, OverflowError):
        return _invalid("the answer is too complex to read")
    value = reading.value
    interpreted = reading.tex
    if not isinstance(value, tuple):
        return _invalid(
            f"a single number was read; the answer is a vector with {problem.dim} coordinates",
            interpreted,
        )
    if len(value) != problem.dim:
        return _invalid(
            f"your vector has {len(value)} coordinate{'s' if len(value) != 1 else ''}; this "
            f"problem's vectors have {problem.dim}",
            interpreted,
        )
    if reading.written_out:
        interpreted = f"{interpreted} = {vector_tex(value)}"
    expected = expected_cached(problem)
    if vectors_equal(value, expected):
        return Verdict(Status.CORRECT, 1.0, interpreted, explanation="Correct.")
    notes: list[str] = []
    report: TermReport | None = None
    if reading.written_out and problem.kind in _TERM_KINDS:
        report = match_terms(problem, reading.terms)
        if report.all_right:
            return Verdict(
                Status.CORRECT, 1.0, interpreted, explanation="Correct.", notes=tuple(report.notes)
            )
        notes.extend(report.notes)
        diagnosis = _term_diagnosis(problem, report)
        if diagnosis is not None:
            text = explain(problem, diagnosis)
            if report.right:
                verb = "is" if report.right == 1 else "are"
                text += f" {report.right} of {report.n} terms {verb} right."
            return Verdict(
                Status.INCORRECT, report.score, interpreted, diagnosis, text, notes=tuple(notes)
            )
        final, text = _final_vector_verdict(problem, reading, deadline)
        if final is None:
            text = _explain_terms(problem, report)
        return Verdict(Status.INCORRECT, report.score, interpreted, final, text, notes=tuple(notes))
    decimals = reading.coordinate_decimals
    if decimals and any(decimals):
        verdicts = []
        for d, text in enumerate(decimals):
            if text is None:
                verdicts.append(Rounding.EXACT if equal(value[d], expected[d]) else Rounding.WRONG)
            else:
                check = rounding(text, _typed(text), expected[d])
                verdicts.append(check)
                note = _rounding_note(text, expected[d], check)
                if note:
                    notes.append(note)
        if all(v in (Rounding.EXACT, Rounding.ROUNDED) for v in verdicts):
            return Verdict(
                Status.CORRECT, 1.0, interpreted, explanation="Correct.", notes=tuple(notes)
            )
        if all(v != Rounding.WRONG for v in verdicts):
            return Verdict(
                Status.INCORRECT,
                0.0,
                interpreted,
                explanation="Your decimals round the answer, but too coarsely to be marked right.",
                notes=tuple(notes),
            )
    diagnosis, text = _final_vector_verdict(problem, reading, deadline)
    return Verdict(Status.INCORRECT, 0.0, interpreted, diagnosis, text, notes=tuple(notes))


def grade(spec: dict[str, Any], answer: str) -> Verdict:
    """Mark one answer against a spec. Learner text never raises: unreadable text is an
    `invalid` Verdict. A malformed spec raises SpecError naming the field."""
    problem = load_problem(spec)
    try:
        with confirmation_budget():  # one hard time limit for all of an answer's exact proofs
            return _grade(problem, answer)
    except AnswerError as error:  # a bound met after reading: the time budget
        return _invalid(error.message)
    except TooComplex as error:  # an exact confirmation refused by a bound, or past the limit
        logger.warning("answer of %d characters not confirmed: %s", len(answer), error.bound)
        return _invalid(error.message)
    except (ArithmeticError, ValueError, TypeError, AttributeError, RecursionError):
        # A defect here must not become a server error for the learner; it is logged in full.
        logger.exception("grading failed on an answer of %d characters", len(str(answer)))
        return _invalid("the answer could not be marked; please write it another way")
