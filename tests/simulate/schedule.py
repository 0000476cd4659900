"""The cohort's schedule, shared by the simulator (``cohort``) and the oracle bound (``oracle``):
the course's kinds in order, the start date, the time model, each learner's draws and the
daily practice plan. Pure: no Django (the course is read from its files by the loader)."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from courses.loader import read_course

from .memory import TODAY, Learner

COURSE = Path(__file__).resolve().parents[2] / "courses" / "content" / "how-text-becomes-numbers"
START = datetime(2026, 1, 5, 0, 0, tzinfo=UTC)  # a Monday

# The time model, in seconds of the learner's time.
PRACTICE_SECONDS = 90  # reading and answering a practice problem
REVIEW_SECONDS = 60  # a review variant: one targeted problem, the recall shown beside it
EXPLANATION_SECONDS = 45  # reading the explanation of a wrong answer
RETRY_SECONDS = 30  # typing the right answer after reading it

NEW_PER_DAY = 3
OLD_PER_DAY = 2
IDEA_DAYS = 2
SESSION_HOUR = 17  # sessions start at 17:00 UTC plus the learner's offset


def course_ideas_from_files() -> list[tuple[str, str, str]]:
    """Return the course's (page, idea, kind) triples in course order, read from its files
    (the order the loaded course gives: pages, then ideas, then the kinds an idea lists)."""
    source = read_course(COURSE)
    return [
        (page.slug, idea.slug, kind)
        for page in source.pages
        for idea in page.ideas
        for kind in idea.problem_kinds
    ]


def learner_draws(
    seed: int, n: int, family: str = TODAY
) -> tuple[random.Random, Learner, timedelta]:
    """Return learner ``n``'s own random stream, hidden rates of ``family`` and session offset
    (0-3 h)."""
    rng = random.Random(f"{seed}/learner/{n}")
    mind = Learner.draw(rng, family=family)
    offset = timedelta(minutes=rng.randrange(0, 180))
    return rng, mind, offset


def practice_plan(
    rng: random.Random, ideas: list[tuple[str, str, str]], day: int
) -> list[tuple[str, str, str]]:
    """Return the day's practice: ``NEW_PER_DAY`` problems of the frontier idea (a new one
    every ``IDEA_DAYS`` days), then, once there is one, ``OLD_PER_DAY`` of ideas met before,
    drawn at random from ``rng``."""
    frontier = min(day // IDEA_DAYS, len(ideas) - 1)
    plan = [ideas[frontier]] * NEW_PER_DAY
    if frontier > 0:
        plan += [ideas[rng.randrange(frontier)] for _ in range(OLD_PER_DAY)]
    return plan
