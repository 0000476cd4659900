from grading import Diagnosis, MistakeCode
from grading.explain import explain, no_mistake_explains
from grading.kinds._sums import term_name
from grading.kinds.contrast import term_name as contrast_term_name
from grading.shapes import Vector
from grading.spec import load_problem

from .conftest import content_spec, contrast_spec, lookup_spec, seed_weighted_sum, three_terms

M = MistakeCode


def test_terms_are_named_by_position_and_token():
    problem = load_problem(three_terms()).problem
    assert term_name(problem.tokens, 2) == "the term for position 2, *river*"


def test_contrast_terms_name_both_sentences_tokens():
    problem = load_problem(contrast_spec()).problem
    assert contrast_term_name(problem, 0) == "the term for position 0 (*bank* in both sentences)"
    assert contrast_term_name(problem, 1) == "the term for position 1 (*river* in A, *money* in B)"


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


def test_contrast_explanations():
    problem = load_problem(contrast_spec())
    assert "every sign is" in explain(problem, Diagnosis(M.REVERSED_DIFFERENCE))
    one_side = explain(problem, Diagnosis(M.ANSWERED_ONE_SIDE, detail={"side": "b"}))
    assert "same id gives the same row" in one_side
    forgot = explain(problem, Diagnosis(M.FORGOT_WEIGHT, (1,)))
    assert "*river* in A, *money* in B" in forgot
    assert "without its weight" in forgot


def test_content_explanations_show_scores_and_softmax():
    problem = load_problem(content_spec())
    for code in (
        M.UNNORMALISED_WEIGHTS,
        M.POSITIONAL_WEIGHTS,
        M.RAW_SCORES,
        M.OMITTED_SELF_SCORE,
    ):
        text = explain(problem, Diagnosis(code, (0,) if code == M.OMITTED_SELF_SCORE else ()))
        assert "the scores" in text
        assert "(1, 0, 1)" in text
    text = explain(problem, Diagnosis(M.OMITTED_SELF_SCORE, (0,)))
    assert "includes $j = i$" in text


def test_coordinate_offsets_say_which_and_by_how_much():
    from fractions import Fraction as F

    text = no_mistake_explains(load_problem(seed_weighted_sum()), (F(1), F(1)), (F(1, 2), F(1)))
    assert text.startswith("No common mistake explains this answer:")
    assert Vector(2).differences((F(1), F(1)), (F(1, 2), F(1))) == (0,)
    assert "the first coordinate is off by $+\\frac{1}{2}$" in text
    assert "second" not in text


def test_omitted_self_score_names_the_position_and_its_token():
    problem = load_problem(content_spec())  # position 0 is *bank*
    text = explain(problem, Diagnosis(M.OMITTED_SELF_SCORE, (0,)))
    assert "the self score $s_{0,0}$ of position 0, *bank*" in text
