"""Today's practice: the step Continue opens, the daily goal, and days practised in a row."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from courses.models import MASTERY_CORRECT, IdeaProgress
from grading.kinds import Status
from practice.models import Attempt, DailyGoal, ProblemInstance
from practice.review.models import ReviewItem, ReviewSettings
from practice.services import attempt_submit, problem_open
from practice.today.forms import DailyGoalForm
from practice.today.progress import day_of, days_in_a_row, minutes_practised
from practice.today.selectors import StepKind, next_step
from practice.today.services import daily_goal_set
from tests.answers import right_answer, wrong_answer
from tests.review.conftest import make_attempt, make_copy, make_problem

# --- the next step --------------------------------------------------------------------------


def _open_url(copy, page, idea, kind) -> str:
    return reverse(
        "practice:problem_open",
        kwargs={"copy_id": copy.pk, "page_slug": page, "idea_slug": idea, "kind": kind},
    )


def test_a_fresh_learner_continues_into_the_first_idea(course_copy):
    step = next_step(copy=course_copy)

    assert step.kind == StepKind.IDEA
    assert step.url == _open_url(course_copy, "first-page", "one-row", "lookup")
    assert step.reason == "next idea: One identifier selects one row"


def test_continue_redirects_to_the_step_and_opening_it_makes_the_problem(
    learner_client, course_copy
):
    response = learner_client.get(reverse("practice:continue", args=[course_copy.pk]))

    assert response.status_code == 302
    assert response["Location"] == _open_url(course_copy, "first-page", "one-row", "lookup")
    opened = learner_client.get(response["Location"])
    problem = ProblemInstance.objects.get(copy=course_copy)
    assert opened["Location"] == reverse("practice:problem", args=[course_copy.pk, problem.pk])
    assert (problem.idea_slug, problem.kind) == ("one-row", "lookup")


def test_continue_is_only_for_the_copys_owner(client_for, other_learner, course_copy):
    response = client_for(other_learner).get(reverse("practice:continue", args=[course_copy.pk]))

    assert response.status_code == 404


def test_an_unfinished_problem_comes_before_the_next_idea(course_copy):
    problem = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )

    step = next_step(copy=course_copy)

    assert step.kind == StepKind.PROBLEM
    assert step.url == reverse("practice:problem", args=[course_copy.pk, problem.pk])
    assert "A layer is a weighted sum" in step.reason


def test_after_a_wrong_answer_and_an_hour_the_review_comes_first(course_copy):
    start = timezone.now()
    problem = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    with time_machine.travel(start, tick=False):
        attempt_submit(
            copy=course_copy, problem=problem, text=wrong_answer(problem)[1], token=uuid.uuid4()
        )
    item = ReviewItem.objects.get(copy=course_copy)

    # Right after the answer: the problem is still open and nothing is due yet.
    assert next_step(copy=course_copy, now=start + timedelta(minutes=1)).kind == StepKind.PROBLEM
    later = next_step(copy=course_copy, now=start + timedelta(hours=1, seconds=1))

    assert later.kind == StepKind.REVIEW
    assert later.url == reverse("review:review", args=[course_copy.pk, item.pk])
    assert later.reason == "1 review due"


def test_a_solved_problem_leads_on_to_the_same_idea_until_it_is_mastered(course_copy):
    problem = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="one-row", kind="lookup"
    )
    attempt_submit(
        copy=course_copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
    )

    step = next_step(copy=course_copy)

    assert step.kind == StepKind.IDEA
    assert step.url == _open_url(course_copy, "first-page", "one-row", "lookup")
    assert step.reason == "keep going: One identifier selects one row"


def test_a_mastered_idea_hands_over_to_the_next_ideas_least_practised_kind(course_copy):
    IdeaProgress.objects.create(
        copy=course_copy,
        page_slug="first-page",
        idea_slug="one-row",
        attempts=MASTERY_CORRECT,
        correct=MASTERY_CORRECT,
    )
    # One answer at weighted_sum (a solved problem): contrast has none, so it comes next.
    solved = make_problem_in(course_copy, "weighted-sum", "weighted_sum")
    make_attempt(solved, status=Status.CORRECT)
    ProblemInstance.objects.filter(pk=solved.pk).update(state=ProblemInstance.State.SOLVED)

    step = next_step(copy=course_copy)

    assert step.url == _open_url(course_copy, "first-page", "weighted-sum", "contrast")


def make_problem_in(copy, idea_slug: str, kind: str) -> ProblemInstance:
    return problem_open(copy=copy, page_slug="first-page", idea_slug=idea_slug, kind=kind)


def test_every_idea_mastered_leads_to_the_review_queue(course_copy):
    for idea in ("one-row", "weighted-sum"):
        IdeaProgress.objects.create(
            copy=course_copy,
            page_slug="first-page",
            idea_slug=idea,
            attempts=MASTERY_CORRECT,
            correct=MASTERY_CORRECT,
        )

    step = next_step(copy=course_copy)

    assert step.kind == StepKind.DONE
    assert step.url == reverse("review:queue", args=[course_copy.pk])


def test_the_page_last_worked_on_gives_its_lowest_level_idea(real_course, learner):
    from courses.services import copy_get_or_create

    copy = copy_get_or_create(user=learner, course_slug=real_course.course.slug)
    page = real_course.pages.order_by("order")[2]
    ideas = [idea for idea in page.ideas.order_by("order") if idea.problem_kinds]
    first, second = ideas[0], ideas[1]
    IdeaProgress.objects.create(
        copy=copy, page_slug=page.slug, idea_slug=first.slug, attempts=3, correct=3, level=2
    )
    problem = problem_open(
        copy=copy, page_slug=page.slug, idea_slug=first.slug, kind=first.problem_kinds[0]
    )
    make_attempt(problem, status=Status.CORRECT)
    ProblemInstance.objects.filter(pk=problem.pk).update(state=ProblemInstance.State.SOLVED)

    step = next_step(copy=copy)

    # Not the course's first idea (page 1): the page worked on last, its lowest level.
    assert step.kind == StepKind.IDEA
    assert f"/pages/{page.slug}/ideas/{second.slug}/" in step.url
    assert step.reason == f"next idea: {second.title}"


def test_the_dashboard_shows_continue_first_with_its_reason(learner_client, course_copy):
    html = learner_client.get("/course/").content.decode()

    assert html.index('id="continue"') < html.index('class="page-head"')
    assert reverse("practice:continue", args=[course_copy.pk]) in html
    assert "Next idea: One identifier selects one row" in html


def test_a_verdict_offers_continue_the_same_way(learner_client, course_copy):
    problem = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="one-row", kind="lookup"
    )
    attempt = attempt_submit(
        copy=course_copy, problem=problem, text=right_answer(problem), token=uuid.uuid4()
    )

    html = learner_client.get(
        reverse("practice:attempt", args=[course_copy.pk, attempt.pk])
    ).content.decode()

    assert 'id="continue-next"' in html
    assert "Keep going: One identifier selects one row" in html


# --- days in a row, in the learner's zone ---------------------------------------------------


def _answered_at(copy, moment: datetime, *, status: Status = Status.INCORRECT) -> Attempt:
    attempt = make_attempt(make_problem(copy), status=status)
    Attempt.objects.filter(pk=attempt.pk).update(created_at=moment)
    return attempt


@pytest.mark.django_db
def test_days_in_a_row_follow_the_learners_midnight_not_utcs():
    copy = make_copy()
    ReviewSettings.objects.create(user=copy.owner, time_zone="America/New_York")
    # 23:30 on 1 March and 00:30 on 2 March in New York: both 2 March in UTC.
    _answered_at(copy, datetime(2026, 3, 2, 4, 30, tzinfo=UTC))
    _answered_at(copy, datetime(2026, 3, 2, 5, 30, tzinfo=UTC))
    noon = datetime(2026, 3, 2, 17, 0, tzinfo=UTC)

    assert days_in_a_row(user_id=copy.owner_id, now=noon) == (2, True)
    ReviewSettings.objects.filter(user=copy.owner).update(time_zone="UTC")
    assert days_in_a_row(user_id=copy.owner_id, now=noon) == (1, True)


@pytest.mark.django_db
def test_a_streak_holds_until_the_end_of_the_next_local_day():
    copy = make_copy()
    ReviewSettings.objects.create(user=copy.owner, time_zone="Asia/Tokyo")
    # 1 and 2 March in Tokyo (UTC+9).
    _answered_at(copy, datetime(2026, 3, 1, 1, 0, tzinfo=UTC))
    _answered_at(copy, datetime(2026, 3, 2, 1, 0, tzinfo=UTC))

    # 3 March, 23:59 in Tokyo: today has no answer yet, the run up to yesterday stands.
    assert days_in_a_row(user_id=copy.owner_id, now=datetime(2026, 3, 3, 14, 59, tzinfo=UTC)) == (
        2,
        False,
    )
    # One minute later it is 4 March in Tokyo: the run is broken.
    assert days_in_a_row(user_id=copy.owner_id, now=datetime(2026, 3, 3, 15, 0, tzinfo=UTC)) == (
        0,
        False,
    )


@pytest.mark.django_db
def test_an_unreadable_answer_does_not_keep_a_streak():
    copy = make_copy()
    _answered_at(copy, datetime(2026, 3, 1, 12, 0, tzinfo=UTC), status=Status.INVALID)

    assert days_in_a_row(user_id=copy.owner_id, now=datetime(2026, 3, 1, 13, 0, tzinfo=UTC)) == (
        0,
        False,
    )


@pytest.mark.django_db
def test_the_day_counts_problems_answered_once_each_since_local_midnight():
    copy = make_copy()
    ReviewSettings.objects.create(user=copy.owner, time_zone="Europe/Berlin")
    daily_goal_set(user=copy.owner, unit="problems", amount=2)
    problem = make_problem(copy)
    for moment in (datetime(2026, 3, 2, 9, 0, tzinfo=UTC), datetime(2026, 3, 2, 9, 5, tzinfo=UTC)):
        attempt = make_attempt(problem)
        Attempt.objects.filter(pk=attempt.pk).update(created_at=moment)
    # 23:30 UTC on 1 March is 00:30 on 2 March in Berlin: today.
    _answered_at(copy, datetime(2026, 3, 1, 23, 30, tzinfo=UTC))
    # 22:30 UTC on 1 March is 23:30 in Berlin: yesterday.
    _answered_at(copy, datetime(2026, 3, 1, 22, 30, tzinfo=UTC))

    day = day_of(user_id=copy.owner_id, now=datetime(2026, 3, 2, 10, 0, tzinfo=UTC))

    assert (day.goal, day.done, day.reached) == (2, 2, True)
    assert (day.streak, day.practised_today) == (2, True)


def test_minutes_count_gaps_up_to_five_minutes_and_a_minute_for_a_first_answer():
    t = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    times = [t, t + timedelta(minutes=3), t + timedelta(minutes=4), t + timedelta(minutes=40)]

    # 1 (first) + 3 + 1 + 1 (a new sitting after a 36-minute pause).
    assert minutes_practised(times) == 6
    assert minutes_practised([]) == 0


# --- the daily goal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"unit": "problems", "amount": "0"}, "amount"),
        ({"unit": "problems", "amount": "101"}, "amount"),
        ({"unit": "minutes", "amount": "241"}, "amount"),
        ({"unit": "minutes", "amount": "-5"}, "amount"),
        ({"unit": "minutes", "amount": "ten"}, "amount"),
        ({"unit": "hours", "amount": "2"}, "unit"),
        ({"unit": "problems"}, "amount"),
    ],
)
def test_a_goal_out_of_bounds_is_refused_naming_the_field(data, field):
    form = DailyGoalForm(data)

    assert not form.is_valid()
    assert field in form.errors


def test_the_bounds_themselves_are_goals():
    assert DailyGoalForm({"unit": "minutes", "amount": "240"}).is_valid()
    assert DailyGoalForm({"unit": "problems", "amount": "100"}).is_valid()
    assert DailyGoalForm({"unit": "problems", "amount": "1"}).is_valid()


def test_setting_a_goal_stores_it_once_per_learner(learner_client, learner, course_copy):
    response = learner_client.post(reverse("practice:goal"), {"unit": "minutes", "amount": "20"})
    learner_client.post(reverse("practice:goal"), {"unit": "problems", "amount": "8"})

    assert response.status_code == 302
    goal = DailyGoal.objects.get(user=learner)
    assert (goal.unit, goal.amount) == ("problems", 8)
    assert "Today: 0 of 8 problems." in learner_client.get("/course/").content.decode()


def test_a_bad_goal_gets_a_message_and_changes_nothing(learner_client, learner):
    daily_goal_set(user=learner, unit="problems", amount=5)

    response = learner_client.post(reverse("practice:goal"), {"unit": "problems", "amount": "500"})

    assert response.status_code == 400
    assert "At most 100 problems a day." in response.content.decode()
    goal = DailyGoal.objects.get(user=learner)
    assert (goal.unit, goal.amount) == ("problems", 5)


def test_the_service_refuses_what_the_form_would(learner):
    with pytest.raises(ValueError, match="amount out of range"):
        daily_goal_set(user=learner, unit="minutes", amount=241)
    with pytest.raises(ValueError, match="unit unknown"):
        daily_goal_set(user=learner, unit="hours", amount=2)
    assert not DailyGoal.objects.exists()


def test_the_database_refuses_a_goal_out_of_bounds(learner):
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyGoal.objects.create(user=learner, unit="problems", amount=101)
    DailyGoal.objects.create(user=learner, unit="minutes", amount=240)


def test_a_page_of_the_copy_offers_continue_too(learner_client, course_copy):
    html = learner_client.get(
        reverse("courses:page", args=[course_copy.pk, "second-page"])
    ).content.decode()

    assert 'id="continue-next"' in html
    assert "Next idea: One identifier selects one row" in html


def test_after_a_wrong_answer_continue_is_not_offered_back_to_the_same_problem(
    learner_client, course_copy
):
    problem = problem_open(
        copy=course_copy, page_slug="first-page", idea_slug="one-row", kind="lookup"
    )
    attempt = attempt_submit(
        copy=course_copy, problem=problem, text=wrong_answer(problem)[1], token=uuid.uuid4()
    )

    html = learner_client.get(
        reverse("practice:attempt", args=[course_copy.pk, attempt.pk])
    ).content.decode()

    assert next_step(copy=course_copy).url == reverse(
        "practice:problem", args=[course_copy.pk, problem.pk]
    )
    assert 'id="continue-next"' not in html
    assert 'id="answer-form"' in html
