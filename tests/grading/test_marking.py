import pytest

from grading import Diagnosis, MistakeCode, Status, Verdict, grade


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
