"""Reads for today's practice: the next step, the day's amount and streak, and the numbers the
progress pictures draw. Nothing here writes.

Days and weeks are the learner's own, in the time zone of their review settings (UTC until
they choose one); times are stored in UTC and converted only here.
"""

import enum
import zoneinfo
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Count, DateTimeField, Max
from django.db.models.functions import Coalesce, TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from courses.models import MASTERY_CORRECT, CourseCopy, Idea, IdeaProgress
from courses.presenters import kind_label
from grading.kinds import Status
from practice.generators import GENERATORS
from practice.labels import mistake_label
from practice.models import Attempt, DailyGoal, ProblemInstance
from practice.review.models import ReviewItem, ReviewLog
from practice.review.selectors import review_next, review_settings_of

# Days the forecast covers (today first) and weeks the mistakes picture covers (this one last).
FORECAST_DAYS = 14
MISTAKE_WEEKS = 12
# Time counted for one answer: the gap since the previous answer, at most this long (a longer
# gap is a pause), and this much for the first answer of a sitting.
SITTING_GAP = timedelta(minutes=5)
FIRST_ANSWER_TIME = timedelta(minutes=1)
# How far back the streak looks; a longer streak shows as this many days.
STREAK_HORIZON_DAYS = 400


class StepKind(enum.StrEnum):
    REVIEW = "review"
    PROBLEM = "problem"
    IDEA = "idea"
    DONE = "done"


@dataclass(frozen=True)
class NextStep:
    """What Continue opens: where it goes and, in one line, what and why."""

    kind: StepKind
    url: str
    reason: str


def learner_zone(*, user_id: int) -> zoneinfo.ZoneInfo:
    """Return the learner's time zone (their review settings' zone; UTC until chosen)."""
    return review_settings_of(user_id=user_id).zone


def _zone(user_id: int) -> zoneinfo.ZoneInfo:
    return learner_zone(user_id=user_id)


def _idea_titles(copy: CourseCopy) -> dict[tuple[str, str], str]:
    return {
        (page_slug, slug): title
        for page_slug, slug, title in Idea.objects.filter(page__version_id=copy.version_id)
        .order_by("page__order", "order")
        .values_list("page__slug", "slug", "title")
    }


def _unfinished_problem(copy: CourseCopy) -> ProblemInstance | None:
    """Return the open practice problem the learner touched last (answered or opened)."""
    return (
        ProblemInstance.objects.filter(
            copy=copy,
            purpose=ProblemInstance.Purpose.PRACTICE,
            state=ProblemInstance.State.OPEN,
        )
        .annotate(
            touched=Coalesce(
                Max("attempts__created_at"), "created_at", output_field=DateTimeField()
            )
        )
        .order_by("-touched", "-pk")
        .first()
    )


def _next_idea(copy: CourseCopy) -> tuple[Idea, IdeaProgress | None] | None:
    """Return the idea to practise next and its progress, or None when every idea is mastered.

    On the page the learner last answered a practice problem, the unmastered idea with the
    lowest level (course order breaks ties); else the first unmastered idea in course order.
    """
    ideas = [
        idea
        for idea in Idea.objects.filter(page__version_id=copy.version_id)
        .select_related("page")
        .order_by("page__order", "order")
        if idea.problem_kinds
    ]
    progress = {(p.page_slug, p.idea_slug): p for p in IdeaProgress.objects.filter(copy=copy)}

    def mastered(idea: Idea) -> bool:
        row = progress.get((idea.page.slug, idea.slug))
        return row is not None and row.correct >= MASTERY_CORRECT

    open_ideas = [idea for idea in ideas if not mastered(idea)]
    if not open_ideas:
        return None
    last_page = (
        Attempt.objects.filter(copy=copy, problem__purpose=ProblemInstance.Purpose.PRACTICE)
        .order_by("-created_at", "-pk")
        .values_list("problem__page_slug", flat=True)
        .first()
    )
    on_last_page = [idea for idea in open_ideas if idea.page.slug == last_page]
    if on_last_page:
        # min() keeps the first of equals: course order breaks ties.
        idea = min(
            on_last_page,
            key=lambda i: (
                progress[(i.page.slug, i.slug)].level if (i.page.slug, i.slug) in progress else 1
            ),
        )
    else:
        idea = open_ideas[0]
    return idea, progress.get((idea.page.slug, idea.slug))


def _least_practised_kind(copy: CourseCopy, idea: Idea) -> str:
    """Return the idea's kind with the fewest answers by the learner (listed order on ties)."""
    counts = dict(
        Attempt.objects.filter(
            copy=copy, problem__page_slug=idea.page.slug, problem__idea_slug=idea.slug
        )
        .values_list("problem__kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    return min(idea.problem_kinds, key=lambda kind: counts.get(kind, 0))


def next_step(*, copy: CourseCopy, now: datetime | None = None) -> NextStep:
    """Return the next thing worth doing in the copy, the same for the dashboard and after a
    verdict: the first due review (the review queue's order, within today's limit), else the
    open problem touched last, else the next unmastered idea (see ``_next_idea``), else the
    review queue with nothing left to learn.
    """
    now = now or timezone.now()
    # Most of the time nothing is due: one query says so before the queue's three.
    due = ReviewItem.objects.filter(copy=copy, due__lte=now).exists()
    queue = review_next(copy=copy, now=now) if due else []
    if queue:
        n = len(queue)
        return NextStep(
            kind=StepKind.REVIEW,
            url=reverse("review:review", kwargs={"copy_id": copy.pk, "item_id": queue[0].pk}),
            reason=ngettext("%(n)d review due", "%(n)d reviews due", n) % {"n": n},
        )
    problem = _unfinished_problem(copy)
    if problem is not None:
        title = _idea_titles(copy).get((problem.page_slug, problem.idea_slug), problem.idea_slug)
        return NextStep(
            kind=StepKind.PROBLEM,
            url=reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk}),
            reason=_("unfinished problem: %(kind)s, under “%(idea)s”")
            % {"kind": kind_label(problem.kind), "idea": title},
        )
    found = _next_idea(copy)
    if found is None:
        return NextStep(
            kind=StepKind.DONE,
            url=reverse("review:queue", kwargs={"copy_id": copy.pk}),
            reason=_("every idea is mastered: the review queue shows what comes back next"),
        )
    idea, progress = found
    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": idea.page.slug,
            "idea_slug": idea.slug,
            "kind": _least_practised_kind(copy, idea),
        },
    )
    if progress is None:
        reason = _("next idea: %(idea)s") % {"idea": idea.title}
    else:
        reason = _("keep going: %(idea)s") % {"idea": idea.title}
    return NextStep(kind=StepKind.IDEA, url=url, reason=reason)


# --- the day: goal, amount done, days in a row ----------------------------------------------


@dataclass(frozen=True)
class Day:
    """The learner's day so far: the goal (None when unset), what is done, and the streak."""

    unit: str
    goal: int | None
    done: int
    streak: int
    practised_today: bool

    @property
    def reached(self) -> bool:
        return self.goal is not None and self.done >= self.goal


def _local_midnight(now: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    return now.astimezone(zone).replace(hour=0, minute=0, second=0, microsecond=0)


def days_in_a_row(
    *, user_id: int, now: datetime | None = None, zone: zoneinfo.ZoneInfo | None = None
) -> tuple[int, bool]:
    """Return (days practised in a row, whether today is one of them), in the learner's zone.

    A day counts when at least one answer was graded (an unreadable one costs nothing and
    counts nothing). The run ends today, or yesterday while today has no answer yet.
    """
    now = now or timezone.now()
    zone = zone or _zone(user_id)
    today = now.astimezone(zone).date()
    since = _local_midnight(now, zone) - timedelta(days=STREAK_HORIZON_DAYS)
    days = set(
        Attempt.objects.filter(copy__owner_id=user_id, created_at__gte=since)
        .exclude(status=Status.INVALID.value)
        .annotate(day=TruncDate("created_at", tzinfo=zone))
        .values_list("day", flat=True)
        .distinct()
    )
    practised_today = today in days
    day = today if practised_today else today - timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak, practised_today


def minutes_practised(times: list[datetime]) -> int:
    """Return whole minutes of practice from answer times (sorted): each answer counts the time
    since the previous one up to ``SITTING_GAP``, the first of a sitting ``FIRST_ANSWER_TIME``."""
    total = timedelta()
    previous: datetime | None = None
    for moment in times:
        gap = moment - previous if previous is not None else None
        total += gap if gap is not None and gap <= SITTING_GAP else FIRST_ANSWER_TIME
        previous = moment
    return int(total.total_seconds() // 60)


def day_of(
    *, user_id: int, now: datetime | None = None, zone: zoneinfo.ZoneInfo | None = None
) -> Day:
    """Return the learner's day: goal, amount done today (distinct problems answered, or
    minutes), and days practised in a row, all in the learner's time zone (``zone`` when the
    caller has read it)."""
    now = now or timezone.now()
    zone = zone or _zone(user_id)
    goal = DailyGoal.objects.filter(user_id=user_id).first()
    unit = goal.unit if goal else DailyGoal.Unit.PROBLEMS
    today = Attempt.objects.filter(
        copy__owner_id=user_id, created_at__gte=_local_midnight(now, zone), created_at__lte=now
    )
    if unit == DailyGoal.Unit.MINUTES:
        done = minutes_practised(
            list(today.order_by("created_at").values_list("created_at", flat=True))
        )
    else:
        done = today.exclude(status=Status.INVALID.value).values("problem_id").distinct().count()
    streak, practised_today = days_in_a_row(user_id=user_id, now=now, zone=zone)
    return Day(
        unit=str(unit),
        goal=goal.amount if goal else None,
        done=done,
        streak=streak,
        practised_today=practised_today,
    )


# --- numbers for the pictures ---------------------------------------------------------------


@dataclass(frozen=True)
class ForecastDay:
    day: date
    due: int


def review_forecast(
    *, copy: CourseCopy, now: datetime | None = None, zone: zoneinfo.ZoneInfo | None = None
) -> list[ForecastDay]:
    """Return how many review items fall due on each of the next ``FORECAST_DAYS`` local days,
    today first (items already due count today)."""
    now = now or timezone.now()
    zone = zone or _zone(copy.owner_id)
    today = now.astimezone(zone).date()
    end = _local_midnight(now, zone) + timedelta(days=FORECAST_DAYS + 1)
    counts: Counter[date] = Counter()
    for due in ReviewItem.objects.filter(copy=copy, due__lt=end).values_list("due", flat=True):
        counts[max(due.astimezone(zone).date(), today)] += 1
    days = [today + timedelta(days=k) for k in range(FORECAST_DAYS)]
    return [ForecastDay(day=day, due=counts[day]) for day in days]


@dataclass(frozen=True)
class WeekOfAnswers:
    """One week (Monday first) of graded answers: how many, how many a named mistake explains,
    and those mistakes as (words, count), most frequent first."""

    start: date
    answers: int
    mistaken: int
    mistakes: tuple[tuple[str, int], ...]


def mistakes_by_week(
    *, copy: CourseCopy, now: datetime | None = None, zone: zoneinfo.ZoneInfo | None = None
) -> list[WeekOfAnswers]:
    """Return the last ``MISTAKE_WEEKS`` local weeks of graded answers, oldest first."""
    now = now or timezone.now()
    zone = zone or _zone(copy.owner_id)
    today = now.astimezone(zone).date()
    this_week = today - timedelta(days=today.weekday())
    first = this_week - timedelta(weeks=MISTAKE_WEEKS - 1)
    since = datetime.combine(first, datetime.min.time(), tzinfo=zone)
    answers: Counter[date] = Counter()
    mistakes: dict[date, Counter[tuple[str, str]]] = defaultdict(Counter)
    rows = (
        Attempt.objects.filter(copy=copy, created_at__gte=since, created_at__lte=now)
        .exclude(status=Status.INVALID.value)
        .values_list("created_at", "mistake", "problem__kind")
    )
    for created_at, mistake, kind in rows:
        local = created_at.astimezone(zone).date()
        week = local - timedelta(days=local.weekday())
        answers[week] += 1
        if mistake:
            mistakes[week][(kind, mistake)] += 1
    weeks = []
    for k in range(MISTAKE_WEEKS):
        start = first + timedelta(weeks=k)
        named = mistakes[start]
        words: Counter[str] = Counter()
        for (kind, code), n in named.items():
            words[mistake_label(code, kind)] += n
        weeks.append(
            WeekOfAnswers(
                start=start,
                answers=answers[start],
                mistaken=sum(named.values()),
                mistakes=tuple(sorted(words.items(), key=lambda pair: (-pair[1], pair[0]))),
            )
        )
    return weeks


def idea_top_level(kinds: list[str]) -> int:
    """Return the highest problem level any of the kinds' generators offers (1 when none)."""
    tops = []
    for kind in kinds:
        generator = GENERATORS.get(kind)
        if generator is None:
            continue
        levels = generator.levels
        tops.append(levels if isinstance(levels, int) else max(int(level) for level in levels))
    return max(tops, default=1)


@dataclass(frozen=True)
class HistoryEntry:
    """One answer that rated a review item: when, how, and the interval it earned."""

    reviewed_at: datetime
    rating: str
    origin: str
    interval: timedelta
    again: bool


def review_item_history(*, item: ReviewItem, limit: int = 12) -> list[HistoryEntry]:
    """Return the item's last ``limit`` ratings, oldest first, each with the interval it earned
    (from the answer to the due date it set)."""
    logs = list(ReviewLog.objects.filter(item=item).order_by("-reviewed_at", "-pk")[:limit])
    logs.reverse()
    return [
        HistoryEntry(
            reviewed_at=log.reviewed_at,
            rating=str(log.get_rating_display()),
            origin=str(log.get_origin_display()),
            interval=log.due - log.reviewed_at,
            again=log.rating == ReviewLog.Rating.AGAIN,
        )
        for log in logs
    ]
