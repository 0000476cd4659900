"""Every kind's worked solution, on generated problems of every level: the last step arrives
at the graded right answer, each step is typeset without an error, and the steps use the
problem's own numbers (different problems are not all worked the same way)."""

import json

import pytest

import grading
from courses.mathml import render_markdown
from grading.solution import NoSolutionError, Solution, solution
from grading.spec import load_problem
from practice.generators import GENERATORS, generate

KINDS = sorted(grading.KINDS)
SEEDS = range(40)
GRADED_SEEDS = 4
META = {"generator", "level"}  # the real grader on the first seeds of each level (SymPy is slow)


@pytest.mark.parametrize("name", KINDS)
def test_the_last_step_is_the_graded_right_answer(name):
    for level in GENERATORS[name].levels:
        seen: dict[str, int] = {}
        problems: set[str] = set()
        for seed in SEEDS:
            spec = generate(name, seed=seed, level=level)
            worked = solution(spec)
            loaded = load_problem(spec)
            right = loaded.kind.right(loaded.problem)
            assert loaded.shape.equal(worked.steps[-1].value, right), (level, seed)
            if seed < GRADED_SEEDS:
                typed = loaded.shape.typed(worked.steps[-1].value)
                verdict = grading.grade(spec, typed)
                assert verdict.status == grading.Status.CORRECT, (level, seed, typed)
                html = render_markdown(worked.markdown())
                assert "tex-error" not in html, (level, seed, worked.markdown())
                assert "None" not in worked.markdown()
            seen.setdefault(worked.markdown(), seed)
            problems.add(json.dumps({k: v for k, v in spec.items() if k not in META}))
        # The steps carry the problem's own numbers: different problems are not all worked
        # the same way (two may be, when they differ only in what the solution never reads).
        assert len(problems) > 1 and len(seen) > 1, (name, level, len(seen), len(problems))


@pytest.mark.parametrize("name", KINDS)
def test_every_step_says_something(name):
    spec = generate(name, seed=7, level=GENERATORS[name].levels[0])
    worked = solution(spec)
    assert isinstance(worked, Solution)
    assert len(worked.steps) >= 2
    assert all(step.text.strip() for step in worked.steps)
    assert worked.markdown().startswith("1. ")


def test_a_kind_without_steps_is_refused(monkeypatch):
    spec = generate("lookup", seed=3, level=1)
    monkeypatch.setattr(type(grading.kind("lookup")), "steps", lambda self, problem: ())
    with pytest.raises(NoSolutionError, match="no worked solution"):
        solution(spec)


def test_a_last_step_that_disagrees_with_the_answer_is_refused(monkeypatch):
    spec = generate("lookup", seed=3, level=1)
    kind = grading.kind("lookup")
    good = kind.steps(load_problem(spec).problem)
    off_by_one = tuple(x + 1 for x in good[-1].value)
    wrong = (*good[:-1], type(good[-1])(text=good[-1].text, value=off_by_one))
    right = kind.right(load_problem(spec).problem)
    assert wrong[-1].value != right
    monkeypatch.setattr(type(kind), "steps", lambda self, problem: wrong)
    with pytest.raises(NoSolutionError, match="not the answer"):
        solution(spec)
