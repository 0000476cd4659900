"""A declared kind goes the built-in kinds' way through practice and review: a wrong answer
submitted is diagnosed and recorded, its review item opens a variant aimed at the mistake, and
the variant's own mistaken answer is named again."""

import uuid

import time_machine

import grading
from grading.kinds import ProblemKind, Status
from practice.generators import generate
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from practice.services import attempt_submit

from .conftest import NOW, make_problem

KIND = "scaled_dot_score"


def mistaken(spec: dict, code: str) -> str:
    loaded = grading.spec.load_problem(spec)
    (value, *_) = [v for d, v in grading.mistaken_answers(spec) if d.mistake == code]
    return loaded.shape.typed(value)


def test_a_declared_kinds_mistake_is_recorded_and_reviewed_with_a_variant_aimed_at_it(copy):
    spec = generate(KIND, seed=3, level=2)
    problem = make_problem(copy, kind=ProblemKind(KIND), spec=spec)
    with time_machine.travel(NOW, tick=False):
        attempt = attempt_submit(
            copy=copy, problem=problem, text=mistaken(spec, "forgot_sqrt"), token=uuid.uuid4()
        )
    assert attempt.status == Status.INCORRECT
    assert attempt.mistake == "forgot_sqrt"
    assert "square root" in attempt.verdict["explanation"]
    item = ReviewItem.objects.get(copy=copy, kind=KIND)
    assert item.mistake == "forgot_sqrt"
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
        assert variant.kind == KIND
        assert variant.spec["generator"]["target"] == "forgot_sqrt"
        assert variant.spec["params"] != spec["params"]
        again = attempt_submit(
            copy=copy,
            problem=variant,
            text=mistaken(variant.spec, "forgot_sqrt"),
            token=uuid.uuid4(),
        )
    assert again.mistake == "forgot_sqrt"
