"""The planted mistakes: for each kind file in `kinds/`, the wrong answers a learner with one
misconception types, each computed from the problem's parameters by its own NumPy / Fraction
code (never by the engine), and the derived mistake (rule code and terms, docs/authoring.md
"The mistakes derived from the answer") that names it rightly.

The list was written from the misconceptions, before the engine was run on it, and is not
tuned to what the engine finds: a mistake no rule derives stays here and counts as missed.
`names` is the set of right names; it holds two only where two rules describe the very same
wrong computation (giving the dot product is both "did not divide" and "stopped at step 1").
A name whose rule does not exist, or is not turned on by the kind's file, is written as the
rule that should name it: the engine cannot give it, so the mistake is missed.

Values are exact (Fraction) where the answer is rational and floats (typed as decimals, as a
learner with a calculator does) where it holds a root or an exponential.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

Name = tuple[str, tuple[int, ...]]
Case = tuple[Any, frozenset[Name]]  # (the wrong answer's value, its right names)


@dataclass(frozen=True)
class Planted:
    kind: str
    code: str  # the benchmark's own name for the misconception
    category: str  # term left out, sign flip, ... (the list)
    what: str  # what the learner did
    cases: Callable[[dict[str, Any]], list[Case]]


def params(spec: dict) -> dict[str, Any]:
    """Return a spec's parameters as Fractions (vectors as lists, matrices as lists of lists)."""

    def read(raw: Any) -> Any:
        return [read(x) for x in raw] if isinstance(raw, list) else Fraction(raw)

    return {name: read(raw) for name, raw in spec["params"].items()}


def one(value: Any, *names: Name) -> list[Case]:
    return [(value, frozenset(names))]


def softmax(x: np.ndarray) -> tuple[float, ...]:
    e = np.exp(x - x.max())
    return tuple(float(v) for v in e / e.sum())


# ---- layer_norm_entry: y_i = (x_i - mu) / sqrt(var), var the mean squared distance ----------


def _ln(p: dict) -> tuple[Fraction, Fraction, Fraction, int]:
    """Return (x_i, mu, the sum of squared distances, n)."""
    x, n, i = p["x"], int(p["n"]), int(p["i"])
    mu = sum(x) / n
    return x[i], mu, sum((v - mu) ** 2 for v in x), n


def ln_right(p: dict) -> float:
    xi, mu, squares, n = _ln(p)
    return float(xi - mu) / math.sqrt(squares / n)


def _ln_variance(p):
    xi, mu, squares, n = _ln(p)
    return one((xi - mu) / (squares / n), ("forgot_sqrt", (0,)))


def _ln_centred(p):
    xi, mu, _, _ = _ln(p)
    return one(xi - mu, ("forgot_normalisation", (0,)))


def _ln_summed(p):
    xi, mu, squares, _ = _ln(p)
    return one(float(xi - mu) / math.sqrt(squares), ("sum_for_mean", (1,)))


def _ln_reversed(p):
    xi, mu, squares, n = _ln(p)
    return one(float(mu - xi) / math.sqrt(squares / n), ("reversed_difference", (1,)))


def _ln_not_centred(p):
    xi, _, squares, n = _ln(p)
    return one(float(xi) / math.sqrt(squares / n), ("one_side", (1, 0)))


def _ln_sample(p):
    xi, mu, squares, n = _ln(p)
    # no rule counts a Mean one short; off_by_one is the rule that should say it
    return one(float(xi - mu) / math.sqrt(squares / (n - 1)), ("off_by_one", (1, 0)))


# ---- cosine_pair: u.v / (|u| |v|) -----------------------------------------------------


def _cos(p):
    u = np.array([float(x) for x in p["u"]])
    v = np.array([float(x) for x in p["v"]])
    return float(u @ v), float(u @ u), float(v @ v)


def cos_right(p: dict) -> float:
    dot, uu, vv = _cos(p)
    return dot / math.sqrt(uu * vv)


def _cos_no_roots(p):
    u, v = p["u"], p["v"]
    dot = sum(a * b for a, b in zip(u, v, strict=True))
    return one(dot / (sum(a * a for a in u) * sum(b * b for b in v)), ("forgot_every_sqrt", ()))


def _cos_one_squared(p):
    dot, uu, vv = _cos(p)
    return [
        (dot / (uu * math.sqrt(vv)), frozenset({("forgot_sqrt", (0,))})),
        (dot / (math.sqrt(uu) * vv), frozenset({("forgot_sqrt", (1,))})),
    ]


def _cos_one_length(p):
    dot, uu, vv = _cos(p)
    return [
        (dot / math.sqrt(uu), frozenset({("left_out_factor", (0, 1))})),  # |v| left out
        (dot / math.sqrt(vv), frozenset({("left_out_factor", (0, 0))})),  # |u| left out
    ]


def _cos_dot_only(p):
    dot = sum(a * b for a, b in zip(p["u"], p["v"], strict=True))
    return one(dot, ("forgot_normalisation", (0,)), ("stopped_at_step", (0,)))


def _cos_added_lengths(p):
    dot, uu, vv = _cos(p)
    # "added where the product multiplies": no rule rewrites a binary product into a sum
    return one(dot / (math.sqrt(uu) + math.sqrt(vv)), ("sum_for_product", (0,)))


# ---- mean_pooling: the mean of the first L rows of X (the rest is padding) -----------------


def _rows(p, low: int, high: int) -> tuple[Fraction, ...]:
    """Return the sum of rows low..high of X (both included)."""
    X = np.array(p["X"], dtype=object)
    return tuple(Fraction(v) for v in X[low : high + 1].sum(axis=0))


def _scaled(vector, by) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) / by for v in vector)


def pool_right(p: dict) -> tuple[Fraction, ...]:
    L = int(p["L"])
    return _scaled(_rows(p, 0, L - 1), L)


def _pool_summed(p):
    s = _rows(p, 0, int(p["L"]) - 1)
    return one(s, ("forgot_normalisation", (0,)), ("stopped_at_step", (0,)))


def _pool_by_n(p):
    L, n = int(p["L"]), int(p["n"])
    # n for L is "the wrong one of two parameters", but wrong_parameter reads rational and
    # choice parameters only (n and L are integers)
    return one(_scaled(_rows(p, 0, L - 1), n), ("wrong_parameter", (0, 0)))


def _pool_padding(p):
    n = int(p["n"])
    return one(_scaled(_rows(p, 0, n - 1), n), ("wrong_parameter", (0, 0)))


def _pool_first_left_out(p):
    L = int(p["L"])
    return one(_scaled(_rows(p, 1, L - 1), L), ("omitted_term", (0,)))


def _pool_stopped_short(p):
    L = int(p["L"])
    return one(_scaled(_rows(p, 0, L - 2), L), ("omitted_term", (L - 1,)), ("off_by_one", (0, 0)))


def _pool_one_past(p):
    L = int(p["L"])
    # a Sum over subscripted terms has no off_by_one in the engine (see derive.py)
    return one(_scaled(_rows(p, 0, L), L), ("off_by_one", (0, 1)))


# ---- weighted_average_bias: sum(w x) / sum(w) + b -------------------------------------------


def _wab(p):
    w, x, b = p["w"], p["x"], p["b"]
    return sum(a * c for a, c in zip(w, x, strict=True)), sum(w), b


def wab_right(p: dict) -> Fraction:
    top, total, b = _wab(p)
    return top / total + b


def _wab_no_bias(p):
    top, total, _ = _wab(p)
    return one(top / total, ("left_out_addend", (0, 0)))


def _wab_not_divided(p):
    top, _, b = _wab(p)
    return one(top + b, ("forgot_normalisation", (0,)))


def _wab_plain_mean(p):
    _, _, b = _wab(p)
    x = p["x"]
    # equal weights: the rule (opt-in) rewrites the numerator only, so it cannot say this
    return one(sum(x) / len(x) + b, ("equal_weights", (0, 0)))


def _wab_term_left_out(p):
    top, total, b = _wab(p)
    w, x = p["w"], p["x"]
    return [
        ((top - w[k] * x[k]) / total + b, frozenset({("omitted_term", (0, k))}))
        for k in range(len(w))
    ]


def _wab_bias_subtracted(p):
    top, total, b = _wab(p)
    # flipped_sign reads subtractions and minus signs only; at the first run this was written
    # as ("flipped_sign", (2,)) and missed; subtracted_addend was then added for it
    return one(top / total - b, ("subtracted_addend", (0,)))


# ---- residual_entry: x_r + sum_j W[r][j] x_j ------------------------------------------------


def _res(p):
    W = np.array(p["W"], dtype=object)
    x = np.array(p["x"], dtype=object)
    return W, x, int(p["r"])


def res_right(p: dict) -> Fraction:
    W, x, r = _res(p)
    return Fraction(x[r] + W[r] @ x)


def _res_no_residual(p):
    W, x, r = _res(p)
    return one(Fraction(W[r] @ x), ("left_out_addend", (0, 1)))


def _res_transposed(p):
    W, x, r = _res(p)
    return one(Fraction(x[r] + W[:, r] @ x), ("swapped_indices", (0,)))


def _res_no_diagonal(p):
    W, x, r = _res(p)
    return one(Fraction(x[r] + W[r] @ x - W[r][r] * x[r]), ("omitted_self_term", (r,)))


def _res_term_left_out(p):
    W, x, r = _res(p)
    return [
        (Fraction(x[r] + W[r] @ x - W[r][k] * x[k]), frozenset({("omitted_term", (k,))}))
        for k in range(len(x))
        if k != r
    ]


def _res_next_entry(p):
    W, x, r = _res(p)
    m = r + 1 if r + 1 < len(x) else r - 1  # the entry next to x_r
    return one(Fraction(x[m] + W[r] @ x), ("wrong_entry", (0, m)))


# ---- score_softmax: softmax(s / sqrt(d)), s_a = sum_c q_c C[c][a] -------------------------


def _scores(p):
    q = np.array([float(v) for v in p["q"]])
    C = np.array([[float(v) for v in row] for row in p["C"]])
    return q @ C, int(p["d"])


def ss_right(p: dict) -> tuple[float, ...]:
    s, d = _scores(p)
    return softmax(s / math.sqrt(d))


def _ss_unscaled(p):
    s, _ = _scores(p)
    return one(softmax(s), ("forgot_normalisation", (0,)), ("carried_wrong_step", (2, 1, 0)))


def _ss_by_d(p):
    s, d = _scores(p)
    return one(softmax(s / d), ("forgot_sqrt", (0,)))


def _ss_exponentials(p):
    s, d = _scores(p)
    return one(tuple(float(v) for v in np.exp(s / math.sqrt(d))), ("forgot_normalisation", (1,)))


def _ss_scaled_scores(p):
    s, d = _scores(p)
    return one(tuple(float(v) for v in s / math.sqrt(d)), ("stopped_at_step", (1,)))


def _ss_coordinate_left_out(p):
    q = np.array([float(v) for v in p["q"]])
    C = np.array([[float(v) for v in row] for row in p["C"]])
    d = int(p["d"])
    out = []
    for k in range(d):
        keep = [c for c in range(d) if c != k]
        out.append((softmax(q[keep] @ C[keep] / math.sqrt(d)), frozenset({("omitted_term", (k,))})))
    return out


def _ss_multiplied(p):
    s, d = _scores(p)
    return one(softmax(s * math.sqrt(d)), ("multiplied_for_division", (0,)))


# ---- ema_update: beta m + (1 - beta) g --------------------------------------------------------


def ema_right(p: dict) -> Fraction:
    beta, m, g = p["beta"], p["m"], p["g"]
    return beta * m + (1 - beta) * g


def _ema_weights_swapped(p):
    beta, m, g = p["beta"], p["m"], p["g"]
    return one((1 - beta) * m + beta * g, ("swapped_parameters", (1, 2)))


def _ema_beta_twice(p):
    beta, m, g = p["beta"], p["m"], p["g"]
    return one(beta * m + beta * g, ("one_side", (0, 1)))


def _ema_unweighted_new(p):
    beta, m, g = p["beta"], p["m"], p["g"]
    # the factor (1 - beta) left out; giving 1 alone for 1 - beta is the same computation
    return one(beta * m + g, ("left_out_factor", (1, 0)), ("one_side", (0, 0)))


def _ema_old_for_new(p):
    beta, m = p["beta"], p["m"]
    return one(beta * m + (1 - beta) * m, ("wrong_parameter", (1, 1)))


def _ema_new_for_old(p):
    beta, g = p["beta"], p["g"]
    return one(beta * g + (1 - beta) * g, ("wrong_parameter", (0, 2)))


def _p(kind, code, category, what, cases) -> Planted:
    return Planted(kind, code, category, what, cases)


PLANTED: tuple[Planted, ...] = (
    _p(
        "layer_norm_entry",
        "divided_by_variance",
        "forgotten sqrt",
        "divided by the variance, not its square root",
        _ln_variance,
    ),
    _p(
        "layer_norm_entry",
        "centred_only",
        "forgotten normalisation",
        "centred the entry and did not divide",
        _ln_centred,
    ),
    _p(
        "layer_norm_entry",
        "summed_squares",
        "sum for mean",
        "added the squared distances without dividing by n",
        _ln_summed,
    ),
    _p(
        "layer_norm_entry",
        "mean_minus_entry",
        "sign flip",
        "subtracted the entry from the mean",
        _ln_reversed,
    ),
    _p(
        "layer_norm_entry",
        "not_centred",
        "term left out",
        "divided the entry itself, the mean not subtracted",
        _ln_not_centred,
    ),
    _p(
        "layer_norm_entry",
        "sample_variance",
        "off-by-one",
        "divided the squared distances by n - 1",
        _ln_sample,
    ),
    _p(
        "cosine_pair",
        "no_roots",
        "forgotten sqrt",
        "divided by the squared lengths",
        _cos_no_roots,
    ),
    _p(
        "cosine_pair",
        "one_length_squared",
        "forgotten sqrt",
        "used one vector's squared length",
        _cos_one_squared,
    ),
    _p(
        "cosine_pair",
        "one_length_only",
        "term left out",
        "divided by one length only",
        _cos_one_length,
    ),
    _p(
        "cosine_pair",
        "dot_only",
        "forgotten normalisation",
        "gave the dot product",
        _cos_dot_only,
    ),
    _p(
        "cosine_pair",
        "added_lengths",
        "operator replaced",
        "divided by the sum of the lengths",
        _cos_added_lengths,
    ),
    _p("mean_pooling", "summed", "sum for mean", "added the rows and did not divide", _pool_summed),
    _p(
        "mean_pooling",
        "divided_by_n",
        "wrong parameter",
        "divided by the padded length n",
        _pool_by_n,
    ),
    _p(
        "mean_pooling",
        "padding_included",
        "wrong parameter",
        "averaged every row, the padding included",
        _pool_padding,
    ),
    _p(
        "mean_pooling",
        "first_row_left_out",
        "term left out",
        "started at row 1",
        _pool_first_left_out,
    ),
    _p(
        "mean_pooling",
        "stopped_short",
        "off-by-one",
        "stopped one row short of L - 1",
        _pool_stopped_short,
    ),
    _p(
        "mean_pooling",
        "one_row_past",
        "off-by-one",
        "added row L, the first padding row, too",
        _pool_one_past,
    ),
    _p("weighted_average_bias", "no_bias", "term left out", "left the bias out", _wab_no_bias),
    _p(
        "weighted_average_bias",
        "not_divided",
        "forgotten normalisation",
        "did not divide by the total weight",
        _wab_not_divided,
    ),
    _p(
        "weighted_average_bias",
        "plain_mean",
        "term left out",
        "averaged the values with equal weights",
        _wab_plain_mean,
    ),
    _p(
        "weighted_average_bias",
        "term_left_out",
        "term left out",
        "left one product out of the numerator",
        _wab_term_left_out,
    ),
    _p(
        "weighted_average_bias",
        "bias_subtracted",
        "sign flip",
        "subtracted the bias",
        _wab_bias_subtracted,
    ),
    _p(
        "residual_entry",
        "no_residual",
        "term left out",
        "gave W x alone, the residual x_r left out",
        _res_no_residual,
    ),
    _p(
        "residual_entry",
        "transposed",
        "indices swapped",
        "read column r of W instead of row r",
        _res_transposed,
    ),
    _p(
        "residual_entry",
        "no_diagonal",
        "self term left out",
        "left out the term j = r",
        _res_no_diagonal,
    ),
    _p(
        "residual_entry",
        "term_left_out",
        "term left out",
        "left out another term of the sum",
        _res_term_left_out,
    ),
    _p(
        "residual_entry", "next_entry", "off-by-one", "added the entry next to x_r", _res_next_entry
    ),
    _p(
        "score_softmax",
        "unscaled",
        "step carried wrongly",
        "took the softmax of the unscaled scores",
        _ss_unscaled,
    ),
    _p("score_softmax", "divided_by_d", "forgotten sqrt", "divided the scores by d", _ss_by_d),
    _p(
        "score_softmax",
        "exponentials",
        "forgotten normalisation",
        "gave the exponentials, not divided by their total",
        _ss_exponentials,
    ),
    _p(
        "score_softmax",
        "scaled_scores",
        "step carried wrongly",
        "stopped at the scaled scores",
        _ss_scaled_scores,
    ),
    _p(
        "score_softmax",
        "coordinate_left_out",
        "term left out",
        "left one coordinate out of the scores",
        _ss_coordinate_left_out,
    ),
    _p(
        "score_softmax",
        "multiplied_by_root",
        "operator replaced",
        "multiplied the scores by sqrt(d)",
        _ss_multiplied,
    ),
    _p(
        "ema_update",
        "weights_swapped",
        "wrong one of two parameters",
        "weighted m by 1 - beta and g by beta",
        _ema_weights_swapped,
    ),
    _p("ema_update", "beta_twice", "term left out", "weighted both by beta", _ema_beta_twice),
    _p(
        "ema_update",
        "unweighted_new",
        "term left out",
        "added g without its weight",
        _ema_unweighted_new,
    ),
    _p(
        "ema_update",
        "old_for_new",
        "wrong one of two parameters",
        "used m where g belongs",
        _ema_old_for_new,
    ),
    _p(
        "ema_update",
        "new_for_old",
        "wrong one of two parameters",
        "used g where m belongs",
        _ema_new_for_old,
    ),
)

# The right answer of each kind, computed the same way (to tell a planted answer that happens
# to be right on a problem from a wrong one).
RIGHT: dict[str, Callable[[dict], Any]] = {
    "layer_norm_entry": ln_right,
    "cosine_pair": cos_right,
    "mean_pooling": pool_right,
    "weighted_average_bias": wab_right,
    "residual_entry": res_right,
    "score_softmax": ss_right,
    "ema_update": ema_right,
}
