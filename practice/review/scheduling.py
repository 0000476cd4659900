"""FSRS scheduling for review items: a pure wrapper around py-fsrs, no Django.

A review item's card is stored as plain columns (state, step, stability, difficulty, due,
last review); this module turns those columns into a py-fsrs ``Card``, reviews it, and hands
the new columns back. Every datetime going in or out is aware and in UTC, as py-fsrs demands.

**A time scale.** Besides its 21 weights, a fitted set may carry a ``time_scale`` k (1 is
FSRS itself): the learner's memory is FSRS's on a clock that runs k times slower. A card last
reviewed at L is seen by FSRS at ``L + (t - L) / k`` when recall is predicted or a review rated
at t, and an interval FSRS gives a card in the Review state is k times as long in real days
(the learning and relearning steps are not scaled, and the maximum interval still holds). It is
the one-number fit (``fitting.fit_time_scale``) for logs that say memory lasts longer (k > 1)
or shorter (k < 1) than FSRS's curve, but hold too few failures to fit 21 weights.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from fsrs import Card, Rating, Scheduler, State
from fsrs.scheduler import FUZZ_RANGES

__all__ = [
    "DEFAULT_DESIRED_RETENTION",
    "FUZZ_MIN_DAYS",
    "LEARNING_STEPS",
    "MAXIMUM_INTERVAL_DAYS",
    "MAX_TIME_SCALE",
    "MIN_TIME_SCALE",
    "PARAMETER_COUNT",
    "RELEARNING_STEPS",
    "CardState",
    "Rating",
    "State",
    "card_columns",
    "card_new",
    "card_of",
    "card_retrievability",
    "card_review",
    "fuzz_range",
    "fuzzed_days",
    "rating_for",
    "spread_days",
    "to_utc",
]

DEFAULT_DESIRED_RETENTION = 0.9
# A mistake has just been explained when its item is created: it comes back within the hour
# (a learning step), and after a correct recall FSRS spaces it out by its stability. The
# library's flashcard defaults (1 and 10 minutes) would bring it back before the learner has
# finished reading the explanation.
LEARNING_STEPS: tuple[timedelta, ...] = (timedelta(hours=1),)
RELEARNING_STEPS: tuple[timedelta, ...] = (timedelta(hours=1),)
# The longest interval the scheduler gives (py-fsrs's default is 100 years): two years, about
# the longest a course runs; a card that would go further comes back after two years.
MAXIMUM_INTERVAL_DAYS = 730
# FSRS-6 has 21 parameters; a stored set of another length (FSRS-5 had 19) is refused.
PARAMETER_COUNT = len(Scheduler().parameters)
# The time scales a fitted set may carry (see the module docstring).
MIN_TIME_SCALE = 0.5
MAX_TIME_SCALE = 8.0


@dataclass(frozen=True)
class CardState:
    """Hold one FSRS card as the review item stores it (all datetimes aware UTC)."""

    state: State
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None


CARD_COLUMNS = ("state", "step", "stability", "difficulty", "due", "last_review")


def card_of(row: Any) -> CardState:
    """Return the card stored in a row's card columns (a review item, or anything with them)."""
    return CardState(
        state=State(row.state),
        step=row.step,
        stability=row.stability,
        difficulty=row.difficulty,
        due=row.due,
        last_review=row.last_review,
    )


def card_columns(card: CardState) -> dict[str, object]:
    """Return the card as the columns a row stores it in (``state`` as its integer)."""
    return {
        "state": int(card.state),
        "step": card.step,
        "stability": card.stability,
        "difficulty": card.difficulty,
        "due": card.due,
        "last_review": card.last_review,
    }


def to_utc(moment: datetime) -> datetime:
    """Return an aware datetime converted to UTC; refuse a naive one."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("a naive datetime has no place in scheduling; pass an aware one")
    return moment.astimezone(UTC)


def rating_for(*, correct: bool, retried: bool) -> Rating:
    """Return the FSRS rating of one recall.

    Correct at the first try is Good, correct after an earlier wrong answer to the same
    problem is Hard, incorrect is Again. (Easy is never given: getting a targeted variant
    right says the mistake is under control, not that it was trivial.)
    """
    if not correct:
        return Rating.Again
    return Rating.Hard if retried else Rating.Good


@lru_cache(maxsize=64)
def _scheduler(
    desired_retention: float, fuzz: bool, parameters: tuple[float, ...] | None = None
) -> Scheduler:
    extra = {} if parameters is None else {"parameters": parameters}
    return Scheduler(
        **extra,
        desired_retention=desired_retention,
        learning_steps=LEARNING_STEPS,
        relearning_steps=RELEARNING_STEPS,
        maximum_interval=MAXIMUM_INTERVAL_DAYS,
        enable_fuzzing=fuzz,
    )


def _check_time_scale(time_scale: float) -> float:
    time_scale = float(time_scale)
    if not MIN_TIME_SCALE <= time_scale <= MAX_TIME_SCALE:
        raise ValueError(
            f"a time scale lies in [{MIN_TIME_SCALE:g}, {MAX_TIME_SCALE:g}]: {time_scale}"
        )
    return time_scale


def _card(state: CardState, *, at: datetime | None = None, time_scale: float = 1.0) -> Card:
    """Return the py-fsrs card; with a time scale, its last review moved to where FSRS's slower
    clock puts it as seen from ``at``."""
    last = to_utc(state.last_review) if state.last_review else None
    if last is not None and at is not None and time_scale != 1.0:
        at = to_utc(at)
        last = at - (at - last) / time_scale if at > last else last
    return Card(
        card_id=0,
        state=state.state,
        step=state.step,
        stability=state.stability,
        difficulty=state.difficulty,
        due=to_utc(state.due),
        last_review=last,
    )


def card_new(*, now: datetime) -> CardState:
    """Return a fresh, never-reviewed card that is due at ``now``."""
    card = Card(card_id=0, due=to_utc(now))
    return CardState(
        state=card.state,
        step=card.step,
        stability=None,
        difficulty=None,
        due=card.due,
        last_review=None,
    )


def card_review(
    card: CardState,
    rating: Rating,
    *,
    at: datetime,
    desired_retention: float = DEFAULT_DESIRED_RETENTION,
    fuzz: bool = False,
    parameters: Sequence[float] | None = None,
    time_scale: float = 1.0,
) -> CardState:
    """Return the card after one review with ``rating`` at the moment ``at``.

    ``desired_retention`` is the learner's target probability of recall (0 < r < 1). Fuzz is
    off by default so that the due date shown to the learner can be recomputed from the log.
    ``parameters`` are FSRS weights fitted to this site (``PARAMETER_COUNT`` of them); None
    keeps the library's defaults. ``time_scale`` is the fitted set's (the module docstring).
    """
    if not 0 < desired_retention < 1:
        raise ValueError(
            f"desired_retention must lie strictly between 0 and 1: {desired_retention}"
        )
    weights = None if parameters is None else tuple(float(w) for w in parameters)
    if weights is not None and len(weights) != PARAMETER_COUNT:
        raise ValueError(f"FSRS needs {PARAMETER_COUNT} parameters, got {len(weights)}")
    time_scale = _check_time_scale(time_scale)
    at = to_utc(at)
    reviewed, _log = _scheduler(float(desired_retention), fuzz, weights).review_card(
        _card(card, at=at, time_scale=time_scale), Rating(rating), review_datetime=at
    )
    due = to_utc(reviewed.due)
    if time_scale != 1.0 and State(reviewed.state) == State.Review:
        days = max(1, round((due - at) / timedelta(days=1) * time_scale))
        due = at + timedelta(days=min(days, MAXIMUM_INTERVAL_DAYS))
    return CardState(
        state=State(reviewed.state),
        step=reviewed.step,
        stability=reviewed.stability,
        difficulty=reviewed.difficulty,
        due=due,
        last_review=at,
    )


def card_retrievability(
    card: CardState,
    *,
    at: datetime,
    parameters: Sequence[float] | None = None,
    time_scale: float = 1.0,
) -> float:
    """Return FSRS's predicted probability of recall of the card at ``at`` (0 for a card
    never reviewed), with fitted ``parameters`` or, when None, the library's defaults, on the
    fitted set's ``time_scale`` (the module docstring)."""
    weights = None if parameters is None else tuple(float(w) for w in parameters)
    scheduler = _scheduler(DEFAULT_DESIRED_RETENTION, False, weights)
    fsrs_card = _card(card, at=at, time_scale=_check_time_scale(time_scale))
    return float(scheduler.get_card_retrievability(fsrs_card, current_datetime=to_utc(at)))


# --- fuzz and load balancing ------------------------------------------------------------------
# Intervals of this many days or more are fuzzed (py-fsrs fuzzes from 2.5 days: the same
# intervals, since its intervals are whole days).
FUZZ_MIN_DAYS = 3


def fuzz_range(interval_days: int) -> tuple[int, int]:
    """Return the shortest and longest interval (whole days) a fuzzed ``interval_days`` may
    become: py-fsrs's own ranges (``fsrs.scheduler.FUZZ_RANGES``: 15% of the days from 2.5 to
    7, 10% from 7 to 20, 5% beyond, plus one day), never under 2 days nor over
    ``MAXIMUM_INTERVAL_DAYS``; ``(interval_days, interval_days)`` under ``FUZZ_MIN_DAYS``."""
    if interval_days < FUZZ_MIN_DAYS:
        return interval_days, interval_days
    delta = 1.0
    for band in FUZZ_RANGES:
        delta += band["factor"] * max(min(float(interval_days), band["end"]) - band["start"], 0)
    shortest = max(2, round(interval_days - delta))
    longest = min(round(interval_days + delta), MAXIMUM_INTERVAL_DAYS)
    return min(shortest, longest), longest


def _uniform(seed: str) -> float:
    """Return a number in [0, 1) that depends only on ``seed``."""
    digest = hashlib.sha256(seed.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def fuzzed_days(interval_days: int, *, seed: str) -> int:
    """Return the interval fuzzed as py-fsrs fuzzes it (a uniform pick in ``fuzz_range``),
    except that the pick is drawn from ``seed`` instead of the process's random state: the
    same item and review get the same interval on every run (py-fsrs draws ``random()``)."""
    shortest, longest = fuzz_range(interval_days)
    if shortest == longest:
        return interval_days
    return min(shortest + int(_uniform(seed) * (longest - shortest + 1)), longest)


def spread_days(interval_days: int, *, seed: str, load: Mapping[int, int], limit: int) -> int:
    """Return the interval an item is scheduled with: fuzzed (``fuzzed_days``), then, when the
    day it lands on already holds ``limit`` due items (``load``: interval in days -> items due
    that day), moved one day earlier or later, within the fuzz range, to the neighbour that
    holds fewer (earlier on a tie) when that one is under the limit. Intervals under
    ``FUZZ_MIN_DAYS`` come back unchanged."""
    if interval_days < FUZZ_MIN_DAYS:
        return interval_days
    chosen = fuzzed_days(interval_days, seed=seed)
    if load.get(chosen, 0) < limit:
        return chosen
    shortest, longest = fuzz_range(interval_days)
    neighbours = [d for d in (chosen - 1, chosen + 1) if shortest <= d <= longest]
    free = [d for d in neighbours if load.get(d, 0) < limit]
    return min(free, key=lambda d: (load.get(d, 0), d)) if free else chosen
