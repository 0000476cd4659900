"""The request types of ``tests/budgets.py``, driven through Django's test Client.

``build()`` makes the state every type needs on the small fixture course (a learner with a copy,
two problems answered wrongly once, so two review cards, and a class with an instructor); each
``RequestType`` then has an untimed ``prepare`` (the review card due or not, a fresh problem for
the answers that close or first answer one) and the request itself, ``send``, which asserts its
status code. ``tests/test_budgets.py`` counts the statements of one ``send``;
``tests/benchmarks/bench_budgets.py`` counts one and times many.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

FIXTURE_COURSE_DIR = Path(__file__).resolve().parent / "courses" / "fixtures" / "mini-course"
PAGE_SLUG = "first-page"
IDEA_SLUG = "weighted-sum"
LOOKUP_IDEA_SLUG = "one-row"
SIGN_IN_BACKEND = "django.contrib.auth.backends.ModelBackend"


@dataclass
class Scenario:
    """The rows and signed-in clients the request types act on."""

    copy: object
    learner: object
    client: object
    teacher_client: object
    context: object
    answered: object  # a lookup problem with one wrong answer, open: answered wrongly again
    page_problem: object  # a contrast problem with one wrong answer: the problem page shown
    verdict_url: str
    item: object  # the review item the first wrong answer made (due for the review types)
    state: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RequestType:
    """One request type: its budget's name, what to set up untimed, and the request.

    ``review_due``: whether the learner's review card is due when the request is sent. Every
    page that shows Continue reads the review queue (three statements) only when a review is
    due; the practice loop's types are measured with none due, as under ``make load``, whose
    learners' cards come due after the run.
    """

    name: str
    send: Callable[[Scenario], None]
    setup: Callable[[Scenario], None] = lambda scenario: None
    review_due: bool = False

    def prepare(self, scenario: Scenario) -> None:
        """Set up the request untimed: the card due or not, then the type's own set-up."""
        from django.utils import timezone

        from practice.review.models import ReviewItem

        shift = timedelta(minutes=-1 if self.review_due else 60 * 24 * 30)
        ReviewItem.objects.filter(copy=scenario.copy).update(due=timezone.now() + shift)
        self.setup(scenario)


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user, backend=SIGN_IN_BACKEND)
    return client


def _wrong(problem) -> str:
    from tests.answers import wrong_answer

    return wrong_answer(problem)[1]


def _right(problem) -> str:
    from tests.answers import right_answer

    return right_answer(problem)


def _problem_url(problem) -> str:
    from django.urls import reverse

    return reverse(
        "practice:problem", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )


def _post_answer(client, problem, text: str) -> str:
    response = client.post(_problem_url(problem), {"text": text, "token": str(uuid.uuid4())})
    assert response.status_code == 302, response.status_code
    return response["Location"]


def _get(client, url: str, status: int = 200) -> None:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)


def build(*, username: str = "budget-learner") -> Scenario:
    """Load the fixture course, make the learner's state and a class; return the scenario.

    The caller points ``settings.BASISLAB_COURSE_SLUG`` at ``scenario.copy.version.course``.
    """
    from django.contrib.auth import get_user_model

    from courses.services import copy_get_or_create, course_load
    from practice import services
    from practice.review.models import ReviewItem
    from tests.classroom import make_class

    version = course_load(directory=FIXTURE_COURSE_DIR).version
    users = get_user_model().objects
    learner = users.create_user(username=username, password=None)
    teacher = users.create_user(username=f"{username}-teacher", password=None)
    copy = copy_get_or_create(user=learner, course_slug=version.course.slug)
    client = _client(learner)
    answered = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=LOOKUP_IDEA_SLUG, kind="lookup"
    )
    _post_answer(client, answered, _wrong(answered))
    page_problem = services.problem_open(
        copy=copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="contrast"
    )
    verdict_url = _post_answer(client, page_problem, _wrong(page_problem))
    item = ReviewItem.objects.filter(copy=copy, problem__isnull=True).order_by("pk").first()
    assert item is not None, "the first wrong answer made no review item"
    context = make_class(((teacher, True), (learner, False)), context_id="budget-class")
    return Scenario(
        copy=copy,
        learner=learner,
        client=client,
        teacher_client=_client(teacher),
        context=context,
        answered=answered,
        page_problem=page_problem,
        verdict_url=verdict_url,
        item=item,
    )


# --- the request types ----------------------------------------------------------------------


def _prepare_open(s: Scenario) -> None:
    """Close the idea's open problem of the kind, as a right answer does: opening it then makes
    a new one, as it mostly does under ``make load`` (a learner opens the next problem)."""
    from practice.models import ProblemInstance

    ProblemInstance.objects.filter(
        copy=s.copy, kind="content_weights", state=ProblemInstance.State.OPEN
    ).update(state=ProblemInstance.State.SOLVED)


def _open_redirect(s: Scenario) -> None:
    from django.urls import reverse

    url = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": s.copy.pk,
            "page_slug": PAGE_SLUG,
            "idea_slug": IDEA_SLUG,
            "kind": "content_weights",
        },
    )
    _get(s.client, url, status=302)


def _problem_page(s: Scenario) -> None:
    _get(s.client, _problem_url(s.page_problem))


def _preview(s: Scenario) -> None:
    from django.urls import reverse

    url = reverse(
        "practice:preview", kwargs={"copy_id": s.copy.pk, "problem_id": s.page_problem.pk}
    )
    response = s.client.post(url, {"text": "[1/2, 1]"}, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.status_code


def _prepare_fresh(s: Scenario) -> None:
    """Open a new weighted-sum problem (the answers that close or first answer one get their
    own), replacing the one before."""
    from practice import services

    if "fresh" in s.state:
        s.state["fresh"] = services.problem_new_variant(copy=s.copy, problem=s.state["fresh"])
    else:
        s.state["fresh"] = services.problem_open(
            copy=s.copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
        )


def _prepare_first_wrong(s: Scenario) -> None:
    """A new problem, and the learner's first mistake: no review settings yet and no card of
    the kind, so the wrong answer makes both (the dearest first wrong answer; a mistake's card
    rated again costs less, pinned in tests/practice/test_submit_queries.py)."""
    from practice.review.models import ReviewItem, ReviewSettings

    _prepare_fresh(s)
    ReviewItem.objects.filter(copy=s.copy, kind="weighted_sum").delete()
    ReviewSettings.objects.filter(user=s.learner).delete()


def _prepare_credit(s: Scenario) -> None:
    """A new problem of a kind with two review items to credit: a catalogued mistake's and the
    kind's own (a wrong answer no mistake explains), each made on a problem of its own."""
    import grading
    from practice.review.models import ReviewItem
    from tests.answers import typed

    if ReviewItem.objects.filter(copy=s.copy, kind="weighted_sum").count() < 2:
        _prepare_fresh(s)
        _post_answer(s.client, s.state["fresh"], _wrong(s.state["fresh"]))
        _prepare_fresh(s)
        far = [x + 100 for x in grading.expected_answer(s.state["fresh"].spec)]
        _post_answer(s.client, s.state["fresh"], typed(far))
    _prepare_fresh(s)


def _prepare_fresh_answered_wrongly(s: Scenario) -> None:
    _prepare_fresh(s)
    _post_answer(s.client, s.state["fresh"], _wrong(s.state["fresh"]))


def _submit_first_wrong(s: Scenario) -> None:
    _post_answer(s.client, s.state["fresh"], _wrong(s.state["fresh"]))


def _submit_unreadable(s: Scenario) -> None:
    _post_answer(s.client, s.state["fresh"], "[1/2, (")


def _submit_repeated_wrong(s: Scenario) -> None:
    _post_answer(s.client, s.answered, _wrong(s.answered))


def _submit_right(s: Scenario) -> None:
    _post_answer(s.client, s.state["fresh"], _right(s.state["fresh"]))


def _verdict_page(s: Scenario) -> None:
    _get(s.client, s.verdict_url)


def _prepare_solved(s: Scenario) -> None:
    """A right first try that credited two review items: its Verdict page shows them."""
    _prepare_credit(s)
    s.state["solved verdict"] = _post_answer(s.client, s.state["fresh"], _right(s.state["fresh"]))


def _verdict_page_solved(s: Scenario) -> None:
    _get(s.client, s.state["solved verdict"])


def _course_page(s: Scenario) -> None:
    from django.urls import reverse

    _get(s.client, reverse("courses:page", kwargs={"copy_id": s.copy.pk, "page_slug": PAGE_SLUG}))


def _today_page(s: Scenario) -> None:
    from django.urls import reverse

    _get(s.client, reverse("courses:dashboard"))


def _review_queue(s: Scenario) -> None:
    from django.urls import reverse

    _get(s.client, reverse("review:queue", kwargs={"copy_id": s.copy.pk}))


def _review_next(s: Scenario) -> None:
    from django.urls import reverse

    url = reverse("review:review", kwargs={"copy_id": s.copy.pk, "item_id": s.item.pk})
    _get(s.client, url)


def _prepare_review_variant(s: Scenario) -> None:
    """Make the item's variant, as publishing a due review does before the learner comes
    (``review_prepare``); a review answer draws the next one."""
    from practice.review.services.variants import review_open

    s.state["variant"] = review_open(copy=s.copy, item=s.item)


def _review_answer(s: Scenario) -> None:
    from django.urls import reverse

    variant = s.state["variant"]
    url = reverse("review:answer", kwargs={"copy_id": s.copy.pk, "problem_id": variant.pk})
    response = s.client.post(url, {"text": _wrong(variant), "token": str(uuid.uuid4())})
    assert response.status_code == 302, response.status_code
    assert "/attempts/" in response["Location"], response["Location"]


def _analytics_class_page(s: Scenario) -> None:
    from django.urls import reverse

    _get(s.teacher_client, reverse("analytics:class", args=[s.context.pk]))


# In the order of tests/budgets.py's table; every budget has one, and no other.
REQUEST_TYPES = (
    RequestType("open a problem (redirect)", _open_redirect, _prepare_open),
    RequestType("problem page", _problem_page),
    RequestType("preview (htmx)", _preview),
    RequestType("submit, first wrong answer", _submit_first_wrong, _prepare_first_wrong),
    RequestType("submit, unreadable answer", _submit_unreadable, _prepare_fresh),
    RequestType("submit, repeated wrong answer", _submit_repeated_wrong),
    RequestType("submit, right after wrong", _submit_right, _prepare_fresh_answered_wrongly),
    RequestType("submit, right first try (credit)", _submit_right, _prepare_credit),
    RequestType("Verdict page", _verdict_page),
    RequestType("Verdict page, problem solved", _verdict_page_solved, _prepare_solved),
    RequestType("course page", _course_page),
    RequestType("Today page", _today_page),
    RequestType("review queue", _review_queue, review_due=True),
    RequestType("review, next item", _review_next, _prepare_review_variant, review_due=True),
    RequestType("review answer", _review_answer, _prepare_review_variant, review_due=True),
    RequestType("analytics class page", _analytics_class_page),
)
