import random
from fractions import Fraction

import pytest
import sympy

from grading import (
    KINDS,
    MISTAKES_BY_KIND,
    Diagnosis,
    MistakeCode,
    apply_mistake,
    expected_answer,
    grade,
    mistaken_answers,
)
from grading.kinds.base import SOLVE_BOUND
from grading.mistakes import expected_cached, mistake_index, mistaken, solve_matches, solved_matches
from grading.spec import load_problem

from .conftest import content_spec, contrast_spec, lookup_spec, seed_weighted_sum, three_terms

R = sympy.Rational


def test_catalog_covers_every_code_of_every_kind_and_nothing_else():
    listed = {code for codes in MISTAKES_BY_KIND.values() for code in codes}
    catalogued = {m.code for kind in KINDS.values() for m in kind.mistakes}
    assert listed == catalogued == set(MistakeCode)
    for kind, codes in MISTAKES_BY_KIND.items():
        assert codes == KINDS[kind].codes
        assert all(KINDS[kind].mistake(code).code == code for code in codes)


def test_expected_answer_of_the_seed_sentences():
    assert expected_answer(seed_weighted_sum()) == (R(1, 2), 1)
    assert expected_answer(contrast_spec()) == (0, R(1, 2))
    assert expected_answer(lookup_spec()) == (1, 0)


def test_apply_mistake_matches_the_enumeration():
    for spec in (three_terms(), lookup_spec(), contrast_spec(), content_spec()):
        for diagnosis, vector in mistaken_answers(spec):
            assert apply_mistake(spec, diagnosis) == vector


@pytest.mark.parametrize(
    "diagnosis",
    [
        Diagnosis(MistakeCode.OMITTED_TERM, (5,)),
        Diagnosis(MistakeCode.ROW_BY_POSITION),
    ],
)
def test_apply_mistake_refuses_a_diagnosis_that_does_not_fit(diagnosis):
    with pytest.raises(ValueError):
        apply_mistake(seed_weighted_sum(), diagnosis)


@pytest.mark.parametrize(
    "spec", [seed_weighted_sum(), three_terms(), lookup_spec(), contrast_spec()]
)
def test_mistake_index_finds_exactly_the_mistakes_listed_for_a_vector(spec):
    # given the index computed in integers, and the catalog listed in Fractions
    problem = load_problem(spec)
    index = mistake_index(problem)
    right = expected_cached(problem)
    listed: dict[tuple, list] = {}
    for diagnosis, vector in mistaken(problem):
        if vector != right:
            listed.setdefault(vector, []).append(diagnosis)
    # then each mistaken vector finds its diagnoses, in catalog order, and nothing else does
    for vector, diagnoses in listed.items():
        assert list(index.exact_matches(vector)) == diagnoses
    assert index.exact_matches(right) == ()
    assert index.exact_matches(tuple(x + Fraction(1, 7) for x in right)) == ()


_WEIGHTS = ["0", "1", "1/2", "1/3", "2/3", "1/4", "3/4", "-1/2", "2"]


def _random_rows(rng: random.Random, n: int, dim: int) -> list[list[str]]:
    return [[str(rng.randint(-2, 2)) for _ in range(dim)] for _ in range(n)]


def _random_spec(rng: random.Random) -> dict:
    """Return a small random problem of a kind whose mistakes solve (`MistakeDef.solve`):
    repeated weights, a weight of 1 or 0, repeated and zero rows all occur."""
    n, dim = rng.randint(1, 6), rng.randint(1, 4)
    weights = [rng.choice(_WEIGHTS) for _ in range(n)]
    kind = rng.choice(["weighted_sum", "contrast", "lookup"])
    if kind == "weighted_sum":
        return {
            "kind": kind,
            "tokens": [f"w{j}" for j in range(n)],
            "position": rng.randrange(n),
            "weights": weights,
            "rows": _random_rows(rng, n, dim),
        }
    if kind == "contrast":
        rows_a = _random_rows(rng, n, dim)
        rows_b = [
            row if rng.random() < 0.4 else rng.choice(rows_a) for row in _random_rows(rng, n, dim)
        ]
        return {
            "kind": kind,
            "position": rng.randrange(n),
            "weights": weights,
            "rows_a": rows_a,
            "rows_b": rows_b,
        }
    vocab = [f"w{j}" for j in range(n + 1)]
    tokens = [rng.choice(vocab) for _ in range(rng.randint(1, 5))]
    return {
        "kind": kind,
        "vocab": vocab,
        "table": _random_rows(rng, n + 1, dim),
        "tokens": tokens,
        "position": rng.randrange(len(tokens)),
    }


@pytest.mark.parametrize("seed", range(120))
def test_solving_the_forms_finds_what_the_index_finds(seed):
    # given a random problem (ties, zero weights and rows included)
    rng = random.Random(seed)
    problem = load_problem(_random_spec(rng))
    index = mistake_index(problem)
    right = expected_cached(problem)
    p = problem.problem
    rows = p.rows if hasattr(p, "rows") else getattr(p, "table", ()) + getattr(p, "rows_a", ())
    answers = {vector for _, vector in mistaken(problem)}
    answers |= {tuple(x + y for x, y in zip(right, row, strict=True)) for row in rows}
    answers |= {
        tuple(x - Fraction(1, 2) * y for x, y in zip(right, row, strict=True)) for row in rows
    }
    answers |= {right, tuple(x + Fraction(1, 7) for x in right)}
    # then every answer gets the same diagnoses, in the same order, from the forms solved
    found = 0
    for vector in answers:
        solved = solve_matches(problem, vector)
        assert solved is not None
        assert list(solved) == list(index.exact_matches(vector))
        found += bool(solved)
    assert solve_matches(problem, right) == ()
    assert found or not index.by_key


def test_only_kinds_whose_every_mistake_solves_are_solved():
    assert solve_matches(load_problem(seed_weighted_sum()), (Fraction(0), Fraction(0))) == ()
    assert solve_matches(load_problem(content_spec()), (Fraction(0), Fraction(0))) is None


def test_a_problems_first_answers_are_solved_and_later_ones_use_its_index():
    # given a problem new to the process and a mistaken answer to it
    problem = load_problem({**three_terms(), "note": "solved, then indexed"})
    diagnosis, vector = mistaken(problem)[0]
    # then the first answers are solved, and from the third on the index is asked
    assert solved_matches(problem, vector) == (diagnosis,)
    assert solved_matches(problem, vector) == (diagnosis,)
    assert solved_matches(problem, vector) is None
    assert mistake_index(problem).exact_matches(vector) == (diagnosis,)


@pytest.mark.parametrize("seed", range(60))
def test_weighted_sum_solved_in_one_pass_finds_what_the_index_finds(seed):
    # given weighted sums of every size, with weights and rows that tie, vanish, repeat,
    # are 0 or 1, or make a difference parallel to several rows at once
    rng = random.Random(1000 + seed)
    for _ in range(10):
        n, dim = rng.randint(1, 6), rng.randint(1, 4)
        pool = [*_WEIGHTS, "7/3", "-5/6", "12", "1/12"]
        rows = _random_rows(rng, n, dim)
        if rng.random() < 0.3 and n > 1:
            rows[-1] = [str(2 * int(x)) for x in rows[0]]  # a row parallel to another
        problem = load_problem(
            {
                "kind": "weighted_sum",
                "tokens": [f"w{j}" for j in range(n)],
                "position": rng.randrange(n),
                "weights": [rng.choice(pool) for _ in range(n)],
                "rows": rows,
            }
        )
        index = mistake_index(problem)
        right = expected_cached(problem)
        values = problem.problem.rows
        answers = {vector for _, vector in mistaken(problem)}
        for row in values:
            for other in values:
                for c in (Fraction(1), Fraction(-1, 3), Fraction(5, 2)):
                    answers.add(
                        tuple(r + c * (x - y) for r, x, y in zip(right, row, other, strict=True))
                    )
                    answers.add(tuple(r + c * x for r, x in zip(right, row, strict=True)))
        # then solving gives every answer the index's diagnoses, in the same order
        for vector in answers:
            assert list(solve_matches(problem, vector)) == list(index.exact_matches(vector))


def _ratio(rng: random.Random, size: int) -> str:
    top = rng.choice([rng.randint(-9, 9), rng.randint(-size, size)])
    return str(Fraction(top, rng.choice([1, rng.randint(1, 9), rng.randint(1, size)])))


@pytest.mark.parametrize("seed", range(40))
def test_solving_finds_what_the_index_finds_up_to_the_bound_and_past_it_is_not_tried(seed):
    # given weighted sums and contrasts whose numerators and denominators reach SOLVE_BOUND
    # (small and large mixed: 1/100 beside 100), or go far past it (1/1000000 beside 10^6/3,
    # where double rounding exceeds the float filters' tolerance and solving missed mistakes)
    rng = random.Random(5000 + seed)
    for size in (SOLVE_BOUND, 10**7):
        n, dim = rng.randint(2, 5), rng.randint(2, 4)
        weights = [_ratio(rng, size) for _ in range(n)]
        if rng.random() < 0.5:
            spec = {
                "kind": "weighted_sum",
                "tokens": [f"w{j}" for j in range(n)],
                "position": 0,
                "weights": weights,
                "rows": [[_ratio(rng, size) for _ in range(dim)] for _ in range(n)],
            }
        else:
            spec = {
                "kind": "contrast",
                "position": 0,
                "weights": weights,
                "rows_a": [[_ratio(rng, size) for _ in range(dim)] for _ in range(n)],
                "rows_b": [[_ratio(rng, size) for _ in range(dim)] for _ in range(n)],
            }
        problem = load_problem(spec)
        index = mistake_index(problem)
        solves = problem.kind.solves(problem.problem)
        assert solves or size > SOLVE_BOUND
        for _, vector in mistaken(problem):
            solved = solve_matches(problem, vector)
            if solves:
                # then within the bound solving finds what the index finds, in its order
                assert solved is not None
                assert list(solved) == list(index.exact_matches(vector))
            else:
                # past it the kind is not solved: its answers go to the index (exact)
                assert solved is None


def test_the_problem_that_solving_got_wrong_is_diagnosed_from_its_index():
    spec = {
        "kind": "weighted_sum",
        "tokens": ["a", "b", "c"],
        "position": 0,
        "weights": ["1000000/3", "1/1000000", "2/3"],
        "rows": [["1", "2"], ["3", "-1"], ["7/3", "5"]],
    }
    problem = load_problem(spec)
    variant = Diagnosis("wrong_row", (1,), detail={"row": 0})
    answer = apply_mistake(spec, variant)
    text = "[" + ", ".join(str(x) for x in answer) + "]"
    for _ in range(3):  # the first answers (solved before) and the later ones (indexed)
        verdict = grade(spec, text)
        assert verdict.diagnosis == variant, verdict
    assert not problem.kind.solves(problem.problem)
