"""The answer box's help (grading.answer_help): one sentence per problem, from its shape and
kind, whose examples are never the problem's answer nor a catalogued mistake's; and reasons an
answer could not be read, written as sentences."""

import re

import pytest

import grading
from grading.answer_help import gives_nothing_away
from grading.errors import as_sentence
from grading.kinds import Status
from practice.generators import GENERATORS, generate

CASES = [(kind, level) for kind, generator in GENERATORS.items() for level in generator.levels]
EXAMPLE = re.compile(r", such as (.+?)(?:; or |\.$)")


@pytest.mark.parametrize(("kind", "level"), CASES)
def test_help_is_a_sentence_whose_examples_give_nothing_away(kind, level):
    for seed in range(8):
        spec = generate(kind, seed=seed, level=level)
        text = grading.answer_help(spec)
        assert text[0].isupper() and text.endswith("."), text
        examples = EXAMPLE.findall(text)
        # a choice lists its options instead; static_vs_contextual shows no pair (its first
        # vector would give the lookup difference away or show a nonzero one)
        if kind not in ("nearest_by_cosine", "static_vs_contextual"):
            assert examples, text
        for example in examples:
            verdict = grading.grade(spec, example)
            assert verdict.status != Status.CORRECT, (seed, example)
            assert verdict.diagnosis is None, (seed, example, verdict.diagnosis)


def test_a_vector_kind_never_speaks_of_pieces_and_a_piece_kind_never_of_vectors():
    vector = grading.answer_help(generate("weighted_sum", seed=3, level=2))
    pieces = grading.answer_help(generate("bpe_apply", seed=3, level=2))
    assert "vector with 2 coordinates" in vector and "sum written out" in vector
    assert "pieces" in pieces and "vector" not in pieces


def test_an_example_that_is_the_answer_gives_something_away():
    spec = generate("lookup", seed=5, level=1)
    right = "[" + ", ".join(str(x) for x in grading.expected_answer(spec)) + "]"
    assert not gives_nothing_away(spec, right)
    assert gives_nothing_away(spec, "[1, 2, 3, 4, 5]")


def test_a_malformed_spec_is_refused_naming_the_field():
    with pytest.raises(grading.SpecError):
        grading.answer_help({"kind": "lookup"})


def test_reasons_are_sentences():
    assert as_sentence("the answer has 1 part; type 2") == "The answer has 1 part; type 2."
    done = "'x' is not one of the options: a, b."
    assert as_sentence(done) == done
    assert as_sentence("") == ""


def test_an_unreadable_answer_is_told_in_a_sentence():
    spec = generate("greedy_loop", seed=0, level=1)
    verdict = grading.grade(spec, "one part only")
    assert verdict.status == Status.INVALID
    assert verdict.message.startswith("The answer has 1 part;")
    assert verdict.message.endswith(".")
