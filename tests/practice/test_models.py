import uuid

import pytest
from django.db import IntegrityError, transaction

from grading.kinds import MistakeCode, ProblemKind, Status
from practice.models import Attempt, ProblemInstance
from practice.services import problem_store

from .conftest import IDEA_SLUG, PAGE_SLUG

SPEC = {"kind": "lookup", "vocab": ["a"], "table": [["1", "0"]], "tokens": ["a"], "position": 0}


def _problem(copy, **overrides) -> ProblemInstance:
    fields = {
        "copy": copy,
        "page_slug": PAGE_SLUG,
        "idea_slug": IDEA_SLUG,
        "kind": ProblemKind.LOOKUP.value,
        "generator_name": "lookup",
        "generator_version": "1",
        "seed": 7,
        "level": 1,
        "spec": SPEC,
    } | overrides
    return ProblemInstance.objects.create(**fields)


def _attempt(problem, **overrides) -> Attempt:
    fields = {
        "problem": problem,
        "copy": problem.copy,
        "text": "[1, 0]",
        "status": Status.CORRECT.value,
        "score": 1.0,
        "verdict": {"status": "correct"},
        "form_token": uuid.uuid4(),
    } | overrides
    return Attempt.objects.create(**fields)


@pytest.mark.django_db
def test_one_open_practice_problem_per_idea_and_kind(copy):
    _problem(copy)
    with pytest.raises(IntegrityError), transaction.atomic():
        _problem(copy, seed=8)


@pytest.mark.django_db
def test_solved_and_review_problems_do_not_block_a_new_open_one(copy):
    _problem(copy, state=ProblemInstance.State.SOLVED)
    _problem(copy, purpose=ProblemInstance.Purpose.REVIEW)
    _problem(copy, purpose=ProblemInstance.Purpose.REVIEW)
    assert _problem(copy).state == ProblemInstance.State.OPEN
    assert ProblemInstance.objects.count() == 4


@pytest.mark.django_db
def test_unknown_kind_is_refused_before_a_row_is_written(copy):
    # Kinds come from the grading registry (a module per kind, no migration), so the check is
    # the write path's: problem_store refuses a kind without a registered generator.
    with pytest.raises(ValueError, match="telepathy"):
        problem_store(
            copy=copy,
            page_slug=PAGE_SLUG,
            idea_slug=IDEA_SLUG,
            kind="telepathy",
            seed=7,
            level=1,
            spec=SPEC,
            purpose=ProblemInstance.Purpose.PRACTICE,
        )
    assert not ProblemInstance.objects.exists()


@pytest.mark.django_db
def test_form_token_is_unique_per_copy(copy):
    problem = _problem(copy)
    token = uuid.uuid4()
    _attempt(problem, form_token=token)
    with pytest.raises(IntegrityError), transaction.atomic():
        _attempt(problem, form_token=token)


@pytest.mark.django_db
def test_mistake_only_on_incorrect_attempts(copy):
    problem = _problem(copy)
    _attempt(problem, status=Status.INCORRECT.value, score=0.0, mistake=MistakeCode.OFF_BY_ONE_ROW)
    with pytest.raises(IntegrityError), transaction.atomic():
        _attempt(problem, mistake=MistakeCode.OFF_BY_ONE_ROW)


@pytest.mark.django_db
def test_score_outside_0_and_1_is_refused(copy):
    problem = _problem(copy)
    with pytest.raises(IntegrityError), transaction.atomic():
        _attempt(problem, score=1.5)
