"""Hypothesis strategies: random valid specs of every kind, in the spec's JSON form."""

from fractions import Fraction

from hypothesis import strategies as st

WORDS = ["the", "bank", "river", "money", "flows", "near", "of", "a", "loan", "water", "was"]


@st.composite
def weights(draw, n: int) -> list[str]:
    """Return n positive exact weights with small denominators that add to 1."""
    parts = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    total = sum(parts)
    return [str(Fraction(p, total)) for p in parts]


def rows(n: int, dim: int, low: int = -3, high: int = 3):
    row = st.lists(st.integers(low, high).map(str), min_size=dim, max_size=dim)
    return st.lists(row, min_size=n, max_size=n)


@st.composite
def weighted_sum_specs(draw) -> dict:
    n = draw(st.integers(2, 5))
    dim = draw(st.integers(2, 4))
    return {
        "kind": "weighted_sum",
        "tokens": draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)),
        "position": draw(st.integers(0, n - 1)),
        "weights": draw(weights(n)),
        "rows": draw(rows(n, dim)),
    }


@st.composite
def lookup_specs(draw) -> dict:
    size = draw(st.integers(3, 8))
    vocab = WORDS[:size]
    dim = draw(st.integers(2, 4))
    tokens = draw(st.lists(st.sampled_from(vocab), min_size=2, max_size=5))
    return {
        "kind": "lookup",
        "vocab": vocab,
        "table": draw(rows(size, dim)),
        "tokens": tokens,
        "position": draw(st.integers(0, len(tokens) - 1)),
    }


@st.composite
def contrast_specs(draw) -> dict:
    n = draw(st.integers(2, 4))
    dim = draw(st.integers(2, 4))
    return {
        "kind": "contrast",
        "position": draw(st.integers(0, n - 1)),
        "weights": draw(weights(n)),
        "rows_a": draw(rows(n, dim)),
        "rows_b": draw(rows(n, dim)),
        "tokens_a": draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)),
        "tokens_b": draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)),
    }


@st.composite
def content_specs(draw) -> dict:
    n = draw(st.integers(2, 4))
    dim = draw(st.integers(2, 3))
    return {
        "kind": "content_weights",
        "tokens": draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)),
        "position": draw(st.integers(0, n - 1)),
        "rows": draw(rows(n, dim, -2, 2)),
    }


any_spec = st.one_of(weighted_sum_specs(), lookup_specs(), contrast_specs(), content_specs())
