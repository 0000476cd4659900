"""An author's words on derived mistakes (name, merge, silence, words) and mistakes of their
own; a vector-shaped declared kind with a self term; the functions of the expression language."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

import grading
from grading.declared import KindFileError, read_kind_file
from grading.declared.expr import evaluate, parse
from practice.generators import generate
from practice.kind_check import check_kind_file, registered

from .kinds import RULES_DEMO, write

WORDS = """\
mistakes:
  swapped_power: {silence: true}
  stopped_at_step: {name: gave_a_step, label: gave a step's result}
  mean_for_sum: {merge_into: product_for_sum, explain: "Words for the mean, {{a}}."}
  forgot_the_power:
    number: 100
    label: left the power out
    answer: u + b * a
    explain: You multiplied $b = {{b}}$ by $a$ where $b^a$ raises it to the power $a$.
"""


@pytest.fixture
def worded(tmp_path):
    source = read_kind_file(write(tmp_path, RULES_DEMO + WORDS))
    with registered(source) as kind:
        yield kind


def answer_of(spec: dict, code: str, rule: str | None = None) -> str:
    loaded = grading.spec.load_problem(spec)
    for diagnosis, value in grading.mistaken_answers(spec):
        if diagnosis.mistake == code and (rule is None or diagnosis.detail.get("site") == rule):
            return loaded.shape.typed(value)
    raise AssertionError(f"{code} {rule} not listed")


def test_a_silenced_mistake_is_gone_and_a_renamed_one_keeps_its_number(worded):
    assert "swapped_power" not in worded.codes
    assert "stopped_at_step" not in worded.codes
    assert worded.mistake("gave_a_step").label == "gave a step's result"
    assert worded.mistake("gave_a_step").number == 14  # the rule's number: targets stay stable


def test_a_merged_mistake_is_named_by_its_target_with_its_own_words(worded):
    assert "mean_for_sum" not in worded.codes
    spec = generate("rules_demo", seed=1, level=1)
    verdict = grading.grade(spec, answer_of(spec, "product_for_sum", rule="mean_for_sum"))
    assert verdict.diagnosis.mistake == "product_for_sum"
    assert "averaged" in verdict.explanation
    assert f"Words for the mean, {spec['params']['a']}." in verdict.explanation
    product = grading.grade(spec, answer_of(spec, "product_for_sum", rule="product_for_sum"))
    assert "multiplied" in product.explanation


def test_a_mistake_of_the_authors_own_is_diagnosed_with_their_words(worded):
    spec = generate("rules_demo", seed=2, level=2)
    verdict = grading.grade(spec, answer_of(spec, "forgot_the_power"))
    assert verdict.diagnosis.mistake == "forgot_the_power"
    assert f"You multiplied $b = {spec['params']['b']}$ by $a$" in verdict.explanation


def test_a_worded_kind_passes_its_check(tmp_path):
    report = check_kind_file(write(tmp_path, RULES_DEMO + WORDS), seeds=10)
    assert "forgot_the_power" in report.mistakes and "gave_a_step" in report.mistakes


@pytest.mark.parametrize(
    ("words", "field"),
    [
        (
            "mistakes:\n  mean_for_sum: {merge_into: nothing_listed}\n",
            "mistakes.mean_for_sum.merge_into",
        ),
        ("mistakes:\n  own_one: {number: 100, label: x, explain: y}\n", "mistakes.own_one.number"),
        (
            "mistakes:\n  own_one: {answer: u, number: 5, label: x, explain: y}\n",
            "mistakes.own_one.number",
        ),
        ("mistakes:\n  own_one: {answer: u, number: 100}\n", "mistakes.own_one"),
        ("mistakes:\n  not_a_rule: {label: x}\n", "mistakes.not_a_rule"),
        ("mistakes:\n  swapped_power: {name: flipped_sign}\n", "mistakes.swapped_power.name"),
        (
            "mistakes:\n  own_one: {answer: u, number: 100, label: x, explain: y}\n",
            "mistakes.own_one.answer",  # always what stopped_at_step [2] gives
        ),
    ],
)
def test_faulty_words_are_refused_naming_the_field(tmp_path, words, field):
    path = write(tmp_path, RULES_DEMO + words)
    with pytest.raises(KindFileError) as caught:
        source = read_kind_file(path)
        with registered(source):
            pass
    assert caught.value.field == field
    assert "rules_demo" not in grading.KINDS


VECTOR = """\
kind: mix_rows
label: Mix the rows
version: 1
levels: [1]
parameters:
  n: {type: integer, levels: {1: [3, 3]}}
  i: {type: integer, levels: {1: [0, 2]}}
  A:
    type: matrix
    rows: n
    columns: n
    entries: rational
    levels: {1: {numerator: [1, 3], denominator: [4, 4]}}
  X: {type: matrix, rows: n, columns: 2, entries: integer, levels: {1: [-2, 3]}}
statement: |
  Weights $A = {{A}}$, rows $X = {{X}}$, position $i = {{i}}$: compute $h_i$.
answer: "Sum(A[i][j]*X[j], (j, 0, n-1))"
shape: vector
"""


def test_a_vector_kind_with_a_self_term_is_graded_and_diagnosed(tmp_path):
    source = read_kind_file(write(tmp_path, VECTOR, name="mix_rows"))
    with registered(source) as kind:
        assert set(kind.codes) == {
            "omitted_self_term",
            "omitted_term",
            "mean_for_sum",
            "swapped_indices",
        }
        assert "product_for_sum" not in kind.codes  # a product of vectors: never computed
        spec = generate("mix_rows", seed=4, level=1)
        i = int(spec["params"]["i"])
        a = [[Fraction(x) for x in row] for row in spec["params"]["A"]]
        x = [[int(v) for v in row] for row in spec["params"]["X"]]
        right = tuple(sum(a[i][j] * x[j][c] for j in range(3)) for c in range(2))
        assert grading.expected_answer(spec) == right
        typed = "[" + ", ".join(str(v) for v in right) + "]"
        assert grading.grade(spec, typed).status == grading.Status.CORRECT
        wrong = tuple(right[c] - a[i][i] * x[i][c] for c in range(2))
        verdict = grading.grade(spec, "[" + ", ".join(str(v) for v in wrong) + "]")
        assert verdict.diagnosis.mistake == "omitted_self_term"
        assert verdict.diagnosis.terms == (i,)
        # the column of A read for its row: sum over j of A[j][i] x_j
        transposed = tuple(sum(a[j][i] * x[j][c] for j in range(3)) for c in range(2))
        listed = {d.mistake: v for d, v in grading.mistaken_answers(spec)}
        assert listed["swapped_indices"] == transposed
        assert kind.mistake("swapped_indices").number == 15
    assert check_kind_file(write(tmp_path, VECTOR, name="mix_rows"), seeds=10).tests == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("norm(u)", sympy.sqrt(13)),
        ("dot(u, v)", 2 * -1 + 3 * 4),
        ("softmax(u)[0]", sympy.exp(2) / (sympy.exp(2) + sympy.exp(3))),
        ("log(exp(n))", 3),
        ("Product(j + 1, (j, 0, n - 1))", 6),
        ("Mean(u[j], (j, 0, 1))", Fraction(5, 2)),
        ("Abs(-n) ^ 2", 9),
        ("len(u)", 2),
    ],
)
def test_the_expression_functions_compute_exactly(text, expected):
    env = {"u": (Fraction(2), Fraction(3)), "v": (Fraction(-1), Fraction(4)), "n": Fraction(3)}
    value = evaluate(parse(text, names={"u", "v", "n"}), env)
    assert sympy.simplify(sympy.sympify(str(value)) - sympy.sympify(str(expected))) == 0


def test_a_code_a_declared_kind_shares_with_a_built_in_one_keeps_the_built_in_words():
    """Labels asked for by code alone (an attempt's row) are the built-in kinds' words: a
    declared kind reusing omitted_term must not rename every built-in attempt's mistake."""
    from grading.declared.kind import DeclaredKind
    from grading.kinds import KINDS
    from practice.labels import mistake_label

    declared = [k for k in KINDS.values() if isinstance(k, DeclaredKind)]
    built_in = [k for k in KINDS.values() if not isinstance(k, DeclaredKind)]
    shared = {m.code for k in declared for m in k.mistakes} & {
        m.code for k in built_in for m in k.mistakes
    }
    assert "omitted_term" in shared
    for code in shared:
        first = next(k for k in sorted(built_in, key=lambda k: k.name) if code in k.codes)
        assert mistake_label(code) == first.mistake(code).label
    assert mistake_label("omitted_term", "scaled_dot_score") == "left out a term of a sum"
