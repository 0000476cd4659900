"""Written-out sums: match a learner's terms against a problem's, one by one.

A vector kind whose answer is a weighted sum declares its terms (`Kind.terms`: weights, rows
and names). A learner who writes the sum out (`1/2*[1,0] + 1/2*[0,2]`) then has each term
matched: right weight and row, right row with a wrong weight, right weight with a wrong row,
both wrong, missing, or one too many. The report scores the answer (m of n terms right, less one
for each extra term) and names each wrong term; the kind's mistakes turn it into a diagnosis
(`MistakeDef.weights` for whole-sum mistakes, `MistakeDef.from_terms` for the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .compare import Scalar, equal, vectors_equal
from .exact import combine
from .parse import Term
from .rounding import Rounding, rounding
from .tex import scalar_tex, term_tex, vector_tex

Vector = tuple[Scalar, ...]


@dataclass(frozen=True)
class TermTable:
    """The terms a written-out answer is matched against: weight, row and name of each.

    `cancel_pairs`: drop learner terms that cancel (c v and -c v) before matching, for sums
    whose terms come in signed pairs (a difference of two sums).
    """

    weights: tuple[Scalar, ...]
    rows: tuple[Vector, ...]
    names: tuple[str, ...]
    cancel_pairs: bool = False


@dataclass
class TermReport:
    """The result of matching a written-out sum against the problem's terms.

    `issues` holds `(what, k, used)` per wrong term k: what is "omitted", "weight" (used: the
    weight typed), "digits" (a decimal weight too coarse), "row" (used: the row typed) or
    "both" (used: the learner's Term).
    """

    n: int
    right: int = 0
    extras: int = 0
    issues: list[tuple[str, int, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    weights_by_term: dict[int, Term] = field(default_factory=dict)
    extra_terms: list[Term] = field(default_factory=list)

    @property
    def score(self) -> float:
        return max(0, self.right - self.extras) / self.n if self.n else 0.0

    @property
    def all_right(self) -> bool:
        return not self.issues and not self.extras and self.right == self.n


def rounding_note(text: str, exact: Scalar, verdict: Rounding) -> str | None:
    """Return the note a typed decimal earns (accepted, or too few digits), or None."""
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


def weight_check(term: Term, weight: Scalar) -> Rounding:
    """Return how a learner term's weight stands to the right weight (decimals may round it)."""
    if term.decimal is None and type(term.coefficient) is Fraction and type(weight) is Fraction:
        return Rounding.EXACT if term.coefficient == weight else Rounding.WRONG
    if term.decimal is not None:
        return rounding(term.decimal, term.coefficient, weight)  # type: ignore[arg-type]
    return Rounding.EXACT if equal(term.coefficient, weight) else Rounding.WRONG


def _pick(candidates: list[int], preferred: int) -> int:
    return preferred if preferred in candidates else candidates[0]


@dataclass
class _Unmatched:
    """The learner terms (by index t) and problem terms (k) no pass has matched yet, and per
    learner term the problem terms whose row it has."""

    terms: Sequence[Term]
    row_of: dict[int, list[int]]
    ks: list[int]
    ts: list[int]

    def take(self, report: TermReport, t: int, k: int) -> None:
        """Match learner term t to problem term k: the weight it used is term t's."""
        report.weights_by_term[k] = self.terms[t]
        self.ks.remove(k)
        self.ts.remove(t)


def match_terms(table: TermTable, terms: Sequence[Term]) -> TermReport:
    """Assign each learner term to a problem term and say what is wrong with each."""
    if table.cancel_pairs:
        terms = _cancel_pairs(terms)
    rows = table.rows
    n = len(rows)
    report = TermReport(n=n)
    free_t = list(range(len(terms)))
    row_of = {t: [k for k in range(n) if vectors_equal(terms[t].vector, rows[k])] for t in free_t}
    free = _Unmatched(terms, row_of, list(range(n)), free_t)
    _match_right(table, free, report)
    _match_right_rows(table, free, report)
    _match_right_weights(table, free, report)
    # last: both wrong, paired in order; then what is left is missing or extra
    for t, k in zip(list(free.ts), list(free.ks), strict=False):
        report.issues.append(("both", k, terms[t]))
        free.ks.remove(k)
        free.ts.remove(t)
    for k in free.ks:
        report.issues.append(("omitted", k, None))
    report.extras = len(free.ts)
    report.extra_terms = [terms[t] for t in free.ts]
    return report


def _match_right(table: TermTable, free: _Unmatched, report: TermReport) -> None:
    """Pass 1: weight and row right (or the weight already multiplied into a bare vector)."""
    weights, rows = table.weights, table.rows
    for t in list(free.ts):
        term = free.terms[t]
        good: list[int] = []
        for k in free.ks:
            weight_right = weight_check(term, weights[k]) in (Rounding.EXACT, Rounding.ROUNDED)
            folded = not term.explicit and vectors_equal(
                combine([term.coefficient], [term.vector]), combine([weights[k]], [rows[k]])
            )
            if (k in free.row_of[t] and weight_right) or folded:
                good.append(k)
        if good:
            k = _pick(good, t)
            if k in free.row_of[t]:
                note = rounding_note(term.decimal or "", weights[k], weight_check(term, weights[k]))
                if note and term.decimal:
                    report.notes.append(note)
            report.right += 1
            free.take(report, t, k)


def _match_right_rows(table: TermTable, free: _Unmatched, report: TermReport) -> None:
    """Pass 2: right row, wrong weight (or a decimal weight too coarse)."""
    weights = table.weights
    for t in list(free.ts):
        candidates = [k for k in free.ks if k in free.row_of[t]]
        if candidates:
            k = _pick(candidates, t)
            term = free.terms[t]
            check = weight_check(term, weights[k])
            if check == Rounding.TOO_FEW_DIGITS:
                note = rounding_note(term.decimal or "", weights[k], check)
                if note:
                    report.notes.append(note)
                report.issues.append(("digits", k, term.decimal))
            else:
                report.issues.append(("weight", k, term.coefficient))
            free.take(report, t, k)


def _match_right_weights(table: TermTable, free: _Unmatched, report: TermReport) -> None:
    """Pass 3: right weight, wrong row (only for a term typed with its weight)."""
    weights = table.weights
    for t in list(free.ts):
        term = free.terms[t]
        candidates = [k for k in free.ks if weight_check(term, weights[k]) != Rounding.WRONG]
        if candidates and term.explicit:
            k = _pick(candidates, t)
            report.issues.append(("row", k, term.vector))
            free.take(report, t, k)


def follows_weighting(report: TermReport, weights: Sequence[Scalar | None]) -> bool:
    """Return True when every row is in place and the weights are `weights` (None: that term
    is left out), as a whole-sum mistake gives them."""
    if len(weights) != report.n:
        return False
    return all(
        (weight is None) == (k not in report.weights_by_term)
        and (weight is None or weight_check(report.weights_by_term[k], weight) != Rounding.WRONG)
        for k, weight in enumerate(weights)
    )


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


def explain_terms(table: TermTable, report: TermReport) -> str:
    """Return sentences naming every wrong, missing and extra term, and how many are right."""
    sentences = [_issue_sentence(table, what, k, used) for what, k, used in report.issues]
    for term in report.extra_terms:
        sentences.append(
            f"The term ${term_tex(term.coefficient, term.vector)}$ is one more than the "
            f"{report.n} positions of the sentence have; it does not belong to the sum."
        )
    right = f"{report.right} of {report.n} terms {'is' if report.right == 1 else 'are'} right."
    return " ".join([*sentences, right])
