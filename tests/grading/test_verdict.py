import json

from grading import Diagnosis, MistakeCode, Status, Verdict


def test_diagnosis_dict_has_the_design_fields_and_detail():
    diagnosis = Diagnosis(MistakeCode.WRONG_WEIGHT, (1,), None, {"weight": "1"})
    assert diagnosis.to_dict() == {
        "mistake": "wrong_weight",
        "terms": [1],
        "coordinate": None,
        "detail": {"weight": "1"},
    }
    assert Diagnosis.from_dict(diagnosis.to_dict()) == diagnosis


def test_diagnosis_is_hashable_despite_its_detail_dict():
    assert (
        len({Diagnosis(MistakeCode.OMITTED_TERM, (0,)), Diagnosis(MistakeCode.OMITTED_TERM, (0,))})
        == 1
    )


def test_verdict_dict_is_json_and_round_trips():
    verdict = Verdict(
        status=Status.INCORRECT,
        score=0.5,
        interpreted="\\begin{bmatrix}0\\\\1\\end{bmatrix}",
        diagnosis=Diagnosis(MistakeCode.OMITTED_TERM, (0,)),
        explanation="Your answer leaves out the term for position 0, *bank*.",
        notes=("a note",),
    )
    data = json.loads(json.dumps(verdict.to_dict()))
    assert set(data) == {
        "status",
        "score",
        "interpreted",
        "diagnosis",
        "explanation",
        "message",
        "notes",
    }
    assert data["status"] == "incorrect"
    assert Verdict.from_dict(data) == verdict


def test_verdict_without_diagnosis_round_trips():
    verdict = Verdict(Status.INVALID, 0.0, message="the answer is empty")
    assert verdict.to_dict()["diagnosis"] is None
    assert Verdict.from_dict(verdict.to_dict()) == verdict
