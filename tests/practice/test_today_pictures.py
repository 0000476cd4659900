"""The progress pictures: drawn for a learner with no history and for one with months of it
(answers and reviews made through the services with a moved clock), the same numbers in
the text beside them, and within the pictures' Content-Security-Policy rules."""

import re
import uuid
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from grading.kinds import Status
from practice.models import Attempt
from practice.review.models import ReviewItem, ReviewLog, ReviewSettings
from practice.review.selectors import review_next
from practice.review.services.variants import review_open
from practice.services import attempt_submit, problem_open
from practice.today import pictures
from practice.today.progress import (
    FORECAST_DAYS,
    MISTAKE_WEEKS,
    ForecastDay,
    mistakes_by_week,
    review_forecast,
    review_item_history,
)
from tests.answers import right_answer, wrong_answer

SVG = "{http://www.w3.org/2000/svg}"
START = datetime(2026, 1, 5, 15, 0, tzinfo=UTC)
DAYS = 120
PHONE_CONTENT = 340  # pixels a 390 px phone leaves for a picture inside the page's margins


def _svgs(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, flags=re.S)


def assert_csp_clean(svg: str) -> ET.Element:
    """Parse the SVG and check it keeps the pictures' rules: no style attribute or element, no
    script or event handler, not wider than a phone, no text under 11 px."""
    root = ET.fromstring(svg)
    inherited = float(root.get("font-size", "16"))
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        assert tag not in {"style", "script", "foreignObject"}, tag
        for name in element.attrib:
            assert name != "style", svg[:200]
            assert not name.lower().startswith("on"), name
            assert not element.attrib[name].lower().startswith("javascript:")
        if tag == "text":
            assert float(element.get("font-size", inherited)) >= 11
    assert float(root.get("width")) <= PHONE_CONTENT
    return root


def _months_of_history(copy) -> None:
    """Every third day for DAYS days: every review that is due answered (wrong every fourth
    time), then a practice problem answered right (after a wrong answer every fifth day)."""
    reviews = 0
    for day in range(0, DAYS, 3):
        moment = START + timedelta(days=day)
        with time_machine.travel(moment, tick=False):
            for item in review_next(copy=copy, now=moment):
                variant = review_open(copy=copy, item=item)
                reviews += 1
                text = wrong_answer(variant)[1] if reviews % 4 == 0 else right_answer(variant)
                attempt_submit(copy=copy, problem=variant, text=text, token=uuid.uuid4())
            problem = problem_open(
                copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
            )
            if day % 5 == 0:  # a mistake now and then, on top of the reviews
                attempt_submit(
                    copy=copy, problem=problem, text=wrong_answer(problem)[1], token=uuid.uuid4()
                )
            attempt_submit(
                copy=copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
            )
    assert reviews > 5  # the history holds reviews, not only first mistakes


@pytest.fixture
def history_copy(course_copy):
    ReviewSettings.objects.create(user=course_copy.owner, time_zone="Europe/Paris")
    _months_of_history(course_copy)
    return course_copy


def test_a_learner_without_history_gets_empty_pictures_and_zeros(learner_client, course_copy):
    html = learner_client.get("/course/").content.decode()

    svgs = _svgs(html)
    forecast = assert_csp_clean(next(s for s in svgs if "Reviews due each day" in s))
    weeks = assert_csp_clean(next(s for s in svgs if "named mistakes each week" in s))
    assert not [r for r in forecast.iter(f"{SVG}rect") if r.get("data-value")]
    assert not [r for r in weeks.iter(f"{SVG}rect") if r.get("data-value")]
    assert "Reviews due in the next two weeks: 0" in html
    assert html.count('data-filled="1"') == 2  # two ideas with practice, each at level 1
    for svg in svgs:
        if 'role="img"' in svg:
            assert_csp_clean(svg)


def test_months_of_history_draw_the_numbers_the_database_holds(learner_client, history_copy):
    now = START + timedelta(days=DAYS)
    copy = history_copy
    with time_machine.travel(now, tick=False):
        html = learner_client.get("/course/").content.decode()
        forecast = review_forecast(copy=copy)
        weeks = mistakes_by_week(copy=copy)

    # The forecast: every item due before the end of the fourteenth local day, once.
    assert len(forecast) == FORECAST_DAYS
    horizon = datetime.combine(forecast[-1].day + timedelta(days=1), datetime.min.time())
    horizon = horizon.replace(tzinfo=ReviewSettings.objects.get(user=copy.owner).zone)
    assert sum(d.due for d in forecast) == ReviewItem.objects.filter(due__lt=horizon).count()
    # The weeks: every graded answer since the first week's Monday, and every named mistake.
    assert len(weeks) == MISTAKE_WEEKS
    first = datetime.combine(weeks[0].start, datetime.min.time()).replace(
        tzinfo=ReviewSettings.objects.get(user=copy.owner).zone
    )
    graded = Attempt.objects.filter(created_at__gte=first).exclude(status=Status.INVALID)
    assert sum(w.answers for w in weeks) == graded.count() > 0
    assert sum(w.mistaken for w in weeks) == graded.exclude(mistake=None).count() > 0
    assert all(sum(n for _words, n in w.mistakes) == w.mistaken for w in weeks)

    # The page draws those numbers and lists them beside the pictures.
    svgs = _svgs(html)
    drawn = assert_csp_clean(next(s for s in svgs if "named mistakes each week" in s))
    bars = [int(r.get("data-value")) for r in drawn.iter(f"{SVG}rect") if r.get("data-value")]
    assert bars == [w.answers for w in weeks if w.answers]
    drawn = assert_csp_clean(next(s for s in svgs if "Reviews due each day" in s))
    bars = [int(r.get("data-value")) for r in drawn.iter(f"{SVG}rect") if r.get("data-value")]
    assert bars == [d.due for d in forecast if d.due]
    table = html.split('id="mistakes-by-week"')[1].split("</table>")[0]
    assert table.count("<tr>") == MISTAKE_WEEKS + 1
    for svg in svgs:
        if 'role="img"' in svg:
            assert_csp_clean(svg)


def test_a_review_items_page_shows_its_history_as_a_timeline_and_a_list(
    learner_client, history_copy
):
    item = ReviewItem.objects.get(copy=history_copy)
    logs = ReviewLog.objects.filter(item=item).count()
    entries = review_item_history(item=item)

    with time_machine.travel(START + timedelta(days=DAYS), tick=False):
        html = learner_client.get(
            reverse("review:review", args=[history_copy.pk, item.pk])
        ).content.decode()

    assert len(entries) == min(logs, 12) > 3
    section = html.split('id="review-history"')[1].split("</section>")[0]
    timeline = assert_csp_clean(_svgs(section)[0])
    dots = [c.get("data-rating") for c in timeline.iter(f"{SVG}circle")]
    assert dots == ["again" if e.again else "right" for e in entries]
    assert section.count("<li>") == len(entries)
    for entry in entries:
        assert f"back after {pictures.interval_words(entry.interval)}" in section
    # The earned intervals grow while the answers are right.
    right_run = [e.interval for e in entries[-3:] if not e.again]
    assert right_run == sorted(right_run)


def test_the_forecast_picture_draws_one_bar_per_day_with_reviews():
    start = datetime(2026, 3, 2, tzinfo=UTC).date()
    days = [ForecastDay(day=start + timedelta(days=k), due=k % 3) for k in range(FORECAST_DAYS)]

    root = assert_csp_clean(pictures.forecast_picture(days))

    values = [int(r.get("data-value")) for r in root.iter(f"{SVG}rect") if r.get("data-value")]
    assert values == [d.due for d in days if d.due]
    assert root.find(f"{SVG}title").text == "Reviews due each day"
    assert (
        "13 reviews fall due in the next 14 days" in root.find(f"{SVG}desc").text
    )  # 4x(0+1+2)+0+1


def test_an_interval_is_said_in_minutes_hours_or_days():
    assert pictures.interval_words(timedelta(minutes=10)) == "10 minutes"
    assert pictures.interval_words(timedelta(hours=1)) == "1 hour"
    assert pictures.interval_words(timedelta(days=3, hours=2)) == "3 days"


def test_a_level_picture_fills_as_many_boxes_as_the_level():
    svg = pictures.level_picture(2, 4)

    root = ET.fromstring(svg)
    assert [r.get("data-filled") for r in root.iter(f"{SVG}rect")] == ["1", "1", "0", "0"]
    assert root.get("aria-hidden") == "true"
    assert "style" not in svg


REVIEW_QUEUE_READS = 3


def test_the_dashboards_queries_do_not_grow_with_history(
    client_for, make_user, course, history_copy, django_assert_max_num_queries
):
    fresh = client_for(make_user(username="newcomer"))
    fresh.get("/course/")  # the copy is created on the first visit
    with CaptureQueriesContext(connection) as first:
        assert fresh.get("/course/").status_code == 200
    with time_machine.travel(START + timedelta(days=DAYS), tick=False):
        months = client_for(history_copy.owner)
        # Months of history leave reviews due, which a newcomer has not: Continue then reads
        # the review queue (the learner's settings, today's reviews, the due items) besides
        # its one statement (practice.today.continue_sql). Nothing grows with the history.
        assert ReviewItem.objects.filter(copy=history_copy, due__lte=timezone.now()).exists()
        with django_assert_max_num_queries(len(first.captured_queries) + REVIEW_QUEUE_READS):
            assert months.get("/course/").status_code == 200
