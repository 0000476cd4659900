"""Calibration of predicted recall against explicit review outcomes: pure, no Django.

Three measures of one set of (predicted recall, outcome) pairs: log loss (lower is better),
RMSE over bins (predictions grouped in tenths; each bin's mean prediction against its share
recalled, weighted by its size, as the FSRS benchmark bins), and AUC (the chance that a recalled
review got a higher prediction than a failed one; 0.5 is a coin). The bar is a constant guess:
the outcomes' own mean, whose log loss is the outcomes' entropy.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

_EPS = 1e-6
BINS = 10


@dataclass(frozen=True)
class Calibration:
    """The measures of one set of pairs."""

    reviews: int
    recalled: int
    log_loss: float
    constant_log_loss: float
    rmse_bins: float
    auc: float | None


def log_loss(pairs: Sequence[tuple[float, bool]]) -> float:
    """Return the mean log loss of (predicted recall, recalled) pairs (clipped at ``_EPS``)."""
    total = 0.0
    for p, y in pairs:
        p = min(1 - _EPS, max(_EPS, p))
        total -= math.log(p if y else 1 - p)
    return total / len(pairs)


def _auc(pairs: Sequence[tuple[float, bool]]) -> float | None:
    ranked = sorted(pairs, key=lambda pair: pair[0])
    positives = sum(y for _p, y in ranked)
    negatives = len(ranked) - positives
    if positives == 0 or negatives == 0:
        return None
    # Mann-Whitney U with average ranks for ties.
    rank_sum = 0.0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        average = (i + 1 + j) / 2
        rank_sum += average * sum(y for _p, y in ranked[i:j])
        i = j
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def calibration_of(pairs: Sequence[tuple[float, bool]]) -> Calibration | None:
    """Return the measures of (predicted recall, recalled) pairs; None when there are none."""
    if not pairs:
        return None
    for p, _y in pairs:
        if not 0 <= p <= 1:
            raise ValueError(f"a predicted recall lies in [0, 1]: {p}")
    recalled = sum(bool(y) for _p, y in pairs)
    mean = recalled / len(pairs)
    bins: dict[int, list[tuple[float, bool]]] = {}
    for p, y in pairs:
        bins.setdefault(min(BINS - 1, int(p * BINS)), []).append((p, bool(y)))
    squared = sum(
        len(b) * (sum(p for p, _y in b) / len(b) - sum(y for _p, y in b) / len(b)) ** 2
        for b in bins.values()
    )
    return Calibration(
        reviews=len(pairs),
        recalled=recalled,
        log_loss=log_loss(pairs),
        constant_log_loss=log_loss([(mean, bool(y)) for _p, y in pairs]),
        rmse_bins=math.sqrt(squared / len(pairs)),
        auc=_auc(pairs),
    )
