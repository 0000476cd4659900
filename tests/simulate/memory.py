"""The synthetic learner's hidden memory: ground truth the scheduler never sees (not FSRS).

Three families (``FAMILIES``), chosen per run; docs/simulation.md states their assumptions.

``today`` (the model every earlier table used): every (kind, mistake) has a susceptibility
``s`` (the chance of making the mistake when its
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

``shown``: today's rule of explanation, but a problem refreshes only the mistakes
it could show, and only when it was aimed at a mistake (a targeted variant): a mistake not made
on an untargeted problem refreshes nothing. Susceptibility and forgetting are drawn otherwise:
per-mistake base ``Beta(1.5, 6)``, learner factor ``e^N(0, 0.5)``; first half-life base
``e^N(0.3, 0.8)`` days, learner factor ``e^N(0, 0.6)``; a retrieval grows the half-life less
(``1 + 4 (1 - R)``, at most 2.5-fold) and a relapse cuts it to 0.4 of itself.

``power``: today's rules and draws, but power-law forgetting ``R(t) = (1 + c t / h) ** -b``
with ``c = 2 ** (1 / b) - 1`` (so ``R(h) = 0.5``, ``h`` still the half-life) and a per-learner
exponent ``b`` uniform in [1, 2] -- steeper at first and with a longer tail than the exponential,
and outside FSRS's own power curve (FSRS-6's decay lies in [0.1, 0.8]).

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

TODAY, SHOWN, POWER = "today", "shown", "power"
FAMILIES = (TODAY, SHOWN, POWER)
# The "shown" family's retrieval and relapse rules.
SHOWN_GAIN = 4.0
SHOWN_MAX_GAIN = 2.5
SHOWN_RELAPSE_FACTOR = 0.4


@dataclass
class Lesson:
    """One (kind, mistake) in one learner's head."""

    susceptibility: float
    first_half_life: float  # days
    half_life: float | None = None  # None until the explanation was first read
    studied_at: datetime | None = None
    relapses: int = 0
    decay: float | None = None  # None: exponential forgetting; else the power law's exponent
    gain: float = GAIN
    max_gain: float = MAX_GAIN
    relapse_factor: float = RELAPSE_FACTOR

    @property
    def learned(self) -> bool:
        """Return whether the learner has ever read this mistake's explanation."""
        return self.studied_at is not None

    def recall(self, now: datetime) -> float:
        """Return the hidden probability that the lesson is held at ``now`` (0 if never read)."""
        if self.studied_at is None or self.half_life is None:
            return 0.0
        days = max(0.0, (now - self.studied_at).total_seconds() / DAY)
        if self.decay is None:
            return math.pow(2.0, -days / self.half_life)
        scale = math.pow(2.0, 1.0 / self.decay) - 1.0
        return math.pow(1.0 + scale * days / self.half_life, -self.decay)

    def chance_of_mistake(self, now: datetime) -> float:
        """Return the chance of making the mistake on a problem at ``now``."""
        return self.susceptibility * (1.0 - self.recall(now))

    def explained(self, now: datetime) -> None:
        """Record that the learner read this mistake's explanation after making it."""
        if self.half_life is None:
            self.half_life = self.first_half_life
        else:
            self.relapses += 1
            self.half_life = max(self.first_half_life, self.half_life * self.relapse_factor)
        self.studied_at = now

    def retrieved(self, now: datetime) -> None:
        """Record a problem of the kind answered without this mistake."""
        if self.half_life is None:
            return
        gain = min(self.max_gain, 1.0 + self.gain * (1.0 - self.recall(now)))
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
    family: str = TODAY
    decay: float | None = None  # the power family's exponent

    @classmethod
    def draw(cls, rng: random.Random, *, slip: float = 0.03, family: str = TODAY) -> "Learner":
        """Return a learner of ``family`` with rates drawn from ``rng``."""
        if family not in FAMILIES:
            raise ValueError(f"no memory family {family!r}; the families are {FAMILIES}")
        if family == SHOWN:
            return cls(
                rng=rng,
                susceptibility_factor=math.exp(rng.gauss(0.0, 0.5)),
                memory_factor=math.exp(rng.gauss(0.0, 0.6)),
                slip=slip,
                family=family,
            )
        learner = cls(
            rng=rng,
            susceptibility_factor=rng.uniform(0.6, 1.4),
            memory_factor=math.exp(rng.gauss(0.0, 0.4)),
            slip=slip,
            family=family,
        )
        if family == POWER:
            learner.decay = rng.uniform(1.0, 2.0)
        return learner

    def practised(
        self,
        kind: str,
        *,
        not_made: set[str],
        showable: set[str],
        targeted: bool,
        now: datetime,
        rates: "MistakeRates",
    ) -> None:
        """Record a problem of ``kind`` answered without the mistakes ``not_made``: a retrieval
        of each (today, power), or, in the shown family, of those the problem could show
        (``showable``) and only on a problem aimed at a mistake (``targeted``)."""
        if self.family == SHOWN:
            if not targeted:
                return
            not_made = not_made & showable
        for code in not_made:
            self.lesson(kind, code, rates).retrieved(now)

    def lesson(self, kind: str, mistake: str, rates: "MistakeRates") -> Lesson:
        """Return the learner's lesson for (kind, mistake), creating it at first meeting."""
        key = (kind, mistake)
        if key not in self.lessons:
            base_s, base_h = rates.of(kind, mistake)
            lesson = Lesson(
                susceptibility=min(0.9, base_s * self.susceptibility_factor),
                first_half_life=base_h * self.memory_factor,
                decay=self.decay,
            )
            if self.family == SHOWN:
                lesson.gain, lesson.max_gain = SHOWN_GAIN, SHOWN_MAX_GAIN
                lesson.relapse_factor = SHOWN_RELAPSE_FACTOR
            self.lessons[key] = lesson
        return self.lessons[key]


class MistakeRates:
    """Per-mistake base rates, the same for every learner: drawn once from the seed."""

    def __init__(self, seed: int, family: str = TODAY) -> None:
        if family not in FAMILIES:
            raise ValueError(f"no memory family {family!r}; the families are {FAMILIES}")
        self._seed = seed
        self.family = family
        self._rates: dict[tuple[str, str], tuple[float, float]] = {}

    def of(self, kind: str, mistake: str) -> tuple[float, float]:
        """Return the (susceptibility, first half-life in days) base rates of a mistake."""
        key = (kind, mistake)
        if key not in self._rates:
            if self.family == SHOWN:
                rng = random.Random(f"{self._seed}/shown/{kind}/{mistake}")
                self._rates[key] = (rng.betavariate(1.5, 6.0), math.exp(rng.gauss(0.3, 0.8)))
            else:
                rng = random.Random(f"{self._seed}/{kind}/{mistake}")
                self._rates[key] = (rng.uniform(0.05, 0.3), math.exp(rng.uniform(0.0, 1.4)))
        return self._rates[key]
