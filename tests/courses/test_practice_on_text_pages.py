"""Pages 2 and 3 of the course (*One Character at a Time*, *Counting Letters, Digits and Code*)
have practice under every idea, and say what it asks."""

import re
import shutil

import pytest

from courses.selectors import copy_newer_version
from courses.services import copy_get_or_create, course_load
from grading.kinds import KINDS
from practice.generators import GENERATORS
from tests.conftest import REAL_COURSE_DIR

from .test_content import PAGES_DIR, read_page

KINDS_BY_PAGE = {
    "one-character-at-a-time": {
        "characters-never-unknown": ["char_vs_word_unknowns"],
        "passages-get-longer": ["sequence_lengths"],
        "attention-cost-grows-faster": ["attention_cost"],
    },
    "counting-letters-and-digits": {
        "pieces-hide-letters": ["letters_in_pieces"],
        "digits-lose-place-value": ["digit_chunks"],
        "code-depends-on-exact-characters": ["whitespace_pieces"],
    },
}


@pytest.mark.parametrize("page", sorted(KINDS_BY_PAGE))
def test_every_idea_lists_its_kind_and_the_kind_exists(page):
    meta, body = read_page(PAGES_DIR / f"{page}.md")

    assert {idea["slug"]: idea["problem_kinds"] for idea in meta["ideas"]} == KINDS_BY_PAGE[page]
    for kinds in KINDS_BY_PAGE[page].values():
        assert all(kind in KINDS and kind in GENERATORS for kind in kinds)
    assert "practice for this page is coming" not in body.lower()
    assert "## Practice" in body


def test_the_pages_say_the_rules_the_practice_states():
    _meta, characters = read_page(PAGES_DIR / "one-character-at-a-time.md")
    _meta, counting = read_page(PAGES_DIR / "counting-letters-and-digits.md")

    assert "spaces and punctuation are positions too" in characters
    assert "$n(n+1)/2$" in characters
    assert "up to three digits from the left" in counting
    assert "longest match" in counting


@pytest.mark.django_db
def test_loading_the_pages_with_practice_makes_a_new_version_learners_are_offered(
    tmp_path, learner
):
    before = tmp_path / REAL_COURSE_DIR.name
    shutil.copytree(REAL_COURSE_DIR, before)
    # The two pages as they were while their practice was coming.
    for page in KINDS_BY_PAGE:
        path = before / "pages" / f"{page}.md"
        text = re.sub(r"problem_kinds: \[\w+\]", "problem_kinds: []", path.read_text())
        path.write_text(text)
    first = course_load(directory=before).version
    copy = copy_get_or_create(user=learner, course_slug=first.course.slug)

    second = course_load(directory=REAL_COURSE_DIR).version

    assert second.number == first.number + 1
    assert copy_newer_version(copy=copy) == second
    for page, kinds_by_idea in KINDS_BY_PAGE.items():
        ideas = second.pages.get(slug=page).ideas.all()
        assert {idea.slug: idea.problem_kinds for idea in ideas} == kinds_by_idea
        old = first.pages.get(slug=page).ideas.all()
        assert all(idea.problem_kinds == [] for idea in old)
