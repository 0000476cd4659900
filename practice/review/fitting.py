"""Fitting FSRS parameters to review histories with the Rust optimizer: pure, no Django.

``fsrs-rs-python`` (the Rust FSRS's binding, no PyTorch) fits and scores parameters; py-fsrs
keeps scheduling with whatever set is adopted (both are FSRS-6: 21 parameters, the same
defaults; ``tests/review/test_fitting.py`` checks that they agree on memory states and intervals).

A card's history is its ratings with their moments. As the optimizer expects, every review
after the first becomes one training example: the history before it, with the whole days
between reviews (py-fsrs counts elapsed days the same way, by flooring), and the review's rating
as the outcome. Examples are split by time: the last ``HOLDOUT_SHARE`` of them, by the moment
of the predicted review, are held out, the rest trains. A candidate is adopted only when it
beats the current parameters on the held-out reviews in both log loss and RMSE over bins (the
two measures of the FSRS benchmark, computed by the binding's ``evaluate``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import fsrs_rs_python

__all__ = [
    "DEFAULT_PARAMETERS",
    "HOLDOUT_SHARE",
    "Fit",
    "Scores",
    "examples_of",
    "fit_parameters",
    "score_parameters",
]

HOLDOUT_SHARE = 0.2
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs_rs_python.DEFAULT_PARAMETERS)


@dataclass(frozen=True)
class Example:
    """One review to predict: when it happened and the history up to and including it."""

    at: datetime
    item: fsrs_rs_python.FSRSItem
    long_term: bool  # at least a day after the review before it (what evaluation scores)
    trainable: bool  # some review of the history is a day or more after the one before it


@dataclass(frozen=True)
class Scores:
    """How well a parameter set predicts a set of reviews (lower is better for both)."""

    log_loss: float
    rmse_bins: float


@dataclass(frozen=True)
class Fit:
    """A candidate parameter set, its data and its held-out scores against the current set."""

    parameters: tuple[float, ...]
    train_reviews: int
    test_reviews: int
    candidate: Scores
    current: Scores

    @property
    def beats_current(self) -> bool:
        """Return whether the candidate is better than the current set on both measures."""
        return (
            self.candidate.log_loss < self.current.log_loss
            and self.candidate.rmse_bins < self.current.rmse_bins
        )


def examples_of(histories: Sequence[Sequence[tuple[datetime, int]]]) -> list[Example]:
    """Return one example per review after a card's first, oldest first.

    Each history is one card's (moment, rating) pairs in time order; ratings are 1 to 4.
    """
    examples: list[Example] = []
    for history in histories:
        reviews: list[fsrs_rs_python.FSRSReview] = []
        previous: datetime | None = None
        spaced = False
        for at, rating in history:
            if not 1 <= int(rating) <= 4:
                raise ValueError(f"a rating is 1 to 4, not {rating}")
            days = 0 if previous is None else (at - previous).days
            if days < 0:
                raise ValueError("a card's history must be in time order")
            reviews.append(fsrs_rs_python.FSRSReview(int(rating), days))
            spaced = spaced or days > 0
            if previous is not None:
                item = fsrs_rs_python.FSRSItem(list(reviews))
                examples.append(Example(at, item, days > 0, spaced))
            previous = at
    examples.sort(key=lambda example: example.at)
    return examples


def score_parameters(parameters: Sequence[float], examples: Sequence[Example]) -> Scores | None:
    """Return the log loss and RMSE over bins of the parameters on the examples' long-term
    reviews, or None when there are none to score."""
    items = [example.item for example in examples if example.long_term]
    if not items:
        return None
    evaluation = fsrs_rs_python.FSRS(list(parameters)).evaluate(items)
    return Scores(log_loss=float(evaluation.log_loss), rmse_bins=float(evaluation.rmse_bins))


def fit_parameters(
    histories: Sequence[Sequence[tuple[datetime, int]]],
    *,
    current: Sequence[float] | None = None,
    min_test_reviews: int = 1,
) -> Fit | None:
    """Fit parameters on the earlier reviews and score them against ``current`` (the
    defaults when None) on the later, held-out ones.

    Returns None when the data is too small: the optimizer gives back its defaults unchanged
    (its own minimum), or fewer than ``min_test_reviews`` long-term reviews are held out.
    """
    current = tuple(current) if current is not None else DEFAULT_PARAMETERS
    examples = examples_of(histories)
    cut = int(len(examples) * (1 - HOLDOUT_SHARE))
    # The optimizer refuses a history without a review a day or more after the one before.
    train = [example for example in examples[:cut] if example.trainable]
    test = examples[cut:]
    test_reviews = sum(example.long_term for example in test)
    if not train or test_reviews < max(1, min_test_reviews):
        return None
    optimizer = fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS))
    fitted = tuple(float(w) for w in optimizer.compute_parameters([e.item for e in train]))
    if fitted == DEFAULT_PARAMETERS:
        return None
    candidate = score_parameters(fitted, test)
    baseline = score_parameters(current, test)
    if candidate is None or baseline is None:
        return None
    return Fit(
        parameters=fitted,
        train_reviews=len(train),
        test_reviews=test_reviews,
        candidate=candidate,
        current=baseline,
    )
