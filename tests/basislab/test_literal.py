"""basislab.literal: choice values written into a statement, the same rows as bound ones."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from basislab.literal import Choice, choice_literal
from practice.models import ProblemInstance
from practice.services import problem_new_variant, problem_open


@pytest.mark.parametrize(
    "value", ["it's", "open'; DROP TABLE x; --", "Open", "open state", "", "über", 3, None]
)
def test_anything_but_a_lower_case_word_is_refused(value):
    with pytest.raises(ValueError, match="not a plain choice value"):
        choice_literal(value)
    with pytest.raises(ValueError, match="not a plain choice value"):
        Choice(value)


def test_a_choice_value_is_quoted():
    assert choice_literal("open") == "'open'"
    assert choice_literal(ProblemInstance.State.OPEN) == "'open'"


@pytest.mark.parametrize("state", ProblemInstance.State.values)
def test_written_in_it_selects_the_rows_the_bound_value_does(state, course_copy):
    first = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    problem_new_variant(copy=course_copy, problem=first)  # one replaced, one open
    bound = ProblemInstance.objects.filter(copy=course_copy, state=state)
    written = ProblemInstance.objects.filter(copy=course_copy, state=Choice(state))
    with CaptureQueriesContext(connection) as queries:
        rows = list(written.values_list("pk", flat=True))
    assert rows == list(bound.values_list("pk", flat=True))
    assert f"= '{state}'" in queries[0]["sql"]
    assert len(rows) == (1 if state in ("open", "replaced") else 0)
