"""Revealing a worked solution ("Show me how"): the problem closes as revealed, without credit,
and the learner's review gets the (copy, kind, revealed) item once."""

import itertools
import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from courses.models import IdeaProgress
from courses.services import copy_get_or_create
from practice import reveals, services
from practice.models import ProblemInstance, Reveal
from practice.review.codes import REVEALED
from practice.review.models import CardState, ReviewItem, ReviewLog
from practice.review.services.revealing import review_record_reveal
from practice.review.services.variants import review_open
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG
from .test_concurrency import _race


def _reveal(copy, problem):
    return reveals.problem_reveal(copy=copy, problem=problem)


def test_revealing_an_open_problem_closes_it_as_revealed(copy, problem):
    reveal = _reveal(copy, problem)
    assert reveal is not None and reveal.problem_id == problem.pk
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED
    assert problem.state == "revealed"


def test_revealing_gives_no_level_credit(copy, problem):
    _reveal(copy, problem)
    assert not IdeaProgress.objects.filter(copy=copy, idea_slug=IDEA_SLUG).exists()


def test_revealing_creates_the_revealed_item_as_a_card_rated_again(copy, problem):
    reveal = _reveal(copy, problem)
    item = ReviewItem.objects.get(copy=copy, kind=problem.kind, mistake=REVEALED)
    assert item.state == CardState.LEARNING
    assert item.reps == 1
    assert item.source_problem_id == problem.pk
    assert item.source_attempt_id is None
    # Due within the hour, like a mistake just explained (a learning step).
    assert reveal.created_at < item.due <= reveal.created_at + timedelta(hours=1, seconds=1)
    log = ReviewLog.objects.get(item=item)
    assert log.reveal_id == reveal.pk and log.attempt_id is None
    assert log.rating == ReviewLog.Rating.AGAIN
    assert log.origin == ReviewLog.Origin.REVEAL


def test_revealing_twice_changes_nothing_the_second_time(copy, problem):
    first = _reveal(copy, problem)
    item = ReviewItem.objects.get(copy=copy, mistake=REVEALED)
    again = _reveal(copy, problem)
    assert first is not None and again is None
    assert Reveal.objects.count() == 1
    assert ReviewLog.objects.count() == 1
    item.refresh_from_db()
    assert item.reps == 1


def test_recording_one_reveal_twice_appends_no_second_log(copy, problem):
    reveal = _reveal(copy, problem)
    with transaction.atomic():
        assert review_record_reveal(reveal=reveal) == []
    assert ReviewLog.objects.filter(reveal=reveal).count() == 1


def test_revealing_after_a_wrong_answer_is_the_same_and_keeps_the_mistake(copy, problem, submit):
    diagnosis, text = wrong_answer(problem)
    wrong = submit(problem, text)
    _reveal(copy, problem)
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED
    revealed = ReviewItem.objects.get(copy=copy, mistake=REVEALED)
    assert revealed.source_attempt_id == wrong.pk  # the recall shows the wrong answer
    # The explained mistake keeps its own item; the reveal adds the kind's.
    assert ReviewItem.objects.filter(copy=copy, mistake=diagnosis.mistake).exists()
    assert ReviewItem.objects.filter(copy=copy).count() == 2


def test_a_second_reveal_of_the_kind_relapses_the_same_item(copy, problem):
    _reveal(copy, problem)
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    assert fresh.pk != problem.pk and fresh.state == ProblemInstance.State.OPEN
    _reveal(copy, fresh)
    item = ReviewItem.objects.get(copy=copy, mistake=REVEALED)
    assert item.reps == 2
    assert item.source_problem_id == fresh.pk
    assert ReviewLog.objects.filter(item=item).count() == 2


def test_revealing_a_solved_problem_records_nothing(copy, problem, submit):
    submit(problem, right_answer(problem))
    assert _reveal(copy, problem) is None
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.SOLVED
    assert not Reveal.objects.exists()
    assert not ReviewItem.objects.filter(mistake=REVEALED).exists()


def test_an_answer_to_a_revealed_problem_is_refused(copy, problem, submit):
    _reveal(copy, problem)
    with pytest.raises(services.ProblemClosedError):
        submit(problem, right_answer(problem))
    assert not IdeaProgress.objects.filter(copy=copy).exists()


def test_after_revealing_a_new_variant_can_be_asked_for(copy, problem):
    _reveal(copy, problem)
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    assert fresh.pk != problem.pk
    assert fresh.state == ProblemInstance.State.OPEN
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REVEALED  # not turned into "replaced"


def test_revealing_another_copys_problem_is_refused(copy, problem, other_learner, course):
    other = copy_get_or_create(user=other_learner, course_slug=course.course.slug)
    with pytest.raises(ValueError, match="another copy"):
        reveals.problem_reveal(copy=other, problem=problem)
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN
    assert not Reveal.objects.exists()


def test_revealing_a_review_variant_rates_its_item_again_and_uses_the_variant_up(
    copy, problem, submit
):
    diagnosis, text = wrong_answer(problem)
    submit(problem, text)
    item = ReviewItem.objects.get(copy=copy, mistake=diagnosis.mistake)
    variant = review_open(copy=copy, item=item)
    reps = item.reps
    _reveal(copy, variant)
    item.refresh_from_db()
    assert item.reps == reps + 1
    assert item.problem_id is None and item.previous_problem_id == variant.pk
    assert ReviewLog.objects.filter(item=item, origin=ReviewLog.Origin.REVEAL).count() == 1
    assert ReviewItem.objects.filter(copy=copy, mistake=REVEALED).exists()


def test_a_log_needs_an_attempt_or_a_reveal_not_both(copy, problem, submit):
    reveal = _reveal(copy, problem)
    log = ReviewLog.objects.get(reveal=reveal)
    attempt = submit(
        services.problem_open(copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="contrast"),
        "[0, 0]",
    )
    for attempt_id, reveal_id in ((None, None), (attempt.pk, reveal.pk)):
        with pytest.raises(IntegrityError), transaction.atomic():
            ReviewLog.objects.filter(pk=log.pk).update(attempt_id=attempt_id, reveal_id=reveal_id)


@pytest.mark.django_db(transaction=True)
def test_racing_reveals_record_one_reveal_and_one_log(course_copy):
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    results = _race(lambda: reveals.problem_reveal(copy=course_copy, problem=problem))
    assert sum(r is not None for r in results) == 1
    assert Reveal.objects.count() == 1
    assert ReviewLog.objects.count() == 1
    assert ReviewItem.objects.get(mistake=REVEALED).reps == 1


@pytest.mark.django_db(transaction=True)
def test_a_reveal_racing_an_answer_leaves_one_outcome(course_copy):
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    text = right_answer(problem)
    turns = itertools.count()

    def either():
        if next(turns) % 2:  # one racer reveals, the others answer rightly
            return reveals.problem_reveal(copy=course_copy, problem=problem)
        try:
            return services.attempt_submit(
                copy=course_copy, problem=problem, text=text, token=uuid.uuid4()
            )
        except services.ProblemClosedError:
            return None

    _race(either)
    problem.refresh_from_db()
    solved = problem.state == ProblemInstance.State.SOLVED
    assert problem.state in (ProblemInstance.State.SOLVED, ProblemInstance.State.REVEALED)
    assert Reveal.objects.exists() is not solved
    progress = IdeaProgress.objects.filter(copy=course_copy).first()
    assert (progress is not None and progress.correct == 1) is solved


def test_the_revealed_item_comes_back_as_a_fresh_untargeted_variant_of_the_kind(copy, problem):
    _reveal(copy, problem)
    item = ReviewItem.objects.get(copy=copy, mistake=REVEALED)
    variant = review_open(copy=copy, item=item)
    assert variant.kind == problem.kind
    assert variant.purpose == ProblemInstance.Purpose.REVIEW
    assert variant.spec["generator"]["target"] is None
    assert variant.spec["rows"] != problem.spec["rows"] or variant.seed != problem.seed


def test_the_revealed_item_has_words_of_its_own():
    from practice.labels import mistake_label

    assert mistake_label(REVEALED, "weighted_sum") != REVEALED
    assert "shown how" in mistake_label(REVEALED)
