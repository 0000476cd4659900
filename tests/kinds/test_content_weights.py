"""``content_weights``, the mix with weights from the content, ``softmax_j(x_i · x_j)``: the
kind's own tests (its spec's fields, mistakes, explanations, statement, picture and answers in
``exp``) on the hand-worked problems of ``tests/kinds/first_four.py``.

The checks every kind shares run on it in ``test_kind_checks.py``; the grading and generator
tests that use it as an example of the engine stay in ``tests/grading/`` and ``tests/generators/``.
"""

import pytest
import sympy

from grading import (
    MISTAKES_BY_KIND,
    Diagnosis,
    MistakeCode,
    ProblemKind,
    SpecError,
    Status,
    expected_answer,
    grade,
    mistaken_answers,
    validate_spec,
)
from grading.explain import explain
from grading.spec import load_problem
from practice.generators import render_statement, render_svg
from tests.kinds.first_four import (
    arrows,
    content_spec,
    drawn_spec,
    parse,
    pixel_tip,
)

M = MistakeCode


@pytest.fixture
def make_spec():
    return drawn_spec


@pytest.fixture
def content() -> dict:
    return content_spec()


def test_content_weights_scores_are_bounded():
    spec = content_spec() | {"rows": [["9", "9"], ["9", "0"], ["0", "1"]]}
    with pytest.raises(SpecError) as caught:
        validate_spec(spec)
    assert caught.value.field == "rows[0]"


def test_expected_answer_of_content_weights_is_exact_in_exp():
    answer = expected_answer(content_spec())
    # scores from x_0 = [1, 0]: (1, 0, 1); weights e/(2e+1), 1/(2e+1), e/(2e+1)
    e = sympy.E
    assert sympy.simplify(answer[0] - 2 * e / (2 * e + 1)) == 0
    assert sympy.simplify(answer[1] - (1 + e) / (2 * e + 1)) == 0


def test_content_weights_mistakes():
    e = sympy.E
    answers = {d.mistake: v for d, v in mistaken_answers(content_spec())}
    assert set(answers) == set(MISTAKES_BY_KIND[ProblemKind.CONTENT_WEIGHTS])
    assert sympy.simplify(answers[MistakeCode.UNNORMALISED_WEIGHTS][0] - 2 * e) == 0
    assert answers[MistakeCode.RAW_SCORES] == (2, 1)
    assert sympy.simplify(answers[MistakeCode.OMITTED_SELF_SCORE][0] - e / (e + 1)) == 0
    positional = answers[MistakeCode.POSITIONAL_WEIGHTS]
    z = 1 + sympy.exp(-1) + sympy.exp(-2)
    assert sympy.simplify(positional[0] - (1 + sympy.exp(-2)) / z) == 0


def test_content_explanations_show_scores_and_softmax():
    problem = load_problem(content_spec())
    for code in (
        M.UNNORMALISED_WEIGHTS,
        M.POSITIONAL_WEIGHTS,
        M.RAW_SCORES,
        M.OMITTED_SELF_SCORE,
    ):
        text = explain(problem, Diagnosis(code, (0,) if code == M.OMITTED_SELF_SCORE else ()))
        assert "the scores" in text
        assert "(1, 0, 1)" in text
    text = explain(problem, Diagnosis(M.OMITTED_SELF_SCORE, (0,)))
    assert "includes $j = i$" in text


def test_omitted_self_score_names_the_position_and_its_token():
    problem = load_problem(content_spec())  # position 0 is *bank*
    text = explain(problem, Diagnosis(M.OMITTED_SELF_SCORE, (0,)))
    assert "the self score $s_{0,0}$ of position 0, *bank*" in text


def test_content_weights_statement_gives_the_softmax_and_how_to_write_exp(make_spec):
    text = render_statement(make_spec("content_weights"))

    assert r"s_{2,j} = \mathbf{x}_{2} \cdot \mathbf{x}_j" in text
    assert r"\frac{e^{s_{2,j}}}{\sum_k e^{s_{2,k}}}" in text
    assert "`exp(2)`" in text


def test_content_weights_sum_is_the_softmax_mix(make_spec):
    root = parse(render_svg(make_spec("content_weights"), solution=True))

    # Scores with x_2 = [1, 0]: 0, 1, 1, so the weights are 1/(1+2e), e/(1+2e), e/(1+2e).
    e = 2.718281828459045
    expected = ((2 * e) / (1 + 2 * e), (1 + e) / (1 + 2 * e))
    (total,) = arrows(root, "sum")
    assert pixel_tip(root, total) == pytest.approx(expected, abs=1e-3)
    assert float(total.get("data-x")) == pytest.approx(expected[0], abs=1e-4)
    assert len(arrows(root, "term")) == 3


def test_content_weights_exact_answer_in_another_form_is_correct(content):
    assert grade(content, "[2/(2+exp(-1)), (1+e)/(1+2e)]").status == Status.CORRECT


def test_content_weights_mistakes_are_diagnosed_from_the_final_vector(content):
    assert grade(content, "[2e, 1+e]").diagnosis.mistake == MistakeCode.UNNORMALISED_WEIGHTS
    assert grade(content, "[2, 1]").diagnosis.mistake == MistakeCode.RAW_SCORES
    assert grade(content, "[e/(e+1), 1]").diagnosis.mistake == MistakeCode.OMITTED_SELF_SCORE


def test_content_weights_decimals_diagnose_a_mistake(content):
    verdict = grade(content, "[5.437, 3.718]")  # 2e and 1 + e, rounded
    assert verdict.diagnosis is not None
    assert verdict.diagnosis.mistake == MistakeCode.UNNORMALISED_WEIGHTS


def test_content_weights_written_out_with_unnormalised_weights(content):
    verdict = grade(content, "e*[1,0] + 1*[0,1] + e*[1,1]")
    assert verdict.diagnosis is not None
    assert verdict.diagnosis.mistake == MistakeCode.UNNORMALISED_WEIGHTS
