"""``lookup``, the starting row of a token, ``E[id(tokens[position])]``: the kind's own tests
(its spec's fields, mistakes, explanations, statement and picture) on the hand-worked problems
of ``tests/kinds/first_four.py``.

The checks every kind shares run on it in ``test_kind_checks.py``; the grading and generator
tests that use it as an example of the engine stay in ``tests/grading/`` and ``tests/generators/``.
"""

import pytest

from grading import (
    Diagnosis,
    MistakeCode,
    SpecError,
    mistaken_answers,
    validate_spec,
)
from grading.explain import explain
from grading.spec import load_problem
from practice.generators import render_statement, render_svg
from tests.kinds.first_four import (
    arrows,
    drawn_spec,
    lookup_spec,
    parse,
    pixel_tip,
)

M = MistakeCode


@pytest.fixture
def make_spec():
    return drawn_spec


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tokens": ["the", "lake"]}, "tokens[1]"),
        ({"vocab": ["the", "the", "river", "money", "flows"]}, "vocab"),
        ({"table": [["1", "1"]]}, "table"),
        ({"position": 3}, "position"),
    ],
)
def test_malformed_lookup_names_the_field(change, field):
    with pytest.raises(SpecError) as caught:
        validate_spec(lookup_spec() | change)
    assert caught.value.field == field


def test_lookup_mistakes():
    answers = [(d.mistake, d.detail, v) for d, v in mistaken_answers(lookup_spec())]
    assert (MistakeCode.ROW_BY_POSITION, {"row": 2}, (0, 1)) in answers
    assert (MistakeCode.OFF_BY_ONE_ROW, {"row": 0}, (1, 1)) in answers
    assert (MistakeCode.OFF_BY_ONE_ROW, {"row": 2}, (0, 1)) in answers
    assert (
        MistakeCode.OTHER_TOKEN_ROW,
        {"row": 2, "position": 1, "token": "river"},
        (0, 1),
    ) in answers


def test_lookup_explanations_give_the_id_and_the_same_row_point():
    problem = load_problem(lookup_spec())
    text = explain(problem, Diagnosis(M.ROW_BY_POSITION, detail={"row": 2}))
    assert "whose id is 1" in text
    assert "same id gives the same row in either sentence" in text
    text = explain(
        problem,
        Diagnosis(M.OTHER_TOKEN_ROW, detail={"row": 2, "position": 1, "token": "river"}),
    )
    assert "*river*" in text


def test_lookup_statement_lists_the_table_by_id(make_spec):
    text = render_statement(make_spec("lookup"))

    assert r"- id 1, *bank*: $E[1] = \begin{bmatrix}1\\0\end{bmatrix}$" in text
    assert r"E[\mathrm{id}(\text{bank})]" in text


def test_lookup_draws_every_table_row_and_highlights_the_right_one(make_spec):
    root = parse(render_svg(make_spec("lookup"), solution=True))

    assert len(arrows(root, "row")) == 4
    (right,) = arrows(root, "right")
    assert (right.get("data-x"), right.get("data-y")) == ("1", "0")
    assert pixel_tip(root, right) == pytest.approx((1, 0), abs=1e-3)
