"""Read and validate an authored course directory: ``course.yaml``, pages and answers.

Pure: no database. ``read_course`` either returns the whole course or raises
``CourseSourceError`` naming the file, the field and what was wrong, so nothing is ever
half-loaded. The layout:

    course.yaml              slug, title, summary, pages: [page slugs in order]
    pages/<page-slug>.md     YAML front matter between two '---' lines, then the Markdown body
    answers/<slug>.md        optional: one public answer per question (front matter + Markdown)
    graph.yaml               optional: the idea graph for review credit (``courses.graph``)
    kinds/<kind>.yaml        optional: declared problem kinds (``grading.declared``), each
                             checked in full; the repository's are registered at startup
    kinds/<kind>.py          optional: a kind in Python, the escape hatch
                             (``grading.declared.python_kind``): run and its contract checked

A body line ``::: idea <slug>`` marks where an idea's box goes; every idea appears exactly once.
An answer's front matter names its question, a one-line answer (``summary``), the course page
that teaches it, what is worth keeping, and the other answers it points to (``related``).
"""

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from grading.declared import KindFileError, KindSource, read_kind_file, read_python_kind
from grading.declared.source import PLACEHOLDER
from grading.kinds import KINDS

from .content_files import (
    SLUG,
    CourseSourceError,
    body_text,
    check_keys,
    check_tex,
    front_matter,
    parse_yaml,
    read_text,
    slug_field,
    text_field,
    text_list,
)
from .graph import CreditEdge, GraphError, parse_graph

IDEA_MARKER = re.compile(r"^:::\s*idea\s+(\S+)\s*$")
COURSE_KEYS = ("slug", "title", "summary", "pages")
PAGE_KEYS = ("slug", "title", "question", "summary", "ideas")
IDEA_KEYS = ("slug", "title", "summary", "problem_kinds")
ANSWER_KEYS = ("slug", "question", "summary", "page", "worth_keeping", "related")
# A one-line answer is shown in lists of questions and as the page's meta description.
ANSWER_SUMMARY_MAX = 300


@dataclass(frozen=True)
class IdeaSource:
    slug: str
    title: str
    summary: str
    problem_kinds: tuple[str, ...]


@dataclass(frozen=True)
class PageSource:
    slug: str
    title: str
    question: str
    summary: str
    ideas: tuple[IdeaSource, ...]
    body: str


@dataclass(frozen=True)
class AnswerSource:
    slug: str
    question: str
    summary: str
    page: str
    worth_keeping: tuple[str, ...]
    related: tuple[str, ...]
    body: str


@dataclass(frozen=True)
class CourseSource:
    slug: str
    title: str
    summary: str
    pages: tuple[PageSource, ...]
    answers: tuple[AnswerSource, ...] = ()
    graph: tuple[CreditEdge, ...] = ()

    @property
    def content_hash(self) -> str:
        """Return the SHA-256 of the parsed content; formatting-only edits to YAML keep it."""
        content = asdict(self)
        if not self.answers:
            # A course without answers keeps the hash it had before answers existed.
            del content["answers"]
        if not self.graph:
            del content["graph"]  # likewise a course without an idea graph
        canonical = json.dumps(content, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def read_course(directory: Path | str) -> CourseSource:
    """Read and validate a whole course directory; raise CourseSourceError on the first fault."""
    directory = Path(directory)
    if not directory.is_dir():
        raise CourseSourceError(directory, "", "is not a directory")
    course_file = directory / "course.yaml"
    if not course_file.is_file():
        raise CourseSourceError(course_file, "", "is missing")
    data = check_keys(parse_yaml(read_text(course_file), course_file), course_file, "", COURSE_KEYS)
    slug = slug_field(data, "slug", course_file)
    title = text_field(data, "title", course_file)
    summary = text_field(data, "summary", course_file)
    listed = data["pages"]
    if not isinstance(listed, list) or not listed:
        raise CourseSourceError(course_file, "pages", "must be a non-empty list of page slugs")
    seen: set[str] = set()
    for index, page_slug in enumerate(listed):
        field = f"pages[{index}]"
        if not isinstance(page_slug, str) or not SLUG.match(page_slug):
            raise CourseSourceError(course_file, field, f"{page_slug!r} is not a page slug")
        if page_slug in seen:
            raise CourseSourceError(course_file, field, f"{page_slug!r} is listed twice")
        seen.add(page_slug)

    pages_dir = directory / "pages"
    if not pages_dir.is_dir():
        raise CourseSourceError(pages_dir, "", "is missing (the pages live in pages/<slug>.md)")
    for entry in sorted(pages_dir.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.suffix != ".md" or not entry.is_file():
            raise CourseSourceError(entry, "", "is not a page file (pages/ holds only <slug>.md)")
        if entry.stem not in seen:
            raise CourseSourceError(
                course_file, "pages", f"does not list {entry.stem!r}, which has a file {entry}"
            )
    for index, page_slug in enumerate(listed):
        if not (pages_dir / f"{page_slug}.md").is_file():
            raise CourseSourceError(
                course_file, f"pages[{index}]", f"{page_slug!r} has no file pages/{page_slug}.md"
            )
    read_kinds(directory / "kinds")
    pages = tuple(read_page(pages_dir / f"{page_slug}.md") for page_slug in listed)
    answers = read_answers(directory / "answers", page_slugs=tuple(listed))
    graph = read_graph(directory / "graph.yaml")
    return CourseSource(
        slug=slug, title=title, summary=summary, pages=pages, answers=answers, graph=graph
    )


def read_kinds(directory: Path) -> tuple[str, ...]:
    """Validate every kind file, ``kinds/<kind>.yaml`` (declared) or ``kinds/<kind>.py`` (a
    Python kind, run and its contract checked); return their names (none when the directory
    is absent). A fault names the file, the field and its line."""
    if not directory.exists():
        return ()
    if not directory.is_dir():
        raise CourseSourceError(directory, "", "is not a directory (kinds/ holds <kind>.yaml)")
    names: dict[str, Path] = {}
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.suffix not in (".yaml", ".py") or not entry.is_file():
            raise CourseSourceError(
                entry, "", "is not a kind file (kinds/ holds only <kind>.yaml and <kind>.py)"
            )
        try:
            if entry.suffix == ".py":
                name = read_python_kind(entry).name
            else:
                source = read_kind_file(entry)
                _check_kind_tex(source, entry)
                name = source.name
        except KindFileError as exc:
            field = f"{exc.field} (line {exc.line})" if exc.line else exc.field
            raise CourseSourceError(entry, field, exc.message) from exc
        if name in names:
            raise CourseSourceError(entry, "", f"the kind {name!r} is also {names[name].name}")
        names[name] = entry
    return tuple(names)


def _check_kind_tex(source: KindSource, path: Path) -> None:
    """Convert every formula of a kind file's words, each {{name}} standing in as 1."""
    texts = [("statement", source.statement), ("words.hint", source.hint)]
    texts += [(f"steps[{k}].text", step.text) for k, step in enumerate(source.steps)]
    texts += [(f"mistakes.{m.code}.explain", m.explain or "") for m in source.mistakes]
    for field, text in texts:
        check_tex(PLACEHOLDER.sub("1", text), path, field)


def read_graph(path: Path) -> tuple[CreditEdge, ...]:
    """Read and validate the course's idea graph (``courses.graph``); none when it is absent."""
    if not path.exists():
        return ()
    try:
        return parse_graph(parse_yaml(read_text(path), path))
    except GraphError as exc:
        raise CourseSourceError(path, exc.field, exc.message) from exc


def read_page(path: Path) -> PageSource:
    """Read and validate one page file: front matter, ideas, markers and TeX."""
    data, body_lines, body_start = front_matter(path, PAGE_KEYS)
    slug = slug_field(data, "slug", path)
    if slug != path.stem:
        raise CourseSourceError(path, "slug", f"{slug!r} must equal the file name {path.stem!r}")
    title = text_field(data, "title", path)
    question = text_field(data, "question", path)
    summary = text_field(data, "summary", path)
    check_tex(question, path, "question")
    check_tex(summary, path, "summary")
    ideas = _read_ideas(data["ideas"], path)
    if not "\n".join(body_lines).strip():
        raise CourseSourceError(path, "body", "is empty")
    _check_markers(body_lines, ideas, path, first_line=body_start + 1)
    body = body_text(body_lines, path, body_start=body_start)
    return PageSource(
        slug=slug, title=title, question=question, summary=summary, ideas=ideas, body=body
    )


def read_answers(directory: Path, *, page_slugs: tuple[str, ...]) -> tuple[AnswerSource, ...]:
    """Read every ``answers/<slug>.md``; none when the directory is absent.

    Each answer must name a page of the course, and its ``related`` answers must exist. Answers
    come back in course order (by their page, then by slug).
    """
    if not directory.exists():
        return ()
    if not directory.is_dir():
        raise CourseSourceError(directory, "", "is not a directory (answers/ holds <slug>.md)")
    files = []
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.suffix != ".md" or not entry.is_file():
            raise CourseSourceError(
                entry, "", "is not an answer file (answers/ holds only <slug>.md)"
            )
        files.append(entry)
    answers = [read_answer(entry, page_slugs=page_slugs) for entry in files]
    by_slug = {answer.slug: answer for answer in answers}
    asked: dict[str, str] = {}
    for path, answer in zip(files, answers, strict=True):
        earlier = asked.setdefault(answer.question.casefold(), answer.slug)
        if earlier != answer.slug:
            raise CourseSourceError(
                path, "question", f"is already asked by answers/{earlier}.md; one page per question"
            )
        for index, slug in enumerate(answer.related):
            if slug not in by_slug:
                raise CourseSourceError(
                    path,
                    f"related[{index}]",
                    f"{slug!r} is not an answer (no file answers/{slug}.md)",
                )
    order = {slug: index for index, slug in enumerate(page_slugs)}
    return tuple(sorted(answers, key=lambda a: (order[a.page], a.slug)))


def read_answer(path: Path, *, page_slugs: tuple[str, ...]) -> AnswerSource:
    """Read and validate one answer file: front matter, the page it names, and TeX."""
    data, body_lines, body_start = front_matter(path, ANSWER_KEYS)
    slug = slug_field(data, "slug", path)
    if slug != path.stem:
        raise CourseSourceError(path, "slug", f"{slug!r} must equal the file name {path.stem!r}")
    question = text_field(data, "question", path)
    check_tex(question, path, "question")
    summary = text_field(data, "summary", path)
    if "\n" in summary or len(summary) > ANSWER_SUMMARY_MAX:
        raise CourseSourceError(
            path,
            "summary",
            f"must be one line of at most {ANSWER_SUMMARY_MAX} characters "
            f"(it has {len(summary)}{' and a line break' if chr(10) in summary else ''})",
        )
    check_tex(summary, path, "summary")
    page = slug_field(data, "page", path)
    if page not in page_slugs:
        raise CourseSourceError(
            path, "page", f"{page!r} is not a page of the course (pages: {', '.join(page_slugs)})"
        )
    worth_keeping = text_list(data, "worth_keeping", path, allow_empty=False)
    for index, point in enumerate(worth_keeping):
        check_tex(point, path, f"worth_keeping[{index}]")
    related = text_list(data, "related", path, allow_empty=True)
    for index, other in enumerate(related):
        field = f"related[{index}]"
        if not SLUG.match(other):
            raise CourseSourceError(path, field, f"{other!r} is not an answer slug")
        if other == slug:
            raise CourseSourceError(path, field, "names this answer itself")
        if other in related[:index]:
            raise CourseSourceError(path, field, f"{other!r} is listed twice")
    for offset, line in enumerate(body_lines):
        if line.lstrip().startswith(":::"):
            raise CourseSourceError(
                path,
                f"body line {body_start + 1 + offset}",
                "idea markers belong in pages, not in answers",
            )
    body = body_text(body_lines, path, body_start=body_start)
    return AnswerSource(
        slug=slug,
        question=question,
        summary=summary,
        page=page,
        worth_keeping=worth_keeping,
        related=related,
        body=body,
    )


def _read_ideas(raw: Any, path: Path) -> tuple[IdeaSource, ...]:
    if not isinstance(raw, list) or not raw:
        raise CourseSourceError(path, "ideas", "must be a non-empty list of ideas")
    ideas: list[IdeaSource] = []
    seen: set[str] = set()
    known_kinds = set(KINDS)  # the grading registry: one module per kind
    for index, item in enumerate(raw):
        field = f"ideas[{index}]"
        item = check_keys(item, path, field, IDEA_KEYS)
        slug = slug_field(item, "slug", path, field)
        if slug in seen:
            raise CourseSourceError(path, f"{field}.slug", f"{slug!r} is used twice in the page")
        seen.add(slug)
        kinds = item["problem_kinds"]
        if kinds is None:
            kinds = []
        if not isinstance(kinds, list):
            raise CourseSourceError(
                path, f"{field}.problem_kinds", "must be a list ([] while practice is coming)"
            )
        for k_index, kind in enumerate(kinds):
            if kind not in known_kinds:
                raise CourseSourceError(
                    path,
                    f"{field}.problem_kinds[{k_index}]",
                    f"{kind!r} is not a problem kind (known: {', '.join(sorted(known_kinds))})",
                )
        if len(set(kinds)) != len(kinds):
            raise CourseSourceError(path, f"{field}.problem_kinds", "names a kind twice")
        summary = text_field(item, "summary", path, field)
        check_tex(summary, path, f"{field}.summary")
        ideas.append(
            IdeaSource(
                slug=slug,
                title=text_field(item, "title", path, field),
                summary=summary,
                problem_kinds=tuple(kinds),
            )
        )
    return tuple(ideas)


def _check_markers(
    body_lines: list[str], ideas: tuple[IdeaSource, ...], path: Path, *, first_line: int
) -> None:
    known = {idea.slug for idea in ideas}
    placed: dict[str, int] = {}
    for offset, line in enumerate(body_lines):
        if not line.lstrip().startswith(":::"):
            continue
        number = first_line + offset
        match = IDEA_MARKER.match(line.strip())
        if match is None:
            raise CourseSourceError(
                path, f"body line {number}", f"{line.strip()!r} is not '::: idea <slug>'"
            )
        slug = match.group(1)
        if slug not in known:
            raise CourseSourceError(
                path,
                f"body line {number}",
                f"marks the idea {slug!r}, which the page does not list",
            )
        if slug in placed:
            raise CourseSourceError(
                path,
                f"body line {number}",
                f"marks the idea {slug!r} again (already on line {placed[slug]})",
            )
        placed[slug] = number
    for idea in ideas:
        if idea.slug not in placed:
            raise CourseSourceError(
                path, "body", f"has no '::: idea {idea.slug}' line for the idea {idea.slug!r}"
            )
