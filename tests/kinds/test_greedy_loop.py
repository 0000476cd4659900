"""``greedy_loop``: where greedy decoding over the last two pieces loops; NumPy decodes as the
oracle and the loop is found by brute force over a long run."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grading
from grading.kinds import Status
from grading.solution import solution
from grading.spec import SpecError
from practice.generators import generate, render_statement, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def spec(**overrides) -> dict:
    """Prompt *home home*; greedy writes *time home one time one time ...*: *time* comes back
    at step 4, but the pair (one, time) only after step 6; the loop is *one time* from step 3."""
    data = {
        "kind": "greedy_loop",
        "pieces": ["one", "time", "home"],
        "prompt": ["home", "home"],
        "contexts": [
            ["one", "time"],
            ["time", "one"],
            ["time", "home"],
            ["home", "one"],
            ["home", "time"],
            ["home", "home"],
        ],
        "scores": [
            ["9", "7", "1"],
            ["0", "9", "7"],
            ["9", "0", "2"],
            ["4", "8", "3"],
            ["4", "6", "8"],
            ["2", "6", "3"],
        ],
    }
    data.update(overrides)
    return data


def numpy_decode(problem: dict, length: int) -> list[str]:
    """Return the prompt and `length` pieces decoded greedily with NumPy's argmax."""
    pieces = problem["pieces"]
    rows = {
        tuple(c): np.array([int(x) for x in row])
        for c, row in zip(problem["contexts"], problem["scores"], strict=True)
    }
    text = list(problem["prompt"])
    for _ in range(length):
        text.append(pieces[int(np.argmax(rows[(text[-2], text[-1])]))])
    return text


def numpy_loop(problem: dict, length: int = 80) -> tuple[tuple[str, ...], int]:
    """Decode `length` steps with NumPy, then find the smallest start and period by brute force."""
    text = numpy_decode(problem, length)
    y = [None, *text[2:]]  # y[t] is the piece written at step t
    for start in range(1, length // 2):
        for period in range(1, length // 4):
            if all(y[t] == y[t + period] for t in range(start, length - period + 1)):
                return tuple(y[start : start + period]), start
    raise AssertionError("no loop found")


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_right_answer_matches_numpy(level):
    for seed in range(30):
        problem = generate("greedy_loop", seed=seed, level=level)
        assert grading.expected_answer(problem) == numpy_loop(problem)
        assert len(problem["pieces"]) == {1: 3, 2: 4, 3: 5, 4: 6}[level]


def test_the_hand_built_problem_loops_from_step_3():
    assert grading.expected_answer(spec()) == (("one", "time"), 3) == numpy_loop(spec())


@pytest.mark.parametrize("typed", ["one time; 3", "one|time;3", '["one", "time"]; 3'])
def test_the_loop_and_its_step_are_right_in_every_form(typed):
    assert grading.grade(spec(), typed).status == Status.CORRECT


def test_stopping_at_the_first_repeated_piece_is_explained_with_the_pairs():
    verdict = grading.grade(spec(), "time home one; 1")

    assert verdict.diagnosis.mistake == "first_repeated_piece"
    assert verdict.explanation.startswith(
        "Step 4: *time* repeats the piece written at step 1, but the model reads the last two "
        "pieces, and they differ there: (*home*, *time*) after step 1, (*one*, *time*) after "
        "step 4."
    )
    assert "The first pair to come back is (*one*, *time*), after step 6" in verdict.explanation


def test_a_rotated_loop_is_named():
    verdict = grading.grade(spec(), "time one; 3")

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == ("loop_rotated", (0,))
    assert "lists them from its second piece, *time*" in verdict.explanation
    assert "at step 3 with *one*" in verdict.explanation


@pytest.mark.parametrize(("typed", "how"), [("one time; 2", "from 0"), ("one time; 4", "late")])
def test_an_off_by_one_step_is_named(typed, how):
    verdict = grading.grade(spec(), typed)

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == ("off_by_one_step", (1,))
    assert how in verdict.explanation


def test_a_missing_part_is_invalid_and_says_how_to_type_it():
    verdict = grading.grade(spec(), "one time")

    assert verdict.status == Status.INVALID
    assert "separated by ';'" in verdict.message


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"prompt": ["home"]}, "prompt"),
        ({"contexts": [["one", "time"], *spec()["contexts"][1:5], ["home", "dog"]]}, "contexts[5]"),
        ({"contexts": [["one", "time"], *spec()["contexts"][1:5], ["one", "time"]]}, "contexts[5]"),
        ({"contexts": spec()["contexts"][:5], "scores": spec()["scores"][:5]}, "contexts"),
        ({"scores": [["9", "9", "1"], *spec()["scores"][1:]]}, "scores[0]"),
    ],
)
def test_malformed_specs_are_refused_naming_the_field(overrides, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(spec(**overrides))
    assert error.value.field == field


def test_statement_has_the_pair_table_the_rule_and_the_answer_form():
    text = render_statement(spec())

    assert "| *home* *home* | 2 | 6 | 3 |" in text
    assert r"s(y_{t-2}\,y_{t-1}, v)" in text
    assert "a semicolon, and the step" in text


def test_fresh_picture_sketches_the_states_and_the_solution_is_the_state_graph():
    fresh = ET.fromstring(render_svg(spec()))
    sketched = [r.get("data-pair") for r in fresh.iter(f"{SVG}rect")]
    assert sketched == ["home home", "home y₁", "y₁ y₂"]  # no piece worked out
    assert not [g for g in fresh.iter(f"{SVG}g") if g.get("class") == "state"]

    solved = ET.fromstring(render_svg(spec(), answer=(("time", "home", "one"), 1)))
    states = [g.get("data-pair") for g in solved.iter(f"{SVG}g") if g.get("class") == "state"]
    assert states == ["home home", "home time", "time home", "home one", "one time", "time one"]
    loop_edges = [
        (line.get("data-step"), line.get("data-piece"))
        for line in solved.iter(f"{SVG}line")
        if line.get("data-role") == "loop"
    ]
    assert loop_edges == [("5", "one"), ("6", "time")]
    assert "Your answer: the loop time home one from step 1" in solved.find(f"{SVG}desc").text
    keys = [t.text for t in solved.iter(f"{SVG}text") if t.get("data-role") == "loop-key"]
    assert " ".join(keys) == (
        "purple: the cycle; its first state, one time, holds steps 3 and 4, so the text "
        "repeats one time from step 3"
    )


def test_the_state_graph_fits_a_phones_verdict_column():
    # The verdict's column on a 390 px phone is 312 px wide (measured in Chromium): the
    # lead-in runs down a column and the cycle sits under it, the key wrapped.
    for level in (1, 2, 3, 4):
        for seed in range(10):
            problem = generate("greedy_loop", seed=seed, level=level)
            for markup in [render_svg(problem), render_svg(problem, solution=True)] + [
                render_svg(problem, answer=value) for _, value in grading.mistaken_answers(problem)
            ]:
                assert float(ET.fromstring(markup).get("width")) <= 312, (level, seed)


def numpy_repeats_from(problem: dict, loop: tuple[str, ...], start: int, length: int = 80) -> bool:
    """Return True when, decoded with NumPy, the text from step `start` on is `loop` repeated."""
    text = numpy_decode(problem, length)
    y = text[2:]
    return all(y[t - 1] == loop[(t - start) % len(loop)] for t in range(start, length))


def test_a_loop_entered_one_step_late_is_named_with_its_step():
    # The text repeats *time one* from step 4 as well, but it loops from step 3.
    verdict = grading.grade(spec(), "time one; 4")

    assert (verdict.diagnosis.mistake, verdict.diagnosis.terms) == ("entered_loop_late", (0, 1))
    assert verdict.explanation.startswith("Step 4: you started the loop there, one step late.")
    assert "already from step 3" in verdict.explanation
    assert "(*one*, *time*), is complete after step 4" in verdict.explanation


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_one_step_late_is_diagnosed_on_every_problem_against_numpy(level):
    for seed in range(40):
        problem = generate("greedy_loop", seed=seed, level=level)
        loop, start = numpy_loop(problem)
        late = (loop[1:] + loop[:1], start + 1)
        # NumPy: the late answer describes the text from its step on, but not the first step.
        assert numpy_repeats_from(problem, *late)
        assert not numpy_repeats_from(problem, late[0], start)
        verdict = grading.grade(problem, f"{' '.join(late[0])}; {late[1]}")
        assert verdict.diagnosis.mistake == "entered_loop_late", (seed, verdict.explanation)
        assert f"Step {start + 1}:" in verdict.explanation


def numpy_reached_pairs(problem: dict, length: int = 80) -> set[tuple[str, str]]:
    """Return every pair of last pieces NumPy decoding passes through."""
    text = numpy_decode(problem, length)
    return {(text[k], text[k + 1]) for k in range(len(text) - 1)}


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_levels_keep_their_promises(level):
    """docs/kinds.md: levels 1-4 have 3, 4, 5, 6 pieces; only the pairs decoding reaches get a
    row, plus exactly one decoy pair it never reaches at levels 3-4; a lead-in of a step or
    more, a loop of 2-4 pieces and a piece that repeats before the state does."""
    for seed in range(300):
        problem = generate("greedy_loop", seed=seed, level=level)
        listed = {tuple(c) for c in problem["contexts"]}
        decoys = listed - numpy_reached_pairs(problem)
        assert len(decoys) == (1 if level >= 3 else 0), seed
        assert len(problem["pieces"]) == level + 2
        loop, start = numpy_loop(problem)
        assert start >= 2 and 2 <= len(loop) <= 4, seed
        written = [p for p in _written(problem)]
        assert len(set(written[: start - 1 + len(loop)])) < start - 1 + len(loop), seed


def _written(problem: dict, length: int = 40) -> list[str]:
    text = numpy_decode(problem, length)
    return text[2:]


# docs/kinds.md, greedy_loop's levels: the step by which the repeat begins.
REPEAT_BEGINS_BY = {1: 6, 2: 7, 3: 8, 4: 9}


def numpy_first_repeat(problem: dict, length: int = 40) -> int:
    """Return the step m at which NumPy decoding first meets a pair of last pieces it has seen
    (the pair after step 0 is the prompt's), from a score matrix with a row per pair."""
    pieces = problem["pieces"]
    n = len(pieces)
    scores = np.full((n * n, n), -np.inf)
    for (a, b), row in zip(problem["contexts"], problem["scores"], strict=True):
        scores[pieces.index(a) * n + pieces.index(b)] = [int(x) for x in row]
    text = [pieces.index(p) for p in problem["prompt"]]
    for _ in range(length):
        text.append(int(np.argmax(scores[text[-2] * n + text[-1]])))
    ids = np.array(text)
    states = ids[:-1] * n + ids[1:]  # states[k]: the last two pieces after step k
    _, first, inverse = np.unique(states, return_index=True, return_inverse=True)
    seen_before = first[inverse] < np.arange(len(states))
    assert seen_before.any()
    return int(np.argmax(seen_before))


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_repeat_begins_by_the_levels_step(level):
    """docs/kinds.md: at levels 1-4 the repeat begins by step 6, 7, 8, 9 — the pair that comes
    back has its first piece written again at that step at the latest, its second one step
    later, where decoding first meets a pair it has seen — so the loop starts by step 4, 5, 6,
    7; over 300 seeds each bound is reached."""
    bound = REPEAT_BEGINS_BY[level]
    begins, starts = [], []
    for seed in range(300):
        problem = generate("greedy_loop", seed=seed, level=level)
        seen_at = numpy_first_repeat(problem)
        _, start = numpy_loop(problem)
        assert seen_at - 1 <= bound and start <= bound - 2, (seed, seen_at, start)
        # The worked solution stops where the pair that comes back is complete.
        assert f"After step {seen_at} the last two pieces" in solution(problem).markdown()
        begins.append(seen_at - 1)
        starts.append(start)
    assert max(begins) == bound and max(starts) == bound - 2, (max(begins), max(starts))
