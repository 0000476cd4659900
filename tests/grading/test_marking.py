import pytest

from grading import Diagnosis, MistakeCode, SpecError, Status, Verdict, grade


@pytest.mark.parametrize(
    "answer",
    [
        "[1/2, 1]",
        "(0.5, 1)",
        "1/2, 1",
        "[0.5 1]",
        "1/2 [1, 0] + 1/2 [0, 2]",
        "0.5*[1,0]+0.5*[0,2]",
        "\\frac{1}{2}, 1",
        "\\begin{bmatrix}\\frac{1}{2}\\\\1\\end{bmatrix}",
        "1/2*([1,0]+[0,2])",
        "[1,2]/2",
    ],
)
def test_every_accepted_format_of_the_seed_answer_is_correct(seed_spec, answer):
    verdict = grade(seed_spec, answer)
    assert verdict.status == Status.CORRECT
    assert verdict.score == 1.0


def test_final_vector_of_omitted_self_term_is_diagnosed(seed_spec):
    verdict = grade(seed_spec, "[0, 1]")
    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis == Diagnosis(MistakeCode.OMITTED_TERM, (0,))
    assert "position 0, *bank*" in verdict.explanation
    assert "includes $j = i$" in verdict.explanation


def test_verdict_round_trips_through_its_dict(seed_spec):
    verdict = grade(seed_spec, "1/2*[1,0] + [0,2]")
    assert Verdict.from_dict(verdict.to_dict()) == verdict
    assert verdict.to_dict()["diagnosis"]["mistake"] == "wrong_weight"


def test_wrong_dimension_is_invalid_not_incorrect(seed_spec):
    verdict = grade(seed_spec, "[1, 2, 3]")
    assert verdict.status == Status.INVALID
    assert "3 coordinates" in verdict.message


def test_written_out_sum_names_the_wrong_term_where_the_final_vector_is_ambiguous():
    spec = {
        "kind": "weighted_sum",
        "tokens": ["bank", "river", "loan"],
        "position": 0,
        "weights": ["1/2", "1/4", "1/4"],
        "rows": [["1", "0"], ["0", "2"], ["2", "0"]],
    }
    # Weight 1/2 on term 2, or row 2 in term 0: both give [3/2, 1/2].
    final = grade(spec, "[3/2, 1/2]")
    assert final.status == Status.INCORRECT
    assert final.diagnosis is None
    assert "more than one common mistake" in final.explanation
    assert "position 2, *loan*" in final.explanation
    assert "position 0, *bank*" in final.explanation
    written = grade(spec, "1/2*[2,0] + 1/4*[0,2] + 1/4*[2,0]")
    assert written.diagnosis == Diagnosis(MistakeCode.WRONG_ROW, (0,), detail={"row": 2})
    assert "position 0, *bank*" in written.explanation
    assert written.score == 2 / 3


def test_one_of_three_terms_wrong_scores_two_thirds(three_spec):
    verdict = grade(three_spec, "1/6*[1,1] + 1/2*[2,0] + 1/2*[0,3]")
    assert verdict.score == 2 / 3
    assert verdict.diagnosis == Diagnosis(MistakeCode.WRONG_WEIGHT, (2,), detail={"weight": "1/2"})


def test_bare_wrong_final_vector_scores_zero(three_spec):
    verdict = grade(three_spec, "[5/6, 1/2]")
    assert verdict.status == Status.INCORRECT
    assert verdict.score == 0.0


def test_swapped_weights_written_out(three_spec):
    verdict = grade(three_spec, "1/6*[1,1] + 1/3*[2,0] + 1/2*[0,3]")
    assert verdict.diagnosis == Diagnosis(MistakeCode.SWAPPED_WEIGHTS, (1, 2))


def test_unweighted_and_averaged_sums_written_out(three_spec):
    assert grade(three_spec, "[1,1]+[2,0]+[0,3]").diagnosis.mistake == MistakeCode.UNWEIGHTED_SUM
    assert grade(three_spec, "1/3*([1,1]+[2,0]+[0,3])").diagnosis.mistake == (
        MistakeCode.PLAIN_AVERAGE
    )


def test_extra_term_is_said_and_costs_a_term(three_spec):
    verdict = grade(three_spec, "1/6*[1,1] + 1/2*[2,0] + 1/3*[0,3] + [1,1]")
    assert verdict.status == Status.INCORRECT
    assert verdict.score == 2 / 3
    assert "does not belong to the sum" in verdict.explanation


def test_decimal_rounding_at_three_figures_is_correct_with_the_exact_form():
    spec = {
        "kind": "weighted_sum",
        "tokens": ["a", "b"],
        "position": 0,
        "weights": ["1/3", "2/3"],
        "rows": [["1", "0"], ["0", "1"]],
    }
    verdict = grade(spec, "[0.333, 0.667]")
    assert verdict.status == Status.CORRECT
    assert any("\\frac{1}{3}" in note for note in verdict.notes)
    coarse = grade(spec, "[0.33, 0.67]")
    assert coarse.status == Status.INCORRECT
    assert any("fewer than 3 significant figures" in note for note in coarse.notes)
    truncated = grade(spec, "[0.333, 0.666]")
    assert truncated.status == Status.INCORRECT


def test_written_out_decimal_weights_follow_the_same_policy():
    spec = {
        "kind": "weighted_sum",
        "tokens": ["a", "b"],
        "position": 0,
        "weights": ["1/3", "2/3"],
        "rows": [["1", "0"], ["0", "1"]],
    }
    assert grade(spec, "0.333*[1,0] + 0.667*[0,1]").status == Status.CORRECT
    coarse = grade(spec, "0.33*[1,0] + 0.667*[0,1]")
    assert coarse.status == Status.INCORRECT
    assert coarse.diagnosis is None
    assert "too coarsely" in coarse.explanation


def test_lookup_and_contrast_are_marked(lookup, contrast):
    assert grade(lookup, "[1, 0]").status == Status.CORRECT
    assert grade(lookup, "[2, 2]").diagnosis is None  # row 3: no catalogued mistake
    assert grade(contrast, "1/2*([0,2] - [0,1])").status == Status.CORRECT
    assert grade(contrast, "[0, -0.5]").diagnosis.mistake == MistakeCode.REVERSED_DIFFERENCE


def test_unknown_name_is_invalid_with_a_message_pointing_at_it(seed_spec):
    verdict = grade(seed_spec, "[1/2, y]")
    assert verdict.status == Status.INVALID
    assert "'y'" in verdict.message
    assert "column 7" in verdict.message
    assert verdict.score == 0.0


def test_a_single_number_is_invalid(seed_spec):
    verdict = grade(seed_spec, "1/2")
    assert verdict.status == Status.INVALID
    assert "single number" in verdict.message


def test_malformed_spec_raises_naming_the_field():
    with pytest.raises(SpecError) as caught:
        grade({"kind": "weighted_sum"}, "[1, 2]")
    assert caught.value.field == "rows"
