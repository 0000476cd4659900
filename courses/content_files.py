"""The rules every authored content file is read by: UTF-8 text, strict YAML (no key given
twice), front matter between two '---' lines, required and allowed keys, text, slugs, lists of
text, and TeX that converts. Each fault raises ``CourseSourceError`` naming the file, the
field and what was wrong (``courses.loader`` reads the course with them).
"""

import re
from pathlib import Path
from typing import Any

import yaml

from grading.declared.source import StrictLoader

from .mathml import MathError, iter_tex, tex_to_mathml

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class CourseSourceError(ValueError):
    """A malformed course file: which file, which field, and what was wrong."""

    def __init__(self, path: Path | str, field: str, message: str) -> None:
        self.path = str(path)
        self.field = field
        self.message = message
        where = f"{self.path}: {field}" if field else self.path
        super().__init__(f"{where}: {message}")


def parse_yaml(text: str, path: Path, *, line_offset: int = 0) -> Any:
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f"line {mark.line + 1 + line_offset}: " if mark else ""
        message = f"{line}YAML cannot be read: {exc.problem or exc.context or 'malformed'}"
        if exc.problem and exc.context and exc.context_mark:
            message += f" ({exc.context} on line {exc.context_mark.line + 1 + line_offset})"
        raise CourseSourceError(path, "", message) from exc
    except yaml.YAMLError as exc:
        raise CourseSourceError(path, "", f"YAML cannot be read: {exc}") from exc


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CourseSourceError(path, "", f"not UTF-8 (byte {exc.start})") from exc
    except OSError as exc:
        raise CourseSourceError(path, "", f"cannot be read: {exc.strerror}") from exc


def check_keys(data: Any, path: Path, field: str, allowed: tuple[str, ...]) -> dict:
    where = field or "the file"
    if not isinstance(data, dict):
        raise CourseSourceError(path, field, f"{where} must be a mapping of {', '.join(allowed)}")
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise CourseSourceError(
            path,
            join_field(field, unknown[0]),
            f"unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})",
        )
    for key in allowed:
        if key not in data:
            raise CourseSourceError(path, join_field(field, key), "is missing")
    return data


def join_field(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def text_field(data: dict, key: str, path: Path, field: str = "") -> str:
    value = data[key]
    if not isinstance(value, str):
        raise CourseSourceError(
            path, join_field(field, key), f"must be text, not {type(value).__name__} {value!r}"
        )
    if not value.strip():
        raise CourseSourceError(path, join_field(field, key), "is empty")
    return value.strip()


def slug_field(data: dict, key: str, path: Path, field: str = "") -> str:
    value = text_field(data, key, path, field)
    if not SLUG.match(value):
        raise CourseSourceError(
            path,
            join_field(field, key),
            f"{value!r} is not a slug (lowercase letters, digits and single hyphens)",
        )
    return value


def check_tex(text: str, path: Path, field: str, *, first_line: int = 1) -> None:
    """Convert every formula in the text; ``first_line`` is the file line the text starts on."""
    try:
        for line, tex, display in iter_tex(text):
            try:
                tex_to_mathml(tex, display=display)
            except MathError as exc:
                number = line + first_line - 1
                raise CourseSourceError(path, f"{field} line {number}", str(exc)) from exc
    except MathError as exc:  # an unclosed $$ block
        raise CourseSourceError(path, field, str(exc)) from exc


def front_matter(path: Path, keys: tuple[str, ...]) -> tuple[dict, list[str], int]:
    """Return a Markdown file's checked front matter, its body lines and the body's first index."""
    text = read_text(path).replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise CourseSourceError(path, "front matter", "the file must start with a '---' line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise CourseSourceError(
            path, "front matter", "is never closed (a second '---' line must end it)"
        ) from None
    data = check_keys(parse_yaml("\n".join(lines[1:end]), path, line_offset=1), path, "", keys)
    return data, lines[end + 1 :], end + 1


def body_text(body_lines: list[str], path: Path, *, body_start: int) -> str:
    """Return the non-empty body text with every formula checked (file lines in errors)."""
    joined = "\n".join(body_lines)
    body = joined.strip("\n")
    if not body.strip():
        raise CourseSourceError(path, "body", "is empty")
    leading_blank_lines = len(joined) - len(joined.lstrip("\n"))
    check_tex(body, path, "body", first_line=body_start + 1 + leading_blank_lines)
    return body


def text_list(data: dict, key: str, path: Path, *, allow_empty: bool) -> tuple[str, ...]:
    value = data[key]
    if value is None:
        value = []
    if not isinstance(value, list) or (not value and not allow_empty):
        kind = "a list" if allow_empty else "a non-empty list"
        raise CourseSourceError(path, key, f"must be {kind} of text")
    items = []
    for index, item in enumerate(value):
        field = f"{key}[{index}]"
        if not isinstance(item, str):
            raise CourseSourceError(
                path, field, f"must be text, not {type(item).__name__} {item!r}"
            )
        if not item.strip():
            raise CourseSourceError(path, field, "is empty")
        items.append(item.strip())
    return tuple(items)
