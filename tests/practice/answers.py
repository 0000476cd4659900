"""Answers a learner would type for a stored problem: the right one and a diagnosable wrong one."""

import sympy

import grading
from practice.models import ProblemInstance


def vector_text(vector) -> str:
    """Write a vector of SymPy numbers the way a learner types it: ``[1/2, 1]``."""
    return "[" + ", ".join(sympy.sstr(x) for x in vector) + "]"


def right_answer(problem: ProblemInstance) -> str:
    return vector_text(grading.expected_answer(problem.spec))


def wrong_answer(problem: ProblemInstance):
    """Return (diagnosis, text) of the first catalogued mistake the grader names for the problem.

    Some mistakes coincide with the right answer for some terms (forgetting a weight of 1);
    those are skipped.
    """
    for diagnosis, vector in grading.mistaken_answers(problem.spec):
        text = vector_text(vector)
        verdict = grading.grade(problem.spec, text)
        if verdict.diagnosis is not None and verdict.diagnosis.mistake == diagnosis.mistake:
            return verdict.diagnosis, text
    raise AssertionError(f"no diagnosable mistake for {problem.spec}")
