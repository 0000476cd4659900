"""``contrast``, the same word in two sentences, ``h_i^B - h_i^A``: the kind's own tests (its
spec's fields, mistakes, explanations, statement, picture, generated sentences and written-out
answers) on the hand-worked problems of ``tests/kinds/first_four.py``.

The checks every kind shares run on it in ``test_kind_checks.py``; the grading and generator
tests that use it as an example of the engine stay in ``tests/grading/`` and ``tests/generators/``.
"""

import pytest
import sympy

from grading import (
    Diagnosis,
    MistakeCode,
    ProblemKind,
    SpecError,
    Status,
    grade,
    mistaken_answers,
    validate_spec,
)
from grading.explain import explain
from grading.kinds.contrast import term_name as contrast_term_name
from grading.spec import load_problem
from practice.generators import generate, render_statement, render_svg
from tests.kinds.first_four import (
    SVG,
    arrows,
    contrast_spec,
    drawn_spec,
    panel_of,
    parse,
    pixel_tip,
)

M = MistakeCode
R = sympy.Rational


@pytest.fixture
def make_spec():
    return drawn_spec


@pytest.fixture
def contrast() -> dict:
    return contrast_spec()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rows_b": [["1", "0"]]}, "rows_b"),
        ({"rows_b": [["1", "0", "0"], ["0", "2", "0"]]}, "rows_b[0]"),
        ({"tokens_b": ["bank"]}, "tokens_b"),
        ({"weights": ["1/2", "1/2", "0"]}, "weights"),
    ],
)
def test_malformed_contrast_names_the_field(change, field):
    with pytest.raises(SpecError) as caught:
        validate_spec(contrast_spec() | change)
    assert caught.value.field == field


def test_contrast_without_tokens_is_valid():
    spec = contrast_spec()
    del spec["tokens_a"], spec["tokens_b"]
    assert "tokens_a" not in validate_spec(spec)


def test_contrast_mistakes():
    answers = {
        (d.mistake, d.terms, d.detail.get("side")): v for d, v in mistaken_answers(contrast_spec())
    }
    assert answers[(MistakeCode.REVERSED_DIFFERENCE, (), None)] == (0, R(-1, 2))
    assert answers[(MistakeCode.ANSWERED_ONE_SIDE, (), "b")] == (R(1, 2), 1)
    assert answers[(MistakeCode.ANSWERED_ONE_SIDE, (), "a")] == (R(1, 2), R(1, 2))
    assert answers[(MistakeCode.FORGOT_WEIGHT, (1,), None)] == (0, 1)


def test_contrast_terms_name_both_sentences_tokens():
    problem = load_problem(contrast_spec()).problem
    assert contrast_term_name(problem, 0) == "the term for position 0 (*bank* in both sentences)"
    assert contrast_term_name(problem, 1) == "the term for position 1 (*river* in A, *money* in B)"


def test_contrast_explanations():
    problem = load_problem(contrast_spec())
    assert "every sign is" in explain(problem, Diagnosis(M.REVERSED_DIFFERENCE))
    one_side = explain(problem, Diagnosis(M.ANSWERED_ONE_SIDE, detail={"side": "b"}))
    assert "same id gives the same row" in one_side
    forgot = explain(problem, Diagnosis(M.FORGOT_WEIGHT, (1,)))
    assert "*river* in A, *money* in B" in forgot
    assert "without its weight" in forgot


def test_contrast_statement_shows_both_sentences_and_asks_for_the_difference(make_spec):
    text = render_statement(make_spec("contrast"))

    assert "*the river bank*" in text and "*the savings bank*" in text
    assert r"\mathbf{x}_{1}^{A} = \begin{bmatrix}0\\2\end{bmatrix}" in text
    assert r"\mathbf{x}_{1}^{B} = \begin{bmatrix}2\\-2\end{bmatrix}" in text
    assert r"\mathbf{h}_{2}^{B} - \mathbf{h}_{2}^{A}" in text


def test_contrast_stacks_sentence_a_over_sentence_b_over_the_difference(make_spec):
    root = parse(render_svg(make_spec("contrast"), answer=("-1", "1")))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    assert len(panels) == 3
    (ax, ay), (bx, by), (_, dy) = (
        tuple(float(v) for v in p.get("data-origin").split(",")) for p in panels
    )
    assert ax == bx and ay < by < dy  # stacked, one panel a row, none shrunk beside another
    assert float(root.get("width")) <= 312  # a phone's verdict column
    sums = arrows(root, "sum")
    assert [(s.get("data-x"), s.get("data-y")) for s in sums] == [("1/2", "3/4"), ("1", "-1/4")]
    (right,) = arrows(root, "right")
    assert (right.get("data-x"), right.get("data-y")) == ("1/2", "-1")
    assert pixel_tip(root, right) == pytest.approx((0.5, -1), abs=1e-3)
    (answer,) = arrows(root, "answer")
    assert panel_of(root, answer) is panel_of(root, right)
    assert len(arrows(root, "row")) == 6
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "river" in texts and "savings" in texts


def test_a_fresh_contrast_shows_the_two_sentences_without_the_difference(make_spec):
    root = parse(render_svg(make_spec("contrast")))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    assert len(panels) == 2
    assert len(arrows(root, "row")) == 6


def test_a_small_contrast_difference_fills_its_own_panel_and_its_caption_says_so():
    spec = {
        "kind": "contrast",
        "tokens_a": ["the", "river", "bank"],
        "tokens_b": ["the", "money", "bank"],
        "position": 2,
        "weights": ["1/10", "1/10", "4/5"],
        "rows_a": [["4", "0"], ["4", "4"], ["0", "4"]],
        "rows_b": [["4", "0"], ["4", "3"], ["0", "4"]],
    }
    root = parse(render_svg(spec, solution=True))

    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    scales = [float(p.get("data-scale")) for p in panels]
    assert scales[0] == scales[1]  # the two sentences share one scale
    assert scales[2] > 10 * scales[0]  # the difference (0, -1/10) is enlarged to be seen
    (right,) = arrows(root, "right")
    (x1, y1), (x2, y2) = [(float(right.get(f"x{k}")), float(right.get(f"y{k}"))) for k in (1, 2)]
    assert abs(y2 - y1) > 100 and x1 == x2  # a long arrow straight down, not a dot
    assert pixel_tip(root, right) == pytest.approx((0, -0.1), abs=1e-6)
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions[2].startswith("h₂ᴮ − h₂ᴬ, drawn ") and captions[2].endswith("× larger")
    assert "own scale" in root.find(f"{SVG}desc").text


def test_a_learner_answer_a_few_times_the_difference_fits_the_difference_panel():
    spec = generate("contrast", seed=0, level=1)
    root = parse(render_svg(spec, answer=(sympy.Integer(2), sympy.Integer(-2))))

    (answer,) = arrows(root, "answer")
    assert answer.get("data-clipped") is None
    assert pixel_tip(root, answer) == pytest.approx((2, -2), abs=1e-6)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_contrast_sentences_differ_only_at_neighbours_of_the_same_word(level):
    for seed in range(10):
        spec = generate(ProblemKind.CONTRAST, seed=seed, level=level)
        a, b, i = spec["tokens_a"], spec["tokens_b"], spec["position"]
        assert a[i] == b[i]
        changed = [k for k in range(len(a)) if a[k] != b[k]]
        assert changed and i not in changed
        assert i - 1 in changed  # the modifier right before the word
        assert all(
            (spec["rows_a"][k] != spec["rows_b"][k]) == (k in changed) for k in range(len(a))
        )


def test_contrast_written_out_in_full_is_correct_and_the_self_terms_cancel(contrast):
    full = "1/2*[1,0] + 1/2*[0,2] - 1/2*[1,0] - 1/2*[0,1]"
    assert grade(contrast, full).status == Status.CORRECT
    assert grade(contrast, "1/2*[0,2] - 1/2*[0,1]").status == Status.CORRECT


def test_contrast_written_out_names_the_wrong_term_by_sentence(contrast):
    verdict = grade(contrast, "1/2*[0,2] - [0,1]")
    assert verdict.status == Status.INCORRECT
    assert verdict.score == 0.5
    assert "position 1 of sentence A, *river*" in verdict.explanation


def test_contrast_written_out_without_weights_is_forgot_weight(contrast):
    verdict = grade(contrast, "[0,2] - [0,1]")
    assert verdict.diagnosis == Diagnosis(MistakeCode.FORGOT_WEIGHT, (1,))
    assert verdict.score == 0.0
