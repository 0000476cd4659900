"""Every number a learner reads after *position*, *step*, *piece* or *merge* counts something on
the problem, as the kind declares it (`Kind.numbering`): in statements, in the explanation of
each catalogued mistake's wrong answer and in worked solutions, on generated problems of every
kind and level. The first is 1 (0 only where a kind declares its sentence positions from 0, as
the vector kinds' subscripts), none is below the first and none past the last. The kinds come
from the registry, so a new kind is checked without a line here; a kind that writes one of
these words with a number and declares no numbering for it fails."""

import re

import pytest

import grading
from grading.explain import explain
from grading.kinds.base import NUMBERED_WORDS, Numbered
from grading.solution import solution
from grading.spec import load_problem
from practice.generators import GENERATORS, generate

KINDS = sorted(grading.KINDS)
SEEDS = range(40)
# "position 3", "Step $2$", "positions 3–4", "positions 0, 2 and 3", "positions 0 to 2".
_NUMBER = r"\$?(\d+)\$?"
_MORE = r"(?:\s*(?:,|–|-|to|and|or|, and)\s*\$?\d+\$?)*"
NUMBERED = re.compile(
    rf"\b({'|'.join(NUMBERED_WORDS)})s?\s+({_NUMBER}{_MORE})",
    re.IGNORECASE,
)


def numbered(text: str) -> list[tuple[str, int, str]]:
    """Return each (word, number, the words around it) the text numbers."""
    found = []
    for match in NUMBERED.finditer(text):
        around = text[max(0, match.start() - 30) : match.end() + 30]
        for number in re.findall(r"\d+", match.group(2)):
            found.append((match.group(1).lower(), int(number), around))
    return found


def texts(name: str, spec: dict) -> dict[str, str]:
    """Return what a learner reads of a problem: statement, explanations, worked solution."""
    loaded = load_problem(spec)
    return {
        "statement": GENERATORS[name].statement(spec),
        "explanation": "\n".join(
            explain(loaded, diagnosis) for diagnosis, _ in grading.mistaken_answers(spec)
        ),
        "worked solution": solution(spec).markdown(),
    }


def test_numbers_are_read_with_their_lists_and_ranges():
    text = "At position 1 you gave 4; positions 3–4 are one letter; steps 2, 5 and $7$; merge 10."
    assert [(w, n) for w, n, _ in numbered(text)] == [
        ("position", 1),
        ("position", 3),
        ("position", 4),
        ("step", 2),
        ("step", 5),
        ("step", 7),
        ("merge", 10),
    ]
    assert numbered("the position of a word, step $t-1$, the pieces are") == []


def test_a_numbering_counts_from_its_first():
    five = Numbered(count=lambda problem: 5)
    assert list(five.numbers(None)) == [1, 2, 3, 4, 5]
    assert list(Numbered(count=lambda problem: 3, first=0).numbers(None)) == [0, 1, 2]


def test_a_kind_numbering_an_unknown_word_is_refused():
    from grading.kinds.base import Kind, register

    class Counts(Kind):
        name = "numbering_check"
        label = "Counts"
        numbering = {"row": Numbered(count=lambda problem: 2)}

        def load(self, spec):
            return spec

        def shape(self, problem):
            raise NotImplementedError

        def right(self, problem):
            raise NotImplementedError

    with pytest.raises(TypeError, match="numbering names \\['row'\\]"):
        register(Counts)
    assert "numbering_check" not in grading.KINDS


@pytest.mark.parametrize("name", KINDS)
def test_every_position_step_piece_and_merge_a_learner_reads_is_on_the_problem(name):
    kind = grading.kind(name)
    for word, numbering in kind.numbering.items():
        assert word in NUMBERED_WORDS and numbering.first in (0, 1), (name, word)
        # Steps, pieces and merges are told in words only, and words count from 1.
        assert numbering.first == 1 or word == "position", (name, word)
    seen: set[str] = set()
    for level in GENERATORS[name].levels:
        for seed in SEEDS:
            spec = generate(name, seed=seed, level=level)
            problem = load_problem(spec).problem
            for where, text in texts(name, spec).items():
                for word, number, around in numbered(text):
                    assert word in kind.numbering, (
                        f"{name} writes {word!r} with a number in its {where} but declares no "
                        f"numbering of it (Kind.numbering): {around!r}"
                    )
                    allowed = kind.numbering[word].numbers(problem)
                    assert number in allowed, (
                        f"{name} level {level} seed {seed}, {where}: {word} {number} is not "
                        f"one of {allowed.start}..{allowed.stop - 1}: {around!r}"
                    )
                    seen.add(word)
    # Each declared word is used somewhere, so a declaration cannot outlive its text.
    assert seen == set(kind.numbering), (name, seen)
