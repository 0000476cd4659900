"""The synthetic learner's hidden memory: ground truth the scheduler never sees (not FSRS).

Every (kind, mistake) has a susceptibility ``s`` (the chance of making the mistake when its
lesson is not held: per-mistake base rate times a per-learner factor) and, once the learner has
read its explanation, an exponential forgetting curve ``R(t) = 2 ** (-(t - t0) / h)``.

- Before the first explanation the lesson is not held: the mistake is made with chance ``s``.
- Reading the explanation of the mistake (after making it): ``t0 = now``; the half-life is the
  first one ``h0`` (per learner and per mistake), or, after a relapse, half the current one
  (never below ``h0``).
- Answering any problem of the kind without making the mistake while the lesson is held is a
  retrieval: ``t0 = now`` and the half-life grows by ``1 + GAIN * (1 - R)`` (capped at
  ``MAX_GAIN``): a spaced success (low ``R``) grows it much, a massed one (``R`` near 1) hardly.
- On a problem the mistake is made with chance ``s * (1 - R)``.

Pure Python; all randomness comes from the ``random.Random`` the caller passes.
"""

import math
import random
from dataclasses import dataclass, field
from datetime import datetime

GAIN = 6.0
MAX_GAIN = 3.0
RELAPSE_FACTOR = 0.5
DAY = 86400.0


@dataclass
class Lesson:
    """One (kind, mistake) in one learner's head."""

    susceptibility: float
    first_half_life: float  # days
    half_life: float | None = None  # None until the explanation was first read
    studied_at: datetime | None = None
    relapses: int = 0

    @property
    def learned(self) -> bool:
        """Return whether the learner has ever read this mistake's explanation."""
        return self.studied_at is not None

    def recall(self, now: datetime) -> float:
        """Return the hidden probability that the lesson is held at ``now`` (0 if never read)."""
        if self.studied_at is None or self.half_life is None:
            return 0.0
        days = max(0.0, (now - self.studied_at).total_seconds() / DAY)
        return math.pow(2.0, -days / self.half_life)

    def chance_of_mistake(self, now: datetime) -> float:
        """Return the chance of making the mistake on a problem at ``now``."""
        return self.susceptibility * (1.0 - self.recall(now))

    def explained(self, now: datetime) -> None:
        """Record that the learner read this mistake's explanation after making it."""
        if self.half_life is None:
            self.half_life = self.first_half_life
        else:
            self.relapses += 1
            self.half_life = max(self.first_half_life, self.half_life * RELAPSE_FACTOR)
        self.studied_at = now

    def retrieved(self, now: datetime) -> None:
        """Record a problem of the kind answered without this mistake."""
        if self.half_life is None:
            return
        gain = min(MAX_GAIN, 1.0 + GAIN * (1.0 - self.recall(now)))
        self.half_life *= gain
        self.studied_at = now


@dataclass
class Learner:
    """A synthetic learner: per-learner rates and the lessons met so far."""

    rng: random.Random
    susceptibility_factor: float
    memory_factor: float
    slip: float  # chance of a wrong answer no catalogued mistake explains
    lessons: dict[tuple[str, str], Lesson] = field(default_factory=dict)

    @classmethod
    def draw(cls, rng: random.Random, *, slip: float = 0.03) -> "Learner":
        """Return a learner with rates drawn from ``rng``."""
        return cls(
            rng=rng,
            susceptibility_factor=rng.uniform(0.6, 1.4),
            memory_factor=math.exp(rng.gauss(0.0, 0.4)),
            slip=slip,
        )

    def lesson(self, kind: str, mistake: str, rates: "MistakeRates") -> Lesson:
        """Return the learner's lesson for (kind, mistake), creating it at first meeting."""
        key = (kind, mistake)
        if key not in self.lessons:
            base_s, base_h = rates.of(kind, mistake)
            self.lessons[key] = Lesson(
                susceptibility=min(0.9, base_s * self.susceptibility_factor),
                first_half_life=base_h * self.memory_factor,
            )
        return self.lessons[key]


class MistakeRates:
    """Per-mistake base rates, the same for every learner: drawn once from the seed."""

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._rates: dict[tuple[str, str], tuple[float, float]] = {}

    def of(self, kind: str, mistake: str) -> tuple[float, float]:
        """Return the (susceptibility, first half-life in days) base rates of a mistake."""
        key = (kind, mistake)
        if key not in self._rates:
            rng = random.Random(f"{self._seed}/{kind}/{mistake}")
            self._rates[key] = (rng.uniform(0.05, 0.3), math.exp(rng.uniform(0.0, 1.4)))
        return self._rates[key]
