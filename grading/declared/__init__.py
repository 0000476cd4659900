"""Declared kinds: a problem kind written as a file in a course folder, not as Python.

`read_kind_file(path)` validates one `kinds/<name>.yaml` (`source`); `register_source` builds
its `Kind` (`kind`) with the mistakes derived from its answer (`derive`) and registers it beside
the built-in kinds; `course_kind_files(root)` lists the kind files of every course folder under
a content root. The expression language is in `expr`. A course folder may also carry a kind
in Python, `kinds/<name>.py`, the escape hatch (`python_kind`). Pure: no Django.
"""

from __future__ import annotations

import os
from pathlib import Path

from .kind import DeclaredKind, DeclaredProblem, build_kind, register_source, unregister
from .python_kind import (
    PYTHON_KINDS,
    PythonKindSource,
    read_python_kind,
    register_python_kind,
    source_of,
    unregister_python_kind,
)
from .source import KindFileError, KindSource, read_kind_file

# The course folders shipped in the repository (courses/content/<course>/kinds/*.yaml).
CONTENT_ROOT = Path(__file__).resolve().parents[2] / "courses" / "content"


# More course folders whose kinds are registered at startup, besides the repository's (a
# course kept outside it; the tests' course with a Python kind): paths joined by os.pathsep.
FOLDERS_VARIABLE = "BASISLAB_COURSE_FOLDERS"


def course_kind_files(root: Path = CONTENT_ROOT, suffix: str = ".yaml") -> list[Path]:
    """Return every course's kind files under a content root, in a stable order."""
    return sorted(root.glob(f"*/kinds/*{suffix}"))


def startup_kind_files(suffix: str) -> list[Path]:
    """Return the kind files registered at startup: the repository's course folders', then
    those of each folder `BASISLAB_COURSE_FOLDERS` names."""
    files = course_kind_files(CONTENT_ROOT, suffix)
    for folder in filter(None, os.environ.get(FOLDERS_VARIABLE, "").split(os.pathsep)):
        files += sorted((Path(folder) / "kinds").glob(f"*{suffix}"))
    return files


__all__ = [
    "CONTENT_ROOT",
    "PYTHON_KINDS",
    "DeclaredKind",
    "DeclaredProblem",
    "KindFileError",
    "KindSource",
    "PythonKindSource",
    "build_kind",
    "course_kind_files",
    "read_kind_file",
    "read_python_kind",
    "register_python_kind",
    "register_source",
    "source_of",
    "startup_kind_files",
    "unregister",
    "unregister_python_kind",
]
