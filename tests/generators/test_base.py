from fractions import Fraction

import pytest

from practice.generators.base import (
    Draw,
    ambiguities,
    composition,
    distinct_rows,
    frac_str,
)


def test_draw_stream_is_pinned():
    # The raw PCG64 stream behind every generator: a change here changes every problem.
    draw = Draw([1, 2, 3])
    assert [draw.below(1000) for _ in range(6)] == [616, 483, 571, 86, 63, 280]


def test_same_entropy_same_draws_and_different_entropy_different_draws():
    first = [Draw([5, 1]).below(10**9) for _ in range(3)]
    assert first == [Draw([5, 1]).below(10**9) for _ in range(3)]
    assert Draw([5, 1]).below(10**9) != Draw([5, 2]).below(10**9)


def test_below_covers_its_range_and_refuses_empty_ranges():
    draw = Draw([0])
    seen = {draw.below(3) for _ in range(200)}
    assert seen == {0, 1, 2}
    with pytest.raises(ValueError):
        draw.below(0)


def test_sample_returns_distinct_items_and_refuses_too_many():
    draw = Draw([9])
    picked = draw.sample(range(10), 4)
    assert len(set(picked)) == 4 and set(picked) <= set(range(10))
    with pytest.raises(ValueError):
        draw.sample([1, 2], 3)


def test_composition_gives_positive_parts_with_the_right_total():
    draw = Draw([4])
    for _ in range(100):
        parts = composition(draw, 8, 5)
        assert len(parts) == 5 and sum(parts) == 8 and min(parts) >= 1


def test_distinct_rows_are_nonzero_different_and_in_range():
    rows = distinct_rows(Draw([2]), 6, 2, -1, 2)
    assert len(set(rows)) == 6
    assert all(any(row) and all(-1 <= x <= 2 for x in row) for row in rows)


def test_frac_str_writes_spec_numbers():
    assert frac_str(Fraction(2, 4)) == "1/2"
    assert frac_str(Fraction(-3)) == "-3"
    assert frac_str(0) == "0"


class FakeDiagnosis:
    def __init__(self, mistake, terms=(), coordinate=None):
        self.mistake, self.terms, self.coordinate = mistake, terms, coordinate


def test_ambiguities_flags_a_mistake_that_gives_the_right_answer():
    right = (Fraction(1, 2), Fraction(1))
    mistaken = [(FakeDiagnosis("omitted_term", (0,)), (Fraction(1, 2), Fraction(1)))]
    assert ambiguities(right, mistaken, separation=1e-9)


def test_ambiguities_flags_two_diagnoses_with_one_answer_but_not_one_diagnosis_twice():
    right = (Fraction(0), Fraction(0))
    same = (Fraction(1), Fraction(1))
    two = [(FakeDiagnosis("omitted_term", (0,)), same), (FakeDiagnosis("wrong_row", (1,)), same)]
    assert ambiguities(right, two, separation=1e-9)
    twice = [
        (FakeDiagnosis("wrong_weight", (0,)), same),
        (FakeDiagnosis("wrong_weight", (0,)), same),
    ]
    assert ambiguities(right, twice, separation=1e-9) == []


def test_ambiguities_uses_the_separation_for_near_answers():
    right = (0.0, 0.0)
    mistaken = [
        (FakeDiagnosis("raw_scores"), (0.01, 0.0)),
        (FakeDiagnosis("positional_weights"), (1.0, 0.0)),
    ]
    assert ambiguities(right, mistaken, separation=0.05)
    assert ambiguities(right, mistaken, separation=0.001) == []


def test_every_kind_and_mistake_has_a_stable_number():
    import grading
    from practice.generators import GENERATORS

    # the four first kinds keep their seed entropy: kinds 1-4, mistakes 1-16
    assert {k: g.number for k, g in GENERATORS.items() if g.number <= 4} == {
        "lookup": 1,
        "weighted_sum": 2,
        "contrast": 3,
        "content_weights": 4,
    }
    assert len({g.number for g in GENERATORS.values()}) == len(GENERATORS)
    for name, kind in grading.KINDS.items():
        numbers = [m.number for m in kind.mistakes]
        assert len(set(numbers)) == len(numbers), name
    assert grading.kind("weighted_sum").mistake("omitted_term").number == 1
    assert grading.kind("content_weights").mistake("raw_scores").number == 16
