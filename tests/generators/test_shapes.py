"""The generator base works for every answer shape: a toy kind whose answer is a sequence of
integers (the UTF-8 bytes of a word) is drawn, checked for diagnosability by exact keys, and
targeted, with no vector in sight."""

import pytest

from grading import Diagnosis, Status, grade, mistaken_answers
from grading.kinds.base import REGISTRY as KIND_REGISTRY
from grading.kinds.base import register
from grading.shapes import Choice, IntegerSequence
from practice.generators import GENERATORS, generate, render_statement, render_svg
from practice.generators.base import REGISTRY, Draw, ProblemGenerator, exact_ambiguities
from tests.grading.toy_kinds import ToyBytes

WORDS = ["bank", "héllo", "naïve", "zoo", "café", "über", "aa"]


@pytest.fixture
def toy_generator():
    register(ToyBytes)

    class ToyBytesGenerator(ProblemGenerator):
        kind = "toy_bytes"
        name = "toy_bytes"
        version = 1
        number = 99
        levels = (1, 2)

        def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
            return {"word": draw.choice(WORDS)}

        def statement(self, spec: dict) -> str:
            return f"**Write** the UTF-8 bytes of *{spec['word']}*."

        def picture(self, spec: dict, answer=None) -> str | None:  # no `solution`: allowed
            shown = "" if answer is None else " ".join(map(str, answer))
            return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{shown}</text></svg>'

    yield REGISTRY["toy_bytes"]
    REGISTRY.pop("toy_bytes", None)
    KIND_REGISTRY.pop("toy_bytes", None)


def test_defining_a_generator_registers_it(toy_generator):
    assert GENERATORS["toy_bytes"] is toy_generator
    assert toy_generator.mistakes == ("code_points", "dropped_byte")


def test_a_picture_taking_spec_and_answer_only_is_drawn(toy_generator):
    spec = {"kind": "toy_bytes", "word": "bank"}
    assert render_svg(spec) == '<svg xmlns="http://www.w3.org/2000/svg"><text></text></svg>'
    assert "98 97" in render_svg(spec, answer=(98, 97))
    assert render_statement(spec) == "**Write** the UTF-8 bytes of *bank*."


def test_a_non_vector_kind_is_generated_diagnosable_and_reproducible(toy_generator):
    for seed in range(20):
        spec = generate("toy_bytes", seed=seed, level=1)
        assert spec == generate("toy_bytes", seed=seed, level=1)
        # dropping a byte of "aa" gives "a" twice, and a word of ASCII gives its code points:
        # neither is diagnosable, so neither is drawn
        assert spec["word"] not in ("aa", "bank", "zoo")
        for diagnosis, value in mistaken_answers(spec):
            text = " ".join(str(b) for b in value)
            assert grade(spec, text).diagnosis == diagnosis


def test_a_target_seeds_its_own_stream_and_shows(toy_generator):
    plain = generate("toy_bytes", seed=3, level=1)
    targeted = generate("toy_bytes", seed=3, level=1, target="code_points")
    assert targeted["generator"]["target"] == "code_points"
    assert grade(targeted, str(list(targeted["word"].encode()))).status == Status.CORRECT
    assert plain["generator"]["target"] is None
    with pytest.raises(ValueError, match="not a mistake of toy_bytes"):
        generate("toy_bytes", seed=3, level=1, target="omitted_term")


def test_exact_ambiguities_group_by_the_shape_s_key():
    a, b = Diagnosis("a"), Diagnosis("b")
    shape = IntegerSequence(4)
    assert exact_ambiguities(shape, (1, 2), [(a, (1,)), (b, (2,))]) == []
    assert exact_ambiguities(shape, (1, 2), [(a, (1, 2))])
    choice = Choice(["x", "y"])
    problems = exact_ambiguities(choice, "x", [(a, "y"), (b, "y")])
    assert problems and "give the same answer" in problems[0]


def test_two_generators_may_not_share_a_kind_or_a_number(toy_generator):
    with pytest.raises(TypeError, match="two generators"):
        type("Again", (ProblemGenerator,), {"kind": "toy_bytes", "number": 98, **_methods()})
    with pytest.raises(TypeError, match="number 2 is weighted_sum's"):
        type("Clash", (ProblemGenerator,), {"kind": "toy_clash", "number": 2, **_methods()})
    assert "toy_clash" not in REGISTRY


def _methods() -> dict:
    return {
        "name": "x",
        "version": 1,
        "draw_fields": lambda self, draw, level, target: {},
        "statement": lambda self, spec: "",
    }
