"""The escape hatch: a course folder's kind written in Python (`kinds/<name>.py`).

The example, `tests/courses/fixtures/python-kind-course/kinds/argmax_position.py`, is loaded,
checked against NumPy, refused in every faulty variant with its file and field and nothing
left registered, checked by `check_kind`, and taken through the test client (open, wrong
answer diagnosed, right answer, review, staff preview) in a process where it is registered at
startup (`python_kind_client.py`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

import grading
from courses.content_files import CourseSourceError
from courses.loader import read_kinds
from grading.declared import (
    FOLDERS_VARIABLE,
    PYTHON_KINDS,
    KindFileError,
    read_python_kind,
)
from grading.declared.python_kind import module_name
from practice.generators import GENERATORS, GenerationError, generate
from practice.generators.declared import check_drawable, python_generator_class
from practice.kind_check import registered_python

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "tests" / "courses" / "fixtures" / "python-kind-course"
EXAMPLE = COURSE / "kinds" / "argmax_position.py"
TEXT = EXAMPLE.read_text(encoding="utf-8")
KIND = "argmax_position"
SEEDS = 40


def oracle(scores: list[int]) -> dict[str, int]:
    """The right answer and every mistake's answer, from NumPy."""
    s = np.array(scores)
    drops = np.flatnonzero(np.diff(s) < 0)
    return {
        "right": int(np.argmax(s)) + 1,
        "smallest_instead": int(np.argmin(s)) + 1,
        "counted_from_zero": int(np.argmax(s)),
        "value_not_position": int(np.max(s)),
        "stopped_at_first_drop": int(drops[0]) + 1 if drops.size else len(s),
    }


def test_the_example_loads_under_a_module_of_its_own_and_registers_nothing_by_itself():
    source = read_python_kind(EXAMPLE)
    assert source.name == KIND and source.levels == (1, 2, 3)
    assert source.module == module_name(EXAMPLE)
    assert source.module.startswith("basislab_course_kinds.python_kind_course_")
    assert sys.modules[source.module].KIND is source.kind
    assert KIND not in grading.KINDS and KIND not in GENERATORS  # read, not registered
    assert not (EXAMPLE.parent / "__pycache__").exists()  # no bytecode beside it


def test_two_courses_with_the_same_file_run_it_under_two_module_names(tmp_path):
    paths = []
    for course in ("first", "second"):
        (tmp_path / course / "kinds").mkdir(parents=True)
        paths.append(tmp_path / course / "kinds" / EXAMPLE.name)
        paths[-1].write_text(TEXT, encoding="utf-8")
    first, second = (read_python_kind(p) for p in paths)
    assert first.module != second.module
    assert sys.modules[first.module].KIND is not sys.modules[second.module].KIND


@pytest.mark.parametrize("level", [1, 2, 3])
def test_right_answers_and_mistakes_are_what_numpy_computes(level):
    with registered_python(read_python_kind(EXAMPLE)):
        for seed in range(SEEDS):
            spec = generate(KIND, seed=seed, level=level)
            expected = oracle(spec["scores"])
            loaded = grading.spec.load_problem(spec)
            assert loaded.kind.right(loaded.problem) == expected["right"]
            found = {d.mistake: v for d, v in grading.mistaken_answers(spec)}
            assert found == {k: v for k, v in expected.items() if k != "right"}
            for code, value in found.items():
                verdict = grading.grade(spec, str(value))
                assert verdict.diagnosis.mistake == code, (seed, code)
            assert grading.grade(spec, str(expected["right"])).status == grading.Status.CORRECT
    assert KIND not in grading.KINDS and KIND not in GENERATORS and KIND not in PYTHON_KINDS


def test_a_targeted_variant_shows_its_mistake_and_the_levels_grow():
    with registered_python(read_python_kind(EXAMPLE)):
        for code in grading.kind(KIND).codes:
            spec = generate(KIND, seed=5, level=2, target=code)
            assert spec["generator"]["target"] == code
            assert oracle(spec["scores"])[code] != oracle(spec["scores"])["right"]
        lengths = {
            level: max(len(generate(KIND, seed=s, level=level)["scores"]) for s in range(20))
            for level in (1, 2, 3)
        }
        assert lengths[1] < lengths[2] < lengths[3]
        assert min(generate(KIND, seed=s, level=1)["scores"][0] for s in range(20)) > 0


def refused(tmp_path: Path, text: str, name: str = KIND) -> KindFileError:
    (tmp_path / "kinds").mkdir(exist_ok=True)
    path = tmp_path / "kinds" / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    kinds, generators, modules = dict(grading.KINDS), dict(GENERATORS), set(sys.modules)
    with pytest.raises(KindFileError) as caught:
        read_python_kind(path)
    assert caught.value.path == str(path)
    assert str(path) in str(caught.value)
    # nothing loaded: the registries and the modules are as they were
    assert kinds == grading.KINDS and generators == GENERATORS
    assert module_name(path) not in sys.modules and set(sys.modules) == modules
    return caught.value


FAULTS = [
    ("KIND = ArgmaxPosition\n", "", "KIND", "is missing"),
    ("GENERATOR = ArgmaxGenerator\n", "", "GENERATOR", "is missing"),
    ('name = "argmax_position"', 'name = "argmax_place"', "KIND.name", "must equal the file"),
    ('label = "Where is the largest score?"', 'label = ""', "KIND.label", "non-empty"),
    ("levels = (1, 2, 3)", "levels = (0, 1)", "GENERATOR.levels", "from 1 to 9"),
    ("levels = (1, 2, 3)", "levels = (2, 1)", "GENERATOR.levels", "increasing order"),
    ("levels = (1, 2, 3)", "levels = [1, 2]", "GENERATOR.levels", "must be a tuple"),
    ("version = 1", 'version = "1"', "GENERATOR.version", "positive integer"),
    ("version = 1", "version = 1\n    number = 7", "GENERATOR.number", "set by the loader"),
    ("number=2,", "number=1,", "KIND.mistakes[1].number", "given twice"),
    ('code="counted_from_zero"', 'code="smallest_instead"', "KIND.mistakes[1].code", "twice"),
    ('code="counted_from_zero"', 'code="Counted"', "KIND.mistakes[1].code", "lowercase"),
    (
        "    def right(self, problem: ScoresProblem) -> int:\n        return problem.position\n",
        "",
        "KIND.right",
        "is not defined",
    ),
    ("class ArgmaxPosition(Kind):", "@register\nclass ArgmaxPosition(Kind):", "KIND", "@register"),
    (
        "    def statement(self, spec: dict) -> str:",
        "    statement = None\n\n    def _statement(self, spec: dict) -> str:",
        "GENERATOR.statement",
        "is not defined",
    ),
]


@pytest.mark.parametrize(("old", "new", "field", "reason"), FAULTS)
def test_a_faulty_file_is_refused_naming_file_field_and_reason(tmp_path, old, new, field, reason):
    assert old in TEXT
    text = TEXT.replace(old, new)
    if "@register" in new:
        text = text.replace("import Kind,", "import Kind, register,")
    error = refused(tmp_path, text)
    assert error.field == field
    assert reason in error.message


def test_a_name_of_a_built_in_or_a_declared_kind_is_refused(tmp_path):
    for name, where in (("lookup", "a built-in kind"), ("scaled_dot_score", "the declared kind")):
        text = TEXT.replace('name = "argmax_position"', f'name = "{name}"')
        error = refused(tmp_path, text, name=name)
        assert error.field == "KIND.name" and where in error.message
    assert type(grading.kind("lookup")).__module__ == "grading.kinds.lookup"


def test_code_that_fails_to_run_is_refused_with_its_line(tmp_path):
    broken = TEXT.replace("MAX_SIZE = 99", "MAX_SIZE = 99 +")
    error = refused(tmp_path, broken)
    assert (
        "SyntaxError" in error.message
        and error.line == TEXT[: TEXT.index("MAX_SIZE")].count("\n") + 1
    )
    raising = TEXT.replace("MAX_SIZE = 99", "MAX_SIZE = 99 // 0")
    error = refused(tmp_path, raising)
    assert "ZeroDivisionError" in error.message and error.line is not None


def test_a_kind_that_never_draws_a_diagnosable_problem_is_refused_at_registration(tmp_path):
    # every mistake gives the right answer: no draw can ever be diagnosed
    never = re.sub(r"apply=lambda p, v: [^\n]*,", "apply=lambda p, v: p.position,", TEXT)
    path = tmp_path / "kinds" / f"{KIND}.py"
    path.parent.mkdir()
    path.write_text(never, encoding="utf-8")
    source = read_python_kind(path)
    with registered_python(source):
        with pytest.raises(GenerationError):
            generate(KIND, seed=0, level=1)
        with pytest.raises(KindFileError) as caught:
            check_drawable(GENERATORS[KIND])
    assert caught.value.field == "GENERATOR.draw_fields" and caught.value.path == str(path)
    assert KIND not in GENERATORS and KIND not in grading.KINDS


def test_the_course_loader_reads_python_kinds_and_refuses_a_faulty_one(tmp_path):
    assert read_kinds(COURSE / "kinds") == (KIND,)
    kinds = tmp_path / "kinds"
    shutil.copytree(COURSE / "kinds", kinds)
    (kinds / f"{KIND}.py").write_text(TEXT.replace("levels = (1, 2, 3)", "levels = ()"))
    with pytest.raises(CourseSourceError) as caught:
        read_kinds(kinds)
    assert f"{KIND}.py" in str(caught.value) and "GENERATOR.levels" in str(caught.value)
    (kinds / f"{KIND}.py").write_text(TEXT)
    shutil.copy(ROOT / "tests/declared/kinds.py", kinds / "helper.txt")
    with pytest.raises(CourseSourceError) as caught:
        read_kinds(kinds)
    assert "helper.txt" in str(caught.value) and "<kind>.py" in str(caught.value)


def test_check_kind_passes_the_example_and_leaves_nothing_registered(capsys):
    call_command("check_kind", str(COURSE), KIND, seeds=25)
    out = capsys.readouterr().out
    assert "argmax_position: 3 levels x 25 seeds" in out
    assert "stopped_at_first_drop" in out
    assert KIND not in grading.KINDS and KIND not in GENERATORS and KIND not in PYTHON_KINDS


def test_check_kind_names_the_contracts_field_on_a_failure(tmp_path):
    (tmp_path / "kinds").mkdir()
    old = "(${here} > {after}$)"
    assert old in TEXT
    broken = TEXT.replace(old, "(${here} \\\\left( {after}$)")
    (tmp_path / "kinds" / f"{KIND}.py").write_text(broken, encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("check_kind", str(tmp_path), KIND, seeds=3)
    assert "KIND.mistakes.stopped_at_first_drop" in str(caught.value)
    assert "does not render" in str(caught.value)
    refused_levels = TEXT.replace("levels = (1, 2, 3)", "levels = (1, 1)")
    (tmp_path / "kinds" / f"{KIND}.py").write_text(refused_levels, encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("check_kind", str(tmp_path), KIND, seeds=3)
    assert "GENERATOR.levels" in str(caught.value) and f"{KIND}.py" in str(caught.value)
    assert KIND not in grading.KINDS


def test_python_generator_number_is_fixed_by_the_name():
    source = read_python_kind(EXAMPLE)
    with registered_python(source):
        number = GENERATORS[KIND].number
        assert number >= 1_000_000
    with registered_python(read_python_kind(EXAMPLE)):
        assert GENERATORS[KIND].number == number
    assert type(GENERATORS.get("lookup")).number < 100  # the built-ins' numbers, untouched
    assert issubclass(python_generator_class(source), source.generator)
    del GENERATORS[KIND]


def test_through_the_client_in_a_process_that_registers_it_at_startup():
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "PYTEST_XDIST_WORKER")
    }
    environment[FOLDERS_VARIABLE] = str(COURSE)
    client = Path(__file__).with_name("python_kind_client.py")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(client)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"=* ?4 passed in [\d.]+s( \([\d:]+\))? ?=*", summary), summary
