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


@pytest.mark.parametrize(
    "text", ["[1/2, 3/4]", "[1, 2, 3]", "5", "1/2*[1, 0] + 1/2*[0, 2]", "[1/2, ", "9**9**9"]
)
def test_preview_by_the_problem_s_shape_reads_as_the_grader_does(problem, text):
    verdict = grading.grade(problem.spec, text)
    reading = answer_reading(text, problem.spec)
    if verdict.status == grading.Status.INVALID:
        assert not reading.readable and reading.message == verdict.message
    else:
        assert reading.readable and reading.tex == verdict.interpreted


def test_answer_value_is_read_by_the_problem_s_shape(problem):
    assert [str(x) for x in answer_value("1/2*[1, 0] + 1/2*[0, 2]", problem.spec)] == ["1/2", "1"]
    assert answer_value("[1, 2, 3]", problem.spec) is None  # not this problem's dimension
    assert answer_value("3/4", problem.spec) is None
