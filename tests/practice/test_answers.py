import pytest

import grading
from practice.answers import answer_reading, answer_vector


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


def test_reading_by_the_problems_shape_reads_pieces_and_choices():
    from grading.shapes import Choice, PieceSequence
    from practice.answers import answer_value

    assert answer_reading("cat sat", PieceSequence(4)).readable
    assert answer_value("cat sat", PieceSequence(4)) == ("cat", "sat")
    assert answer_value("COLD", Choice(("hot", "cold"))) == "cold"
    refused = answer_reading("tree", Choice(("hot", "cold")))
    assert not refused.readable and "hot, cold" in refused.message
    assert answer_value("tree", Choice(("hot", "cold"))) is None
