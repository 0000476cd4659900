import uuid

import pytest
from django.http import Http404

from courses.models import IdeaProgress
from grading.kinds import ProblemKind, Status
from practice import services
from practice.generators import GENERATORS, generate
from practice.models import Attempt, ProblemInstance
from tests.answers import right_answer, wrong_answer

from .conftest import IDEA_SLUG, LOOKUP_IDEA_SLUG, PAGE_SLUG


def _progress(copy, idea_slug=IDEA_SLUG) -> IdeaProgress | None:
    return IdeaProgress.objects.filter(copy=copy, page_slug=PAGE_SLUG, idea_slug=idea_slug).first()


def test_opening_twice_returns_the_same_stored_problem(copy):
    first = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    again = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    assert again.pk == first.pk
    assert ProblemInstance.objects.count() == 1


def test_opened_problem_is_reproducible_from_its_stored_generator_seed_and_level(problem):
    generator = GENERATORS[ProblemKind.WEIGHTED_SUM]
    assert problem.generator_name == generator.name
    assert problem.generator_version == str(generator.version)
    assert 0 <= problem.seed < 2**63
    assert problem.level == 1
    assert problem.spec == generate(ProblemKind.WEIGHTED_SUM, seed=problem.seed, level=1)


def test_each_kind_the_idea_lists_gets_its_own_problem(copy):
    kinds = ["weighted_sum", "contrast", "content_weights"]
    problems = [
        services.problem_open(copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind=k)
        for k in kinds
    ]
    assert [p.kind for p in problems] == kinds
    assert [p.spec["kind"] for p in problems] == kinds


@pytest.mark.parametrize(
    ("page_slug", "idea_slug", "kind"),
    [
        (PAGE_SLUG, "no-such-idea", "weighted_sum"),
        ("no-such-page", IDEA_SLUG, "weighted_sum"),
        (PAGE_SLUG, LOOKUP_IDEA_SLUG, "weighted_sum"),  # the idea does not list the kind
        ("second-page", "coming-soon", "lookup"),  # an idea without problems
        (PAGE_SLUG, IDEA_SLUG, "telepathy"),
    ],
)
def test_opening_a_problem_the_idea_does_not_offer_is_404(copy, page_slug, idea_slug, kind):
    with pytest.raises(Http404):
        services.problem_open(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    assert not ProblemInstance.objects.exists()


def test_right_answer_is_correct_solves_the_problem_and_counts(problem, submit, copy):
    attempt = submit(problem, right_answer(problem))
    assert attempt.status == Status.CORRECT
    assert attempt.score == 1.0
    assert attempt.mistake is None
    assert attempt.verdict["status"] == "correct"
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.SOLVED
    progress = _progress(copy)
    assert (progress.attempts, progress.correct) == (1, 1)


def test_wrong_answer_stores_the_diagnosed_mistake_and_keeps_the_problem_open(
    problem, submit, copy
):
    diagnosis, text = wrong_answer(problem)
    attempt = submit(problem, text)
    assert attempt.status == Status.INCORRECT
    assert attempt.mistake == diagnosis.mistake
    assert attempt.verdict["explanation"]
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN
    progress = _progress(copy)
    assert (progress.attempts, progress.correct) == (1, 0)


def test_invalid_answer_is_stored_but_costs_nothing(problem, submit, copy):
    attempt = submit(problem, "[1/2, ")
    assert attempt.status == Status.INVALID
    assert attempt.verdict["message"]
    assert Attempt.objects.filter(pk=attempt.pk).exists()
    assert _progress(copy) is None
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.OPEN


def test_same_token_twice_records_one_attempt_with_the_same_verdict(problem, submit):
    token = uuid.uuid4()
    _, wrong = wrong_answer(problem)
    first = submit(problem, wrong, token)
    second = submit(problem, right_answer(problem), token)
    assert second.pk == first.pk
    assert second.verdict == first.verdict
    assert Attempt.objects.count() == 1


def test_same_token_after_the_problem_was_solved_returns_the_first_attempt(problem, submit):
    token = uuid.uuid4()
    first = submit(problem, right_answer(problem), token)
    assert submit(problem, right_answer(problem), token).pk == first.pk


def test_answering_a_solved_problem_again_is_refused(problem, submit):
    submit(problem, right_answer(problem))
    with pytest.raises(services.ProblemClosedError):
        submit(problem, right_answer(problem))
    assert Attempt.objects.count() == 1


def test_submitting_to_another_copys_problem_is_refused(problem, make_user, course):
    from courses.services import copy_get_or_create

    other = copy_get_or_create(user=make_user(username="mallory"), course_slug=course.course.slug)
    with pytest.raises(ValueError, match="another copy"):
        services.attempt_submit(copy=other, problem=problem, text="[1, 2]", token=uuid.uuid4())
    assert not Attempt.objects.exists()


def test_new_variant_replaces_the_problem_once_even_when_asked_twice(problem, copy):
    fresh = services.problem_new_variant(copy=copy, problem=problem)
    again = services.problem_new_variant(copy=copy, problem=problem)
    problem.refresh_from_db()
    assert problem.state == ProblemInstance.State.REPLACED
    assert fresh.pk != problem.pk
    assert again.pk == fresh.pk
    assert fresh.state == ProblemInstance.State.OPEN
    assert (fresh.kind, fresh.idea_slug) == (problem.kind, problem.idea_slug)


def test_opening_after_solving_gives_a_new_problem(problem, submit, copy):
    submit(problem, right_answer(problem))
    reopened = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    assert reopened.pk != problem.pk
    assert reopened.state == ProblemInstance.State.OPEN


def test_level_rises_after_right_answers_and_the_next_variant_uses_it(problem, submit, copy):
    current = problem
    for _ in range(3):
        submit(current, right_answer(current))
        current = services.problem_new_variant(copy=copy, problem=current)
    assert _progress(copy).level == 2
    assert current.level == 2
    assert current.spec == generate(ProblemKind.WEIGHTED_SUM, seed=current.seed, level=2)


def test_invalid_answers_do_not_break_a_streak(problem, submit, copy):
    current = problem
    for _ in range(3):
        submit(current, "not a vector ((")
        submit(current, right_answer(current))
        current = services.problem_new_variant(copy=copy, problem=current)
    progress = _progress(copy)
    assert (progress.attempts, progress.correct, progress.level) == (3, 3, 2)


def test_export_holds_progress_notes_problems_attempts_and_review(problem, submit, copy):
    from courses.services import note_save

    note_save(copy=copy, page_slug=PAGE_SLUG, text="weights add to one")
    _, wrong = wrong_answer(problem)
    submit(problem, wrong)
    submit(problem, right_answer(problem))
    data = services.copy_export(copy=copy)
    assert data["format"] == services.EXPORT_FORMAT
    assert data["course"]["slug"] == copy.course.slug
    assert data["progress"][0]["attempts"] == 2
    assert data["notes"] == [
        {
            "page": PAGE_SLUG,
            "text": "weights add to one",
            "updated_at": data["notes"][0]["updated_at"],
        }
    ]
    assert [p["spec"] for p in data["problems"]] == [problem.spec]
    assert [a["status"] for a in data["attempts"]] == ["incorrect", "correct"]
    assert data["attempts"][0]["verdict"]["diagnosis"]["mistake"]
    assert "review" in data


def test_new_variant_of_a_review_problem_leaves_it_to_review(copy, submit):
    review_problem = services._problem_create(
        copy=copy,
        page_slug=PAGE_SLUG,
        idea_slug=IDEA_SLUG,
        kind=ProblemKind.WEIGHTED_SUM,
        purpose=ProblemInstance.Purpose.REVIEW,
    )
    practice_problem = services.problem_new_variant(copy=copy, problem=review_problem)
    review_problem.refresh_from_db()
    assert review_problem.state == ProblemInstance.State.OPEN
    assert practice_problem.purpose == ProblemInstance.Purpose.PRACTICE
    assert practice_problem.pk != review_problem.pk
