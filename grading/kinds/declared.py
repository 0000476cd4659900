"""Register the course folders' own kinds beside the built-in kinds.

Each `courses/content/<course>/kinds/<name>.yaml` becomes a declared kind (`grading.declared`),
and each `kinds/<name>.py` a Python kind (`grading.declared.python_kind`, the escape hatch);
so do those of the course folders `BASISLAB_COURSE_FOLDERS` names. A file with a fault stops
the import with KindFileError naming the file, the field (and its line), so a broken kind is
never half-registered.
"""

from __future__ import annotations

from ..declared import (
    read_kind_file,
    read_python_kind,
    register_python_kind,
    register_source,
    startup_kind_files,
)

for _path in startup_kind_files(".yaml"):
    register_source(read_kind_file(_path))
for _path in startup_kind_files(".py"):
    register_python_kind(read_python_kind(_path))
