"""A course folder's Python kind through the test client, as a learner and as staff.

Run by `tests/declared/test_python_kind.py` in a pytest process of its own with
`BASISLAB_COURSE_FOLDERS` naming `tests/courses/fixtures/python-kind-course`, so that
`argmax_position` is registered at startup as the repository's course kinds are (the suite's
own process never registers it: the course's kinds stay what they are). Not named `test_*.py`:
the suite collects it only through that runner.
"""

import uuid

import pytest
import time_machine
from django.urls import reverse

import grading
from courses.services import copy_get_or_create, course_load
from grading.declared import PYTHON_KINDS
from practice.generators import generate
from practice.models import Attempt, ProblemInstance
from practice.review.models import ReviewItem
from practice.review.services.variants import review_open
from practice.services import attempt_submit
from tests.conftest import ROOT

COURSE_DIR = ROOT / "tests" / "courses" / "fixtures" / "python-kind-course"
KIND = "argmax_position"
PAGE, IDEA = "largest-score", "scan-to-the-end"


@pytest.fixture
def copy(db, settings, learner):
    version = course_load(directory=COURSE_DIR).version
    settings.BASISLAB_COURSE_SLUG = version.course.slug
    return copy_get_or_create(user=learner, course_slug=version.course.slug)


def typed_mistake(spec: dict, code: str) -> str:
    (value,) = [v for d, v in grading.mistaken_answers(spec) if d.mistake == code]
    return str(value)


def test_the_kind_is_registered_from_the_course_folder():
    assert PYTHON_KINDS[KIND].path == str(COURSE_DIR / "kinds" / f"{KIND}.py")
    assert KIND in grading.kinds.ProblemKind.__members__.values()


def test_open_answer_wrong_then_right_through_the_client(learner_client, copy):
    url = reverse(
        "practice:problem_open",
        kwargs={"copy_id": copy.pk, "page_slug": PAGE, "idea_slug": IDEA, "kind": KIND},
    )
    opened = learner_client.get(url)
    problem = ProblemInstance.objects.get()
    assert opened.status_code == 302 and problem.kind == KIND
    page = learner_client.get(opened["Location"]).content.decode()
    assert "At which position is the largest score?" in page and "<math" in page
    wrong = typed_mistake(problem.spec, "stopped_at_first_drop")
    answered = learner_client.post(
        opened["Location"], {"text": wrong, "token": str(uuid.uuid4())}, follow=True
    )
    html = answered.content.decode()
    assert "Not quite." in html
    assert "Your scan stopped at position" in html
    assert "stopped at the first score followed by a smaller one" in html  # its label
    assert Attempt.objects.get().mistake == "stopped_at_first_drop"
    right = str(grading.kind(KIND).right(grading.spec.load_problem(problem.spec).problem))
    solved = learner_client.post(
        opened["Location"], {"text": right, "token": str(uuid.uuid4())}, follow=True
    )
    assert "Correct." in solved.content.decode()
    assert Attempt.objects.filter(status=grading.Status.CORRECT).count() == 1


def test_a_mistake_is_reviewed_with_a_variant_aimed_at_it(copy):
    from practice.services import problem_open

    problem = problem_open(copy=copy, page_slug=PAGE, idea_slug=IDEA, kind=KIND)
    attempt = attempt_submit(
        copy=copy,
        problem=problem,
        text=typed_mistake(problem.spec, "value_not_position"),
        token=uuid.uuid4(),
    )
    assert attempt.mistake == "value_not_position"
    item = ReviewItem.objects.get(copy=copy, kind=KIND)
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
    assert variant.spec["generator"]["target"] == "value_not_position"
    assert variant.spec["scores"] != problem.spec["scores"]


def test_staff_preview_names_the_course_file(client_for, make_user):
    staff = make_user(username="author")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    url = reverse("practice:kind_preview", kwargs={"kind": KIND})
    html = client_for(staff).get(url, {"seed": 4, "level": 3}).content.decode()
    spec = generate(KIND, seed=4, level=3)
    for diagnosis, _ in grading.mistaken_answers(spec):
        assert f'data-mistake="{diagnosis.mistake}"' in html
    assert "python-kind-course/kinds/argmax_position.py" in html
