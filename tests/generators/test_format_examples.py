"""A statement's format example is never an answer: over many seeds of every kind and level,
each example it shows ("for example `...`", "such as `...`") graded against that very problem
is neither correct nor diagnosed as a catalogued mistake.

``EXAMPLE_SEEDS=200 pytest tests/generators/test_format_examples.py`` runs more seeds.
"""

import os
import re

import pytest

import grading
from grading.kinds import Status
from practice.generators import GENERATORS, generate, render_statement
from practice.generators.statement import NO_EXAMPLE, format_example

SEEDS = int(os.environ.get("EXAMPLE_SEEDS", "60"))
# Symbolic marking (exp, sqrt) costs tens of milliseconds an answer.
SYMBOLIC_SEEDS = int(os.environ.get("EXAMPLE_SEEDS", "20"))
SYMBOLIC_KINDS = {"content_weights", "repetition_penalty"}
CASES = [(kind, level) for kind, generator in GENERATORS.items() for level in generator.levels]

# An example is a code span right after "for example" or "such as" (the statements' wording).
EXAMPLE = re.compile(r"(?:for example|such as|e\.g\.),? (`+)(.+?)\1")


def format_examples(statement: str) -> list[str]:
    """Return the text of every format example a statement shows."""
    return [match.group(2).strip() for match in EXAMPLE.finditer(statement)]


def test_format_examples_are_found_in_a_statement():
    text = "Answer with the word, for example `sell`, or a decimal such as ``2.5``."
    assert format_examples(text) == ["sell", "2.5"]


def test_when_every_candidate_gives_something_away_an_ellipsis_stands_in():
    spec = generate("lookup", seed=2, level=1)
    right = "[" + ", ".join(str(x) for x in grading.expected_answer(spec)) + "]"
    assert format_example(spec, [right]) == NO_EXAMPLE
    assert format_example(spec, [right, "[1, 2, 3]"]) == "[1, 2, 3]"


def test_every_statement_shows_a_format_example():
    for kind, generator in GENERATORS.items():
        spec = generate(kind, seed=0, level=generator.levels[0])
        assert format_examples(render_statement(spec)), kind


@pytest.mark.parametrize(("kind", "level"), CASES)
def test_a_format_example_is_neither_the_answer_nor_a_catalogued_mistake(kind, level):
    seeds = SYMBOLIC_SEEDS if kind in SYMBOLIC_KINDS else SEEDS
    for seed in range(seeds):
        spec = generate(kind, seed=seed, level=level)
        for example in format_examples(render_statement(spec)):
            assert example != NO_EXAMPLE, (seed, "every candidate gave something away")
            verdict = grading.grade(spec, example)
            assert verdict.status != Status.CORRECT, (seed, example)
            assert verdict.diagnosis is None, (seed, example, verdict.diagnosis)
