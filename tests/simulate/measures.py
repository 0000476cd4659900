"""What the simulator compares and measures: the arms (policies as settings switches), one
arm's tally, and the calibration measures (log loss, RMSE over bins). Pure, no Django."""

import math
from collections import defaultdict
from dataclasses import dataclass, field

HELD = 0.9  # hidden recall above which a mistake counts as held
LAST_DAYS = 30  # the window of the time-averaged retention

# The policy switches: today's policy has every one off.
IMPLICIT = "REVIEW_IMPLICIT_CREDIT"
GRAPH = "REVIEW_GRAPH_CREDIT"
UNEXPLAINED = "REVIEW_UNEXPLAINED_ITEMS"
QUEUE = "REVIEW_QUEUE_CLEARING"
FITTED = "REVIEW_FITTED_PARAMETERS"
CALIBRATED = "REVIEW_CALIBRATED_RECALL"
SWITCHES = (IMPLICIT, GRAPH, UNEXPLAINED, QUEUE, FITTED, CALIBRATED)
TODAY_RETENTION = 0.9  # the desired retention every learner had before REVIEW_DESIRED_RETENTION
SITE_RETENTION = 0.97  # the site's default now (basislab/settings.py)


@dataclass(frozen=True)
class Arm:
    """One policy: a name, the switches it turns on (the rest are off) and the desired
    retention its learners start with."""

    name: str
    on: frozenset[str]
    retention: float = TODAY_RETENTION

    def settings(self) -> dict[str, bool | float]:
        """Return every switch with its value in this arm, and the desired retention."""
        values: dict[str, bool | float] = {switch: switch in self.on for switch in SWITCHES}
        values["REVIEW_DESIRED_RETENTION"] = self.retention
        return values


_SECTIONS_1_TO_4 = frozenset({IMPLICIT, GRAPH, UNEXPLAINED, QUEUE})
ARMS = (
    Arm("today (all off)", frozenset()),
    Arm("+1 implicit", frozenset({IMPLICIT})),
    Arm("+1+2 graph", frozenset({IMPLICIT, GRAPH})),
    Arm("+1+2+3+4", _SECTIONS_1_TO_4),
    Arm("+1..4 +5 fitted", frozenset(SWITCHES)),
    # The site's defaults now: sections 1-4, new learners aiming at 0.97; then with fitted sets.
    Arm("+1+2+3+4 at 0.97 (site)", _SECTIONS_1_TO_4, SITE_RETENTION),
    Arm("+1..4 +5 at 0.97", frozenset(SWITCHES), SITE_RETENTION),
    # What the higher target alone does to today's policy.
    Arm("today at 0.97", frozenset(), SITE_RETENTION),
    # Sections 1, 3 and 4 at 0.97: what the idea graph's credit costs or buys.
    Arm("+1+3+4 at 0.97", frozenset({IMPLICIT, UNEXPLAINED, QUEUE}), SITE_RETENTION),
    # The site's defaults with the weekly calibration map of predicted recall on.
    Arm("site + calibrated recall", _SECTIONS_1_TO_4 | {CALIBRATED}, SITE_RETENTION),
)


def site_arm() -> Arm:
    """Return the arm that runs the site as its settings configure it (the site's defaults)."""
    from django.conf import settings

    site = {name: getattr(settings, name) for name in ARMS[0].settings()}
    return next(arm for arm in ARMS if arm.settings() == site)


@dataclass
class DailyAvoid:
    """Per simulated day: the sum of the hidden avoid probabilities of every mistake met, at
    the day's end, and their count -- for a retention averaged over time, not one snapshot
    (which a policy that knew the last day could game by cramming on it)."""

    sums: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    def add(self, day: int, avoid: list[float]) -> None:
        """Add one learner's avoid probabilities at the end of ``day``."""
        while len(self.sums) <= day:
            self.sums.append(0.0)
            self.counts.append(0)
        self.sums[day] += sum(avoid)
        self.counts[day] += len(avoid)

    def mean_last(self, days: int = LAST_DAYS) -> float | None:
        """Return the mean over the last ``days`` days of the cohort's mean avoid at each
        day's end (days when no mistake had been met yet left out)."""
        pairs = list(zip(self.sums, self.counts, strict=True))[-days:]
        means = [total / n for total, n in pairs if n]
        return sum(means) / len(means) if means else None


@dataclass
class Tally:
    """What one arm measured."""

    arm: str
    learners: int
    days: int
    seed: int = 0
    family: str = "today"
    desired_retention: float = TODAY_RETENTION  # the arm's learners' own target
    explicit_reviews: int = 0
    held_reviews: int = 0  # reviews of a catalogued mistake whose hidden recall was > HELD
    catalogued_reviews: int = 0
    # reviews of a catalogued mistake whose hidden recall was above the learner's own target
    above_target_reviews: int = 0
    practice_problems: int = 0
    practice_mistakes: int = 0  # practice problems whose first answer showed a catalogued one
    attempts: int = 0
    seconds: float = 0.0
    review_seconds: float = 0.0
    predictions: list[tuple[float, int]] = field(default_factory=list)  # (FSRS recall, outcome)
    recalls: list[float] = field(default_factory=list)  # every hidden recall computed
    end_avoid: list[float] = field(default_factory=list)  # 1 - chance of mistake, at the end
    end_recall: list[float] = field(default_factory=list)
    daily_avoid: DailyAvoid = field(default_factory=DailyAvoid)
    review_logs: int = 0
    review_problems_logged: int = 0
    implicit_logs: int = 0
    logs_by_origin: dict[str, int] = field(default_factory=dict)
    longest_logged_interval: float = 0.0  # days, over every log the arm wrote
    longest_fitted_interval: float | None = None  # days, over every set the arm fitted
    parameter_sets: int = 0
    adopted_sets: int = 0
    fitted_log_loss: float | None = None
    default_log_loss: float | None = None
    fitted_rmse: float | None = None
    default_rmse: float | None = None
    held_out_reviews: int = 0

    @classmethod
    def from_dict(cls, data: dict) -> "Tally":
        """Rebuild a tally from ``dataclasses.asdict`` (a child process sends its tally as JSON)."""
        return cls(**{**data, "daily_avoid": DailyAvoid(**data["daily_avoid"])})


def log_loss(pairs: list[tuple[float, int]]) -> float | None:
    """Return the mean log loss of predicted probabilities against 0/1 outcomes."""
    if not pairs:
        return None
    eps = 1e-6
    total = 0.0
    for p, y in pairs:
        p = min(1 - eps, max(eps, p))
        total -= math.log(p) if y else math.log(1 - p)
    return total / len(pairs)


def rmse_bins(pairs: list[tuple[float, int]], bins: int = 20) -> float | None:
    """Return the RMSE between mean prediction and mean outcome over equal-width bins of the
    prediction, weighted by the reviews in each bin."""
    if not pairs:
        return None
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for p, y in pairs:
        b = sums[min(bins - 1, int(p * bins))]
        b[0] += p
        b[1] += y
        b[2] += 1
    squared = sum(n * ((sp - sy) / n) ** 2 for sp, sy, n in sums.values())
    return math.sqrt(squared / len(pairs))


def base_rate_log_loss(pairs: list[tuple[float, int]]) -> float | None:
    """Return the log loss of always predicting the mean outcome (what a predictor must beat)."""
    if not pairs:
        return None
    mean = sum(y for _p, y in pairs) / len(pairs)
    return log_loss([(mean, y) for _p, y in pairs])
