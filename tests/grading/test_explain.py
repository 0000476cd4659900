from grading import MistakeCode
from grading.explain import no_mistake_explains
from grading.shapes import Vector
from grading.spec import load_problem

from .conftest import seed_weighted_sum

M = MistakeCode


def test_coordinate_offsets_say_which_and_by_how_much():
    from fractions import Fraction as F

    text = no_mistake_explains(load_problem(seed_weighted_sum()), (F(1), F(1)), (F(1, 2), F(1)))
    assert text.startswith("No common mistake explains this answer:")
    assert Vector(2).differences((F(1), F(1)), (F(1, 2), F(1))) == (0,)
    assert "the first coordinate is off by $+\\frac{1}{2}$" in text
    assert "second" not in text
