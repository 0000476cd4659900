"""A calibration map for FSRS's predicted recall: pure, NumPy only, no Django.

FSRS's predicted recall p can be far from what learners show: the learner simulator measured
log losses twice a constant guess's, because memory lasts much longer than FSRS's default curve
expects (docs/simulation.md). The map is Platt scaling in logit space::

    logit(p_cal) = a * logit(p) + b

two numbers fitted by maximum likelihood to explicit review outcomes (recalled unless rated
Again) against the raw FSRS predictions stored for them (``ReviewLog.fsrs_recall``). a > 1
sharpens FSRS's predictions, a < 1 flattens them, b > 0 says recall is better than predicted.

It cannot run away:

- a lies in ``A_RANGE`` and b in ``B_RANGE``; the fit is constrained to them, and a small pull
  toward the identity (``PRIOR``, in units of one review's log-likelihood) keeps a log that
  separates perfectly from sending either to a bound.
- A fit needs ``MIN_REVIEWS`` reviews with a stored prediction, of ``MIN_ITEMS`` items, and at
  least ``MIN_OUTCOMES`` failed and as many recalled ones among the earlier (training)
  reviews: a log of one outcome or one item never yields a map.
- It is judged by time: the last ``HOLDOUT_SHARE`` of the reviews (by moment) are held out,
  and the map is adopted only when its log loss on them is lower than the map in use's (or
  FSRS's own predictions' when none is); at least ``MIN_TEST_REVIEWS`` are held out.
- Scheduling with it (``effective_retention``): the due date is when the *calibrated* recall
  falls to the learner's desired retention r, i.e. when FSRS's own recall falls to
  ``sigmoid((logit(r) - b) / a)``; that retention is clamped to ``EFFECTIVE_RANGE`` and never
  below ``lowest`` (the 5th percentile of the raw predictions the map was fitted on: a map is
  not trusted where it saw no data). The scheduler's ``MAXIMUM_INTERVAL_DAYS`` still bounds
  every interval.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from .calibration import log_loss

A_RANGE = (0.25, 4.0)
B_RANGE = (-4.0, 4.0)
PRIOR = 1.0
MIN_REVIEWS = 100
MIN_ITEMS = 10
MIN_OUTCOMES = 3
MIN_TEST_REVIEWS = 30
HOLDOUT_SHARE = 0.25
# The FSRS retentions a calibrated schedule may aim at (the learner's own target stays 0.80 to
# 0.97; this is what FSRS is asked for so that the *calibrated* recall meets it).
EFFECTIVE_RANGE = (0.70, 0.99)
LOWEST_QUANTILE = 0.05
_EPS = 1e-4


def _logit(p: np.ndarray | float) -> np.ndarray | float:
    p = np.clip(p, _EPS, 1 - _EPS)
    return np.log(p / (1 - p))


def _sigmoid(z: np.ndarray | float) -> np.ndarray | float:
    return 1 / (1 + np.exp(-z))


@dataclass(frozen=True)
class RecallMap:
    """One calibration map: ``logit(p_cal) = a * logit(p) + b``, trusted down to ``lowest``."""

    a: float
    b: float
    lowest: float = EFFECTIVE_RANGE[0]

    def __post_init__(self) -> None:
        if not (A_RANGE[0] <= self.a <= A_RANGE[1] and B_RANGE[0] <= self.b <= B_RANGE[1]):
            raise ValueError(
                f"a map's a lies in {A_RANGE} and b in {B_RANGE}: a={self.a}, b={self.b}"
            )

    def apply(self, p: float) -> float:
        """Return the calibrated recall of FSRS's predicted recall ``p`` (0 and 1, certain,
        stay as they are: a > 0 maps an infinite logit to itself)."""
        if p <= 0 or p >= 1:
            return float(p)
        return float(_sigmoid(self.a * _logit(float(p)) + self.b))

    def effective_retention(self, desired: float) -> float:
        """Return the FSRS retention whose due date is when the calibrated recall falls to
        ``desired``, clamped to ``EFFECTIVE_RANGE`` and never below ``lowest``."""
        if not 0 < desired < 1:
            raise ValueError(f"a desired retention lies strictly between 0 and 1: {desired}")
        raw = float(_sigmoid((_logit(float(desired)) - self.b) / self.a))
        low = max(EFFECTIVE_RANGE[0], min(self.lowest, EFFECTIVE_RANGE[1]))
        return min(EFFECTIVE_RANGE[1], max(low, raw))


IDENTITY = RecallMap(1.0, 0.0)


def _objective(a: float, b: float, x: np.ndarray, y: np.ndarray) -> float:
    z = a * x + b
    # log(1 + e^z) computed stably; the log-likelihood is y z - log(1 + e^z).
    ll = np.sum(y * z - np.logaddexp(0, z))
    return float(ll - PRIOR / 2 * ((a - 1) ** 2 + b**2))


def fit_map(predicted: Sequence[float], outcomes: Sequence[bool]) -> tuple[float, float]:
    """Return (a, b) maximising the penalised likelihood of the outcomes within the ranges
    (projected Newton steps with step halving). Needs both outcomes to mean anything; the
    caller checks that (``fit_and_judge``)."""
    x = np.asarray(_logit(np.asarray(predicted, dtype=float)), dtype=float)
    y = np.asarray(outcomes, dtype=float)
    a, b = 1.0, 0.0
    current = _objective(a, b, x, y)
    for _ in range(100):
        q = _sigmoid(a * x + b)
        w = q * (1 - q)
        grad = np.array([np.sum((y - q) * x) - PRIOR * (a - 1), np.sum(y - q) - PRIOR * b])
        hess = np.array(
            [
                [np.sum(w * x * x) + PRIOR, np.sum(w * x)],
                [np.sum(w * x), np.sum(w) + PRIOR],
            ]
        )
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-6:
            na = float(np.clip(a + scale * step[0], *A_RANGE))
            nb = float(np.clip(b + scale * step[1], *B_RANGE))
            value = _objective(na, nb, x, y)
            if value >= current - 1e-12:
                break
            scale /= 2
        else:
            break
        moved = abs(na - a) + abs(nb - b)
        a, b, current = na, nb, value
        if moved < 1e-9:
            break
    return a, b


@dataclass(frozen=True)
class MapFit:
    """A fitted map with its held-out scores against the map in use."""

    map: RecallMap
    train_reviews: int
    test_reviews: int
    items: int
    log_loss: float  # the new map's, on the held-out reviews
    current_log_loss: float  # the map in use's (or FSRS's own), on the same reviews
    constant_log_loss: float  # the held-out outcomes' own mean, for the record

    @property
    def beats_current(self) -> bool:
        """Return whether the new map predicted the held-out reviews better."""
        return self.log_loss < self.current_log_loss


def fit_and_judge(
    reviews: Sequence[tuple[datetime, int, float, bool]],
    *,
    current: RecallMap | None = None,
) -> MapFit | None:
    """Fit a map to (moment, item, raw FSRS prediction, recalled) reviews and judge it on the
    later ones against ``current`` (None: FSRS's own predictions); None when the log is too
    small or degenerate (module docstring)."""
    if len(reviews) < MIN_REVIEWS or len({item for _at, item, _p, _y in reviews}) < MIN_ITEMS:
        return None
    ordered = sorted(reviews, key=lambda r: r[0])
    cut = len(ordered) - max(MIN_TEST_REVIEWS, math.ceil(len(ordered) * HOLDOUT_SHARE))
    train, test = ordered[:cut], ordered[cut:]
    recalled = sum(bool(y) for *_rest, y in train)
    if recalled < MIN_OUTCOMES or len(train) - recalled < MIN_OUTCOMES:
        return None
    a, b = fit_map([p for _at, _i, p, _y in train], [y for *_rest, y in train])
    lowest = float(np.quantile([p for _at, _i, p, _y in train], LOWEST_QUANTILE))
    fitted = RecallMap(a, b, lowest)
    in_use = current or IDENTITY
    raw = [p for _at, _i, p, _y in test]
    outcomes = [bool(y) for *_rest, y in test]
    mean = sum(outcomes) / len(outcomes)
    return MapFit(
        map=fitted,
        train_reviews=len(train),
        test_reviews=len(test),
        items=len({item for _at, item, _p, _y in reviews}),
        log_loss=log_loss([(fitted.apply(p), y) for p, y in zip(raw, outcomes, strict=True)]),
        current_log_loss=log_loss(
            [(in_use.apply(p), y) for p, y in zip(raw, outcomes, strict=True)]
        ),
        constant_log_loss=log_loss([(mean, y) for y in outcomes]),
    )
