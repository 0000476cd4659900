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

A fit cannot run away (``refusal``): it needs at least ``MIN_ITEMS`` cards and
``MIN_OUTCOMES`` failed and as many passed outcomes among the reviews to predict (a log of one
rating or one card says nothing about forgetting), and a fitted set is refused when a first
stability exceeds ``MAX_FIRST_STABILITY_DAYS`` or when, at any retention in use, a card rated
Good on time gets more than ``MAX_DAYS_AFTER_ONE_GOOD`` after its first Good or more than
``MAX_DAYS_EVER`` within its first ``EVER_GOODS`` Goods (the library's defaults pass; they
themselves reach past 3 years after the fourth Good at 0.80, which the scheduler's
``MAXIMUM_INTERVAL_DAYS`` cap then bounds). Intervals are read uncapped, so the cap hides
nothing from the check.

The retentions in use are the site's default and every retention the fit's learners have
chosen, as the weekly task passes them (``CHECKED_RETENTIONS``, every one a learner may
choose from 0.80 to 0.97, when none is given). That is the issue's rule ("intervals at the
site's retention"): a time scale sane at 0.97 may reach 3 years within three Goods at 0.80,
where none of them aims. A learner who lowers their retention after a set was adopted keeps
it until the next weekly fit checks it at their new retention; the scheduler's
``MAXIMUM_INTERVAL_DAYS`` bounds them meanwhile.

The first stability of a rating no history starts with says nothing about the data: the site
never rates Easy, so the optimizer's ``w[3]`` (the first stability after Easy) is its own
extrapolation from the others and can pass ``MAX_FIRST_STABILITY_DAYS`` while every weight the
data informs is sane. Such a weight is put on that bound before the check
(``bound_unrated_first_stabilities``), never the reason a set is refused.

**One number when 21 cannot be fitted** (``fit_time_scale``). A site whose learners aim high
fails few reviews, too few for the optimizer, yet many passes at a predicted 0.97 say plainly
that memory lasts longer than FSRS's curve: the weights in use are kept and a time scale k is
fitted instead (``scheduling``'s docstring: FSRS on a clock k times slower), chosen from
``TIME_SCALES`` (0.5 to 8; only those whose intervals pass ``refusal`` at the retentions in
use, scaled) by the log loss
of the earlier reviews, each history replayed through the scheduler itself. It is judged as a
set is, on the later, held-out reviews against the set in use (log loss and RMSE over bins,
``calibration.calibration_of``), and needs ``MIN_SCALE_REVIEWS`` scored reviews on
``MIN_ITEMS`` cards among which the scale in use expected ``MIN_EXPECTED_FAILURES`` failures,
and at least one failed and one passed review: a log of one rating never yields one, while 3
failures where 25 were expected (what learners with strong memories give) is evidence enough.
"""

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import fsrs_rs_python
from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from . import calibration, scheduling

__all__ = [
    "DEFAULT_PARAMETERS",
    "HOLDOUT_SHARE",
    "Fit",
    "Scores",
    "bound_unrated_first_stabilities",
    "examples_of",
    "fit_parameters",
    "fit_time_scale",
    "into_bounds",
    "refusal",
    "replayed_predictions",
    "score_parameters",
]

logger = logging.getLogger(__name__)

HOLDOUT_SHARE = 0.2
# The optimizer computes in 32-bit floats: a weight it clamps to a bound of py-fsrs's (which
# checks in 64 bits) can come back a rounding past it (0.8 as 0.800000011920929).
FLOAT32_SLACK = 1e-6
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs_rs_python.DEFAULT_PARAMETERS)

# Enough data to fit at all: cards, and failed and passed outcomes among the reviews predicted.
MIN_ITEMS = 10
MIN_OUTCOMES = 10
# A fitted set is sane only within these bounds (days).
MAX_FIRST_STABILITY_DAYS = 30.0
MAX_DAYS_AFTER_ONE_GOOD = 365
MAX_DAYS_EVER = 3 * 365
EVER_GOODS = 3
CHECKED_RETENTIONS: tuple[float, ...] = (0.80, 0.85, 0.90, 0.93, 0.95, 0.97)
# The time scales a one-number fit chooses from, and the data it needs.
TIME_SCALES: tuple[float, ...] = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
MIN_SCALE_REVIEWS = 100
# Failures the scale in use expects among the scored reviews (the sum of 1 - predicted recall):
# the data says something about forgetting once that many were to be seen, however few were.
MIN_EXPECTED_FAILURES = 10.0
_START = datetime(2026, 1, 1, tzinfo=UTC)


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
    time_scale: float = 1.0

    @property
    def beats_current(self) -> bool:
        """Return whether the candidate is better than the current set on both measures."""
        return (
            self.candidate.log_loss < self.current.log_loss
            and self.candidate.rmse_bins < self.current.rmse_bins
        )


def examples_of(histories: Sequence[Sequence[tuple[datetime, int]]]) -> list[Example]:
    """Return one example per review after a card's first, oldest first.

    Each history is one card's (moment, rating) pairs in time order; ratings are 1 to 4. An
    entry may carry a third value, whether it is an outcome to predict (``_is_target``): one
    that is not (a mistake made in ordinary practice) stays in the history of the reviews
    after it, but is never itself an example.
    """
    examples: list[Example] = []
    for history in histories:
        reviews: list[fsrs_rs_python.FSRSReview] = []
        previous: datetime | None = None
        spaced = False
        for entry in history:
            at, rating = entry[0], entry[1]
            if not 1 <= int(rating) <= 4:
                raise ValueError(f"a rating is 1 to 4, not {rating}")
            days = 0 if previous is None else (at - previous).days
            if days < 0:
                raise ValueError("a card's history must be in time order")
            reviews.append(fsrs_rs_python.FSRSReview(int(rating), days))
            spaced = spaced or days > 0
            if previous is not None and _is_target(entry):
                item = fsrs_rs_python.FSRSItem(list(reviews))
                examples.append(Example(at, item, days > 0, spaced))
            previous = at
    examples.sort(key=lambda example: example.at)
    return examples


def _is_target(entry: Sequence) -> bool:
    """Return whether a history's entry is an outcome to predict: a (moment, rating) pair is;
    a (moment, rating, target) triple says.

    Only outcomes at moments the scheduler chose are targets. A mistake made in ordinary
    practice is logged (it is a lapse, and the reviews after it start from it), but the right
    answers of the same practice are not (they are evidence, never ratings): as targets, the
    practice's logs would be its failures alone, and a fit would learn that memory is weaker
    than it is.
    """
    return len(entry) < 3 or bool(entry[2])


def _good_intervals(
    parameters: Sequence[float], retention: float, *, first: Rating, time_scale: float = 1.0
) -> list[float]:
    """Return the uncapped intervals (days) of a new card rated ``first``, then Good on each due
    date, for its first ``EVER_GOODS`` Goods; on a time scale, FSRS's intervals that many times
    as long (its clock runs slower by as much, so the memory states are FSRS's own)."""
    scheduler = Scheduler(
        parameters=tuple(parameters),
        desired_retention=retention,
        learning_steps=(timedelta(hours=1),),
        relearning_steps=(timedelta(hours=1),),
        maximum_interval=36500,
        enable_fuzzing=False,
    )
    at = _START
    card, _log = scheduler.review_card(Card(card_id=0, due=at), first, review_datetime=at)
    intervals: list[float] = []
    if first == Rating.Good:
        intervals.append((card.due - at).total_seconds() / 86400)
    while len(intervals) < EVER_GOODS:
        at = card.due
        card, _log = scheduler.review_card(card, Rating.Good, review_datetime=at)
        intervals.append((card.due - at).total_seconds() / 86400)
    return [interval * time_scale for interval in intervals]


def into_bounds(parameters: Sequence[float]) -> tuple[float, ...]:
    """Return the weights with each one a 32-bit rounding outside py-fsrs's bounds put on the
    bound; a weight further out (or not finite) is kept, for ``refusal`` to name."""
    weights = []
    for index, (w, low, high) in enumerate(
        zip(parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=False)
    ):
        w = float(w)
        slack = FLOAT32_SLACK * max(1.0, abs(w))
        if math.isfinite(w) and (low - slack <= w < low or high < w <= high + slack):
            logger.warning("weight %d of a fit, %r, put on its bound [%g, %g]", index, w, low, high)
            w = min(high, max(low, w))
        weights.append(w)
    return (*weights, *(float(w) for w in parameters[len(weights) :]))


def bound_unrated_first_stabilities(
    parameters: Sequence[float], histories: Sequence[Sequence[tuple[datetime, int]]]
) -> tuple[float, ...]:
    """Return the weights with the first stability of each rating no history starts with
    (``w[rating - 1]``) put at most at ``MAX_FIRST_STABILITY_DAYS``; the others unchanged."""
    rated_first = {int(history[0][1]) for history in histories if history}
    weights = [float(w) for w in parameters]
    for rating in range(1, 5):
        if rating not in rated_first and weights[rating - 1] > MAX_FIRST_STABILITY_DAYS:
            weights[rating - 1] = MAX_FIRST_STABILITY_DAYS
    return tuple(weights)


def refusal(
    parameters: Sequence[float],
    retentions: Sequence[float] = CHECKED_RETENTIONS,
    *,
    time_scale: float = 1.0,
) -> str | None:
    """Return why a parameter set (on a time scale) is not sane (see the module docstring),
    None when it is.

    A set py-fsrs would not accept (a weight outside its bounds, or not finite) is refused
    with the weight named, never raised.
    """
    weights = tuple(float(w) for w in parameters)
    if len(weights) != len(DEFAULT_PARAMETERS):
        return f"{len(weights)} parameters, not {len(DEFAULT_PARAMETERS)}"
    for index, (w, low, high) in enumerate(
        zip(weights, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    ):
        if not (math.isfinite(w) and low <= w <= high):
            return f"weight {index} is {w!r}, outside py-fsrs's bounds [{low:g}, {high:g}]"
    low, high = scheduling.MIN_TIME_SCALE, scheduling.MAX_TIME_SCALE
    if not low <= time_scale <= high:
        return f"a time scale of {time_scale:g}, outside [{low:g}, {high:g}]"
    if max(weights[:4]) > MAX_FIRST_STABILITY_DAYS:
        return (
            f"a first stability of {max(weights[:4]):.1f} days"
            f" (at most {MAX_FIRST_STABILITY_DAYS:g})"
        )
    # On a time scale, the first stabilities of the ratings the site gives (never Easy) last
    # that many times as long.
    if max(weights[:3]) * time_scale > MAX_FIRST_STABILITY_DAYS:
        return (
            f"a first stability of {max(weights[:3]) * time_scale:.1f} days on the time scale"
            f" {time_scale:g} (at most {MAX_FIRST_STABILITY_DAYS:g})"
        )
    for retention in retentions:
        # The site never rates Easy (scheduling.rating_for): a card starts with Again (a
        # mistake made) or Good (its first review right).
        for first in (Rating.Good, Rating.Again):
            intervals = _good_intervals(weights, retention, first=first, time_scale=time_scale)
            if intervals[0] > MAX_DAYS_AFTER_ONE_GOOD:
                return (
                    f"{intervals[0]:.0f} days after one Good at retention {retention:g}"
                    f" (at most {MAX_DAYS_AFTER_ONE_GOOD})"
                )
            if max(intervals) > MAX_DAYS_EVER:
                return (
                    f"{max(intervals):.0f} days within {EVER_GOODS} Goods at retention"
                    f" {retention:g} (at most {MAX_DAYS_EVER})"
                )
    return None


def enough_data(histories: Sequence[Sequence[tuple[datetime, int]]]) -> bool:
    """Return whether the histories can be fitted at all: ``MIN_ITEMS`` cards with a review to
    predict, and ``MIN_OUTCOMES`` failed (Again) and as many passed outcomes among those."""
    targets = [[int(entry[1]) for entry in h[1:] if _is_target(entry)] for h in histories]
    predicted = [outcomes for outcomes in targets if outcomes]
    outcomes = [rating for ratings in predicted for rating in ratings]
    failed = sum(rating == 1 for rating in outcomes)
    return (
        len(predicted) >= MIN_ITEMS
        and failed >= MIN_OUTCOMES
        and len(outcomes) - failed >= MIN_OUTCOMES
    )


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
    current_scale: float = 1.0,
    min_test_reviews: int = 1,
    retentions: Sequence[float] = CHECKED_RETENTIONS,
) -> Fit | None:
    """Fit parameters on the earlier reviews and score them against ``current`` (the
    defaults when None) on its time scale ``current_scale`` on the later, held-out ones
    (both replayed through the scheduler when that scale is not 1: the optimizer's own
    evaluation knows no time scale).

    Returns None when the data is too small or degenerate (``enough_data``), when the
    optimizer gives back its defaults unchanged (its own minimum), when fewer than
    ``min_test_reviews`` long-term reviews are held out, or when the fitted set is not sane
    (``refusal``, at ``retentions``): such a set is never stored, let alone adopted.
    """
    current = tuple(current) if current is not None else DEFAULT_PARAMETERS
    if not enough_data(histories):
        return None
    examples = examples_of(histories)
    cut = int(len(examples) * (1 - HOLDOUT_SHARE))
    # The optimizer refuses a history without a review a day or more after the one before.
    train = [example for example in examples[:cut] if example.trainable]
    test = examples[cut:]
    test_reviews = sum(example.long_term for example in test)
    if not train or test_reviews < max(1, min_test_reviews):
        return None
    optimizer = fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS))
    fitted = into_bounds(optimizer.compute_parameters([e.item for e in train]))
    fitted = bound_unrated_first_stabilities(fitted, histories)
    if fitted == DEFAULT_PARAMETERS or refusal(fitted, retentions) is not None:
        return None
    if current_scale == 1.0:
        candidate = score_parameters(fitted, test)
        baseline = score_parameters(current, test)
    else:
        cut_at = test[0].at
        candidate, baseline = (
            _scores(
                [
                    row
                    for row in replayed_predictions(histories, parameters=weights, time_scale=k)
                    if row[0] >= cut_at
                ]
            )
            for weights, k in ((fitted, 1.0), (current, current_scale))
        )
    if candidate is None or baseline is None:
        return None
    return Fit(
        parameters=fitted,
        train_reviews=len(train),
        test_reviews=test_reviews,
        candidate=candidate,
        current=baseline,
    )


def replayed_predictions(
    histories: Sequence[Sequence[tuple[datetime, int]]],
    *,
    parameters: Sequence[float] | None,
    time_scale: float,
) -> list[tuple[datetime, float, bool]]:
    """Return (moment, predicted recall, recalled) of every target review a day or more after
    the one before it, each card's history replayed through the scheduler (``scheduling``, as
    the site rates cards) with these parameters on this time scale; oldest first."""
    weights = tuple(parameters) if parameters is not None else None
    out: list[tuple[datetime, float, bool]] = []
    for history in histories:
        card: scheduling.CardState | None = None
        previous: datetime | None = None
        for entry in history:
            at, rating = scheduling.to_utc(entry[0]), int(entry[1])
            if card is None:
                card = scheduling.card_new(now=at)
            elif card.stability is not None and _is_target(entry) and (at - previous).days >= 1:
                recall = scheduling.card_retrievability(
                    card, at=at, parameters=weights, time_scale=time_scale
                )
                out.append((at, recall, rating > 1))
            card = scheduling.card_review(
                card, Rating(rating), at=at, parameters=weights, time_scale=time_scale
            )
            previous = at
    out.sort(key=lambda row: row[0])
    return out


def _scores(predictions: Sequence[tuple[datetime, float, bool]]) -> Scores | None:
    measured = calibration.calibration_of([(p, y) for _at, p, y in predictions])
    if measured is None:
        return None
    return Scores(log_loss=measured.log_loss, rmse_bins=measured.rmse_bins)


def fit_time_scale(
    histories: Sequence[Sequence[tuple[datetime, int]]],
    *,
    parameters: Sequence[float] | None = None,
    current_scale: float = 1.0,
    min_test_reviews: int = 1,
    retentions: Sequence[float] = CHECKED_RETENTIONS,
) -> Fit | None:
    """Fit a time scale for the weights in use (``parameters``; None: the defaults) on the
    earlier reviews and score it against ``current_scale`` on the later ones (see the module
    docstring). Returns None when the data is too small or of one rating, when fewer than
    ``min_test_reviews`` are held out, or when the best scale is the current one. Only the
    scales whose intervals are sane (``refusal``) at ``retentions`` are tried."""
    weights = tuple(float(w) for w in parameters) if parameters is not None else DEFAULT_PARAMETERS
    cards = sum(1 for history in histories if len(history) > 1)
    current = replayed_predictions(histories, parameters=weights, time_scale=current_scale)
    failed = sum(not recalled for _at, _p, recalled in current)
    expected = sum(1 - p for _at, p, _y in current)
    if (
        cards < MIN_ITEMS
        or len(current) < MIN_SCALE_REVIEWS
        or expected < MIN_EXPECTED_FAILURES
        or not 0 < failed < len(current)
    ):
        return None
    cut_at = current[int(len(current) * (1 - HOLDOUT_SHARE))][0]
    test_reviews = sum(at >= cut_at for at, _p, _y in current)
    if test_reviews < max(1, min_test_reviews):
        return None
    best: tuple[float, float, list] | None = None
    # Only scales whose intervals are sane compete.
    for scale in (k for k in TIME_SCALES if refusal(weights, retentions, time_scale=k) is None):
        replayed = (
            current
            if scale == current_scale
            else replayed_predictions(histories, parameters=weights, time_scale=scale)
        )
        train = _scores([row for row in replayed if row[0] < cut_at])
        if train is not None and (best is None or train.log_loss < best[1]):
            best = (scale, train.log_loss, replayed)
    if best is None or best[0] == current_scale:
        return None
    scale, _train_loss, replayed = best
    candidate = _scores([row for row in replayed if row[0] >= cut_at])
    baseline = _scores([row for row in current if row[0] >= cut_at])
    if candidate is None or baseline is None:
        return None
    return Fit(
        parameters=weights,
        train_reviews=len(current) - test_reviews,
        test_reviews=test_reviews,
        candidate=candidate,
        current=baseline,
        time_scale=scale,
    )
