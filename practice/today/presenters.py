"""Shape today's practice for the dashboard: the next step, the day, and the two pictures with
the numbers they draw (reads only)."""

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from courses.models import CourseCopy

from . import pictures, progress, selectors


@dataclass(frozen=True)
class Dashboard:
    step: selectors.NextStep
    day: progress.Day
    forecast: list[progress.ForecastDay]
    forecast_svg: SafeString
    weeks: list[progress.WeekOfAnswers]
    weeks_svg: SafeString

    @property
    def forecast_total(self) -> int:
        return sum(day.due for day in self.forecast)

    @property
    def answers_total(self) -> int:
        return sum(week.answers for week in self.weeks)


def dashboard_today(*, copy: CourseCopy, now: datetime | None = None) -> Dashboard:
    """Return what the dashboard shows first: Continue, the day, and the progress pictures."""
    now = now or timezone.now()
    zone = progress.learner_zone(user_id=copy.owner_id)
    forecast = progress.review_forecast(copy=copy, now=now, zone=zone)
    weeks = progress.mistakes_by_week(copy=copy, now=now, zone=zone)
    return Dashboard(
        step=selectors.next_step(copy=copy, now=now),
        day=progress.day_of(user_id=copy.owner_id, now=now, zone=zone),
        forecast=forecast,
        # Built from numbers and escaped text only (the SVG toolkit escapes every text).
        forecast_svg=mark_safe(pictures.forecast_picture(forecast)),  # noqa: S308
        weeks=weeks,
        weeks_svg=mark_safe(pictures.weeks_picture(weeks)),  # noqa: S308
    )
