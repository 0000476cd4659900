"""The course loader: valid files are read whole; every kind of malformed file is refused."""

import re
import shutil
from pathlib import Path

import pytest

from courses.loader import CourseSourceError, read_course
from tests.conftest import FIXTURE_COURSE_DIR

FIRST = "pages/first-page.md"
SECOND = "pages/second-page.md"


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    """Return a writable copy of the fixture course."""
    target = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, target)
    return target


def edit(directory: Path, relative: str, old: str, new: str) -> None:
    path = directory / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_fixture_course_is_read_in_order_with_its_ideas():
    source = read_course(FIXTURE_COURSE_DIR)

    assert source.slug == "mini-course"
    assert [page.slug for page in source.pages] == ["first-page", "second-page"]
    first = source.pages[0]
    assert [idea.slug for idea in first.ideas] == ["one-row", "weighted-sum"]
    assert first.ideas[0].problem_kinds == ("lookup",)
    assert source.pages[1].ideas[0].problem_kinds == ()
    assert "::: idea one-row" in first.body


def test_content_hash_ignores_yaml_formatting_but_not_content(course_dir):
    before = read_course(course_dir).content_hash
    edit(
        course_dir,
        "course.yaml",
        "pages: [first-page, second-page]",
        "pages:\n  - first-page\n  - second-page",
    )
    assert read_course(course_dir).content_hash == before

    edit(course_dir, SECOND, "Some *text*", "Some other *text*")
    assert read_course(course_dir).content_hash != before


# (file, old text, new text, field named, words in the message)
MALFORMED = {
    "unknown course key": ("course.yaml", "title:", "titel:", "titel", "unknown key"),
    "missing course key": (
        "course.yaml",
        "summary: Two short pages for the tests.\n",
        "",
        "summary",
        "is missing",
    ),
    "course slug not a slug": (
        "course.yaml",
        "slug: mini-course",
        "slug: Mini Course",
        "slug",
        "not a slug",
    ),
    "page listed twice": (
        "course.yaml",
        "[first-page, second-page]",
        "[first-page, second-page, first-page]",
        "pages[2]",
        "listed twice",
    ),
    "page listed without a file": (
        "course.yaml",
        "[first-page, second-page]",
        "[first-page, second-page, third-page]",
        "pages[2]",
        "has no file",
    ),
    "page file not listed": (
        "course.yaml",
        "[first-page, second-page]",
        "[first-page]",
        "pages",
        "does not list 'second-page'",
    ),
    "course title not text": (
        "course.yaml",
        "title: A Mini Course",
        "title: 42",
        "title",
        "must be text",
    ),
    "course yaml syntax": (
        "course.yaml",
        "pages: [first-page, second-page]",
        "pages: [first-page, second-page",
        "",
        "YAML cannot be read",
    ),
    "key given twice": (
        "course.yaml",
        "title: A Mini Course",
        "title: A Mini Course\ntitle: Again",
        "",
        "given twice",
    ),
    "front matter not first": (
        FIRST,
        "---\nslug: first-page",
        "slug: first-page",
        "front matter",
        "must start with a '---' line",
    ),
    "page yaml syntax": (FIRST, "title: The First Page", "title: [The First Page", "", "line 3"),
    "page slug is not the file name": (
        FIRST,
        "slug: first-page",
        "slug: first-paige",
        "slug",
        "must equal the file name",
    ),
    "unknown page key": (FIRST, "question:", "questoin:", "questoin", "unknown key"),
    "missing page question": (SECOND, "question: What comes next?\n", "", "question", "is missing"),
    "empty page summary": (
        SECOND,
        "summary: Practice for this page is coming.",
        "summary: ''",
        "summary",
        "is empty",
    ),
    "ideas empty": (
        SECOND,
        "ideas:\n  - slug: coming-soon\n    title: An idea without practice yet\n"
        "    summary: Nothing to practise yet.\n    problem_kinds: []\n",
        "ideas: []\n",
        "ideas",
        "non-empty list",
    ),
    "unknown idea key": (
        FIRST,
        "    problem_kinds: [lookup]",
        "    problem_kind: [lookup]",
        "ideas[0].problem_kind",
        "unknown key",
    ),
    "idea slug not a slug": (
        FIRST,
        "slug: one-row",
        "slug: One_Row",
        "ideas[0].slug",
        "not a slug",
    ),
    "idea slug twice": (
        FIRST,
        "slug: weighted-sum",
        "slug: one-row",
        "ideas[1].slug",
        "used twice",
    ),
    "unknown problem kind": (
        FIRST,
        "problem_kinds: [lookup]",
        "problem_kinds: [lookups]",
        "ideas[0].problem_kinds[0]",
        "not a problem kind",
    ),
    "problem kinds not a list": (
        FIRST,
        "problem_kinds: [lookup]",
        "problem_kinds: lookup",
        "ideas[0].problem_kinds",
        "must be a list",
    ),
    "problem kind twice": (
        FIRST,
        "problem_kinds: [lookup]",
        "problem_kinds: [lookup, lookup]",
        "ideas[0].problem_kinds",
        "twice",
    ),
    "marker of an unknown idea": (
        FIRST,
        "::: idea one-row",
        "::: idea one-row\n\n::: idea two-rows",
        "body line 20",
        "'two-rows', which the page does not list",
    ),
    "idea without a marker": (
        FIRST,
        "::: idea weighted-sum",
        "",
        "body",
        "no '::: idea weighted-sum' line",
    ),
    "marker twice": (
        FIRST,
        "::: idea weighted-sum",
        "::: idea weighted-sum\n::: idea one-row",
        "body line 27",
        "again (already on line 18)",
    ),
    "malformed marker": (
        SECOND,
        "::: idea coming-soon",
        "::: idea coming-soon\n::: ideas coming-soon",
        "body line 15",
        "is not '::: idea <slug>'",
    ),
    "malformed TeX in the body": (
        FIRST,
        r"\end{bmatrix}",
        "",
        "body line 22",
        "cannot read the TeX",
    ),
    "unknown TeX command": (
        SECOND,
        "$a_1 + b_2$",
        r"$a_1 \notacommand b_2$",
        "body line 12",
        r"unknown TeX command \notacommand",
    ),
    "display math never closed": (
        FIRST,
        "\n$$\n\n::: idea weighted-sum",
        "\n\n::: idea weighted-sum",
        "body",
        "never closed",
    ),
    "malformed TeX in an idea summary": (
        FIRST,
        r"$E[\mathrm{id}(w)]$",
        r"$\frac{1}{$",
        "ideas[0].summary line 1",
        "cannot read the TeX",
    ),
    "empty body": (
        SECOND,
        "Some *text* with $a_1 + b_2$.\n\n::: idea coming-soon\n",
        "\n",
        "body",
        "is empty",
    ),
}


@pytest.mark.parametrize("case", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_file_is_refused_naming_file_field_and_fault(course_dir, case):
    relative, old, new, field, words = case
    edit(course_dir, relative, old, new)

    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)

    error = caught.value
    assert error.path == str(course_dir / relative)
    assert error.field == field
    assert words in error.message
    assert str(error).startswith(f"{course_dir / relative}: ")


def test_missing_course_yaml_is_refused(course_dir):
    (course_dir / "course.yaml").unlink()

    with pytest.raises(CourseSourceError, match=re.escape("course.yaml: is missing")):
        read_course(course_dir)


def test_missing_directory_is_refused(tmp_path):
    with pytest.raises(CourseSourceError, match="is not a directory"):
        read_course(tmp_path / "nowhere")


def test_non_markdown_file_in_pages_is_refused(course_dir):
    (course_dir / "pages" / "notes.txt").write_text("stray", encoding="utf-8")

    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.path.endswith("notes.txt")
    assert "not a page file" in caught.value.message


def test_file_that_is_not_utf8_is_refused(course_dir):
    path = course_dir / SECOND
    path.write_bytes(path.read_bytes().replace(b"Some", "Sömé".encode("latin-1")))

    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.path.endswith("second-page.md")
    assert "not UTF-8" in caught.value.message


def test_front_matter_never_closed_is_refused(course_dir):
    path = course_dir / SECOND
    path.write_text(path.read_text(encoding="utf-8").replace("\n---\n", "\n", 1), encoding="utf-8")
    # The opening '---' is the only one left.
    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.field == "front matter"
    assert "never closed" in caught.value.message


def test_markers_and_dollars_inside_code_are_not_read(course_dir):
    edit(
        course_dir,
        SECOND,
        "Some *text*",
        "Code: `$\\notacommand$`\n\n```\n$$ \\bogus\n```\n\nSome *text*",
    )

    source = read_course(course_dir)

    assert "\\bogus" in source.pages[1].body
