import pytest

import grading
from practice.answers import answer_reading, answer_value, answer_vector


@pytest.mark.parametrize(
    "text",
    ["[1/2, 3/4]", "1/2*[1, 0] + 1/2*[0, 2]", "(0.5, 1)", "[1/2, ", "[1, 2] +", "9**9**9", "[[1"],
)
def test_preview_reads_the_answer_as_the_grader_does(problem, text):
    verdict = grading.grade(problem.spec, text)
    reading = answer_reading(text)
    if verdict.status == grading.Status.INVALID:
        assert not reading.readable
        assert reading.message == verdict.message
    else:
        assert reading.readable
        assert reading.tex == verdict.interpreted


def test_answer_vector_is_the_value_read_or_none():
    assert [str(x) for x in answer_vector("1/2*[1, 0] + 1/2*[0, 2]")] == ["1/2", "1"]
    assert answer_vector("3/4") is None
    assert answer_vector("[1/2, ") is None


NOISE_STEP = {"kind": "noise_step", "beta": "9/25", "x_prev": "2", "eps": "-1", "variance": "4"}


def test_preview_reads_by_the_problems_answer_shape():
    reading = answer_reading("sqrt(3)/2 - 1; 13/4", NOISE_STEP)
    assert reading.readable
    assert reading.tex == grading.grade(NOISE_STEP, "sqrt(3)/2 - 1; 13/4").interpreted
    refused = answer_reading("1/2", NOISE_STEP)
    assert not refused.readable
    assert refused.message == grading.grade(NOISE_STEP, "1/2").message


def test_answer_value_reads_a_pair_by_the_shape_or_gives_none():
    assert answer_value(NOISE_STEP, "1; 73/25") == (
        1,
        grading.kind("noise_step").right(grading.kind("noise_step").load(NOISE_STEP))[1],
    )
    assert answer_value(NOISE_STEP, "[1, 2]; 3") is None
    assert answer_value(NOISE_STEP, "1; ") is None
