"""The shared checks of `checks.py` and `page_pieces.py`, run on the kinds of the registry they
fit; each test's id names its kind (`test_statements_render[two_layers]`), so a failure does
too. A kind's own tests (its oracle, its page example, its malformed specs, its picture's
details) stay in `tests/kinds/test_<kind>.py`.

Every kind's own answer and catalogued mistakes are also graded, in one typed form, by
`tests/generators/test_questions.py`; the checks here add every accepted form of typing it.
"""

import os
from collections.abc import Callable
from typing import Any

import pytest

from practice.generators import GENERATORS, generate, render_svg

from .checks import (
    check_every_mistake_is_itself,
    check_explanations_render,
    check_own_answer_in_every_form,
    check_pictures,
    check_statements_render,
    check_targets,
)
from .page_pieces import LEVELS, integer_forms, merge_forms, piece_forms, question_test, target_test

SEEDS = int(os.environ.get("QUESTION_SEEDS", "30"))
KINDS = sorted(GENERATORS)

# Kinds whose answers have more than one accepted form (pieces, integers, ratios and tuples of
# them), each of which `tests.answers.typed_forms` writes; the vector, choice and
# integer-sequence kinds are not among them (the first four kinds' tests cover theirs).
TYPED_IN_EVERY_FORM = (
    "attention_cost",
    "char_vs_word_unknowns",
    "digit_chunks",
    "greedy_loop",
    "greedy_steps",
    "letters_in_pieces",
    "sequence_lengths",
    "whitespace_pieces",
)

# The kinds of *Why Words Become Pieces*, each with the ways of typing its answer.
PAGE_FORMS: dict[str, Callable[[Any], list[str]]] = {
    "bpe_apply": piece_forms,
    "bpe_train": merge_forms,
    "utf8_bytes": integer_forms,
    "word_ids": integer_forms,
}

# A targeted contrast may forget the weight of a term both sentences share, which changes
# nothing; `tests/generators/test_targets.py` checks its targets with that allowed.
TARGETS_MAY_CHANGE_NOTHING = {"contrast"}

# Kinds that draw every problem (`check_pictures` looks at three seeds a level); the vector
# kinds draw only the problems whose rows fit a plane.
DRAWN = [
    k
    for k in KINDS
    if all(render_svg(generate(k, seed=s, level=n)) for n in GENERATORS[k].levels for s in range(3))
]


@pytest.mark.parametrize("kind", TYPED_IN_EVERY_FORM)
def test_own_answer_is_correct_in_every_form(kind):
    check_own_answer_in_every_form(kind, SEEDS)


@pytest.mark.parametrize("kind", TYPED_IN_EVERY_FORM)
def test_every_mistake_is_diagnosed_as_itself(kind):
    check_every_mistake_is_itself(kind, SEEDS)


@pytest.mark.parametrize("kind", TYPED_IN_EVERY_FORM)
def test_explanations_and_hint_render(kind):
    check_explanations_render(kind)


@pytest.mark.parametrize(("kind", "level"), [(k, level) for k in PAGE_FORMS for level in LEVELS])
def test_page_kinds_own_answer_and_every_mistake_in_their_forms(kind, level):
    question_test(kind, level, PAGE_FORMS[kind])


@pytest.mark.parametrize("kind", sorted(PAGE_FORMS))
def test_page_kinds_targets_show_their_mistake_in_their_forms(kind):
    target_test(kind, PAGE_FORMS[kind])


@pytest.mark.parametrize("kind", [k for k in KINDS if k not in TARGETS_MAY_CHANGE_NOTHING])
def test_targets_show_their_mistake(kind):
    check_targets(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_statements_render(kind):
    check_statements_render(kind)


@pytest.mark.parametrize("kind", DRAWN)
def test_pictures_parse(kind):
    check_pictures(kind)


def test_the_tables_name_only_registered_kinds():
    # A kind renamed in the registry must not drop out of its checks unnoticed.
    assert set(TYPED_IN_EVERY_FORM) | set(PAGE_FORMS) | TARGETS_MAY_CHANGE_NOTHING <= set(KINDS)
