"""Every kind of every page of the authored course, answered wrong then right through the
test client, as a learner does it: from the course to the page, from the page's link to the
idea's problem of that kind (its statement typeset, its picture drawn), a catalogued mistake
(the verdict shows the grader's explanation, names the step and draws the answer; the
attempt is listed with the mistake's label), then the right answer (marked correct); the
attempts stored are that mistake, then none.

What needs a browser (the live preview while typing, pictures laid out) stays in
`tests/browser/test_page_<page>.py`; every kind at 1280 and 390 px is in
`tests/browser/test_layout.py`.
"""

from __future__ import annotations

import re
import uuid
from html.parser import HTMLParser

import pytest
from django.urls import reverse

import grading
from courses.models import Idea
from practice.labels import mistake_label
from practice.models import Attempt, ProblemInstance
from tests.answers import Mistaken, opening, typed, wrong_answer

# Every page's (idea, kind), as the page links them.
PAGES = {
    "the-same-word-twice": [
        ("one-id-one-row", "lookup"),
        ("layer-is-a-weighted-sum", "weighted_sum"),
        ("different-neighbours-different-sums", "contrast"),
        ("no-second-row", "static_vs_contextual"),
        ("weights-from-content", "content_weights"),
        ("weights-from-content", "scaled_dot_score"),
        ("where-it-stops-being-true", "two_layers"),
    ],
    "why-words-become-pieces": [
        ("whole-words-run-out", "word_ids"),
        ("pieces-spell-any-word", "utf8_bytes"),
        ("merges-follow-frequency", "bpe_train"),
        ("merges-follow-frequency", "bpe_apply"),
    ],
    "one-character-at-a-time": [
        ("characters-never-unknown", "char_vs_word_unknowns"),
        ("passages-get-longer", "sequence_lengths"),
        ("attention-cost-grows-faster", "attention_cost"),
    ],
    "counting-letters-and-digits": [
        ("pieces-hide-letters", "letters_in_pieces"),
        ("digits-lose-place-value", "digit_chunks"),
        ("code-depends-on-exact-characters", "whitespace_pieces"),
    ],
    "close-in-embedding-space": [
        ("similar-company-similar-rows", "cooccurrence_row"),
        ("closeness-is-cosine", "cosine_similarity"),
        ("close-is-not-synonym", "nearest_by_cosine"),
    ],
    "the-repetition-loop": [
        ("context-feeds-back", "greedy_steps"),
        ("context-feeds-back", "softmax_probability"),
        ("context-feeds-back", "perplexity"),
        ("context-feeds-back", "cross_entropy"),
        ("greedy-cannot-leave", "greedy_loop"),
        ("sampling-and-penalties", "repetition_penalty"),
        ("sampling-and-penalties", "temperature_softmax"),
    ],
    "why-gaussian-noise": [
        ("steps-keep-the-spread", "noise_step"),
        ("noise-composes-in-closed-form", "closed_form_noise"),
        ("reverse-step-is-learnable", "predict_clean"),
    ],
}
# kind: (the mistake to make, a pattern its explanation shows). Without a mistake, the first
# the grader names as itself (`tests.answers.wrong_answer`); every case also shows the opening
# words of the grader's explanation.
MADE: dict[str, tuple[str | None, str]] = {
    "word_ids": (None, r"position \d+|positions \(0, 1"),
    "utf8_bytes": (None, r"U\+[0-9A-F]{4}"),
    "bpe_train": (None, r"Merge \d"),
    "bpe_apply": (None, r"merge \d+ \("),
    "cooccurrence_row": ("window_too_wide", "You counted words"),
    "cosine_similarity": ("dot_product", "You gave the dot product"),
    "nearest_by_cosine": ("ranked_by_dot", "largest dot product"),
    "greedy_steps": ("no_feedback", "the prompt's last piece"),
    "greedy_loop": ("first_repeated_piece", "repeats the piece written"),
    "repetition_penalty": ("skipped_penalty", "without the penalty"),
    # Declared kinds that give a built-in code (forgot_normalisation: "took the total instead
    # of the mean" in the built-in kinds) words of their own.
    "softmax_probability": ("forgot_normalisation", r"\S"),
    "temperature_softmax": ("forgot_normalisation", r"\S"),
}
# The declared kinds whose answer is a number: no picture (a declared kind is drawn when its
# answer is a vector).
UNDRAWN = {"scaled_dot_score", "softmax_probability", "perplexity", "cross_entropy"}
CASES = [(page, idea, kind) for page, kinds in PAGES.items() for idea, kind in kinds]

# Elements that never hold children (the HTML living standard's void elements).
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class _Node:
    """An element of a parsed page: its tag, attributes and children (nodes or text)."""

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tag = tag
        self.attrs = {name: value or "" for name, value in attrs}
        self.children: list[_Node | str] = []

    def descendants(self):
        for child in self.children:
            if isinstance(child, _Node):
                yield child
                yield from child.descendants()

    def matches(self, simple: str) -> bool:
        """Return whether the node matches ``tag``, ``#id``, ``.class`` or ``tag.class``."""
        if simple.startswith("#"):
            return self.attrs.get("id") == simple[1:]
        tag, _, cls = simple.partition(".")
        if tag and self.tag != tag:
            return False
        return not cls or cls in self.attrs.get("class", "").split()

    def text(self) -> str:
        """Return the text inside the node, its white space collapsed."""
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return re.sub(r"\s+", " ", "".join(parts)).strip()


class _Page(HTMLParser):
    """A page parsed to a tree of `_Node`, with descendant-selector lookups (``#a .b svg``)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.root = _Node("#document", [])
        self._open = [self.root]
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, attrs)
        self._open[-1].children.append(node)
        if tag not in _VOID:
            self._open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open[-1].children.append(_Node(tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, 0, -1):
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self._open[-1].children.append(data)

    def select(self, selector: str) -> list[_Node]:
        nodes = [self.root]
        for simple in selector.split():
            found = [d for n in nodes for d in n.descendants() if d.matches(simple)]
            nodes = list(dict.fromkeys(found))
        return nodes

    def text(self, selector: str) -> str:
        """Return the text of the first element the selector finds (it must find one)."""
        nodes = self.select(selector)
        assert nodes, f"nothing matches {selector!r}"
        return nodes[0].text()


def _get(client, url: str) -> _Page:
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return _Page(response.content.decode())


def _link(page: _Page, part: str) -> str:
    """Return the first link on the page whose address contains ``part``."""
    for node in page.select("a"):
        if part in node.attrs.get("href", ""):
            return node.attrs["href"]
    raise AssertionError(f"no link to {part!r}")


def _submit(client, problem: ProblemInstance, text: str) -> _Page:
    url = reverse("practice:problem", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk})
    response = client.post(url, {"text": text, "token": str(uuid.uuid4())})
    assert response.status_code == 302, response.status_code
    assert re.search(r"/attempts/\d+/$", response["Location"]), response["Location"]
    return _get(client, response["Location"])


def _mistaken(problem: ProblemInstance, mistake: str | None) -> Mistaken:
    """Return the named mistake's first answer, or the first mistake named as itself."""
    if mistake is None:
        return wrong_answer(problem)
    spec = problem.spec
    value = next(v for d, v in grading.mistaken_answers(spec) if d.mistake == mistake)
    text = typed(value, spec)
    return Mistaken(grading.grade(spec, text).diagnosis, text)


@pytest.mark.parametrize(("page_slug", "idea", "kind"), [pytest.param(*c, id=c[2]) for c in CASES])
def test_each_kind_explains_a_wrong_answer_and_marks_a_right_one(
    learner_client, real_course, page_slug, idea, kind
):
    mistake, shows = MADE.get(kind, (None, None))
    course = _get(learner_client, reverse("courses:dashboard"))
    course_page = _get(learner_client, _link(course, f"/pages/{page_slug}/"))
    opened = learner_client.get(_link(course_page, f"/ideas/{idea}/{kind}/"))
    assert opened.status_code == 302
    problem_id = int(re.search(r"/problems/(\d+)/$", opened["Location"]).group(1))
    problem = ProblemInstance.objects.get(pk=problem_id)
    assert problem.kind == kind

    shown = _get(learner_client, opened["Location"])
    assert shown.text(".problem__statement")
    assert shown.select(".problem__statement math")
    drawn = 0 if kind in UNDRAWN else 1
    assert len(shown.select(".problem__picture svg")) == drawn

    diagnosis, text = _mistaken(problem, mistake)
    verdict = _submit(learner_client, problem, text)
    assert "Not quite." in verdict.text("#verdict")
    explanation = verdict.text("#verdict .verdict__explanation")
    expected = grading.grade(problem.spec, text).explanation
    assert opening(expected) in explanation, (opening(expected), explanation)
    if shows is not None:
        assert re.search(shows, explanation), (shows, explanation)
    # The wrong answer is drawn beside the right one; the attempt is listed with its label.
    assert len(verdict.select("#verdict .verdict__picture svg")) == drawn
    listed = verdict.text(".problem-attempts .attempt--incorrect")
    # In the words of its kind: a declared kind may give a built-in code words of its own.
    assert mistake_label(diagnosis.mistake, kind) in listed, listed
    if mistake_label(diagnosis.mistake) != mistake_label(diagnosis.mistake, kind):
        assert mistake_label(diagnosis.mistake) not in listed, listed

    right = typed(grading.expected_answer(problem.spec), problem.spec)
    assert "Correct." in _submit(learner_client, problem, right).text("#verdict")
    stored = Attempt.objects.filter(problem=problem).order_by("pk")
    assert list(stored.values_list("mistake", flat=True)) == [diagnosis.mistake, None]


def test_the_cases_are_every_kind_of_every_page_of_the_course(real_course):
    ideas = Idea.objects.filter(page__version=real_course).select_related("page")
    listed = {(i.page.slug, i.slug, kind) for i in ideas for kind in i.problem_kinds or []}
    cases = set(CASES)
    # Every kind once (an idea may list a kind another idea lists too).
    assert {kind for *_, kind in listed} == {kind for *_, kind in cases}
    assert cases <= listed
    assert len(cases) == len(CASES)
    assert set(MADE) <= {kind for *_, kind in cases}
