"""Property-based tests: random specs of every kind, every catalogued mistake, random text."""

from decimal import Decimal
from fractions import Fraction

import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grading import Status, expected_answer, grade, mistaken_answers, validate_spec

from .conftest import content_spec, seed_weighted_sum
from .strategies import any_spec, content_specs, weighted_sum_specs

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def as_text(vector) -> str:
    """Write an exact SymPy vector as an answer a learner could type."""
    return "[" + ", ".join(str(x) for x in vector) + "]"


def is_decimal(value: sympy.Expr) -> bool:
    if not value.is_Rational:
        return False
    q = int(value.q)
    while q % 2 == 0:
        q //= 2
    while q % 5 == 0:
        q //= 5
    return q == 1


def decimal_text(value: sympy.Expr) -> str:
    fraction = Fraction(int(value.p), int(value.q))
    sign = "-" if fraction < 0 else ""
    fraction = abs(fraction)
    whole, rest = divmod(fraction.numerator, fraction.denominator)
    digits = ""
    while rest:
        rest *= 10
        digit, rest = divmod(rest, fraction.denominator)
        digits += str(digit)
    return f"{sign}{whole}.{digits}" if digits else f"{sign}{whole}"


def same_vector(a, b) -> bool:
    """Compare two exact vectors at 50 digits, independently of the grading code."""
    return all(abs(sympy.N(x - y, 50)) < 1e-40 for x, y in zip(a, b, strict=True))


@SETTINGS
@given(any_spec)
def test_each_mistake_is_recovered_when_it_alone_gives_the_answer(spec):
    spec = validate_spec(spec)
    right = expected_answer(spec)
    mistakes = mistaken_answers(spec)
    for diagnosis, vector in mistakes:
        verdict = grade(spec, as_text(vector))
        if same_vector(vector, right):
            assert verdict.status == Status.CORRECT
            continue
        same = {(d.mistake, d.terms) for d, v in mistakes if same_vector(v, vector)}
        assert verdict.status == Status.INCORRECT
        if same == {(diagnosis.mistake, diagnosis.terms)}:
            assert verdict.diagnosis is not None, verdict.explanation
            assert verdict.diagnosis.mistake == diagnosis.mistake
            assert verdict.diagnosis.terms == diagnosis.terms
        else:
            assert verdict.diagnosis is None
            assert "more than one common mistake" in verdict.explanation


def fixed(value: sympy.Expr, figures: int = 12) -> str:
    """Write a value as a plain decimal correctly rounded to `figures` significant figures."""
    exact = Decimal(str(sympy.N(value, 40)))
    if exact == 0:
        return "0"
    return format(exact.quantize(Decimal(1).scaleb(exact.adjusted() - figures + 1)), "f")


@SETTINGS
@given(any_spec)
def test_every_accepted_format_of_the_right_answer_is_correct(spec):
    right = expected_answer(spec)
    texts = [as_text(right), "(" + as_text(right)[1:-1] + ")", as_text(right)[1:-1]]
    texts.append("\\begin{bmatrix}" + "\\\\".join(sympy.latex(x) for x in right) + "\\end{bmatrix}")
    texts.append(as_text(right).replace("[", "[ ").replace(",", " , ").replace("-", "−"))
    if all(x.is_Rational for x in right):
        texts.append("[" + " ".join(str(x) for x in right) + "]")
    if all(is_decimal(x) for x in right):
        texts.append("[" + ", ".join(decimal_text(x) for x in right) + "]")
    if not all(x.is_Rational for x in right):
        texts.append("[" + ", ".join(fixed(x) for x in right) + "]")
    if spec["kind"] == "weighted_sum":
        terms = [
            f"{w}*[{', '.join(row)}]" for w, row in zip(spec["weights"], spec["rows"], strict=True)
        ]
        texts.append(" + ".join(terms))
        texts.append(" + ".join(t.replace("*", " ") for t in terms))
    if spec["kind"] == "contrast":
        texts.append(
            " + ".join(
                f"{w}*([{', '.join(b)}] - [{', '.join(a)}])"
                for w, a, b in zip(spec["weights"], spec["rows_a"], spec["rows_b"], strict=True)
            )
        )
    for text in texts:
        verdict = grade(spec, text)
        assert verdict.status == Status.CORRECT, (text, verdict)
        assert verdict.score == 1.0


@SETTINGS
@given(weighted_sum_specs(), st.data())
def test_one_wrong_term_written_out_is_named_and_scored(spec, data):
    n = len(spec["rows"])
    k = data.draw(st.integers(0, n - 1))
    bad = data.draw(st.sampled_from(["7/11", "13/17"]))
    terms = [
        f"{w}*[{', '.join(row)}]" for w, row in zip(spec["weights"], spec["rows"], strict=True)
    ]
    terms[k] = f"{bad}*[{', '.join(spec['rows'][k])}]"
    verdict = grade(spec, " + ".join(terms))
    if all(x == "0" for x in spec["rows"][k]):
        assert verdict.status == Status.CORRECT  # a zero row makes any weight right
        return
    assert verdict.status == Status.INCORRECT
    assert verdict.diagnosis is not None
    assert verdict.diagnosis.terms == (k,)
    assert f"position {k}, *{spec['tokens'][k]}*" in verdict.explanation
    assert verdict.score == (n - 1) / n


HOSTILE_ALPHABET = st.sampled_from(
    [*"0123456789+-*/^()[]{},;. \\&eEpixsqrtfacbgmn_'\"!=\x00", "\\frac", "exp(", "**"]
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=80), st.lists(HOSTILE_ALPHABET, max_size=60).map("".join)))
def test_random_text_never_raises_and_is_never_correct(text):
    # The right answer, [37/91, -113/7], is not something random text types by chance.
    spec = {
        "kind": "weighted_sum",
        "tokens": ["a", "b"],
        "position": 0,
        "weights": ["37/91", "1"],
        "rows": [["1", "0"], ["0", "-113/7"]],
    }
    verdict = grade(spec, text)
    assert verdict.status in (Status.INVALID, Status.INCORRECT)
    assert "took longer" not in verdict.message
    if verdict.status == Status.INVALID:
        assert verdict.message


@settings(max_examples=15, deadline=None)
@given(content_specs())
def test_content_weights_decimals_to_three_figures_are_correct_with_a_note(spec):
    right = expected_answer(spec)
    if all(x.is_Rational for x in right):
        return
    text = "[" + ", ".join(f"{float(x):.3f}" for x in right) + "]"
    verdict = grade(spec, text)
    if all(abs(float(x)) >= 0.1 for x in right):
        assert verdict.status == Status.CORRECT, (text, verdict)
        assert verdict.notes


ATOMS = st.sampled_from(
    ["0", "1", "2", "1/2", "0.5", "-1", "e", "pi", "exp(1)", "exp(-2)", "sqrt(2)", "(e-e)"]
)
EXPRESSIONS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", " ", "^"]), inner).map(
            lambda t: f"({t[0]}){t[1]}({t[2]})"
        ),
        st.tuples(inner, st.sampled_from(["2", "-1", "1/2", "0", "-2"])).map(
            lambda t: f"({t[0]})^{t[1]}"
        ),
        inner.map(lambda x: f"\\frac{{{x}}}{{2}}"),
    ),
    max_leaves=12,
)


@settings(max_examples=120, deadline=None)
@given(st.lists(EXPRESSIONS, min_size=2, max_size=2), st.sampled_from(["final", "sum"]))
def test_grammatical_answers_are_marked_without_a_defect(coordinates, shape):
    text = "[" + ", ".join(coordinates) + "]"
    if shape == "sum":
        text = f"{coordinates[0]}*[1, 0] + ({coordinates[1]}) [0, 2]"
    for spec in (seed_weighted_sum(), content_spec()):
        verdict = grade(spec, text)
        assert "could not be marked" not in verdict.message
        assert "took longer" not in verdict.message
