"""Mark one answer: read it by the kind's shape, compare it exactly, and explain a wrong one.

Partial credit (the rule, also in the README): a sum written out term by term scores m/n when
m of its n terms are right (weight and row), less one for every term that does not belong to
the sum, never below 0. Any other answer scores 1 when right and 0 otherwise. An invalid
answer scores 0 and costs the learner nothing (it is not a wrong attempt).

The engine names no kind: the kind gives the shape, the right answer, the catalog, the terms
(when its answer is a weighted sum) and the hint.
"""

from __future__ import annotations

import logging
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

from . import clock
from .clock import confirmation_budget, cpu_now
from .compare import TooComplex, apart, equal
from .errors import as_sentence
from .explain import ambiguous, explain, no_mistake_explains
from .kinds import Status
from .mistakes import MistakeIndex, expected_cached, mistake_index, solved_matches
from .parse import TIME_BUDGET_SECONDS, AnswerError, Reading
from .rounding import Rounding, decimal_places, rounding
from .shapes import Shape
from .spec import Loaded, load_problem
from .terms import (
    TermReport,
    TermTable,
    explain_terms,
    follows_weighting,
    match_terms,
    rounding_note,
)
from .verdict import Diagnosis, Verdict

logger = logging.getLogger(__name__)


def _invalid(message: str, interpreted: str = "") -> Verdict:
    return Verdict(
        status=Status.INVALID, score=0.0, interpreted=interpreted, message=as_sentence(message)
    )


def _check_clock(deadline: float) -> None:
    # CPU time: waiting for a core or for a confirmation worker is not the answer's (clock).
    if cpu_now() > deadline:
        raise AnswerError(
            f"marking the answer took longer than {TIME_BUDGET_SECONDS:g} s of computing",
            bound="time",
        )


# ---------------------------------------------------------------- written-out sums


@lru_cache(maxsize=512)
def term_table(loaded: Loaded) -> TermTable | None:
    """Return the terms of the problem's sum (None when its kind declares none); cached per
    problem."""
    return loaded.kind.terms(loaded.problem)


def term_diagnosis(loaded: Loaded, report: TermReport) -> Diagnosis | None:
    """Return the one catalogued mistake the term-by-term comparison shows, if there is one."""
    kinds = {what for what, _, _ in report.issues}
    if report.extras or not report.issues or "digits" in kinds:
        return None
    problem = loaded.problem
    mistakes = loaded.kind.mistakes
    if not kinds & {"row", "both"}:
        # whole-sum mistakes: every row in place, the weights all follow one wrong rule
        for mistake in mistakes:
            if mistake.weights is None:
                continue
            weights = mistake.weights(problem)
            if weights is not None and follows_weighting(report, weights):
                return Diagnosis(mistake.code)
    for mistake in mistakes:
        if mistake.from_terms is not None:
            diagnosis = mistake.from_terms(problem, report)
            if diagnosis is not None:
                return diagnosis
    return None


# ---------------------------------------------------------------- final answers


def _candidates(loaded: Loaded, reading: Reading, deadline: float) -> list[Diagnosis]:
    """Return every mistake variant whose answer is the learner's (decimals may round it)."""
    value = reading.value
    decimals = reading.coordinate_decimals
    exact = not any(decimals) and not reading.symbolic
    if exact and isinstance(value, tuple) and all(type(x) is Fraction for x in value):
        solved = solved_matches(loaded, value)  # from the forms, without building the index
        if solved is not None:
            _check_clock(deadline)
            return list(solved)
    index = mistake_index(loaded)
    _check_clock(deadline)
    if index.all_rational and exact:
        return list(index.exact_matches(value))
    return index_matches(index, loaded.shape, reading, deadline)


def index_matches(
    index: MistakeIndex, shape: Shape, reading: Reading, deadline: float = math.inf
) -> list[Diagnosis]:
    """Return the candidates of a mistake index whose answer is what was read (decimals may
    round it), in catalog order: a float filter first, exact tests for the survivors."""
    value, decimals = reading.value, reading.coordinate_decimals
    learner = shape.bounds(value)
    found = []
    for k in range(index.size):
        _check_clock(deadline)
        # the float filter first (microseconds); `matches` then tests the survivors at 30
        # digits and only confirms exactly what agrees there
        if learner is not None:
            target_bounds = index.bounds(k)
            if target_bounds is not None and any(
                apart(got, want, _half_float(text))
                for got, want, text in zip(
                    learner, target_bounds, decimals or (None,) * len(learner), strict=True
                )
            ):
                continue
        target = index.target(k)
        if target is not None and shape.matches(reading, target):
            found.append(index.diagnosis(k))
    return found


def _half_float(text: str | None) -> float:
    """Return half a unit of a typed decimal's last digit (0.0 for a number not typed so)."""
    return 0.5 * 10.0 ** -decimal_places(text) if text else 0.0


def _final_verdict(
    loaded: Loaded, reading: Reading, deadline: float = math.inf
) -> tuple[Diagnosis | None, str]:
    matches: list[Diagnosis] = []
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for diagnosis in _candidates(loaded, reading, deadline):
        key = (diagnosis.mistake, diagnosis.terms)
        if key not in seen:
            seen.add(key)
            matches.append(diagnosis)
    if len(matches) == 1:
        return matches[0], explain(loaded, matches[0])
    if matches:
        return None, ambiguous(loaded, matches)
    return None, no_mistake_explains(loaded, reading.value, expected_cached(loaded))


def _decimal_items(reading: Reading, expected: Any) -> list[tuple[str | None, Any, Any]]:
    """Return (typed decimal or None, value read, value expected) per number of the answer;
    an answer of several parts (a tuple shape) lists its parts' numbers in order, a part with
    no decimals typed (a vector, pieces, a choice) as one item; an answer with no typed
    decimals lists none."""
    if reading.parts:
        items = []
        for part, wanted in zip(reading.parts, expected, strict=True):
            items += _decimal_items(part, wanted) or [(None, part.value, wanted)]
        return items if any(text for text, _, _ in items) else []
    if not reading.coordinate_decimals:
        return []  # nothing typed in decimals (or an answer that is not numbers)
    value = reading.value if isinstance(reading.value, tuple) else (reading.value,)
    wanted = expected if isinstance(expected, tuple) else (expected,)
    if len(value) != len(wanted):
        return []
    return list(zip(reading.coordinate_decimals, value, wanted, strict=True))


def _same(got: Any, want: Any) -> bool:
    """Return whether a value read equals the expected one exactly: numbers and vectors by
    value, anything else (pieces, a choice) as it is."""
    if isinstance(got, tuple) and isinstance(want, tuple):
        return len(got) == len(want) and all(_same(a, b) for a, b in zip(got, want, strict=True))
    if isinstance(got, str) or isinstance(want, str):
        return got == want
    return equal(got, want)


def _decimal_verdict(
    reading: Reading, expected: Any, interpreted: str
) -> tuple[Verdict | None, list[str]]:
    """Apply the decimal policy to an answer typed with decimals: correct when each rounds the
    exact value at its digits (3 significant figures or more), "too coarse" when one rounds it
    with fewer; None when a decimal does not round it (then the catalog is searched)."""
    notes: list[str] = []
    verdicts = []
    for text, got, want in _decimal_items(reading, expected):
        if text is None:
            verdicts.append(Rounding.EXACT if _same(got, want) else Rounding.WRONG)
        else:
            check = rounding(text, Fraction(text), want)
            verdicts.append(check)
            note = rounding_note(text, want, check)
            if note:
                notes.append(note)
    if all(v in (Rounding.EXACT, Rounding.ROUNDED) for v in verdicts):
        return Verdict(
            Status.CORRECT, 1.0, interpreted, explanation="Correct.", notes=tuple(notes)
        ), notes
    if all(v != Rounding.WRONG for v in verdicts):
        return Verdict(
            Status.INCORRECT,
            0.0,
            interpreted,
            explanation="Your decimals round the answer, but too coarsely to be marked right.",
            notes=tuple(notes),
        ), notes
    return None, notes


def _read(loaded: Loaded, answer: str) -> tuple[Reading, str]:
    """Read an answer by the problem's shape; return the reading and what "read as" shows (a
    written-out sum with its total). Raise AnswerError for text that cannot be read."""
    if not isinstance(answer, str):
        raise AnswerError("the answer must be text")
    try:
        reading = loaded.shape.read(answer)
    except (RecursionError, MemoryError, OverflowError):
        raise AnswerError("the answer is too complex to read") from None
    interpreted = reading.tex
    if reading.written_out:
        interpreted = f"{interpreted} = {loaded.shape.tex(reading.value)}"
    return reading, interpreted


def read(spec: dict[str, Any], answer: str) -> tuple[Any, str]:
    """Read an answer by the spec's answer shape without marking it (a preview, a picture of
    the learner's answer): return its value and what "your answer was read as" shows. Raise
    AnswerError, saying what and where, for text that cannot be read; SpecError for a
    malformed spec."""
    reading, interpreted = _read(load_problem(spec), answer)
    return reading.value, interpreted


def _grade(loaded: Loaded, answer: str) -> Verdict:
    deadline = cpu_now() + TIME_BUDGET_SECONDS
    shape = loaded.shape
    try:
        reading, interpreted = _read(loaded, answer)
    except AnswerError as error:
        return _invalid(error.message, error.tex)
    value = reading.value
    expected = expected_cached(loaded)
    if shape.equal(value, expected):
        return Verdict.marked(Status.CORRECT, 1.0, interpreted, None, "Correct.")
    notes: list[str] = []
    table = term_table(loaded) if reading.written_out else None
    if table is not None:
        report = match_terms(table, reading.terms)
        if report.all_right:
            return Verdict(
                Status.CORRECT, 1.0, interpreted, explanation="Correct.", notes=tuple(report.notes)
            )
        notes.extend(report.notes)
        diagnosis = term_diagnosis(loaded, report)
        if diagnosis is not None:
            text = explain(loaded, diagnosis)
            if report.right:
                verb = "is" if report.right == 1 else "are"
                text += f" {report.right} of {report.n} terms {verb} right."
            return Verdict(
                Status.INCORRECT, report.score, interpreted, diagnosis, text, notes=tuple(notes)
            )
        final, text = _final_verdict(loaded, reading, deadline)
        if final is None:
            text = explain_terms(table, report)
        return Verdict(Status.INCORRECT, report.score, interpreted, final, text, notes=tuple(notes))
    if (reading.parts or any(reading.coordinate_decimals)) and any(
        text for text, _, _ in _decimal_items(reading, expected)
    ):  # (no decimal typed: no item to list)
        verdict, notes = _decimal_verdict(reading, expected, interpreted)
        if verdict is not None:
            return verdict
    diagnosis, text = _final_verdict(loaded, reading, deadline)
    return Verdict.marked(Status.INCORRECT, 0.0, interpreted, diagnosis, text, tuple(notes))


def grade(spec: dict[str, Any], answer: str) -> Verdict:
    """Mark one answer against a spec. Learner text never raises: unreadable text is an
    `invalid` Verdict. A malformed spec raises SpecError naming the field."""
    loaded = load_problem(spec)
    try:
        clock.answer_started()
        with confirmation_budget():  # one hard time limit for all of an answer's exact proofs
            return _grade(loaded, answer)
    except AnswerError as error:  # a bound met after reading: the time budget
        return _invalid(error.message)
    except TooComplex as error:  # an exact confirmation refused by a bound, or past the limit
        logger.warning("answer of %d characters not confirmed: %s", len(answer), error.bound)
        return _invalid(error.message)
    except (ArithmeticError, ValueError, TypeError, AttributeError, RecursionError):
        # A defect here must not become a server error for the learner; it is logged in full.
        logger.exception("grading failed on an answer of %d characters", len(str(answer)))
        return _invalid("the answer could not be marked; please write it another way")
