import json
from fractions import Fraction

from grading import Diagnosis, MistakeCode, Status, Verdict
from grading.parse import Reading, _plain_vector
from grading.spec import Loaded, _build

from .conftest import seed_weighted_sum


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


def test_objects_filled_at_once_are_what_their_constructors_make():
    # Verdict.marked, Diagnosis.named, a plain vector's Reading and a spec's Loaded fill
    # their __dict__ at once: the same fields, values, order, equality, hash and repr
    diagnosis = Diagnosis.named("wrong_row", (1,), {"row": 2})
    made = Diagnosis("wrong_row", (1,), detail={"row": 2})
    pairs = [
        (diagnosis, made),
        (
            Verdict.marked(Status.INCORRECT, 0.0, "x", diagnosis, "why", ("a",)),
            Verdict(Status.INCORRECT, 0.0, "x", made, "why", notes=("a",)),
        ),
        (
            Verdict.marked(Status.CORRECT, 1.0, "y", None, "Correct."),
            Verdict(Status.CORRECT, 1.0, "y", explanation="Correct."),
        ),
        (
            _plain_vector("[1/2, -3, 0]"),
            Reading(
                value=(Fraction(1, 2), Fraction(-3), Fraction(0)),
                tex="\\begin{bmatrix}\\frac{1}{2}\\\\-3\\\\0\\end{bmatrix}",
                coordinate_decimals=(None, None, None),
            ),
        ),
    ]
    spec = seed_weighted_sum()
    loaded = _build(spec, json.dumps(spec, sort_keys=True))  # a fresh one (no `spec` cached)
    pairs.append((loaded, Loaded(loaded.kind, loaded.problem, loaded.source, loaded.shape)))
    for filled_in, constructed in pairs:
        assert type(filled_in) is type(constructed)
        assert list(vars(filled_in).items()) == list(vars(constructed).items())
        assert repr(filled_in) == repr(constructed)
        if type(filled_in) is not Loaded:  # (compared by identity)
            assert filled_in == constructed
    assert hash(diagnosis) == hash(made)
