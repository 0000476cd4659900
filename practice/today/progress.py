"""Reads for the learner's progress: the day's amount and streak, the review forecast,
mistakes week by week and a review item's history. Nothing here writes.

Days and weeks are the learner's own, in the time zone of their review settings (UTC until
they choose one); times are stored in UTC and converted only here.
"""

import zoneinfo
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models.functions import TruncDate
from django.utils import timezone

from courses.models import CourseCopy
from grading.kinds import Status
from practice.labels import mistake_label
from practice.models import Attempt, DailyGoal
from practice.review.models import ReviewItem, ReviewLog
from practice.review.selectors import review_settings_of

# Days the forecast covers (today first) and weeks the mistakes picture covers (this one last).
FORECAST_DAYS = 14
MISTAKE_WEEKS = 12
# Time counted for one answer: the gap since the previous answer, at most this long (a longer
# gap is a pause), and this much for the first answer of a sitting.
SITTING_GAP = timedelta(minutes=5)
FIRST_ANSWER_TIME = timedelta(minutes=1)
# How far back the streak looks; a longer streak shows as this many days.
STREAK_HORIZON_DAYS = 400


def learner_zone(*, user_id: int) -> zoneinfo.ZoneInfo:
    """Return the learner's time zone (their review settings' zone; UTC until chosen)."""
    return review_settings_of(user_id=user_id).zone


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
    zone = zone or learner_zone(user_id=user_id)
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
    zone = zone or learner_zone(user_id=user_id)
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
    zone = zone or learner_zone(user_id=copy.owner_id)
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
    zone = zone or learner_zone(user_id=copy.owner_id)
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
