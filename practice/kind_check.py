"""An author's check of a declared kind before learners see it (`manage.py check_kind`).

Pure: no database. `check_kind_file(path, seeds=...)` reads the kind file, registers the kind
and its generator for the duration of the check (the registries are restored after), and for
every level and each seed below `seeds`:

- generates the problem twice and requires the same spec (reproducible from the seed), and
  requires a problem at all (the constraints and the catalogue leave a diagnosable draw);
- grades the right answer in every documented form (exact; decimal) as correct;
- grades every derived or authored mistake's answer as incorrect, diagnosed as exactly that
  mistake and those terms, with an explanation (so no two mistakes collide and none gives the
  right answer);
- renders the statement (and, on the first seeds, every explanation, the hint and the worked
  solution) with no TeX error, and, for a kind with a vector answer, its picture fresh, solved
  and with each mistake's answer, as one well-formed SVG;

then runs the file's question tests (an answer and the verdict it must get). The first failure
raises `KindCheckError` naming the file, the field it concerns, and what went wrong.

A Python kind, `kinds/<name>.py` (the escape hatch), is checked the same way: run and its
contract checked (`grading.declared.python_kind`), registered with its generator for the
check, every level and seed as above (its right answer typed as its shape types it, and as a
decimal too when that shape is a number or a vector), its picture, when it draws one, one SVG
that parses; the fields named are the contract's (`KIND.right`, `KIND.mistakes.<code>`,
`GENERATOR.statement`, ...). It has no question tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np

import grading
from courses.mathml import MathError, iter_tex, render_markdown, tex_to_mathml
from grading.declared import (
    PYTHON_KINDS,
    KindFileError,
    read_kind_file,
    read_python_kind,
    register_python_kind,
    register_source,
    unregister,
    unregister_python_kind,
)
from grading.declared.expr import EvaluationError, evaluate, is_scalar
from grading.kinds.base import REGISTRY as KIND_REGISTRY
from grading.shapes import ScalarShape, Vector
from grading.solution import solution
from grading.spec import _load_cached, load_problem
from practice.generators import GenerationError, generate, render_statement, render_svg
from practice.generators.base import REGISTRY as GENERATOR_REGISTRY
from practice.generators.declared import generator_class, python_generator_class
from practice.generators.declared import unregister as unregister_generator

RENDERED_SEEDS = 10  # seeds per level whose explanations and solution are rendered too


class KindCheckError(ValueError):
    """A declared kind that fails its check: the file, the field, what went wrong."""

    def __init__(self, path: Path | str, field: str, message: str) -> None:
        self.path, self.field, self.message = str(path), field, message
        super().__init__(f"{path}: {field}: {message}" if field else f"{path}: {message}")


@dataclass(frozen=True)
class CheckReport:
    name: str
    levels: tuple[int, ...]
    seeds: int
    mistakes: tuple[str, ...]
    answers_graded: int
    tests: int


# What a Python kind's failures name, by the declared kinds' fields: its contract's parts.
PYTHON_FIELDS = {
    "constraints": "GENERATOR.draw_fields",
    "parameters": "GENERATOR.draw_fields",
    "answer": "KIND.right",
    "steps": "KIND.steps",
    "statement": "GENERATOR.statement",
    "words.hint": "KIND.hint",
    "shape": "GENERATOR.picture",
    "mistakes": "KIND.mistakes",
}


@dataclass(frozen=True)
class PythonCheck:
    """What the check reads of a Python kind, under the names it reads a declared kind by."""

    path: str
    name: str
    levels: tuple[int, ...]
    shape: str = "python"  # any picture, or none
    steps: tuple = ()
    tests: tuple = ()
    fields: dict[str, str] = field(default_factory=lambda: dict(PYTHON_FIELDS))


def _field(source: Any, name: str) -> str:
    """Return the field a failure names: the declared kind's, or a Python kind's own."""
    return getattr(source, "fields", {}).get(name, name)


def kind_file(course: str, kind: str, root: Path) -> Path:
    """Return the kind file of a course: `course` is a folder under `root` or a directory;
    `kinds/<kind>.yaml`, or `kinds/<kind>.py` when only that one is there."""
    directory = Path(course)
    if not directory.is_dir():
        directory = root / course
    declared = directory / "kinds" / f"{kind}.yaml"
    python = directory / "kinds" / f"{kind}.py"
    return python if python.is_file() and not declared.is_file() else declared


def typed_forms(shape: Any, value: Any) -> list[str]:
    """Return every documented way to type a value: exact, and as decimals (6 figures)."""
    forms = [shape.typed(value)]
    if is_scalar(value):
        forms.append(decimal(value))
    else:
        forms.append("[" + ", ".join(decimal(x) for x in value) + "]")
    return forms


def decimal(value: Any) -> str:
    """Return a number as a learner types a decimal, never in the exponent notation answers do
    not accept (`0.0000445667`, not `4.45667e-05`): 6 significant figures below 1 in size, 6
    decimals from 1 up; trailing zeros dropped (the value still rounds to what is typed)."""
    number = float(value)
    if abs(number) >= 1:
        return f"{number:.6f}".rstrip("0").rstrip(".")
    return np.format_float_positional(number, precision=6, unique=False, fractional=False, trim="-")


def _tex_ok(text: str) -> bool:
    try:
        for _line, tex, display in iter_tex(text):
            tex_to_mathml(tex, display=display)
    except MathError:
        return False
    return "tex-error" not in render_markdown(text)


def check_kind_file(path: Path | str, *, seeds: int = 1000) -> CheckReport:
    """Check a kind file as the module docstring says; raise KindCheckError on a failure."""
    path = Path(path)
    if not path.is_file():
        raise KindCheckError(path, "", "there is no such kind file")
    if path.suffix == ".py":
        return check_python_kind_file(path, seeds=seeds)
    try:
        source = read_kind_file(path)
    except KindFileError as exc:
        field = f"{exc.field} (line {exc.line})" if exc.line else exc.field
        raise KindCheckError(path, field, exc.message) from exc
    try:
        with registered(source) as kind:
            return _check(path, source, kind, seeds)
    except KindFileError as exc:  # the catalogue refused when the kind was built
        raise KindCheckError(path, exc.field, exc.message) from exc


def check_python_kind_file(path: Path, *, seeds: int = 1000) -> CheckReport:
    """Check a Python kind file (the module docstring's last paragraph)."""
    try:
        python = read_python_kind(path)
    except KindFileError as exc:
        field = f"{exc.field} (line {exc.line})" if exc.line else exc.field
        raise KindCheckError(path, field, exc.message) from exc
    source = PythonCheck(path=str(path), name=python.name, levels=python.levels)
    with registered_python(python) as kind:
        return _check(path, source, kind, seeds)


@contextmanager
def registered_python(python: Any) -> Iterator[Any]:
    """Register a Python kind and its generator while the block runs (a kind of that name
    already registered is put back after), and yield the kind."""
    name = python.name
    saved_kind, saved_generator = KIND_REGISTRY.get(name), GENERATOR_REGISTRY.get(name)
    saved_source = PYTHON_KINDS.get(name)
    try:
        kind = register_python_kind(python)
        python_generator_class(python)
        _load_cached.cache_clear()
        yield kind
    finally:
        unregister_python_kind(name)
        unregister_generator(name)
        if saved_kind is not None:
            KIND_REGISTRY[name] = saved_kind
        if saved_source is not None:
            PYTHON_KINDS[name] = saved_source
        if saved_generator is not None:
            GENERATOR_REGISTRY[name] = saved_generator
        _load_cached.cache_clear()


@contextmanager
def registered(source: Any) -> Iterator[Any]:
    """Register a declared kind and its generator while the block runs (a kind of that name
    already registered is put back after), and yield the kind."""
    saved_kind = KIND_REGISTRY.get(source.name)
    saved_generator = GENERATOR_REGISTRY.get(source.name)
    try:
        kind = register_source(source)
        generator_class(kind)
        _load_cached.cache_clear()
        yield kind
    finally:
        unregister(source.name)
        unregister_generator(source.name)
        if saved_kind is not None:
            KIND_REGISTRY[source.name] = saved_kind
        if saved_generator is not None:
            GENERATOR_REGISTRY[source.name] = saved_generator
        _load_cached.cache_clear()


def _check(path: Path, source: Any, kind: Any, seeds: int) -> CheckReport:
    graded = 0
    for level in source.levels:
        for seed in range(seeds):
            graded += _check_problem(path, source, kind, seed, level)
    for test in source.tests:
        _question_test(path, source, test)
    return CheckReport(
        name=source.name,
        levels=source.levels,
        seeds=seeds,
        mistakes=kind.codes,
        answers_graded=graded,
        tests=len(source.tests),
    )


def _check_problem(path: Path, source: Any, kind: Any, seed: int, level: int) -> int:
    where = f"level {level}, seed {seed}"
    try:
        spec = generate(source.name, seed=seed, level=level)
    except GenerationError as exc:
        raise KindCheckError(
            path,
            _field(source, "constraints"),
            f"{where}: no diagnosable problem ({exc}); widen the ranges, add a constraint that "
            "keeps the mistakes apart, or silence a mistake that always coincides",
        ) from exc
    if json.dumps(generate(source.name, seed=seed, level=level)) != json.dumps(spec):
        raise KindCheckError(
            path, _field(source, "parameters"), f"{where}: the same seed gave another problem"
        )
    loaded = load_problem(spec)
    right = loaded.kind.right(loaded.problem)
    graded = 0
    numeric = isinstance(loaded.shape, ScalarShape | Vector)
    for text in typed_forms(loaded.shape, right) if numeric else [loaded.shape.typed(right)]:
        verdict = grading.grade(spec, text)
        graded += 1
        if verdict.status != grading.Status.CORRECT:
            raise KindCheckError(
                path,
                _field(source, "steps" if len(source.steps) > 1 else "answer"),
                f"{where}: the right answer typed as {text!r} was graded {verdict.status}",
            )
    rendered = seed < RENDERED_SEEDS
    for listed, value in grading.mistaken_answers(spec):
        text = loaded.shape.typed(value)
        verdict = grading.grade(spec, text)
        graded += 1
        field = f"{_field(source, 'mistakes')}.{listed.mistake}"
        got = verdict.diagnosis
        if (
            verdict.status != grading.Status.INCORRECT
            or got is None
            or got.mistake != listed.mistake
            or tuple(got.terms) != tuple(listed.terms)
        ):
            name = f"{got.mistake} {list(got.terms)}" if got else "no mistake"
            raise KindCheckError(
                path,
                field,
                f"{where}: the answer {text!r} of {listed.mistake} {list(listed.terms)} was "
                f"graded {verdict.status}, diagnosed as {name}",
            )
        if not verdict.explanation or (rendered and not _tex_ok(verdict.explanation)):
            raise KindCheckError(path, field, f"{where}: the explanation does not render")
    statement = render_statement(spec)
    if not _tex_ok(statement) or "<math" not in render_markdown(statement):
        raise KindCheckError(
            path, _field(source, "statement"), f"{where}: the statement does not render"
        )
    if rendered:
        hint = kind.hint(loaded.problem)
        if hint and not _tex_ok(hint):
            raise KindCheckError(
                path, _field(source, "words.hint"), f"{where}: the hint does not render"
            )
        worked = solution(spec)
        if not _tex_ok(worked.markdown()):
            raise KindCheckError(
                path, _field(source, "steps"), f"{where}: the worked solution does not render"
            )
        _check_pictures(path, source, spec, where)
    return graded


def _check_pictures(path: Path, source: Any, spec: dict, where: str) -> None:
    """Draw a vector answer's picture fresh, solved and with every mistake's answer; each must
    be one SVG that parses (a scalar kind must draw nothing)."""
    answers = [value for _, value in grading.mistaken_answers(spec)]
    drawings = [render_svg(spec), render_svg(spec, solution=True)]
    drawings += [render_svg(spec, answer=value) for value in answers]
    shape = _field(source, "shape")
    for markup in drawings:
        if source.shape == "python" and markup is None:
            continue  # a Python kind may draw no picture
        if source.shape == "scalar":
            if markup is not None:
                raise KindCheckError(path, "shape", f"{where}: a scalar kind drew a picture")
            continue
        try:
            root = ElementTree.fromstring(markup or "")  # noqa: S314 (the engine's own SVG)
        except ElementTree.ParseError as exc:
            raise KindCheckError(path, shape, f"{where}: the picture is no SVG: {exc}") from exc
        if not root.tag.endswith("svg"):
            raise KindCheckError(path, shape, f"{where}: the picture is no SVG")


def _question_test(path: Path, source: Any, test: Any) -> None:
    field = f"tests[{test.index}]"
    try:
        spec = generate(source.name, seed=test.seed, level=test.level)
    except GenerationError as exc:
        raise KindCheckError(path, field, f"no problem for seed {test.seed}: {exc}") from exc
    loaded = load_problem(spec)
    if test.typed is not None:
        text = test.typed
    else:
        try:
            text = loaded.shape.typed(evaluate(test.answer, loaded.problem.env))
        except EvaluationError as exc:
            raise KindCheckError(path, f"{field}.answer", f"cannot be computed: {exc}") from exc
    verdict = grading.grade(spec, text)
    if verdict.status != test.status:
        raise KindCheckError(
            path, f"{field}.status", f"{text!r} was graded {verdict.status}, not {test.status}"
        )
    if test.mistake is not None:
        got = verdict.diagnosis.mistake if verdict.diagnosis else None
        if got != test.mistake:
            raise KindCheckError(
                path, f"{field}.mistake", f"{text!r} was diagnosed as {got}, not {test.mistake}"
            )
        if test.terms is not None and tuple(verdict.diagnosis.terms) != test.terms:
            raise KindCheckError(
                path,
                f"{field}.terms",
                f"{text!r} was diagnosed with terms {list(verdict.diagnosis.terms)}",
            )
