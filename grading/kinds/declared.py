"""Register the declared kinds of the repository's course folders beside the built-in kinds.

Each `courses/content/<course>/kinds/<name>.yaml` becomes a kind (`grading.declared`); a file
with a fault stops the import with KindFileError naming the file, the field and its line, so a
broken kind is never half-registered.
"""

from __future__ import annotations

from ..declared import course_kind_files, read_kind_file, register_source

for _path in course_kind_files():
    register_source(read_kind_file(_path))
