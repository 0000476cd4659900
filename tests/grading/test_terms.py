from fractions import Fraction

from grading.parse import Term
from grading.rounding import Rounding
from grading.terms import (
    TermTable,
    explain_terms,
    follows_weighting,
    match_terms,
    rounding_note,
    weight_check,
)

F = Fraction
ROWS = ((F(1), F(0)), (F(0), F(2)), (F(1), F(1)))
TABLE = TermTable((F(1, 6), F(1, 2), F(1, 3)), ROWS, ("the term a", "the term b", "the term c"))


def term(c, row, decimal=None):
    return Term(F(c) if not isinstance(c, F) else c, row, decimal, True)


def test_terms_in_any_order_are_matched_by_row_and_weight():
    report = match_terms(
        TABLE, [term(F(1, 3), ROWS[2]), term(F(1, 6), ROWS[0]), term(F(1, 2), ROWS[1])]
    )
    assert report.all_right and report.score == 1.0


def test_each_kind_of_wrong_term_is_reported():
    report = match_terms(TABLE, [term(F(1, 2), ROWS[0]), term(F(1, 2), ROWS[2])])
    assert report.issues == [("weight", 0, F(1, 2)), ("weight", 2, F(1, 2)), ("omitted", 1, None)]
    assert report.right == 0 and report.score == 0.0
    text = explain_terms(TABLE, report)
    assert text.startswith("The term a has the weight $\\frac{1}{2}$; its weight is $\\frac{1}{6}$")
    assert "The term b is missing" in text and text.endswith("0 of 3 terms are right.")


def test_a_wrong_row_and_a_wholly_wrong_term_are_named():
    stray = term(7, (F(7), F(7)))
    report = match_terms(TABLE, [term(F(1, 6), ROWS[1]), term(F(1, 2), ROWS[1]), stray])
    assert report.issues == [("row", 0, ROWS[1]), ("both", 2, stray)]
    text = explain_terms(TABLE, report)
    assert "uses the row" in text and "(the row of the term b)" in text
    assert "The term c was written as $7\\,\\begin{bmatrix}7\\\\7\\end{bmatrix}$" in text


def test_an_extra_term_costs_one():
    terms = [term(F(1, 6), ROWS[0]), term(F(1, 2), ROWS[1]), term(F(1, 3), ROWS[2])]
    report = match_terms(TABLE, [*terms, term(1, (F(5), F(5)))])
    assert report.extras == 1 and report.score == 2 / 3
    assert "does not belong to the sum" in explain_terms(TABLE, report)


def test_cancelling_pairs_are_dropped_where_the_table_says_so():
    pair = [term(F(1, 2), (F(3), F(3))), term(F(-1, 2), (F(3), F(3)))]
    right = [term(F(1, 6), ROWS[0]), term(F(1, 2), ROWS[1]), term(F(1, 3), ROWS[2])]
    cancelling = TermTable(TABLE.weights, ROWS, TABLE.names, cancel_pairs=True)
    assert match_terms(cancelling, [*right, *pair]).all_right
    assert match_terms(TABLE, [*right, *pair]).extras == 2


def test_a_whole_sum_weighting_is_recognised():
    report = match_terms(TABLE, [term(1, ROWS[0]), term(1, ROWS[1]), term(1, ROWS[2])])
    assert follows_weighting(report, (F(1), F(1), F(1)))
    assert not follows_weighting(report, (F(1), F(1), None))
    assert not follows_weighting(report, (F(1), F(1)))


def test_decimal_weights_follow_the_policy():
    assert weight_check(term(F(333, 1000), ROWS[2], "0.333"), F(1, 3)) == Rounding.ROUNDED
    assert weight_check(term(F(33, 100), ROWS[2], "0.33"), F(1, 3)) == Rounding.TOO_FEW_DIGITS
    assert weight_check(term(F(1, 3), ROWS[2]), F(1, 3)) == Rounding.EXACT
    assert "is accepted" in rounding_note("0.333", F(1, 3), Rounding.ROUNDED)
    assert "fewer than 3 significant figures" in rounding_note(
        "0.33", F(1, 3), Rounding.TOO_FEW_DIGITS
    )
    assert rounding_note("0.5", F(1, 2), Rounding.EXACT) is None
