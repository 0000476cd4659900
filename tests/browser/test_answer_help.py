"""The answer box says what to type: on one problem of every kind, opened in Chromium, the help
under "Your answer" (the box's accessible description) names that kind's answer format."""

import re

import pytest

import grading
from courses.models import Idea
from grading.shapes import Choice, IntegerSequence, PieceSequence, ScalarShape, TupleShape, Vector
from grading.spec import load_problem
from practice.models import ProblemInstance

from .learner import sign_up

pytestmark = pytest.mark.browser

SCREENSHOTS = "/tmp/answer-help"


def format_words(spec: dict) -> str:
    """Return the words the help must hold for this problem's answer shape (independently of
    how grading words it: the shape's class and size)."""
    shape = load_problem(spec).shape
    if spec["kind"] == "bpe_train":
        return "merges in order"
    if spec["kind"] == "static_vs_contextual":
        return f"Two vectors of {shape.parts[0].dim} coordinates"
    if isinstance(shape, Vector):
        return f"vector with {shape.dim} coordinates"
    if isinstance(shape, TupleShape):
        return "parts separated by ';'"
    if isinstance(shape, PieceSequence):
        return "pieces"
    if isinstance(shape, Choice):
        return "One of the options as listed"
    if isinstance(shape, IntegerSequence):
        return "Whole numbers in order"
    if isinstance(shape, ScalarShape):
        return "One number"
    raise AssertionError(f"no format words for {shape!r}")


def first_idea_of_each_kind(version) -> dict[str, Idea]:
    ideas = Idea.objects.filter(page__version=version).select_related("page")
    found: dict[str, Idea] = {}
    for idea in ideas.order_by("page__order", "order"):
        for kind in idea.problem_kinds:
            found.setdefault(kind, idea)
    return found


def test_the_answer_help_names_each_kinds_format(page, live_server, real_course):
    sign_up(page, live_server, "helen")
    ideas = first_idea_of_each_kind(real_course)
    assert set(ideas) == set(grading.KINDS)
    page.click("a[href*='/pages/']")
    copy_id = int(re.search(r"/course/(\d+)/", page.url).group(1))
    for kind, idea in sorted(ideas.items()):
        page.goto(
            f"{live_server.url}/course/{copy_id}/pages/{idea.page.slug}/ideas/{idea.slug}/{kind}/"
        )
        page.wait_for_url(re.compile(r"/problems/\d+/$"))
        problem_id = int(re.search(r"/problems/(\d+)/$", page.url).group(1))
        spec = ProblemInstance.objects.get(pk=problem_id).spec

        box = page.locator("#id_text")
        described = box.get_attribute("aria-describedby").split()
        assert "answer-help" in described, kind
        help_text = page.locator("#answer-help").inner_text()
        assert format_words(spec) in help_text, (kind, help_text)
        assert help_text == grading.answer_help(spec), kind
        if load_problem(spec).kind.terms(load_problem(spec).problem) is None:
            assert "sum written out" not in help_text, kind
        if kind == "whitespace_pieces":
            assert "▁" in help_text
        if kind == "nearest_by_cosine":
            assert all(option in help_text for option in spec["candidates"])


def test_a_could_not_be_read_reason_is_a_sentence(page, live_server, real_course):
    sign_up(page, live_server, "reed")
    page.click("a[href*='/pages/']")
    copy_id = int(re.search(r"/course/(\d+)/", page.url).group(1))
    ideas = first_idea_of_each_kind(real_course)
    idea = ideas["greedy_loop"]
    page.goto(
        f"{live_server.url}/course/{copy_id}/pages/{idea.page.slug}/ideas/{idea.slug}/greedy_loop/"
    )
    page.wait_for_url(re.compile(r"/problems/\d+/$"))
    page.fill("#id_text", "just one part")
    page.click("button[name=submit]")
    message = page.locator(".verdict__message").inner_text().strip()
    assert message.startswith("The answer has 1 part;"), message
    assert message.endswith(".")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=f"{SCREENSHOTS}-{width}.png", full_page=True)
