"""Answers files beside the course: read in course order, refused whole naming file and field."""

import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from courses.loader import CourseSourceError, read_course
from courses.models import Answer, CourseVersion
from courses.services import course_load
from tests.conftest import FIXTURE_COURSE_DIR, REAL_COURSE_DIR

GOOD = """---
slug: {slug}
question: {question}
summary: The lookup reads one row, so the start is the same.
page: {page}
worth_keeping:
  - One id, one row.
related: {related}
---
The row is $E[\\mathrm{{id}}(w)]$.

$$\\mathbf{{h}} = 0.5\\begin{{bmatrix}}1 \\\\ 0\\end{{bmatrix}}$$
"""


def write_answer(
    directory: Path,
    slug: str,
    *,
    question: str | None = None,
    page: str = "first-page",
    related: str = "[]",
    text: str | None = None,
) -> Path:
    answers = directory / "answers"
    answers.mkdir(exist_ok=True)
    path = answers / f"{slug}.md"
    body = text or GOOD.format(
        slug=slug, question=question or f"Why {slug}?", page=page, related=related
    )
    path.write_bytes(body.encode("utf-8") if isinstance(body, str) else body)
    return path


@pytest.fixture
def course_dir(tmp_path) -> Path:
    target = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, target)
    write_answer(target, "why-second", page="second-page", related="[why-first]")
    write_answer(target, "why-first", related="[why-second]")
    return target


def test_answers_are_read_in_course_order_with_their_fields(course_dir):
    course = read_course(course_dir)

    assert [a.slug for a in course.answers] == ["why-first", "why-second"]
    first = course.answers[0]
    assert first.page == "first-page"
    assert first.question == "Why why-first?"
    assert first.worth_keeping == ("One id, one row.",)
    assert first.related == ("why-second",)
    assert "$$" in first.body


def test_a_course_without_answers_keeps_its_hash_and_an_answer_edit_changes_it(course_dir):
    without = read_course(FIXTURE_COURSE_DIR).content_hash
    shutil.rmtree(course_dir / "answers")
    assert read_course(course_dir).content_hash == without

    write_answer(course_dir, "why-first")
    with_answer = read_course(course_dir).content_hash
    assert with_answer != without
    path = write_answer(course_dir, "why-first", question="Why else?")
    assert read_course(course_dir).content_hash != with_answer
    assert path.exists()


def test_the_real_course_has_one_answer_per_page_each_linking_the_six_others():
    course = read_course(REAL_COURSE_DIR)

    assert sorted(a.page for a in course.answers) == sorted(p.slug for p in course.pages)
    slugs = {a.slug for a in course.answers}
    for answer in course.answers:
        assert set(answer.related) == slugs - {answer.slug}, answer.slug
        assert len(answer.worth_keeping) >= 3, answer.slug
        page = next(p for p in course.pages if p.slug == answer.page)
        # The question is the one the page answers.
        assert answer.question == page.question
        if "$$" in page.body:
            # Where the page works arithmetic, the answer works some too.
            assert "$$" in answer.body, answer.slug


# (the file's text or a change to the directory, the file, the field, words of the message)
def _replace(old: str, new: str):
    return lambda text: text.replace(old, new, 1)


MALFORMED = {
    "missing key": (_replace("page: first-page\n", ""), "page", "is missing"),
    "unknown key": (
        _replace("page: first-page\n", "page: first-page\ntitle: X\n"),
        "title",
        "unknown key",
    ),
    "slug differs from file": (
        _replace("slug: why-first", "slug: why-other"),
        "slug",
        "must equal the file name",
    ),
    "slug not a slug": (_replace("slug: why-first", "slug: Why_First"), "slug", "is not a slug"),
    "empty question": (
        _replace("question: Why why-first?", "question: ''"),
        "question",
        "is empty",
    ),
    "question not text": (
        _replace("question: Why why-first?", "question: [1, 2]"),
        "question",
        "must be text",
    ),
    "bad TeX in question": (
        _replace("question: Why why-first?", "question: Why $\\nosuch x$?"),
        "question line 1",
        "unknown TeX command",
    ),
    "summary too long": (
        _replace("summary: The lookup", "summary: " + "long " * 70),
        "summary",
        "at most 300",
    ),
    "summary on two lines": (
        _replace(
            "summary: The lookup reads one row, so the start is the same.",
            "summary: |\n  One.\n  Two.",
        ),
        "summary",
        "one line",
    ),
    "unknown page": (
        _replace("page: first-page", "page: third-page"),
        "page",
        "is not a page of the course",
    ),
    "worth_keeping empty": (
        _replace("worth_keeping:\n  - One id, one row.", "worth_keeping: []"),
        "worth_keeping",
        "non-empty list",
    ),
    "worth_keeping item not text": (
        _replace("  - One id, one row.", "  - {a: 1}"),
        "worth_keeping[0]",
        "must be text",
    ),
    "worth_keeping item empty": (
        _replace("  - One id, one row.", "  - ''"),
        "worth_keeping[0]",
        "is empty",
    ),
    "worth_keeping bad TeX": (
        _replace("  - One id, one row.", "  - The $\\nosuchcommand$ row."),
        "worth_keeping[0] line 1",
        "unknown TeX command",
    ),
    "related not a list": (
        _replace("related: [why-second]", "related: why-second"),
        "related",
        "must be a list",
    ),
    "related unknown": (
        _replace("related: [why-second]", "related: [why-second, why-third]"),
        "related[1]",
        "is not an answer",
    ),
    "related itself": (
        _replace("related: [why-second]", "related: [why-first]"),
        "related[0]",
        "names this answer itself",
    ),
    "related twice": (
        _replace("related: [why-second]", "related: [why-second, why-second]"),
        "related[1]",
        "is listed twice",
    ),
    "related not a slug": (
        _replace("related: [why-second]", "related: [Why Second]"),
        "related[0]",
        "is not an answer slug",
    ),
    "empty body": (lambda text: text[: text.index("---\n", 4) + 4], "body", "is empty"),
    "bad TeX in body": (_replace("$E[", "$\\nosuch E["), "body line 10", "unknown TeX command"),
    "unclosed display math": (
        _replace("\\end{bmatrix}$$", "\\end{bmatrix}"),
        "body",
        "never closed",
    ),
    "idea marker in body": (
        lambda text: text + "\n::: idea one-row\n",
        "body line 14",
        "idea markers belong in pages",
    ),
    "no front matter": (lambda text: text[4:], "front matter", "must start with a '---' line"),
    "front matter never closed": (
        lambda text: text.replace("---\nThe row", "The row"),
        "front matter",
        "never closed",
    ),
    "YAML that does not parse": (_replace("page: first-page", "page: [first-page"), "", "line"),
    "key given twice": (
        _replace("page: first-page", "page: first-page\npage: second-page"),
        "",
        "given twice",
    ),
    "front matter not a mapping": (
        lambda text: "---\n- a\n- b\n---\nBody.\n",
        "",
        "must be a mapping",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_a_malformed_answer_file_is_refused_naming_file_and_field(course_dir, case):
    change, field, words = MALFORMED[case]
    path = course_dir / "answers" / "why-first.md"
    path.write_text(change(path.read_text()))

    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)

    assert caught.value.path == str(path)
    assert caught.value.field == field
    assert words in caught.value.message
    assert str(path) in str(caught.value)


def test_an_answer_file_that_is_not_utf8_is_refused(course_dir):
    path = course_dir / "answers" / "why-first.md"
    path.write_bytes(path.read_bytes() + b"\xff\xfe")

    with pytest.raises(CourseSourceError, match="not UTF-8") as caught:
        read_course(course_dir)
    assert caught.value.path == str(path)


def test_a_file_in_answers_that_is_not_markdown_is_refused(course_dir):
    stray = course_dir / "answers" / "notes.txt"
    stray.write_text("draft")

    with pytest.raises(CourseSourceError, match="is not an answer file") as caught:
        read_course(course_dir)
    assert caught.value.path == str(stray)


def test_answers_that_is_a_file_is_refused(course_dir):
    shutil.rmtree(course_dir / "answers")
    (course_dir / "answers").write_text("not a directory")

    with pytest.raises(CourseSourceError, match="is not a directory"):
        read_course(course_dir)


def test_two_answers_to_the_same_question_are_refused(course_dir):
    write_answer(course_dir, "why-again", question="Why why-first?")

    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.field == "question"
    assert "already asked by answers/why-again.md" in caught.value.message


@pytest.mark.django_db
def test_load_course_refuses_a_malformed_answer_and_writes_nothing(course_dir):
    path = course_dir / "answers" / "why-first.md"
    path.write_text(path.read_text().replace("page: first-page", "page: nowhere"))

    with pytest.raises(CommandError) as caught:
        call_command("load_course", str(course_dir))

    assert "Refused, nothing loaded" in str(caught.value)
    assert f"{path}: page: 'nowhere' is not a page of the course" in str(caught.value)
    assert not CourseVersion.objects.exists()
    assert not Answer.objects.exists()


@pytest.mark.django_db
def test_answers_are_versioned_with_the_course_and_loading_twice_changes_nothing(course_dir):
    first = course_load(directory=course_dir)
    again = course_load(directory=course_dir)

    assert first.created and not again.created
    assert again.version == first.version
    answers = list(Answer.objects.filter(version=first.version))
    assert [(a.slug, a.page.slug, a.order) for a in answers] == [
        ("why-first", "first-page", 1),
        ("why-second", "second-page", 2),
    ]
    assert answers[0].related == ["why-second"]
    assert answers[0].worth_keeping == ["One id, one row."]

    path = course_dir / "answers" / "why-first.md"
    path.write_text(path.read_text().replace("One id, one row.", "One identifier, one row."))
    changed = course_load(directory=course_dir)

    assert changed.created and changed.version.number == first.version.number + 1
    assert Answer.objects.get(version=changed.version, slug="why-first").worth_keeping == [
        "One identifier, one row."
    ]
    # The older version keeps its own answers.
    assert Answer.objects.get(version=first.version, slug="why-first").worth_keeping == [
        "One id, one row."
    ]
