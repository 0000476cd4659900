"""``weighted_sum``, one layer's mix at the ambiguous word, ``h_i = sum_j w_ij x_j``: the kind's
own tests (its spec's fields, mistakes, explanations, statement and picture) on the hand-worked
problems of ``tests/kinds/first_four.py``.

The checks every kind shares run on it in ``test_kind_checks.py``; the grading and generator
tests that use it as an example of the engine stay in ``tests/grading/`` and ``tests/generators/``.
"""

import itertools
from fractions import Fraction

import pytest
import sympy

from grading import (
    Diagnosis,
    MistakeCode,
    SpecError,
    mistaken_answers,
    validate_spec,
)
from grading.explain import explain
from grading.kinds._sums import term_name
from grading.spec import load_problem
from practice.generators import render_statement, render_svg
from tests.kinds.first_four import (
    arrows,
    drawn_spec,
    panel_of,
    parse,
    pixel_tip,
    seed_weighted_sum,
    three_terms,
)

M = MistakeCode
R = sympy.Rational


@pytest.fixture
def make_spec():
    return drawn_spec


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "no_such_kind"}, "kind"),
        ({"kind": None}, "kind"),
        ({"rows": None}, "rows"),
        ({"rows": []}, "rows"),
        ({"rows": [["1", "0"], ["0"]]}, "rows[1]"),
        ({"rows": [["1", "x"], ["0", "2"]]}, "rows[0][1]"),
        ({"rows": [["1", 0.5], ["0", "2"]]}, "rows[0][1]"),
        ({"rows": [["1", True], ["0", "2"]]}, "rows[0][1]"),
        ({"weights": ["1/0", "1/2"]}, "weights[0]"),
        ({"weights": ["1/2"]}, "weights"),
        ({"weights": ["1e5", "1/2"]}, "weights[0]"),
        ({"weights": ["1" * 40, "1/2"]}, "weights[0]"),
        ({"tokens": ["bank"]}, "tokens"),
        ({"tokens": ["bank", ""]}, "tokens[1]"),
        ({"tokens": ["bank", 3]}, "tokens[1]"),
        ({"position": 2}, "position"),
        ({"position": -1}, "position"),
        ({"position": "0"}, "position"),
        ({"position": True}, "position"),
    ],
)
def test_malformed_weighted_sum_names_the_field(change, field):
    with pytest.raises(SpecError) as caught:
        validate_spec(seed_weighted_sum() | change)
    assert caught.value.field == field
    assert caught.value.message
    assert str(caught.value).startswith(field)


def codes(spec):
    return [
        (d.mistake, d.terms, tuple(sorted(d.detail.items()))) for d, _ in mistaken_answers(spec)
    ]


def test_weighted_sum_variants_cover_every_term_weight_row_and_pair():
    found = codes(three_terms())
    assert [c for c in found if c[0] == MistakeCode.OMITTED_TERM] == [
        (MistakeCode.OMITTED_TERM, (k,), ()) for k in range(3)
    ]
    weights = {(c[1], c[2]) for c in found if c[0] == MistakeCode.WRONG_WEIGHT}
    assert ((0,), (("weight", "1/2"),)) in weights
    assert ((0,), (("weight", "1"),)) in weights
    assert len(weights) == 9  # each of 3 terms: the 2 other weights and 1
    rows = [c for c in found if c[0] == MistakeCode.WRONG_ROW]
    assert len(rows) == 6
    swaps = [c[1] for c in found if c[0] == MistakeCode.SWAPPED_WEIGHTS]
    assert swaps == [(0, 1), (0, 2), (1, 2)]


def test_swapped_weights_skip_pairs_with_equal_weights():
    assert not [
        d
        for d, _ in mistaken_answers(seed_weighted_sum())
        if d.mistake == MistakeCode.SWAPPED_WEIGHTS
    ]


def test_seed_mistakes_give_what_a_learner_would_answer():
    answers = {(d.mistake, d.terms): v for d, v in mistaken_answers(seed_weighted_sum())}
    assert answers[(MistakeCode.OMITTED_TERM, (0,))] == (0, 1)
    assert answers[(MistakeCode.UNWEIGHTED_SUM, ())] == (1, 2)
    assert answers[(MistakeCode.PLAIN_AVERAGE, ())] == (R(1, 2), 1)


def test_wrong_weight_detail_is_an_exact_rational_string():
    variants = [
        d for d, _ in mistaken_answers(three_terms()) if d.mistake == MistakeCode.WRONG_WEIGHT
    ]
    assert all(Fraction(d.detail["weight"]) for d in variants)


def test_terms_are_named_by_position_and_token():
    problem = load_problem(three_terms()).problem
    assert term_name(problem.tokens, 2) == "the term for position 2, *river*"


def test_omitted_self_term_says_the_sum_includes_j_equals_i():
    text = explain(load_problem(seed_weighted_sum()), Diagnosis(M.OMITTED_TERM, (0,)))
    assert "the term for position 0, *bank*" in text
    assert "includes $j = i$" in text
    assert "\\frac{1}{2}\\,\\begin{bmatrix}1\\\\0\\end{bmatrix}" in text


def test_omitted_neighbour_does_not_claim_the_self_point():
    text = explain(load_problem(seed_weighted_sum()), Diagnosis(M.OMITTED_TERM, (1,)))
    assert "position 1, *river*" in text
    assert "j = i" not in text


def test_wrong_weight_names_whose_weight_was_used_and_the_right_term():
    text = explain(
        load_problem(three_terms()), Diagnosis(M.WRONG_WEIGHT, (2,), detail={"weight": "1/6"})
    )
    assert "position 2, *river*" in text
    assert "the weight of the term for position 0, *the*" in text
    assert "$\\frac{1}{3}$" in text
    assert "\\begin{bmatrix}0\\\\1\\end{bmatrix}" in text  # 1/3 [0, 3]


def test_weight_of_one_is_explained_as_no_weight():
    text = explain(
        load_problem(three_terms()), Diagnosis(M.WRONG_WEIGHT, (1,), detail={"weight": "1"})
    )
    assert "as if the row had no weight" in text


def test_wrong_row_names_the_row_used_and_its_own():
    text = explain(load_problem(three_terms()), Diagnosis(M.WRONG_ROW, (1,), detail={"row": 0}))
    assert "the row at position 0, *the*" in text
    assert "its own row $\\begin{bmatrix}2\\\\0\\end{bmatrix}$" in text


def test_swapped_weights_name_both_terms():
    text = explain(load_problem(three_terms()), Diagnosis(M.SWAPPED_WEIGHTS, (0, 2)))
    assert "position 0, *the*" in text
    assert "position 2, *river*" in text


def test_weighted_sum_statement_names_tokens_rows_weights_and_the_task(make_spec):
    text = render_statement(make_spec("weighted_sum"))

    assert "*the river bank*" in text
    assert r"\begin{bmatrix}0\\2\end{bmatrix}" in text
    assert r"w_{2,2} = \frac{1}{2}" in text
    assert "*bank* (the word itself)" in text
    assert r"**Compute** $\mathbf{h}_{2}$" in text
    assert "with the vector" in text and "sum written out" in text


def test_weighted_sum_draws_rows_terms_and_the_sum_at_the_right_point(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), solution=True))

    assert len(arrows(root, "row")) == 3
    assert len(arrows(root, "term")) == 3
    (total,) = arrows(root, "sum")
    assert (total.get("data-x"), total.get("data-y")) == ("1/2", "3/4")
    assert pixel_tip(root, total) == pytest.approx((0.5, 0.75), abs=1e-3)
    assert total.get("x1") == panel_of(root, total).get("data-origin").split(",")[0]


def test_weighted_terms_run_tip_to_tail_and_end_at_the_sum(make_spec):
    root = parse(render_svg(make_spec("weighted_sum"), solution=True))
    terms = arrows(root, "term")

    for before, after in itertools.pairwise(terms):
        assert (before.get("x2"), before.get("y2")) == (after.get("x1"), after.get("y1"))
    (total,) = arrows(root, "sum")
    assert (terms[-1].get("x2"), terms[-1].get("y2")) == (total.get("x2"), total.get("y2"))
