"""One arm of the simulation: a cohort of synthetic learners through the real services.

Each simulated day, under a controlled clock (time-machine):
- 06:00 UTC the beat's scans run (``publish_due_reviews``, its ``prepare_review`` tasks run
  eagerly on commit); on the last day of every week ``fit_review_parameters`` runs too;
- each learner's session starts at 17:00 UTC plus a fixed per-learner offset: first the due
  reviews as ``review_next`` orders them (``review_open``, then ``attempt_submit``), until the
  queue is empty; then new practice (``problem_open``, ``attempt_submit``): ``NEW_PER_DAY``
  problems of the frontier idea (the course's ideas in order, a new one every ``IDEA_DAYS``
  days) and ``OLD_PER_DAY`` of ideas met before, drawn at random.

The learner answers from their hidden memory (``tests.simulate.memory``, of the family the run
names); after a wrong answer they read the explanation and then type the right answer (the
retry). The clock moves by the time model below after every step. The arm's switches
(``override_settings``) choose the policy; everything else is the same code the site runs.
"""

import random
import secrets
import sys
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from unittest import mock

import time_machine
from django.contrib.auth import get_user_model
from django.db.models import Count
from django.test import override_settings

import grading
from basislab.celery import app
from courses.models import Idea
from courses.services import copy_get_or_create, course_load
from grading import Status
from practice.models import Attempt, ProblemInstance
from practice.review import fitting, scheduling, tasks
from practice.review.models import ParameterSet, ReviewItem, ReviewLog
from practice.review.selectors import review_next
from practice.review.services.cards import card_predicted_recall
from practice.review.services.variants import review_open
from practice.services import attempt_submit, problem_open

from .answers import answers_for
from .measures import HELD, Arm, Tally
from .memory import TODAY, Learner, MistakeRates
from .schedule import (
    COURSE,
    EXPLANATION_SECONDS,
    PRACTICE_SECONDS,
    RETRY_SECONDS,
    REVIEW_SECONDS,
    SESSION_HOUR,
    START,
    learner_draws,
    practice_plan,
)

USERNAME_PREFIX = "sim-"
MAX_REVIEWS_PER_SESSION = 200  # a guard against a queue that never empties
LONGEST_GOODS = 12  # Goods on time in the longest-interval probe of a fitted set


@dataclass
class SimLearner:
    """A synthetic learner: their copy, hidden memory, RNGs and session offset."""

    copy: object
    mind: Learner
    rng: random.Random
    offset: timedelta
    problem_rng: random.Random

    @contextmanager
    def seeds(self) -> Iterator[None]:
        """Draw the seeds of the problems made meanwhile from the learner's own stream, so
        that arms differ by their policy, not by the problems' luck."""
        with mock.patch.object(secrets, "randbits", self.problem_rng.getrandbits):
            yield


def course_ideas() -> list[tuple[str, str, str]]:
    """Load the real course (a new version only if its content changed) and return its
    (page, idea, kind) triples in course order, one per problem kind listed under an idea."""
    version = course_load(directory=COURSE).version
    ideas = Idea.objects.filter(page__version=version).select_related("page")
    return [
        (idea.page.slug, idea.slug, kind)
        for idea in ideas.order_by("page__order", "order")
        for kind in idea.problem_kinds
    ]


def _clear() -> None:
    """Delete every simulated learner and every parameter set (the arm before leaves none)."""
    users = get_user_model().objects.filter(username__startswith=USERNAME_PREFIX)
    ReviewLog.objects.filter(item__copy__owner__in=users).delete()
    ParameterSet.objects.all().delete()
    users.delete()


class Session:
    """One learner's steps under the clock: every step moves it by the time model."""

    def __init__(self, traveller: time_machine.Traveller, at: datetime, tally: Tally) -> None:
        self.traveller = traveller
        self.now = at
        self.tally = tally

    def spend(self, seconds: float, *, review: bool = False) -> None:
        """Move the clock on by the seconds spent, and count them."""
        self.now += timedelta(seconds=seconds)
        self.traveller.move_to(self.now)
        self.tally.seconds += seconds
        if review:
            self.tally.review_seconds += seconds


def _answer(
    learner: SimLearner, problem: ProblemInstance, rates: MistakeRates, now: datetime
) -> tuple[str, set[str], str | None]:
    """Return the learner's first answer, the mistakes they made (held back or not), and the
    mistake the answer shows (None: right, or a slip)."""
    answers = answers_for(problem.spec)
    codes = grading.kind(problem.kind).codes
    made = {
        code
        for code in codes
        if learner.rng.random()
        < learner.mind.lesson(problem.kind, code, rates).chance_of_mistake(now)
    }
    if learner.rng.random() < learner.mind.slip:
        slip = answers.slip(learner.rng)
        if slip is not None:
            return slip, made, None
    shown = sorted(code for code in made if answers.shows(code))
    if shown:
        mistake = learner.rng.choice(shown)
        return answers.mistaken(mistake, learner.rng), made, mistake
    return answers.right, made, None


def aimed_at(spec: dict) -> str | None:
    """Return the mistake a problem was generated to show (None: untargeted), as its spec's
    generator metadata records it."""
    generator = spec.get("generator") if isinstance(spec, dict) else None
    target = generator.get("target") if isinstance(generator, dict) else None
    return str(target) if target else None


def _work(
    learner: SimLearner,
    problem: ProblemInstance,
    rates: MistakeRates,
    session: Session,
    *,
    review: bool,
) -> Attempt:
    """Answer one problem as the learner would, retrying with the right answer after reading
    the explanation of a wrong one; update the hidden memory; return the first attempt."""
    now = session.now
    text, made, shown = _answer(learner, problem, rates, now)
    attempt = attempt_submit(copy=learner.copy, problem=problem, text=text, token=uuid.uuid4())
    session.tally.attempts += 1
    session.spend(REVIEW_SECONDS if review else PRACTICE_SECONDS, review=review)
    codes = set(grading.kind(problem.kind).codes)
    answers = answers_for(problem.spec)
    learner.mind.practised(
        problem.kind,
        not_made=codes - made,
        showable={code for code in codes if answers.shows(code)},
        targeted=aimed_at(problem.spec) is not None,
        now=now,
        rates=rates,
    )
    status = Status(attempt.status)
    if status == Status.INCORRECT:
        session.spend(EXPLANATION_SECONDS, review=review)
        if shown is not None and attempt.mistake == shown:
            learner.mind.lesson(problem.kind, shown, rates).explained(session.now)
        answers = answers_for(problem.spec)
        attempt_submit(copy=learner.copy, problem=problem, text=answers.right, token=uuid.uuid4())
        session.tally.attempts += 1
        session.spend(RETRY_SECONDS, review=review)
    return attempt


def _review_session(learner: SimLearner, rates: MistakeRates, session: Session) -> None:
    """Work through the learner's due reviews until the queue is empty."""
    tally = session.tally
    for _step in range(MAX_REVIEWS_PER_SESSION):
        queue = review_next(copy=learner.copy)
        if not queue:
            return
        item: ReviewItem = queue[0]
        # What the scheduler predicts (calibrated when a map is in use), as the log stores it.
        predicted, _raw = card_predicted_recall(item, at=session.now)
        lesson = learner.mind.lessons.get((item.kind, item.mistake))
        if lesson is not None:
            recall = lesson.recall(session.now)
            tally.recalls.append(recall)
            tally.catalogued_reviews += 1
            tally.held_reviews += recall > HELD
            tally.above_target_reviews += recall > tally.desired_retention
        with learner.seeds():
            problem = review_open(copy=learner.copy, item=item)
        with learner.seeds():
            first = _work(learner, problem, rates, session, review=True)
        tally.explicit_reviews += 1
        if lesson is not None:
            outcome = int(first.mistake != item.mistake)
        else:
            outcome = int(first.status == Status.CORRECT)
        tally.predictions.append((predicted, outcome))


def _practice_session(
    learner: SimLearner,
    rates: MistakeRates,
    session: Session,
    ideas: list[tuple[str, str, str]],
    day: int,
) -> None:
    """Work the frontier idea's problems, then problems of ideas met before."""
    for page, idea, kind in practice_plan(learner.rng, ideas, day):
        with learner.seeds():
            problem = problem_open(copy=learner.copy, page_slug=page, idea_slug=idea, kind=kind)
        first = _work(learner, problem, rates, session, review=False)
        session.tally.practice_problems += 1
        session.tally.practice_mistakes += bool(first.mistake)


@contextmanager
def _eager_tasks() -> Iterator[None]:
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@contextmanager
def _seeded(name: str) -> Iterator[None]:
    with mock.patch.object(secrets, "randbits", random.Random(name).getrandbits):
        yield


def run_arm(
    arm: Arm,
    *,
    learners: int,
    days: int,
    seed: int,
    ideas: list[tuple[str, str, str]] | None = None,
    family: str = TODAY,
) -> Tally:
    """Run one arm from a clean slate (every simulated learner of an earlier arm deleted) with
    hidden memories of ``family`` and return its measurements. Learner ``n`` gets the same
    hidden rates in every arm of a family."""
    ideas = ideas if ideas is not None else course_ideas()
    tally = Tally(
        arm=arm.name,
        learners=learners,
        days=days,
        family=family,
        desired_retention=arm.retention,
    )
    rates = MistakeRates(seed, family)
    with override_settings(**arm.settings()), _eager_tasks():
        _clear()
        cohort: list[SimLearner] = []
        with time_machine.travel(START, tick=False):
            for n in range(learners):
                user = get_user_model().objects.create_user(
                    username=f"{USERNAME_PREFIX}{seed}-{n}", password=None
                )
                copy = copy_get_or_create(user=user, course_slug="how-text-becomes-numbers")
                rng, mind, offset = learner_draws(seed, n, family)
                cohort.append(
                    SimLearner(
                        copy=copy,
                        mind=mind,
                        rng=rng,
                        offset=offset,
                        problem_rng=random.Random(f"{seed}/problems/{n}"),
                    )
                )
        for day in range(days):
            if day and day % 10 == 0:
                print(f"# {arm.name}: day {day}", file=sys.stderr, flush=True)
            morning = START + timedelta(days=day, hours=6)
            with time_machine.travel(morning, tick=False), _seeded(f"{seed}/morning/{day}"):
                tasks.publish_due_reviews()
                if morning.weekday() == 6:
                    tasks.fit_review_parameters()
                    tasks.fit_recall_map()
            for learner in cohort:
                at = START + timedelta(days=day, hours=SESSION_HOUR) + learner.offset
                with time_machine.travel(at, tick=False) as traveller:
                    session = Session(traveller, at, tally)
                    _review_session(learner, rates, session)
                    _practice_session(learner, rates, session, ideas, day)
            day_end = START + timedelta(days=day + 1)
            for learner in cohort:
                tally.daily_avoid.add(day, _avoid_at(learner, day_end))
        end = START + timedelta(days=days)
        for learner in cohort:
            tally.end_recall += [
                lesson.recall(end) for lesson in learner.mind.lessons.values() if lesson.learned
            ]
            tally.end_avoid += _avoid_at(learner, end)
        _count_logs(tally)
        _intervals(tally)
        _held_out(tally)
    return tally


def _avoid_at(learner: SimLearner, at: datetime) -> list[float]:
    """Return the hidden chance of avoiding each mistake the learner has met, at ``at``."""
    return [
        1.0 - lesson.chance_of_mistake(at)
        for lesson in learner.mind.lessons.values()
        if lesson.learned
    ]


def _count_logs(tally: Tally) -> None:
    logs = ReviewLog.objects.filter(item__copy__owner__username__startswith=USERNAME_PREFIX)
    by_origin = dict(logs.values_list("origin").annotate(n=Count("pk")).values_list("origin", "n"))
    tally.logs_by_origin = by_origin
    known = {ReviewLog.Origin.PRACTICE.value, ReviewLog.Origin.REVIEW.value}
    tally.implicit_logs = sum(n for origin, n in by_origin.items() if origin not in known)
    review = logs.filter(origin=ReviewLog.Origin.REVIEW)
    tally.review_logs = review.count()
    tally.review_problems_logged = review.values("attempt__problem").distinct().count()
    sets = ParameterSet.objects.all()
    tally.parameter_sets = sets.count()
    tally.adopted_sets = sets.filter(adopted=True).count()


def longest_interval(
    parameters: list[float] | None, *, goods: int = LONGEST_GOODS, time_scale: float = 1.0
) -> float:
    """Return the longest interval (days) the site's scheduler (``scheduling.card_review``, its
    cap included) gives a new card under ``parameters`` on ``time_scale`` rated Good on each
    due date, ``goods`` times, at any retention a learner may choose
    (``fitting.CHECKED_RETENTIONS``)."""
    longest = 0.0
    for retention in fitting.CHECKED_RETENTIONS:
        card = scheduling.card_new(now=START)
        for _good in range(goods):
            at = card.due
            card = scheduling.card_review(
                card,
                scheduling.Rating.Good,
                at=at,
                desired_retention=retention,
                parameters=parameters,
                time_scale=time_scale,
            )
            longest = max(longest, (card.due - at).total_seconds() / 86400)
    return longest


def _intervals(tally: Tally) -> None:
    """Tally the longest interval any logged review scheduled, and the longest any parameter
    set the arm fitted (adopted or not) would schedule."""
    logs = ReviewLog.objects.filter(item__copy__owner__username__startswith=USERNAME_PREFIX)
    tally.longest_logged_interval = max(
        ((due - at).total_seconds() / 86400 for at, due in logs.values_list("reviewed_at", "due")),
        default=0.0,
    )
    fitted = [
        longest_interval(s.parameters, time_scale=s.time_scale) for s in ParameterSet.objects.all()
    ]
    tally.longest_fitted_interval = max(fitted, default=None)


def _held_out(tally: Tally) -> None:
    """Fit on the earlier logs of the arm and score fitted and default parameters on the
    later, held-out ones (the site-wide fit, as the weekly task makes it)."""
    rows = (
        ReviewLog.objects.filter(item__copy__owner__username__startswith=USERNAME_PREFIX, credit=1)
        .order_by("item_id", "reviewed_at", "pk")
        .values_list("item_id", "reviewed_at", "rating")
    )
    histories: dict[int, list[tuple[datetime, int]]] = defaultdict(list)
    for item_id, at, rating in rows:
        histories[item_id].append((at, rating))
    fit = fitting.fit_parameters(list(histories.values()))
    if fit is None:
        return
    tally.fitted_log_loss = fit.candidate.log_loss
    tally.default_log_loss = fit.current.log_loss
    tally.fitted_rmse = fit.candidate.rmse_bins
    tally.default_rmse = fit.current.rmse_bins
    tally.held_out_reviews = fit.test_reviews
