"""Declared kinds: a problem kind written as a file in a course folder, not as Python.

`read_kind_file(path)` validates one `kinds/<name>.yaml` (`source`); `register_source` builds
its `Kind` (`kind`) with the mistakes derived from its answer (`derive`) and registers it beside
the built-in kinds; `course_kind_files(root)` lists the kind files of every course folder under
a content root. The expression language is in `expr`. Pure: no Django.
"""

from __future__ import annotations

from pathlib import Path

from .kind import DeclaredKind, DeclaredProblem, build_kind, register_source, unregister
from .source import KindFileError, KindSource, read_kind_file

# The course folders shipped in the repository (courses/content/<course>/kinds/*.yaml).
CONTENT_ROOT = Path(__file__).resolve().parents[2] / "courses" / "content"


def course_kind_files(root: Path = CONTENT_ROOT) -> list[Path]:
    """Return every course's kind files under a content root, in a stable order."""
    return sorted(root.glob("*/kinds/*.yaml"))


__all__ = [
    "CONTENT_ROOT",
    "DeclaredKind",
    "DeclaredProblem",
    "KindFileError",
    "KindSource",
    "build_kind",
    "course_kind_files",
    "read_kind_file",
    "register_source",
    "unregister",
]
