"""An oracle bound on review: the simulator's learners without the site.

The same hidden memory (``tests.simulate.memory``: the same rates for a seed, the same rules),
the same learners (``schedule.learner_draws``) and the same days (``schedule``: the course's
kinds and catalogued mistakes in order, a new idea every 2 days, 3 frontier problems then 2
problems of earlier ideas, sessions at 17:00 UTC plus the learner's offset, the time model).
What differs is who chooses the reviews: not the site's scheduler, which sees only answers,
but an oracle that reads the hidden recall ``R`` of every mistake the learner has met.

A problem of a kind, in practice or in review, is answered as the cohort's learner answers
it: every catalogued mistake of the kind is made with chance ``s (1 - R)``; with chance
``slip`` the answer is a slip (nothing shown, nothing read); otherwise one made mistake,
at random, is shown and its explanation read; every mistake not made is a retrieval. The
cohort's problems come from the real generators; here every mistake is assumed to show on
every problem, which is what the generators give (docs/simulation.md, the oracle section).

Policies: practice only; a threshold ``theta`` (each day before practice, review the kind of
every mistake whose hidden ``R < theta``, most forgotten first, re-reading ``R`` after each
review, at most ``DAILY_LIMIT`` a day); a threshold plus an allowance of held reviews; a risk
(review while the chance of making some mistake, ``s (1 - R)``, is above it); and a threshold
that crams on the last day (to show what an end-of-run snapshot rewards). Results and what
they say: docs/simulation.md.

Run: ``python -m tests.simulate.oracle [--learners 4] [--days 60] [--seed 1]``.
"""

import argparse
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import grading

from .measures import HELD, LAST_DAYS, DailyAvoid
from .memory import Learner, Lesson, MistakeRates
from .schedule import (
    EXPLANATION_SECONDS,
    PRACTICE_SECONDS,
    RETRY_SECONDS,
    REVIEW_SECONDS,
    SESSION_HOUR,
    START,
    course_ideas_from_files,
    learner_draws,
    practice_plan,
)

DAILY_LIMIT = 20  # the site's daily limit of reviews
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99)
RISKS = (0.02, 0.01, 0.005, 0.003)
HELD_ALLOWANCE = 0.25  # held reviews per review of a mistake not held: a held share <= 0.2
SITE_TODAY_END_AVOID = 0.9977  # today's policy, docs/simulation.md (site run, both seeds)


@dataclass(frozen=True)
class Policy:
    """How the oracle chooses reviews: below a hidden recall ``threshold``, or above a chance
    of making the mistake ``risk`` (``s (1 - R)``). Neither: no reviews at all."""

    name: str
    threshold: float | None = None
    risk: float | None = None
    held_allowance: float = 0.0  # held reviews allowed per non-held review, over the run
    cram_last_day: bool = False  # on the last day, review the most forgotten up to the limit


POLICIES = (
    Policy("practice only"),
    *(Policy(f"oracle R < {theta}", theta) for theta in THRESHOLDS),
    Policy("oracle R < 0.9 + held allowance", 0.9, held_allowance=HELD_ALLOWANCE),
    *(Policy(f"oracle s(1-R) > {risk}", risk=risk) for risk in RISKS),
    Policy("oracle R < 0.9, crams last day", 0.9, cram_last_day=True),
)


@dataclass
class OracleTally:
    """What one policy measured over the cohort."""

    policy: str
    learners: int
    days: int
    reviews: int = 0
    held_reviews: int = 0  # reviews whose mistake had hidden recall > HELD when served
    served_recall: float = 0.0  # the sum of the reviewed mistakes' hidden recall when served
    practice_mistakes: int = 0  # mistakes shown on practice problems
    seconds: float = 0.0
    review_seconds: float = 0.0
    end_avoid: list[float] = field(default_factory=list)
    end_recall: list[float] = field(default_factory=list)
    daily_avoid: DailyAvoid = field(default_factory=DailyAvoid)


class OracleLearner:
    """One learner's hidden memory, random stream, clock and review counts."""

    def __init__(self, seed: int, n: int, rates: MistakeRates, tally: OracleTally) -> None:
        self.rng, self.mind, self.offset = learner_draws(seed, n)
        self.rates = rates
        self.tally = tally
        self.now = START
        self.not_held = 0  # this learner's reviews of mistakes not held, and held
        self.held = 0

    @property
    def mind_lessons(self) -> dict[tuple[str, str], Lesson]:
        """Return the learner's lessons, met or not."""
        return self.mind.lessons

    def spend(self, seconds: float, *, review: bool) -> None:
        """Move the learner's clock on by the seconds spent, and count them."""
        self.now += timedelta(seconds=seconds)
        self.tally.seconds += seconds
        if review:
            self.tally.review_seconds += seconds

    def work(self, kind: str, *, review: bool) -> str | None:
        """Answer one problem of ``kind`` from the hidden memory, as the cohort's learner does
        (its rules, in its order); read the explanation and retry after a wrong answer.
        Return the mistake shown (None: right, or a slip)."""
        now = self.now
        mind: Learner = self.mind
        lessons = [(code, mind.lesson(kind, code, self.rates)) for code in grading.kind(kind).codes]
        made = {
            code for code, lesson in lessons if self.rng.random() < lesson.chance_of_mistake(now)
        }
        slipped = self.rng.random() < mind.slip
        shown = None if slipped or not made else self.rng.choice(sorted(made))
        self.spend(REVIEW_SECONDS if review else PRACTICE_SECONDS, review=review)
        for code, lesson in lessons:
            if code not in made:
                lesson.retrieved(now)
        if slipped or shown is not None:
            self.spend(EXPLANATION_SECONDS, review=review)
            if shown is not None:
                mind.lesson(kind, shown, self.rates).explained(self.now)
            self.spend(RETRY_SECONDS, review=review)
        return shown


def _met(learner: OracleLearner) -> list[tuple[float, tuple[str, str], Lesson]]:
    """Return (hidden recall now, key, lesson) of every mistake the learner has met."""
    return sorted(
        (lesson.recall(learner.now), key, lesson)
        for key, lesson in learner.mind_lessons.items()
        if lesson.learned
    )


def next_review(
    learner: OracleLearner, policy: Policy, *, last_day: bool
) -> tuple[str, str] | None:
    """Return the (kind, mistake) the oracle reviews next, or None: the most forgotten below
    the threshold; then, within the held allowance, the held mistake most likely to be made
    now (``s (1 - R)``); on a cramming policy's last day, the most forgotten of all. A risk
    policy reviews the mistake most likely to be made now, if that chance is above its risk."""
    met = _met(learner)
    if policy.risk is not None:
        risky = [(lesson.chance_of_mistake(learner.now), key) for _r, key, lesson in met]
        chance, key = max(risky, default=(0.0, None))
        return key if chance > policy.risk else None
    if policy.threshold is None:
        return None
    if met and met[0][0] < policy.threshold:
        return met[0][1]
    if last_day and policy.cram_last_day and met:
        return met[0][1]
    if policy.held_allowance and learner.held + 1 <= policy.held_allowance * learner.not_held:
        risky = [(lesson.chance_of_mistake(learner.now), key) for _r, key, lesson in met]
        chance, key = max(risky, default=(0.0, None))
        if chance > 0:
            return key
    return None


def _review_session(learner: OracleLearner, policy: Policy, *, last_day: bool) -> None:
    """Review what the oracle chooses, one problem of the mistake's kind each, up to the limit."""
    tally = learner.tally
    for _step in range(DAILY_LIMIT):
        key = next_review(learner, policy, last_day=last_day)
        if key is None:
            return
        recall = learner.mind_lessons[key].recall(learner.now)
        held = recall > HELD
        tally.reviews += 1
        tally.served_recall += recall
        tally.held_reviews += held
        learner.held += held
        learner.not_held += not held
        learner.work(key[0], review=True)


def _day_end(learner: OracleLearner, tally: OracleTally, day: int, at: datetime) -> None:
    """Add the learner's hidden avoid probabilities at the end of ``day`` to the tally."""
    tally.daily_avoid.add(day, [1.0 - lesson.chance_of_mistake(at) for *_, lesson in _met(learner)])


def run_policy(
    policy: Policy,
    *,
    learners: int,
    days: int,
    seed: int,
    ideas: list[tuple[str, str, str]] | None = None,
) -> OracleTally:
    """Run the cohort's learners and days under ``policy``; return its measurements. Learner
    ``n`` is the cohort's learner ``n`` for the seed (same rates, offset and stream)."""
    ideas = ideas if ideas is not None else course_ideas_from_files()
    rates = MistakeRates(seed)
    tally = OracleTally(policy.name, learners, days)
    end = START + timedelta(days=days)
    for n in range(learners):
        learner = OracleLearner(seed, n, rates, tally)
        for day in range(days):
            learner.now = START + timedelta(days=day, hours=SESSION_HOUR) + learner.offset
            _review_session(learner, policy, last_day=day == days - 1)
            for _page, _idea, kind in practice_plan(learner.rng, ideas, day):
                tally.practice_mistakes += learner.work(kind, review=False) is not None
            _day_end(learner, tally, day, START + timedelta(days=day + 1))
        for _r, _key, lesson in _met(learner):
            tally.end_recall.append(lesson.recall(end))
            tally.end_avoid.append(1.0 - lesson.chance_of_mistake(end))
    return tally


def _fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def rows_of(tallies: list[OracleTally]) -> list[dict[str, str]]:
    """Return one printable row per policy."""
    rows = []
    for t in tallies:
        per = max(1, t.learners)
        rows.append(
            {
                "policy": t.policy,
                "reviews/learner": _fmt(t.reviews / per, 1),
                "review min/learner": _fmt(t.review_seconds / 60 / per, 1),
                "total min/learner": _fmt(t.seconds / 60 / per, 1),
                "held share": _fmt(t.held_reviews / t.reviews, 2) if t.reviews else "-",
                "mean R served": _fmt(t.served_recall / t.reviews, 2) if t.reviews else "-",
                "end avoid": _fmt(sum(t.end_avoid) / len(t.end_avoid), 4) if t.end_avoid else "-",
                "end recall": (
                    _fmt(sum(t.end_recall) / len(t.end_recall), 4) if t.end_recall else "-"
                ),
                f"avoid last {LAST_DAYS} d": _fmt(t.daily_avoid.mean_last(), 4),
                "practice mistakes/learner": _fmt(t.practice_mistakes / per, 1),
            }
        )
    return rows


def answer(tallies: list[OracleTally], target: float = SITE_TODAY_END_AVOID) -> list[str]:
    """Return the lines answering: which threshold policies reach ``target`` end avoid, and
    with what held share and reviews."""
    lines = []
    for t in tallies:
        if not t.end_avoid or not t.reviews or not t.policy.startswith("oracle"):
            continue
        avoid = sum(t.end_avoid) / len(t.end_avoid)
        share = t.held_reviews / t.reviews
        verdict = "reaches" if avoid >= target else "falls short of"
        lines.append(
            f"# {t.policy}: end avoid {avoid:.5f} {verdict} {target} "
            f"(held share {share:.2f}, {t.reviews / t.learners:.1f} reviews/learner)"
        )
    return lines


def main(argv: list[str]) -> int:
    """Parse the flags, run every policy over the same learners, print the table."""
    from tests.benchmarks.simulate import print_rows

    parser = argparse.ArgumentParser(prog="python -m tests.simulate.oracle")
    parser.add_argument("--learners", type=int, default=4)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.learners < 1 or args.days < 1:
        parser.error("--learners and --days must be at least 1")
    started = time.perf_counter()
    ideas = course_ideas_from_files()
    run = {"learners": args.learners, "days": args.days, "seed": args.seed, "ideas": ideas}
    tallies = [run_policy(policy, **run) for policy in POLICIES]
    print(
        f"# oracle bound: {args.learners} learners x {args.days} days, seed {args.seed}, "
        f"{time.perf_counter() - started:.1f} s; today's policy on the site ended at "
        f"{SITE_TODAY_END_AVOID} end avoid (docs/simulation.md, not recomputed here)"
    )
    print_rows(rows_of(tallies))
    print("\n".join(answer(tallies)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
