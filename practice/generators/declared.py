"""Generators of the declared kinds (`grading.declared`): one per kind file, made here.

A declared kind's generator draws its parameters from the file's ranges for the level with the
shared seeded source (`Draw.below`), keeps a draw only when the constraints hold and the
derived catalogue is diagnosable on it (`ProblemGenerator.acceptable`, as for a built-in kind),
and writes the file's statement with each {{name}} replaced by the value's TeX, followed by
how to answer (for an answer with `exp` or a softmax, how an exponential is typed; else a
square root). Its number (seed entropy) is fixed by the kind's name. A kind of the repository
that cannot draw a diagnosable problem of some level is refused when it is registered.

A targeted problem must show its mistake clearly: one of the mistake's answers at least
`clear_gap` from the right one in some coordinate. That gap is the built-in kinds' 0.5 for a
kind whose right answers are 2 or more in size (the median over sample problems of every
level), and a fifth of that median (at least 0.05) for a kind of small answers, such as a
probability, where a difference of 0.5 is more than the answer itself.
"""

from __future__ import annotations

import statistics
import zlib
from typing import Any, ClassVar

import grading
from grading.declared import DeclaredKind, KindFileError, KindSource, PythonKindSource, source_of
from grading.declared.expr import is_scalar
from grading.declared.kind import fill, sample_problems
from grading.declared.source import draw_once, satisfied
from grading.spec import load_problem

from .base import (
    EXACT_SEPARATION,
    REGISTRY,
    Draw,
    GenerationError,
    ProblemGenerator,
    distance,
)
from .draw.declared_bars import vector_picture
from .statement import format_example

SCALAR_EXAMPLES = ("7/sqrt(65)", "-5/4", "9/sqrt(130)", "13/6")
# For an answer with exponentials (a softmax, a perplexity): how exp is typed.
EXP_EXAMPLES = ("exp(2)/(1 + exp(3))", "exp(7/4)", "3*exp(-1)/(2 + exp(5))", "exp(-13/6)")
VECTOR_EXAMPLES = ("[1/2, 1]", "[-7/3, 5/4]", "[9/7, -2/9]", "[-11/6, 13/5]")
# Numbers from 1 000 000 up are declared kinds' (the built-in kinds' are below 100).
DECLARED_NUMBERS = 1_000_000
CLEAR_GAP = 0.5  # the built-in kinds' gap for a targeted mistake, kept for answers of size 2+
SMALL_ANSWERS = 2.0
MIN_CLEAR_GAP = 0.05


def declared_number(name: str) -> int:
    """Return a declared kind's seed number: fixed by its name, clear of the built-ins'."""
    return DECLARED_NUMBERS + zlib.crc32(name.encode()) % 1_000_000


class DeclaredGenerator(ProblemGenerator):
    """The generator of one declared kind (`generator_class` makes one subclass per kind)."""

    source: ClassVar[KindSource]
    clear_gap: ClassVar[float] = CLEAR_GAP

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        values = draw_once(self.source, level, draw.below)
        if not satisfied(self.source, values):
            return {"params": None}
        kind = grading.kind(self.kind)
        return {"params": kind.normal(_Problem(values))["params"]}

    def plausible(self, spec: dict, target: str | None) -> bool:
        return spec.get("params") is not None

    def shows_clearly(
        self, spec: dict, target: str, right: Any, answers: list[tuple[Any, Any]]
    ) -> bool:
        return any(distance(vector, right) >= self.clear_gap for _, vector in answers)

    def statement(self, spec: dict) -> str:
        loaded = load_problem(spec)
        text = fill(self.source.statement, loaded.problem.env)
        if is_scalar(loaded.kind.right(loaded.problem)):
            exact = (
                f"an exponential as `exp(...)`, for example `{format_example(spec, EXP_EXAMPLES)}`"
                if _exponential(self.source)
                else "a square root as `sqrt(...)`, for example "
                f"`{format_example(spec, SCALAR_EXAMPLES)}`"
            )
            how = (
                f"Answer with one number, exactly ({exact}) or as a decimal with at least "
                "three significant figures (a decimal counts when it rounds the exact value at "
                "the digits typed)."
            )
        else:
            how = (
                "Answer with the vector in brackets, for example "
                f"`{format_example(spec, VECTOR_EXAMPLES)}`; fractions are exact, and a "
                "decimal counts when it rounds the exact value at the digits typed."
            )
        return f"{text.rstrip()}\n\n{how}"


class _Problem:
    """The parameter values only, for `Kind.normal` while a candidate is drawn."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values


def _exponential(source: KindSource) -> bool:
    """Return True when the answer takes an exponential (exp or a softmax)."""
    return any(
        node.op == "call" and node.name in ("exp", "softmax")
        for step in source.steps
        for _, node in step.expression.walk()
    )


def _irrational(source: KindSource) -> bool:
    """Return True when the answer may be irrational (then decimals must be told apart)."""
    for step in source.steps:
        for _, node in step.expression.walk():
            if node.op == "call" and node.name in ("sqrt", "norm", "exp", "log", "softmax"):
                return True
            if node.op == "**":
                return True
    return False


def clear_gap(source: KindSource) -> float:
    """Return how far a targeted mistake's answer must be from the right one (see the module
    docstring): 0.5, or a fifth of the median size of small right answers."""
    sizes = []
    for problem in sample_problems(source):
        right = problem.env[source.steps[-1].name]
        values = (right,) if is_scalar(right) else right
        sizes.append(max(abs(float(x)) for x in values))
    scale = statistics.median(sizes) if sizes else SMALL_ANSWERS
    if scale >= SMALL_ANSWERS:
        return CLEAR_GAP
    return max(MIN_CLEAR_GAP, round(scale / 5, 2))


def draw_vector(
    self: DeclaredGenerator, spec: dict, answer: Any = None, *, solution: bool | None = None
) -> str | None:
    """The picture of a declared kind whose answer is a vector (`draw/declared_bars`): the
    problem's vector parameters and the answer's entries, the learner's beside the right ones.
    A kind with a scalar answer keeps the default picture, none."""
    loaded = load_problem(spec)
    right = loaded.kind.right(loaded.problem)
    vectors = [
        (p.name, loaded.problem.values[p.name])
        for p in self.source.parameters
        if p.type == "vector"
    ]
    given = answer if isinstance(answer, tuple) and answer else None
    solved = bool(solution) or given is not None
    return vector_picture(
        self.source.label,
        vectors,
        right,
        given,
        solved,
        key=[spec.get("params"), self.kind, str(given), solved],
    )


def generator_class(kind: DeclaredKind) -> type[DeclaredGenerator]:
    """Return (and register) the generator of a declared kind."""
    source = kind.source
    namespace = {
        "kind": source.name,
        "name": source.name,
        "version": source.version,
        "number": declared_number(source.name),
        "levels": source.levels,
        "separation": 0.02 if _irrational(source) else EXACT_SEPARATION,
        "clear_gap": clear_gap(source),
        "source": source,
        "__module__": __name__,
    }
    if source.shape == "vector":
        namespace["picture"] = draw_vector
    REGISTRY.pop(source.name, None)
    return type(f"Generator_{source.name}", (DeclaredGenerator,), namespace)


def python_generator_class(source: PythonKindSource) -> type[ProblemGenerator]:
    """Return (and register) the generator of a course folder's Python kind: its `GENERATOR`
    class made a `ProblemGenerator`, with the kind's name and a number fixed by that name."""
    namespace = {
        "kind": source.name,
        "name": source.name,
        "number": declared_number(source.name),
        "course_file": source.path,
        "__module__": source.module,
    }
    REGISTRY.pop(source.name, None)
    return type(f"Generator_{source.name}", (source.generator, ProblemGenerator), namespace)


def unregister(name: str) -> None:
    """Remove a declared or Python kind's generator (check_kind's temporary registrations)."""
    if isinstance(REGISTRY.get(name), DeclaredGenerator) or hasattr(
        REGISTRY.get(name), "course_file"
    ):
        del REGISTRY[name]


def check_drawable(generator: ProblemGenerator) -> None:
    """Draw seed 0 of every level; raise KindFileError (field `constraints`) for a level on
    which no diagnosable problem comes within the generator's draws, so such a kind is refused
    when it is registered, never at a learner's request."""
    for level in generator.levels:
        try:
            generator.generate(seed=0, level=level)
        except GenerationError as exc:
            if hasattr(generator, "course_file"):  # a Python kind
                raise KindFileError(
                    generator.course_file,
                    "GENERATOR.draw_fields",
                    f"no diagnosable problem of level {level} in {generator.max_redraws} "
                    "draws: its mistakes coincide or give the right answer on every draw",
                ) from exc
            raise KindFileError(
                generator.source.path,
                "constraints",
                f"no diagnosable problem of level {level} in {generator.max_redraws} draws: its "
                "mistakes coincide or give the right answer on every draw (run check_kind)",
                generator.source.lines.get("constraints") or generator.source.lines.get("levels"),
            ) from exc


for _kind in list(grading.KINDS.values()):
    if isinstance(_kind, DeclaredKind):
        generator_class(_kind)
        check_drawable(REGISTRY[_kind.name])
    elif (_python := source_of(_kind)) is not None:
        python_generator_class(_python)
        check_drawable(REGISTRY[_kind.name])
