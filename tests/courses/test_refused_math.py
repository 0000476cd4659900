"""TeX that would put links, styles, classes or data into a page is refused; MathML reaching a
page carries only layout attributes."""

import re
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from courses.mathml import ALLOWED_ATTRIBUTES, REFUSED_COMMANDS, MathError, tex_to_mathml
from courses.models import Course
from tests.conftest import FIXTURE_COURSE_DIR

FIRST = "pages/first-page.md"


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    target = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, target)
    return target


def _edit(directory: Path, old: str, new: str) -> None:
    path = directory / FIRST
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tex", "command"),
    [
        (r"\href{javascript:alert(1)}{x}", "href"),
        (r"\style{color:red}{x}", "style"),
        (r"\class{evil}{x}", "class"),
        (r"\url{javascript:alert(1)}", "url"),
        (r"\htmlClass{a}{x}", "htmlClass"),
        (r"\htmlId{a}{x}", "htmlId"),
        (r"\htmlStyle{color:red}{x}", "htmlStyle"),
        (r"\htmlData{a=b}{x}", "htmlData"),
    ],
)
def test_load_course_refuses_commands_that_add_attributes(course_dir, tex, command):
    _edit(course_dir, r"summary: The row is $E[\mathrm{id}(w)]$.", f"summary: The row is ${tex}$.")

    with pytest.raises(CommandError) as caught:
        call_command("load_course", str(course_dir))

    message = str(caught.value)
    assert "Refused, nothing loaded" in message
    assert f"{course_dir / FIRST}: ideas[0].summary line 1:" in message
    assert f"\\{command} is not allowed" in message
    assert not Course.objects.exists()


def test_load_course_names_the_body_line_of_a_refused_command(course_dir):
    _edit(course_dir, r"\mathbf{h}_i = ", r"\href{https://example.org}{h}_i = ")

    with pytest.raises(CommandError) as caught:
        call_command("load_course", str(course_dir))

    assert "body line" in str(caught.value)
    assert r"\href is not allowed" in str(caught.value)


@pytest.mark.parametrize("command", REFUSED_COMMANDS)
def test_every_refused_command_is_refused_by_the_converter(command):
    with pytest.raises(MathError, match=rf"\\{command} is not allowed"):
        tex_to_mathml(f"a + \\{command}{{x}}{{y}}")


def test_a_line_break_before_a_word_is_not_a_command():
    mathml = tex_to_mathml(r"a \\ class")

    assert "<mi>c</mi>" in mathml


def test_attributes_outside_the_allow_list_never_reach_the_page():
    # latex2mathml writes mathcolor/mathbackground for \color and \colorbox: not on the list.
    mathml = tex_to_mathml(r"\color{red}{x} + \colorbox{blue}{y} + \left(\frac{1}{2}\right)")

    attributes = set(re.findall(r"\s([A-Za-z:-]+)=", mathml))
    assert attributes <= ALLOWED_ATTRIBUTES
    assert "mathcolor" not in mathml
    assert "mathbackground" not in mathml
    assert 'stretchy="true"' in mathml  # layout attributes stay


def test_the_allow_list_is_short_and_has_no_link_style_class_or_id():
    assert len(ALLOWED_ATTRIBUTES) <= 32
    assert not {"href", "style", "class", "id", "src", "xlink:href"} & ALLOWED_ATTRIBUTES
    assert not any(name.startswith(("on", "data-")) for name in ALLOWED_ATTRIBUTES)
