"""The authored course *How Text Becomes Numbers*: its files agree with the content format.

These tests read the files with PyYAML and latex2mathml only, so a broken page is caught
without a database; the last test loads the real course through the loader.
"""

import re
import shutil
import uuid
from io import StringIO
from pathlib import Path

import latex2mathml.converter
import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse

from courses.models import Course, Idea
from courses.selectors import copy_newer_version
from courses.services import copy_get_or_create, copy_upgrade, course_load
from grading.kinds import ProblemKind
from grading.spec import load_problem
from practice.models import ProblemInstance
from practice.services import attempt_submit

COURSE_DIR = (
    Path(__file__).resolve().parents[2] / "courses" / "content" / "how-text-becomes-numbers"
)
PAGES_DIR = COURSE_DIR / "pages"

COURSE_KEYS = {"slug", "title", "summary", "pages"}
PAGE_KEYS = {"slug", "title", "question", "summary", "ideas"}
IDEA_KEYS = {"slug", "title", "summary", "problem_kinds"}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MARKER = re.compile(r"^::: idea (\S+)\s*$")
# The same rules as the renderer: `$$...$$` opens a display formula at the start of a line,
# `$...$` is inline on one line, code spans and fenced blocks are not math.
DISPLAY_OPEN = re.compile(r"^\s*\$\$")
INLINE = re.compile(r"(?<![\\$])\$(?!\$)((?:\\.|[^$\\\n])+?)\$(?!\$)")
CODE_SPAN = re.compile(r"`[^`]*`")

# The one page learners practise on, and the problem kinds that stand under its ideas.
PRACTISED_PAGE = "the-same-word-twice"
PRACTISED_KINDS = {
    "one-id-one-row": [ProblemKind.LOOKUP],
    "layer-is-a-weighted-sum": [ProblemKind.WEIGHTED_SUM],
    "different-neighbours-different-sums": [ProblemKind.CONTRAST],
    "weights-from-content": [ProblemKind.CONTENT_WEIGHTS, ProblemKind.SCALED_DOT_SCORE],
    "no-second-row": [ProblemKind.STATIC_VS_CONTEXTUAL],
    "where-it-stops-being-true": [ProblemKind.TWO_LAYERS],
}


def read_course() -> dict:
    return yaml.safe_load((COURSE_DIR / "course.yaml").read_text(encoding="utf-8"))


def read_page(path: Path) -> tuple[dict, str]:
    """Split a page into its front matter (parsed) and its Markdown body."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"\A---\n(.*?)\n---\n(.*)\Z", text, re.DOTALL)
    assert match, f"{path.name}: no front matter between two '---' lines"
    return yaml.safe_load(match.group(1)), match.group(2)


def page_paths() -> list[Path]:
    return sorted(PAGES_DIR.glob("*.md"))


def all_pages() -> list[tuple[Path, dict, str]]:
    return [(path, *read_page(path)) for path in page_paths()]


def formulas(body: str) -> list[tuple[int, str, bool]]:
    """Return ``(line number, tex, display)`` for every formula in a Markdown body.

    A `$` left over outside any formula is reported as a formula of its own (``"$"``), so an
    unbalanced dollar sign fails the conversion test instead of silently rendering as text.
    """
    found: list[tuple[int, str, bool]] = []
    lines = body.split("\n")
    index = 0
    in_fence = False
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            index += 1
            continue
        if in_fence:
            index += 1
            continue
        if DISPLAY_OPEN.match(line):
            start = index
            first = line.strip()[2:]
            if first.endswith("$$"):
                found.append((start + 1, first[:-2], True))
                index += 1
                continue
            parts = [first]
            index += 1
            while index < len(lines) and not lines[index].strip().endswith("$$"):
                parts.append(lines[index])
                index += 1
            if index == len(lines):
                found.append((start + 1, "$$", True))
                break
            parts.append(lines[index].strip()[:-2])
            found.append((start + 1, "\n".join(parts), True))
            index += 1
            continue
        without_code = CODE_SPAN.sub("", line)
        for match in INLINE.finditer(without_code):
            found.append((index + 1, match.group(1), False))
        if "$" in INLINE.sub("", without_code):
            found.append((index + 1, "$", False))
        index += 1
    return found


def conversion_error(tex: str, *, display: bool) -> str | None:
    """Return why latex2mathml cannot convert ``tex``, or None when it can."""
    if tex.strip() in {"", "$", "$$"}:
        return "an unbalanced or empty dollar sign"
    try:
        mathml = latex2mathml.converter.convert(
            tex.strip(), display="block" if display else "inline"
        )
    except Exception as exc:  # latex2mathml raises bare Exception subclasses.
        return f"{type(exc).__name__}: {exc}"
    # latex2mathml prints a command it does not know as text instead of failing.
    if "\\" in mathml:
        return "a TeX command latex2mathml does not know was printed as text"
    return None


def test_the_course_has_seven_pages():
    assert len(read_course()["pages"]) == 7
    assert len(page_paths()) == 7


def test_course_yaml_has_only_the_agreed_keys():
    course = read_course()

    assert set(course) == COURSE_KEYS
    assert course["slug"] == COURSE_DIR.name
    assert course["title"] == "How Text Becomes Numbers"
    assert course["summary"].strip()


def test_every_listed_page_has_a_file_and_every_file_is_listed_once():
    listed = read_course()["pages"]
    files = [path.stem for path in page_paths()]

    assert len(listed) == len(set(listed)), "a page is listed twice in course.yaml"
    assert sorted(listed) == sorted(files)


def test_every_page_slug_equals_its_file_name():
    for path, meta, _body in all_pages():
        assert meta["slug"] == path.stem, path.name


def test_every_page_has_only_the_agreed_keys_filled_in():
    for path, meta, body in all_pages():
        assert set(meta) == PAGE_KEYS, path.name
        for key in ("title", "question", "summary"):
            assert isinstance(meta[key], str) and meta[key].strip(), f"{path.name}: {key}"
        assert meta["question"].rstrip().endswith("?"), path.name
        assert body.strip(), path.name


def test_every_idea_has_the_agreed_keys_and_a_stable_unique_slug():
    for path, meta, _body in all_pages():
        ideas = meta["ideas"]
        assert ideas, f"{path.name} has no ideas"
        slugs = [idea["slug"] for idea in ideas]
        assert len(slugs) == len(set(slugs)), f"{path.name}: an idea slug is repeated"
        for idea in ideas:
            assert set(idea) == IDEA_KEYS, f"{path.name}: {idea.get('slug')}"
            assert SLUG.match(idea["slug"]), f"{path.name}: {idea['slug']!r}"
            assert idea["title"].strip() and idea["summary"].strip(), idea["slug"]
            assert isinstance(idea["problem_kinds"], list), idea["slug"]


def test_pages_other_than_the_practised_one_have_two_to_four_ideas():
    for path, meta, _body in all_pages():
        if path.stem != PRACTISED_PAGE:
            assert 2 <= len(meta["ideas"]) <= 4, path.name


def test_every_idea_marker_is_placed_exactly_once_and_names_a_known_idea():
    for path, meta, body in all_pages():
        markers = [match.group(1) for line in body.split("\n") if (match := MARKER.match(line))]
        slugs = [idea["slug"] for idea in meta["ideas"]]

        assert sorted(markers) == sorted(slugs), path.name
        # Markers follow the text that teaches the idea, in the order the ideas are listed.
        assert markers == slugs, path.name


def test_every_problem_kind_is_a_problem_kind_value():
    kinds = {kind.value for kind in ProblemKind}
    for path, meta, _body in all_pages():
        for idea in meta["ideas"]:
            unknown = set(idea["problem_kinds"]) - kinds
            assert not unknown, f"{path.name}: {idea['slug']} has unknown kinds {unknown}"
            assert len(idea["problem_kinds"]) == len(set(idea["problem_kinds"])), idea["slug"]


def test_the_same_word_twice_practises_each_kind_under_its_idea():
    meta, body = read_page(PAGES_DIR / f"{PRACTISED_PAGE}.md")
    kinds_by_idea = {idea["slug"]: idea["problem_kinds"] for idea in meta["ideas"]}

    for slug, kinds in PRACTISED_KINDS.items():
        assert kinds_by_idea[slug] == [kind.value for kind in kinds], slug
    assert all(kinds_by_idea.values()), "every idea of the page has practice"
    assert "::: idea one-id-one-row" in body


def test_pages_without_practice_say_that_practice_is_coming():
    for path, meta, body in all_pages():
        if not any(idea["problem_kinds"] for idea in meta["ideas"]):
            assert "practice for this page is coming" in body.lower(), path.name


def test_every_tex_formula_converts_to_mathml():
    errors = []
    count = 0
    for path, _meta, body in all_pages():
        for line, tex, display in formulas(body):
            count += 1
            error = conversion_error(tex, display=display)
            if error:
                # Line numbers count from the first line of the body, after the front matter.
                errors.append(f"{path.name}, body line {line}: {tex!r}: {error}")

    assert count > 0
    assert not errors, "\n".join(errors)


def test_front_matter_text_has_no_tex():
    # Summaries and titles are shown as plain text in lists; formulas belong in the body.
    for path, meta, _body in all_pages():
        texts = [meta["title"], meta["question"], meta["summary"]]
        texts += [idea[key] for idea in meta["ideas"] for key in ("title", "summary")]
        for text in texts:
            assert "$" not in text, f"{path.name}: {text!r}"


@pytest.mark.parametrize(
    ("tex", "display"),
    [
        (r"\begin{bmatrix}1 \\ 0", True),  # never closed
        (r"\foo{x}", False),  # unknown command, printed as text by latex2mathml
        ("$", False),  # a stray dollar sign
    ],
)
def test_conversion_check_reports_bad_tex(tex, display):
    assert conversion_error(tex, display=display) is not None


def test_formula_extraction_finds_inline_display_and_stray_dollars():
    body = "a $x_1$ and `$not math$`\n\n$$\n\\frac{1}{2}\n$$\nprice $5 only\n"

    found = formulas(body)

    assert (1, "x_1", False) in found
    assert (3, "\n\\frac{1}{2}\n", True) in found
    assert (6, "$", False) in found


@pytest.mark.django_db
def test_the_loader_loads_the_real_course_with_its_pages_and_practised_ideas():
    out = StringIO()
    call_command("load_course", str(COURSE_DIR), stdout=out)

    version = Course.objects.get(slug=COURSE_DIR.name).latest_version()
    assert version.number == 1
    assert list(version.pages.values_list("slug", flat=True)) == read_course()["pages"]
    practised = Idea.objects.filter(page__version=version, page__slug=PRACTISED_PAGE)
    kinds_by_idea = {idea.slug: idea.problem_kinds for idea in practised}
    for slug, kinds in PRACTISED_KINDS.items():
        assert kinds_by_idea[slug] == [kind.value for kind in kinds], slug
    written = sum(len(meta["ideas"]) for _path, meta, _body in all_pages())
    assert Idea.objects.filter(page__version=version).count() == written
    assert "7 pages" in out.getvalue()


@pytest.mark.django_db
def test_loading_the_real_course_twice_keeps_one_version():
    call_command("load_course", str(COURSE_DIR), stdout=StringIO())
    out = StringIO()
    call_command("load_course", str(COURSE_DIR), stdout=out)

    assert Course.objects.get(slug=COURSE_DIR.name).versions.count() == 1
    assert "unchanged" in out.getvalue()


def test_every_page_renders_for_a_learner_with_mathml_and_its_idea_boxes(
    real_course, learner, learner_client
):
    copy = copy_get_or_create(user=learner, course_slug=real_course.course.slug)

    for path, meta, _body in all_pages():
        url = reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": path.stem})
        response = learner_client.get(url)

        html = response.content.decode()
        assert response.status_code == 200, path.name
        assert "<math" in html, path.name
        assert "tex-error" not in html, path.name
        assert ":::" not in html, path.name
        for idea in meta["ideas"]:
            assert html.count(f'id="idea-{idea["slug"]}"') == 1, f"{path.name}: {idea['slug']}"


def test_why_gaussian_noise_practises_each_idea_with_its_kind():
    meta, body = read_page(PAGES_DIR / "why-gaussian-noise.md")
    kinds_by_idea = {idea["slug"]: idea["problem_kinds"] for idea in meta["ideas"]}

    assert kinds_by_idea == {
        "steps-keep-the-spread": [ProblemKind.NOISE_STEP.value],
        "noise-composes-in-closed-form": [ProblemKind.CLOSED_FORM_NOISE.value],
        "reverse-step-is-learnable": [ProblemKind.PREDICT_CLEAN.value],
    }
    assert "practice for this page is coming" not in body.lower()
    assert r"\hat x_0 = \frac{x_t - \sqrt{1 - \bar\alpha_t}\;\hat\epsilon}" in body


def test_a_right_answer_to_a_gaussian_noise_kind_moves_that_pages_progress(
    real_course, learner, learner_client
):
    copy = copy_get_or_create(user=learner, course_slug=real_course.course.slug)
    dashboard = reverse("courses:dashboard")
    progress = re.compile(r'aria-label="Why Gaussian Noise"[^>]*aria-valuenow="(\d+)"')
    before = progress.search(learner_client.get(dashboard).content.decode())
    opened = reverse(
        "practice:problem_open",
        kwargs={
            "copy_id": copy.pk,
            "page_slug": "why-gaussian-noise",
            "idea_slug": "steps-keep-the-spread",
            "kind": "noise_step",
        },
    )
    assert learner_client.get(opened).status_code == 302
    problem = ProblemInstance.objects.get(copy=copy, kind="noise_step")
    loaded = load_problem(problem.spec)
    right = loaded.shape.typed(loaded.kind.right(loaded.problem))
    attempt_submit(copy=copy, problem=problem, text=right, token=uuid.uuid4())
    after = progress.search(learner_client.get(dashboard).content.decode())

    assert before is not None and before.group(1) == "0"
    assert after is not None and int(after.group(1)) > 0


@pytest.mark.django_db
def test_the_practice_for_the_last_ideas_is_offered_as_a_new_version(learner, tmp_path):
    # the course as it was before: the five ideas without kinds, their pages saying so
    before = tmp_path / COURSE_DIR.name
    shutil.copytree(COURSE_DIR, before)
    new_kinds = ("static_vs_contextual", "two_layers", "noise_step", "closed_form_noise")
    for path in (before / "pages").glob("*.md"):
        text = path.read_text(encoding="utf-8")
        for kind in (*new_kinds, "predict_clean"):
            text = text.replace(f"problem_kinds: [{kind}]", "problem_kinds: []")
        path.write_text(text, encoding="utf-8")
    noise = before / "pages" / "why-gaussian-noise.md"
    noise.write_text(
        noise.read_text(encoding="utf-8") + "\nPractice for this page is coming.\n",
        encoding="utf-8",
    )
    old = course_load(directory=before).version
    copy = copy_get_or_create(user=learner, course_slug=old.course.slug)

    new = course_load(directory=COURSE_DIR).version

    assert (old.number, new.number) == (1, 2)
    assert copy_newer_version(copy=copy) == new
    upgraded = copy_upgrade(copy=copy)
    kinds = dict(
        Idea.objects.filter(page__version=upgraded.version).values_list("slug", "problem_kinds")
    )
    assert kinds["no-second-row"] == ["static_vs_contextual"]
    assert kinds["reverse-step-is-learnable"] == ["predict_clean"]
