"""The planted-mistake benchmark (tests/benchmarks/bench_planted.py) on a few seeds: its kinds
are written apart from the course, every planted answer is a wrong answer the grader does not
mark right, and the shares it reports are computed as its docstring says (a hand-checked
case)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import grading
from grading.declared import course_kind_files, read_kind_file
from grading.spec import load_problem
from practice.generators import generate
from practice.kind_check import check_kind_file, registered
from tests.benchmarks import bench_planted as bench
from tests.benchmarks.planted.mistakes import PLANTED, RIGHT, params

BUILTIN = bench.KINDS.parents[2] / "declared" / "builtin" / "kinds"


def test_the_planted_kinds_are_written_apart_from_the_course_and_the_builtin_files():
    names = bench.kind_names()
    assert len(names) >= 6
    elsewhere = {path.stem for path in course_kind_files()} | {
        path.stem for path in BUILTIN.glob("*.yaml")
    }
    assert not set(names) & elsewhere
    assert {item.kind for item in PLANTED} == set(names) == set(RIGHT)
    for name in names:
        assert sum(item.kind == name for item in PLANTED) >= 4, name
    assert len({(item.kind, item.code) for item in PLANTED}) == len(PLANTED)


@pytest.mark.parametrize("name", bench.kind_names())
def test_every_planted_answer_is_wrong_and_not_marked_right(name):
    planted = [item for item in PLANTED if item.kind == name]
    with registered(read_kind_file(bench.KINDS / f"{name}.yaml")) as kind:
        wrong = right_here = 0
        for level in kind.source.levels:
            for seed in range(3):
                spec = generate(name, seed=seed, level=level)
                p = params(spec)
                right = grading.expected_answer(spec)
                # the planted code's own right answer is the engine's
                assert bench.same(RIGHT[name](p), right), spec
                shape = load_problem(spec).shape
                assert grading.grade(spec, bench.typed(RIGHT[name](p), shape)).status == (
                    grading.Status.CORRECT
                )
                for item in planted:
                    for value, names in item.cases(p):
                        assert names, item.code
                        if bench.same(value, right):
                            right_here += 1
                            continue
                        wrong += 1
                        verdict = grading.grade(spec, bench.typed(value, shape))
                        assert verdict.status == grading.Status.INCORRECT, (item.code, spec)
        # a planted answer is right on its problem only by a rare coincidence
        assert right_here <= wrong // 10, (right_here, wrong)


def test_the_outcome_of_a_graded_answer_is_classified_as_documented():
    name = "ema_update"
    with registered(read_kind_file(bench.KINDS / f"{name}.yaml")):
        spec = generate(name, seed=1, level=1)
        p = params(spec)
        shape = load_problem(spec).shape
        swapped = (1 - p["beta"]) * p["m"] + p["beta"] * p["g"]
        mine = frozenset({("swapped_parameters", (1, 2))})

        def got(value_or_text, names=mine):
            text = (
                value_or_text
                if isinstance(value_or_text, str)
                else bench.typed(value_or_text, shape)
            )
            return bench.outcome(grading.grade(spec, text), names)

        assert got(swapped) == "named"
        assert got(swapped, frozenset({("swapped_parameters", (0, 2))})) == "wrong_name"
        assert got(RIGHT[name](p)) == "marked_right"
        assert got("[1,") == "invalid"
        assert got(RIGHT[name](p) + Fraction(1, 997)) == "unnamed"


def test_the_shares_are_computed_as_documented_on_a_hand_checked_case():
    tally = bench.Tally()
    tally.outcomes.update(named=9, wrong_name=1, unnamed=2)
    tally.strays, tally.stray_wrong_names, tally.right_here = 8, 1, 5
    assert tally.planted == 12  # right_here is no wrong answer and is left out
    assert tally.named_share() == 9 / 12
    assert tally.wrong_name_share() == (1 + 1) / (12 + 8)
    other = bench.Tally()
    other.outcomes.update(named=3, marked_right=1)
    other.times = [2.0]
    tally.add(other)
    assert tally.planted == 16 and tally.named_share() == 12 / 16
    assert tally.wrong_name_share() == 2 / 24
    # 75% named and 8.3% wrong names meet neither goal; the goals' bounds are included
    assert bench.goals(tally.named_share(), tally.wrong_name_share(), 2.5) == (False,) * 3
    assert bench.goals(0.9, 0.02, 2.0) == (True,) * 3
    assert bench.goals(0.899, 0.021, 2.01) == (False,) * 3
    assert [bench.met(ok) for ok in (True, False)] == ["met", "NOT met"]


def test_a_small_run_counts_every_planted_answer_once():
    name = "residual_entry"
    with registered(read_kind_file(bench.KINDS / f"{name}.yaml")) as kind:
        tallies = bench.run_kind(name, seeds=2, first_seed=0)
        cases = right_here = 0
        for level in kind.source.levels:
            for seed in range(2):
                spec = generate(name, seed=seed, level=level)
                p, right = params(spec), grading.expected_answer(spec)
                for item in (item for item in PLANTED if item.kind == name):
                    for value, _names in item.cases(p):
                        same = bench.same(value, right)
                        cases += not same
                        right_here += same
    total = bench.Tally()
    for tally in tallies.values():
        total.add(tally)
    assert total.planted == cases and total.right_here == right_here
    assert len(total.times) == cases
    assert total.strays == 2 * 2 * len(kind.source.levels)


@pytest.mark.parametrize("name", bench.kind_names())
def test_each_planted_kind_passes_the_authors_check(name):
    report = check_kind_file(bench.KINDS / f"{name}.yaml", seeds=4)
    assert report.answers_graded > 0 and report.mistakes
