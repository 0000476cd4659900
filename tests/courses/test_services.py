"""Course services: progress, notes, and moving a copy to a newer version."""

import shutil
from pathlib import Path

import pytest

from courses.models import LEVEL_UP_STREAK, MASTERY_CORRECT, IdeaProgress, Note
from courses.selectors import copy_newer_version, copy_progress
from courses.services import (
    copy_get_or_create,
    copy_upgrade,
    course_load,
    note_save,
    progress_record,
)
from tests.conftest import FIXTURE_COURSE_DIR

pytestmark = pytest.mark.django_db


def record(copy, correct: bool, idea: str = "one-row", **kwargs) -> IdeaProgress:
    return progress_record(
        copy=copy, page_slug="first-page", idea_slug=idea, correct=correct, **kwargs
    )


def test_progress_counts_attempts_and_correct_answers(course_copy):
    record(course_copy, True)
    record(course_copy, False)
    progress = record(course_copy, True)

    assert (progress.attempts, progress.correct) == (3, 2)
    assert IdeaProgress.objects.get(pk=progress.pk).attempts == 3
    assert progress.fraction == pytest.approx(2 / MASTERY_CORRECT)


def test_consecutive_correct_answers_raise_the_level(course_copy):
    levels = [record(course_copy, True).level for _ in range(2 * LEVEL_UP_STREAK)]

    assert levels[0] == 1
    assert levels[LEVEL_UP_STREAK - 1] == 2
    assert levels[-1] == 3


def test_a_wrong_answer_resets_the_streak_but_keeps_the_level(course_copy):
    for _ in range(LEVEL_UP_STREAK):
        record(course_copy, True)
    record(course_copy, True)
    progress = record(course_copy, False)

    assert (progress.level, progress.streak) == (2, 0)
    for _ in range(LEVEL_UP_STREAK - 1):
        progress = record(course_copy, True)
    assert progress.level == 2


def test_level_stops_at_max_level(course_copy):
    for _ in range(3 * LEVEL_UP_STREAK):
        progress = record(course_copy, True, max_level=2)

    assert progress.level == 2


def test_progress_bar_is_full_at_mastery(course_copy):
    for _ in range(MASTERY_CORRECT + 2):
        progress = record(course_copy, True)

    assert progress.fraction == 1.0


def test_note_save_keeps_one_note_per_page(course_copy):
    note_save(copy=course_copy, page_slug="first-page", text="first thought")
    note = note_save(copy=course_copy, page_slug="first-page", text="second thought")

    assert Note.objects.filter(copy=course_copy).count() == 1
    assert Note.objects.get(pk=note.pk).text == "second thought"


def test_copy_get_or_create_creates_once_on_the_newest_version(course, learner):
    first = copy_get_or_create(user=learner, course_slug="mini-course")
    again = copy_get_or_create(user=learner, course_slug="mini-course")

    assert first.pk == again.pk
    assert first.version == course


def load_changed_course(tmp_path: Path):
    """Load a second version: 'one-row' is renamed away, 'weighted-sum' kept, a page added."""
    directory = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, directory)
    first = directory / "pages" / "first-page.md"
    text = first.read_text(encoding="utf-8")
    first.write_text(
        text.replace("slug: one-row", "slug: one-id-one-row").replace(
            "::: idea one-row", "::: idea one-id-one-row"
        ),
        encoding="utf-8",
    )
    (directory / "pages" / "third-page.md").write_text(
        "---\nslug: third-page\ntitle: Third\nquestion: Q?\nsummary: S.\n"
        "ideas:\n  - slug: new-idea\n    title: New\n    summary: N.\n    problem_kinds: []\n"
        "---\nBody.\n\n::: idea new-idea\n",
        encoding="utf-8",
    )
    course_yaml = directory / "course.yaml"
    course_yaml.write_text(
        course_yaml.read_text(encoding="utf-8").replace(
            "[first-page, second-page]", "[first-page, second-page, third-page]"
        ),
        encoding="utf-8",
    )
    return course_load(directory=directory).version


def test_loading_a_version_names_the_ideas_it_dropped(course, tmp_path):
    directory = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, directory)
    first = directory / "pages" / "first-page.md"
    first.write_text(
        first.read_text(encoding="utf-8")
        .replace("slug: one-row", "slug: one-id-one-row")
        .replace("::: idea one-row", "::: idea one-id-one-row"),
        encoding="utf-8",
    )

    result = course_load(directory=directory)

    assert result.created
    assert result.removed_ideas == (("first-page", "one-row"),)


def test_copy_stays_on_its_version_and_is_offered_the_upgrade(course_copy, tmp_path):
    newer = load_changed_course(tmp_path)
    course_copy.refresh_from_db()

    assert course_copy.version.number == 1
    assert copy_newer_version(copy=course_copy) == newer


def test_copy_upgrade_keeps_history_and_hides_vanished_ideas(course_copy, tmp_path):
    record(course_copy, True, idea="one-row")
    record(course_copy, True, idea="weighted-sum")
    record(course_copy, False, idea="weighted-sum")
    note_save(copy=course_copy, page_slug="first-page", text="my note")
    newer = load_changed_course(tmp_path)

    upgraded = copy_upgrade(copy=course_copy)

    assert upgraded.version == newer
    assert upgraded.upgraded_at is not None
    assert copy_newer_version(copy=upgraded) is None
    # Every row is still there, the kept idea finds its progress again...
    progress = copy_progress(copy=upgraded)
    assert (progress[("first-page", "weighted-sum")].attempts) == 2
    assert ("first-page", "one-row") in progress
    assert Note.objects.get(copy=upgraded, page_slug="first-page").text == "my note"
    # ...and the vanished idea is not among the version's ideas, so it is not shown.
    shown = set(newer.pages.get(slug="first-page").ideas.values_list("slug", flat=True))
    assert shown == {"one-id-one-row", "weighted-sum"}


def test_copy_upgrade_on_the_newest_version_changes_nothing(course_copy):
    upgraded = copy_upgrade(copy=course_copy)

    assert upgraded.version.number == 1
    assert upgraded.upgraded_at is None
