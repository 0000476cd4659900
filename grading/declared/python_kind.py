"""The escape hatch: a problem kind written in Python in a course folder, `kinds/<name>.py`.

For what the declarative form cannot say (a loop with a data-dependent branch, a text answer,
a mistake no rule derives). `read_python_kind(path)` runs the file under a module name of its
own (the course folder's name and a hash of its path, then the kind's: two courses never share
one) and checks its contract; a fault raises `KindFileError` naming the file, the field
(`KIND.name`, `GENERATOR.levels`, `KIND.mistakes[2].number`, ...) and the reason, and leaves
the registries and `sys.modules` as they were. `register_python_kind` then registers the kind
beside the built-in and declared kinds (`practice/generators/declared.py` makes its generator).

The contract (docs/authoring.md, "The escape hatch: a Python kind"):

- `KIND`: a subclass of `grading.kinds.base.Kind`, not decorated with `@register` (the loader
  registers it): `name` equal to the file's name, `label`, and a non-empty `mistakes` of
  `MistakeDef` (codes unique lowercase names, numbers distinct and positive, `explain`
  callable), and `load`, `shape`, `right` defined; every optional part of a built-in kind too.
- `GENERATOR`: a plain class with `version` (a positive integer), `levels` (distinct positive
  integers in increasing order), `draw_fields(self, draw, level, target)` and
  `statement(self, spec)`, and optionally `picture`, `plausible`, `relevant`,
  `shows_clearly`, `separation`, `max_redraws`: a `ProblemGenerator` without `kind`, `name`
  and `number`, which the loader sets (the number from the kind's name, as for a declared
  kind). It does not subclass `ProblemGenerator`: the file is run while `grading.kinds` is
  imported, before the generators exist, so it may import from `grading` only.

Course-folder code runs in the server with the server's rights: only trusted authors.
"""

from __future__ import annotations

import hashlib
import re
import sys
import traceback
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..kinds.base import NUMBERED_WORDS, REGISTRY, Kind, MistakeDef, register
from .source import NAME, KindFileError, read_kind_text

MAX_CHARS = 200_000
MAX_LEVEL = 9
# What the loader sets on the generator; a file setting one is refused.
LOADER_SETS = ("kind", "name", "number")


@dataclass(frozen=True)
class PythonKindSource:
    """A checked Python kind file: its path, name, and the two classes of its contract."""

    path: str
    name: str
    kind: type[Kind]
    generator: type
    module: str

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(self.generator.levels)


# name -> the source of every registered Python kind (the generators are made from these).
PYTHON_KINDS: dict[str, PythonKindSource] = {}


def module_name(path: Path) -> str:
    """Return the module name a kind file runs under: its course folder's name, a hash of the
    folder's path and the kind's name, so two courses' kinds never share a module."""
    folder = path.resolve().parent.parent
    token = re.sub(r"[^0-9a-zA-Z]+", "_", folder.name).strip("_").lower() or "course"
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:10]
    return f"basislab_course_kinds.{token}_{digest}.{path.stem}"


def _line(exc: BaseException, path: Path) -> int | None:
    """Return the line of the kind file where an exception was raised, when it was there."""
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        return exc.lineno
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(path)]
    return lines[-1] if lines else None


def _run(path: Path, name: str) -> types.ModuleType:
    """Run the file as module `name` (no bytecode written beside it); KindFileError on a
    fault, with `sys.modules` and the kind registry restored."""
    text = read_kind_text(path, max_chars=MAX_CHARS)
    module = types.ModuleType(name)
    module.__file__ = str(path)
    previous = sys.modules.get(name)
    before = dict(REGISTRY)
    sys.modules[name] = module  # dataclasses and typing look the module up while it runs
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)  # noqa: S102 (trusted authors)
    except Exception as exc:  # any fault of the author's code refuses the file
        _restore(name, previous, before)
        raise KindFileError(
            path, "", f"cannot be run: {type(exc).__name__}: {exc}", _line(exc, path)
        ) from exc
    if before != REGISTRY:
        _restore(name, previous, before)
        raise KindFileError(
            path, "KIND", "must not be decorated with @register: the course loader registers it"
        )
    return module


def _restore(name: str, previous: types.ModuleType | None, before: dict) -> None:
    if previous is None:
        sys.modules.pop(name, None)
    else:
        sys.modules[name] = previous
    REGISTRY.clear()
    REGISTRY.update(before)


def read_python_kind(path: Path | str) -> PythonKindSource:
    """Run and check one `kinds/<name>.py`; raise KindFileError (file, field, reason)."""
    path = Path(path)
    name = module_name(path)
    previous = sys.modules.get(name)
    before = dict(REGISTRY)
    module = _run(path, name)
    try:
        kind, generator = _check(path, module)
    except KindFileError:
        _restore(name, previous, before)
        raise
    return PythonKindSource(
        path=str(path), name=kind.name, kind=kind, generator=generator, module=name
    )


def _check(path: Path, module: types.ModuleType) -> tuple[type[Kind], type]:
    def fail(field: str, message: str) -> KindFileError:
        return KindFileError(path, field, message)

    kind = getattr(module, "KIND", None)
    if not (isinstance(kind, type) and issubclass(kind, Kind)):
        raise fail("KIND", "is missing: the file must set KIND to its Kind subclass")
    generator = getattr(module, "GENERATOR", None)
    if not isinstance(generator, type):
        raise fail("GENERATOR", "is missing: the file must set GENERATOR to its generator class")
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not NAME.match(name):
        raise fail("KIND.name", "must be a lowercase name of 2 to 40 letters, digits and _")
    if name != path.stem:
        raise fail("KIND.name", f"{name!r} must equal the file name {path.stem!r}")
    _check_clash(path, name)
    if not isinstance(getattr(kind, "label", None), str) or not kind.label.strip():
        raise fail("KIND.label", "must be a non-empty text")
    missing = sorted(getattr(kind, "__abstractmethods__", ()))
    if missing:
        raise fail(f"KIND.{missing[0]}", f"is not defined (a kind defines {', '.join(missing)})")
    _check_mistakes(path, kind)
    unknown = set(getattr(kind, "numbering", {})) - set(NUMBERED_WORDS)
    if unknown:
        raise fail("KIND.numbering", f"names {sorted(unknown)}, not one of {NUMBERED_WORDS}")
    _check_generator(path, generator)
    return kind, generator


def _check_clash(path: Path, name: str) -> None:
    found = REGISTRY.get(name)
    if found is None:
        return
    mine = PYTHON_KINDS.get(name)
    if mine is not None and Path(mine.path).resolve() == path.resolve():
        return  # this file, registered already (the course loaded after startup)
    source = getattr(found, "source", None)
    if mine is not None:
        where = f"the Python kind of {mine.path}"
    elif source is not None and hasattr(source, "path"):
        where = f"the declared kind of {source.path}"
    else:
        where = f"a built-in kind ({type(found).__module__})"
    raise KindFileError(path, "KIND.name", f"{name!r} is already {where}")


def _check_mistakes(path: Path, kind: type[Kind]) -> None:
    mistakes = getattr(kind, "mistakes", ())
    if not isinstance(mistakes, tuple) or not mistakes:
        raise KindFileError(path, "KIND.mistakes", "must be a non-empty tuple of MistakeDef")
    codes: set[str] = set()
    numbers: set[int] = set()
    for k, mistake in enumerate(mistakes):
        field = f"KIND.mistakes[{k}]"
        if not isinstance(mistake, MistakeDef):
            raise KindFileError(path, field, "is not a MistakeDef")
        if not isinstance(mistake.code, str) or not NAME.match(mistake.code):
            raise KindFileError(path, f"{field}.code", "must be a lowercase name (a-z, 0-9, _)")
        if mistake.code in codes:
            raise KindFileError(path, f"{field}.code", f"{mistake.code!r} is given twice")
        number = mistake.number
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise KindFileError(path, f"{field}.number", "must be a positive integer")
        if number in numbers:
            raise KindFileError(path, f"{field}.number", f"{number} is given twice")
        if not isinstance(mistake.label, str) or not mistake.label.strip():
            raise KindFileError(path, f"{field}.label", "must be a non-empty text")
        if not callable(mistake.explain):
            raise KindFileError(path, f"{field}.explain", "must be a function")
        if mistake.apply is None and mistake.form is None:
            raise KindFileError(
                path, f"{field}.apply", "is missing: how the mistake's answer is made"
            )
        codes.add(mistake.code)
        numbers.add(number)


def _check_generator(path: Path, generator: type) -> None:
    if any(base.__name__ == "ProblemGenerator" for base in generator.__mro__):
        raise KindFileError(
            path, "GENERATOR", "must be a plain class: the loader makes the ProblemGenerator"
        )
    for attribute in LOADER_SETS:
        if attribute in vars(generator):
            raise KindFileError(
                path, f"GENERATOR.{attribute}", "is set by the loader, from the kind's name"
            )
    version = getattr(generator, "version", None)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise KindFileError(path, "GENERATOR.version", "must be a positive integer")
    levels = getattr(generator, "levels", None)
    if (
        not isinstance(levels, tuple)
        or not levels
        or any(isinstance(x, bool) or not isinstance(x, int) for x in levels)
        or list(levels) != sorted(set(levels))
        or not all(1 <= x <= MAX_LEVEL for x in levels)
    ):
        raise KindFileError(
            path,
            "GENERATOR.levels",
            f"must be a tuple of distinct integers from 1 to {MAX_LEVEL} in increasing order, "
            f"not {levels!r}",
        )
    for method in ("draw_fields", "statement"):
        if not callable(getattr(generator, method, None)):
            raise KindFileError(path, f"GENERATOR.{method}", "is not defined")


def register_python_kind(source: PythonKindSource) -> Kind:
    """Register a checked Python kind; return the registered instance."""
    REGISTRY.pop(source.name, None)
    register(source.kind)
    PYTHON_KINDS[source.name] = source
    return REGISTRY[source.name]


def source_of(kind: Any) -> PythonKindSource | None:
    """Return the source of a registered Python kind (None for any other kind)."""
    found = PYTHON_KINDS.get(getattr(kind, "name", ""))
    return found if found is not None and type(kind) is found.kind else None


def unregister_python_kind(name: str) -> None:
    """Remove a Python kind from the registry (check_kind's temporary registrations)."""
    if name in PYTHON_KINDS:
        del PYTHON_KINDS[name]
        REGISTRY.pop(name, None)
