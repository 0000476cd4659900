"""``manage.py load_course``: idempotent, versioned, and all-or-nothing."""

import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from courses.models import Course, CourseVersion, Idea, Page
from tests.conftest import FIXTURE_COURSE_DIR, REAL_COURSE_DIR

pytestmark = pytest.mark.django_db


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    target = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, target)
    return target


def load(directory: Path) -> str:
    out = StringIO()
    call_command("load_course", str(directory), stdout=out)
    return out.getvalue()


def test_load_course_creates_version_one_with_pages_and_ideas(course_dir):
    output = load(course_dir)

    version = CourseVersion.objects.get()
    assert "Loaded mini-course version 1 (2 pages)" in output
    assert version.number == 1
    assert version.course.title == "A Mini Course"
    assert list(version.pages.values_list("slug", "order")) == [
        ("first-page", 1),
        ("second-page", 2),
    ]
    weighted = Idea.objects.get(page__version=version, slug="weighted-sum")
    assert weighted.problem_kinds == ["weighted_sum", "contrast", "content_weights"]
    assert weighted.order == 2


def test_load_course_is_idempotent(course_dir):
    load(course_dir)
    output = load(course_dir)

    assert CourseVersion.objects.count() == 1
    assert Page.objects.count() == 2
    assert "unchanged: still version 1" in output


def test_changed_content_becomes_a_new_version(course_dir):
    load(course_dir)
    page = course_dir / "pages" / "second-page.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("Some *text*", "Some clearer *text*"),
        encoding="utf-8",
    )

    output = load(course_dir)

    assert "version 2" in output
    versions = CourseVersion.objects.order_by("number")
    assert [v.number for v in versions] == [1, 2]
    assert versions[0].content_hash != versions[1].content_hash
    old, new = (v.pages.get(slug="second-page").body for v in versions)
    assert "Some *text*" in old
    assert "Some clearer *text*" in new


def test_load_course_warns_about_an_idea_that_vanished(course_dir):
    load(course_dir)
    page = course_dir / "pages" / "first-page.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace("slug: weighted-sum", "slug: weighted-sums")
        .replace("::: idea weighted-sum", "::: idea weighted-sums"),
        encoding="utf-8",
    )

    output = load(course_dir)

    assert "version 2" in output
    assert "The idea first-page/weighted-sum is gone from this version" in output


def test_reverting_content_is_a_new_version_too(course_dir):
    load(course_dir)
    page = course_dir / "pages" / "second-page.md"
    original = page.read_text(encoding="utf-8")
    page.write_text(original.replace("Some *text*", "Other *text*"), encoding="utf-8")
    load(course_dir)
    page.write_text(original, encoding="utf-8")

    load(course_dir)

    assert CourseVersion.objects.count() == 3


def test_malformed_first_load_writes_nothing(course_dir):
    page = course_dir / "pages" / "second-page.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("problem_kinds: []", "problem_kinds: [lokup]"),
        encoding="utf-8",
    )

    with pytest.raises(CommandError) as caught:
        load(course_dir)

    message = str(caught.value)
    assert "Refused, nothing loaded" in message
    assert "second-page.md" in message
    assert "ideas[0].problem_kinds[0]" in message
    assert "'lokup' is not a problem kind" in message
    assert Course.objects.count() == 0
    assert Page.objects.count() == 0


def test_malformed_change_keeps_the_loaded_version(course_dir):
    load(course_dir)
    page = course_dir / "pages" / "second-page.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("::: idea coming-soon", ""), encoding="utf-8"
    )

    with pytest.raises(
        CommandError, match=re.escape("second-page.md: body: has no '::: idea coming-soon'")
    ):
        load(course_dir)

    assert CourseVersion.objects.count() == 1
    assert Page.objects.count() == 2


def test_the_authored_course_loads_with_seven_pages():
    output = load(REAL_COURSE_DIR)

    version = CourseVersion.objects.get(course__slug="how-text-becomes-numbers")
    assert "version 1 (7 pages)" in output
    assert version.pages.count() == 7
    first = version.pages.get(slug="the-same-word-twice")
    assert first.ideas.exists()
    assert all(idea.summary for idea in first.ideas.all())
