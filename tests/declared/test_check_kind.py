"""`manage.py check_kind`: the example kind passes; broken kind files fail naming file and field;
the course loader refuses a course whose kinds/ holds a faulty file."""

from __future__ import annotations

import shutil

import pytest
from django.core.management import CommandError, call_command

import grading
from courses.content_files import CourseSourceError
from courses.loader import read_course
from grading.declared import KindFileError, read_kind_file
from practice.generators import GENERATORS
from practice.generators.declared import check_drawable
from practice.kind_check import registered

from .kinds import EXAMPLE, RULES_DEMO, write

COURSE = EXAMPLE.parents[1]


def test_the_example_kind_passes_its_check(capsys):
    call_command("check_kind", "how-text-becomes-numbers", "scaled_dot_score", seeds=40)
    out = capsys.readouterr().out
    assert "4 levels x 40 seeds" in out and "4 question tests passed" in out
    # the registered kind is the file's own again after the check
    assert grading.kind("scaled_dot_score").source.path == str(EXAMPLE)


def test_a_kind_file_given_by_its_course_directory_is_checked(tmp_path, capsys):
    write(tmp_path, RULES_DEMO)
    call_command("check_kind", str(tmp_path), "rules_demo", seeds=5)
    assert "rules_demo: 2 levels x 5 seeds" in capsys.readouterr().out
    assert "rules_demo" not in grading.KINDS  # registered only while it was checked


def check_fails(tmp_path, text: str, name: str = "rules_demo") -> str:
    path = write(tmp_path, text, name=name)
    with pytest.raises(CommandError) as caught:
        call_command("check_kind", str(tmp_path), name, seeds=5)
    message = str(caught.value)
    assert str(path) in message
    assert name not in grading.KINDS or name == "scaled_dot_score"
    return message


def test_a_question_test_with_the_wrong_verdict_fails_naming_the_test(tmp_path):
    broken = RULES_DEMO + "tests:\n  - {answer: m, seed: 1, level: 1, status: correct}\n"
    message = check_fails(tmp_path, broken)
    assert "tests[0].status" in message and "not correct" in message


def test_a_question_test_naming_the_wrong_mistake_fails(tmp_path):
    broken = RULES_DEMO + (
        "tests:\n  - {answer: r, seed: 1, level: 1, status: incorrect, mistake: flipped_sign}\n"
    )
    message = check_fails(tmp_path, broken)
    assert "tests[0].mistake" in message and "stopped_at_step" in message


def test_a_mistake_that_always_gives_the_right_answer_is_not_listed(tmp_path, capsys):
    # all-zero rows: leaving a term out of x_i x_j never changes the sum, so it is no mistake
    zero = RULES_DEMO.replace("{1: [1, 5], 2: [-3, 5]}", "{1: [0, 0], 2: [0, 0]}")
    write(tmp_path, zero)
    call_command("check_kind", str(tmp_path), "rules_demo", seeds=5)
    out = capsys.readouterr().out
    assert "omitted_term" not in out and "omitted_self_term" not in out
    assert "stopped_at_step" in out


def test_a_statement_that_does_not_render_fails_naming_the_statement(tmp_path):
    broken = RULES_DEMO.replace("compute $v$.", "compute $\\left( v$.")
    message = check_fails(tmp_path, broken)
    assert ": statement:" in message and "does not render" in message


def test_a_faulty_file_fails_with_its_field_and_line(tmp_path):
    broken = RULES_DEMO.replace("shape: scalar", "shape: matrix")
    message = check_fails(tmp_path, broken)
    assert "shape (line " in message and "'matrix' is not one of" in message


def test_a_mistake_word_naming_no_derived_mistake_fails(tmp_path):
    broken = RULES_DEMO + "mistakes:\n  forgot_sqrt: {label: no root}\n"
    message = check_fails(tmp_path, broken)
    assert "mistakes.forgot_sqrt" in message and "never gives" in message


def test_a_missing_kind_file_fails(tmp_path):
    with pytest.raises(CommandError, match="no such kind file"):
        call_command("check_kind", str(tmp_path), "nothing_here", seeds=1)


def test_the_course_loader_refuses_a_faulty_kind_file(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    kind = course / "kinds" / "scaled_dot_score.yaml"
    kind.write_text(kind.read_text().replace("shape: scalar", "shape: scalr"))
    with pytest.raises(CourseSourceError) as caught:
        read_course(course)
    assert caught.value.path == str(kind)
    assert caught.value.field.startswith("shape (line ")


def test_the_course_loader_refuses_a_kind_statement_whose_tex_does_not_convert(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    kind = course / "kinds" / "scaled_dot_score.yaml"
    kind.write_text(kind.read_text().replace("$d = {{d}}$", "$d = \\left( {{d}}$"))
    with pytest.raises(CourseSourceError) as caught:
        read_course(course)
    assert caught.value.path == str(kind)
    assert caught.value.field.startswith("statement")


def test_the_course_loader_reads_the_example_course_with_its_kind():
    source = read_course(COURSE)
    kinds = {k for page in source.pages for idea in page.ideas for k in idea.problem_kinds}
    assert "scaled_dot_score" in kinds


def test_a_kind_that_cannot_draw_a_level_is_refused_when_registered(tmp_path):
    # level 1's rows are all zero, so leaving a term out always gives the right answer there
    # (level 2's are not, so the catalogue keeps the mistake): level 1 can never be drawn
    stuck = RULES_DEMO.replace("{1: [1, 5], 2: [-3, 5]}", "{1: [0, 0], 2: [-3, 5]}")
    source = read_kind_file(write(tmp_path, stuck))
    with registered(source), pytest.raises(KindFileError) as caught:
        check_drawable(GENERATORS["rules_demo"])
    assert caught.value.field == "constraints"
    assert "no diagnosable problem of level 1" in caught.value.message
    assert caught.value.path == source.path
