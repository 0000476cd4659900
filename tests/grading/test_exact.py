from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from grading.exact import (
    add,
    combine,
    decimal_literal,
    difference,
    dot,
    floats,
    multiply,
    offset_equal,
    ratio_literal,
    ratio_offset_equal,
    rational_combine,
    rational_difference_sum,
    rational_sum,
    scale,
    scaled_key,
    subtract,
)

F = Fraction
fractions = st.fractions(max_denominator=60).filter(lambda x: abs(x) < 1000)


@given(st.lists(st.tuples(fractions, fractions, fractions), min_size=1, max_size=7))
def test_both_integer_weighted_sums_equal_fraction_arithmetic(terms):
    weights = [w for w, _, _ in terms]
    rows = [(x, y) for _, x, y in terms]
    expected = tuple(
        sum((w * row[d] for w, row in zip(weights, rows, strict=True)), F(0)) for d in range(2)
    )
    assert rational_combine(weights, rows) == expected
    assert rational_sum(weights, rows) == expected
    assert combine(weights, rows) == expected
    # an integer weight or coordinate given as an int is read as its Fraction
    ints = [int(w) if w.denominator == 1 else w for w in weights]
    int_rows = [(int(x) if x.denominator == 1 else x, y) for x, y in rows]
    assert rational_combine(ints, int_rows) == expected
    assert rational_sum(ints, int_rows) == expected


@given(st.lists(st.tuples(fractions, fractions, fractions, fractions), min_size=1, max_size=7))
def test_a_weighted_sum_of_differences_equals_fraction_arithmetic(terms):
    weights = [w for w, _, _, _ in terms]
    rows_b = [(b, b + a) for _, b, a, _ in terms]
    rows_a = [(a, a - c) for _, _, a, c in terms]
    expected = tuple(
        sum((w * (b[d] - a[d]) for w, b, a in zip(weights, rows_b, rows_a, strict=True)), F(0))
        for d in range(2)
    )
    assert rational_difference_sum(weights, rows_b, rows_a) == expected
    assert rational_difference_sum(weights, rows_b, rows_a) == rational_sum(
        [*weights, *(-w for w in weights)], [*rows_b, *rows_a]
    )


def test_scalars_stay_fractions_until_one_is_irrational():
    assert type(add(F(1, 2), F(1, 3))) is F
    assert type(multiply(F(1, 2), F(2))) is F
    assert subtract(F(1), F(1, 4)) == F(3, 4)
    assert add(F(1, 2), sympy.sqrt(2)) == sympy.Rational(1, 2) + sympy.sqrt(2)
    assert multiply(sympy.E, F(2)) == 2 * sympy.E


def test_vectors_combine_exactly_with_sympy_weights():
    weights = (sympy.exp(1) / (1 + sympy.E), 1 / (1 + sympy.E))
    total = combine(weights, [(F(1), F(0)), (F(0), F(1))])
    assert sympy.simplify(total[0] - weights[0]) == 0
    assert scale(F(1, 2), (F(2), F(4))) == (F(1), F(2))
    assert difference((F(1), F(2)), (F(1, 2), F(2))) == (F(1, 2), F(0))
    assert dot((F(1), F(2)), (F(3), F(-1))) == F(1)


def test_literals_are_read_exactly_without_a_regex():
    assert decimal_literal("0.1") == F(1, 10)
    assert decimal_literal(".25") == F(1, 4)
    assert decimal_literal("3.") == F(3)
    assert ratio_literal("-3") == F(-3)
    assert ratio_literal("1/4") == F(1, 4)
    for text in ("1/0", "0.5", "1 /4", "١", "--1", "x"):
        assert ratio_literal(text) is None


def test_scaled_keys_are_integers_or_none():
    assert scaled_key((F(1, 2), F(1, 3)), 6) == (3, 2)
    assert scaled_key((F(1, 4),), 6) is None


def test_offset_equal_checks_a_form_exactly_in_integers():
    F = Fraction
    right = (F(1, 2), F(-1, 3))
    row, other = (F(2), F(1, 4)), (F(1, 3), F(0))
    answer = tuple(r + F(3, 5) * (x - y) for r, x, y in zip(right, row, other, strict=True))
    assert offset_equal(answer, right, F(3, 5), row, other)
    assert not offset_equal(answer, right, F(3, 5), row)
    assert not offset_equal(answer, right, F(3, 5) + F(1, 10**40), row, other)
    single = tuple(r - F(1, 7) * x for r, x in zip(right, row, strict=True))
    assert offset_equal(single, right, F(-1, 7), row)
    assert not offset_equal((single[0], single[1] + F(1, 10**30)), right, F(-1, 7), row)


@given(
    st.lists(st.tuples(fractions, fractions, fractions, fractions), min_size=1, max_size=5),
    fractions,
    st.integers(1, 12),
    st.booleans(),
    st.booleans(),
)
def test_ratio_offset_equal_is_offset_equal_of_the_fraction(columns, factor, spread, minus, hit):
    # a factor given as integers not in lowest terms (times `spread`) is the Fraction's
    right = tuple(r for r, _, _, _ in columns)
    row = tuple(x for _, x, _, _ in columns)
    other = tuple(y for _, _, y, _ in columns) if minus else None
    if hit:  # an answer the form gives, so both say True
        answer = tuple(
            r + factor * (x - (other[k] if other else 0))
            for k, (r, x) in enumerate(zip(right, row, strict=True))
        )
    else:
        answer = tuple(a for _, _, _, a in columns)
    top, bottom = factor.numerator * spread, factor.denominator * spread
    assert ratio_offset_equal(answer, right, top, bottom, row, other) == offset_equal(
        answer, right, factor, row, other
    )
    if hit:
        assert offset_equal(answer, right, factor, row, other)


@given(st.lists(st.fractions(), min_size=1, max_size=6))
def test_fraction_slots_hold_what_the_properties_return(values):
    # exact.floats, rational_difference_sum and ratio_offset_equal read Fraction's slots
    assert {"_numerator", "_denominator"} <= set(Fraction.__slots__)
    for x in values:
        assert (x._numerator, x._denominator) == (x.numerator, x.denominator)
    assert floats(values) == tuple(float(x) for x in values)


_RATIOS = st.fractions(min_value=-50, max_value=50, max_denominator=60)


@given(st.integers(1, 8).flatmap(lambda n: st.tuples(*[st.tuples(_RATIOS, _RATIOS)] * n)))
def test_the_dot_product_in_integers_is_the_fractions_sum(pairs):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    assert dot(a, b) == sum((x * y for x, y in pairs), F(0))
