"""Validate and normalise problem specs; build the internal, exact form of a problem.

A spec is plain JSON (docs/kinds.md, "Problem generators"): numbers are strings of exact
rationals, rows and positions are 0-based. `validate_spec` returns the normalised spec (numbers
in canonical form such as `"1/2"`, `"-3"`) or raises `SpecError` naming the field.
Keys grading does not read (`level`, `generator`, ...) are kept as they are.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from .exact import ratio_literal
from .verdict import filled

if TYPE_CHECKING:
    from .kinds.base import Kind
    from .shapes import Shape

MAX_DIM = 8
MAX_POSITIONS = 12
MAX_VOCAB = 500
MAX_TOKEN_CHARS = 40
MAX_NUMBER_CHARS = 24

_NUMBER = re.compile(r"-?\d+(?:/\d+|\.\d+)?")

Vector = tuple[Fraction, ...]


class SpecError(ValueError):
    """Raise for a malformed problem spec; `.field` names the field, `.message` says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def canonical_number(value: Fraction) -> str:
    """Return the canonical exact string of a rational: `"1/2"`, `"-3"`, `"0"`."""
    return str(value)


def number(value: Any, field: str) -> Fraction:
    """Return the exact value of a spec number (`"1/4"`, `"-3"`, `"0.5"`), or raise SpecError."""
    if type(value) is str and len(value) <= MAX_NUMBER_CHARS:
        plain = ratio_literal(value)  # the usual spelling, without the regex
        if plain is not None:
            return plain
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SpecError(field, 'must be a string holding an exact rational such as "1/4"')
    text = str(value).strip()
    if len(text) > MAX_NUMBER_CHARS or not _NUMBER.fullmatch(text):
        raise SpecError(field, f'{text[:30]!r} is not an exact rational such as "1/4" or "-3"')
    if "/" in text:
        numerator, denominator = text.split("/")
        if int(denominator) == 0:
            raise SpecError(field, "has a zero denominator")
        return Fraction(int(numerator), int(denominator))
    if "." in text:
        return Fraction(text)
    return Fraction(int(text))


def list_field(data: dict[str, Any], field: str, *, low: int, high: int) -> list[Any]:
    """Return the list in `field`, with `low` to `high` entries, or raise SpecError."""
    value = data.get(field)
    if not isinstance(value, list):
        raise SpecError(field, "is required and must be a list")
    if not low <= len(value) <= high:
        raise SpecError(field, f"must have between {low} and {high} entries, has {len(value)}")
    return value


def strings(data: dict[str, Any], field: str, *, low: int, high: int) -> tuple[str, ...]:
    """Return the non-empty strings (at most MAX_TOKEN_CHARS) in `field`, or raise SpecError."""
    items = list_field(data, field, low=low, high=high)
    for index, item in enumerate(items):
        if not isinstance(item, str) or not 1 <= len(item) <= MAX_TOKEN_CHARS:
            raise SpecError(
                f"{field}[{index}]", f"must be a non-empty string of at most {MAX_TOKEN_CHARS}"
            )
    return tuple(items)


@lru_cache(maxsize=4096, typed=True)
def _literal(value: Any) -> Fraction | None:
    """Return the value of a spec number spelled the usual way (`"-3"`, `"1/4"`, at most
    MAX_NUMBER_CHARS), else None: what `number` returns for it (cached by text, shared by every
    problem; `typed`, so a str subclass or an int takes `number`'s own path)."""
    if type(value) is str and len(value) <= MAX_NUMBER_CHARS:
        return ratio_literal(value)
    return None


def _plain_row(row: list[Any]) -> Vector | None:
    """Return a row's numbers when every one is spelled the usual way, else None (then `rows`
    reads it number by number, naming the first bad one)."""
    try:
        values = tuple(map(_literal, row))
    except TypeError:  # an unhashable entry (a list): `number` says what is wrong with it
        return None
    for value in values:
        if value is None:
            return None
    return values


def numbers(items: list[Any], field: str) -> Vector:
    """Return the exact values of a list's entries, or raise SpecError naming `field[j]`, the
    first bad one."""
    values = _plain_row(items)
    if values is None:
        values = tuple(number(x, f"{field}[{j}]") for j, x in enumerate(items))
    return values


def rows(data: dict[str, Any], field: str, *, low: int, high: int) -> tuple[Vector, ...]:
    """Return the rows of exact numbers in `field`, all of one length, or raise SpecError."""
    items = list_field(data, field, low=low, high=high)
    out: list[Vector] = []
    width = 0
    for index, row in enumerate(items):
        values = None
        if isinstance(row, list) and 1 <= len(row) <= MAX_DIM:
            values = _plain_row(row)  # the usual spelling, without a field name per number
        if values is None:
            name = f"{field}[{index}]"
            if not isinstance(row, list) or not 1 <= len(row) <= MAX_DIM:
                raise SpecError(name, f"must be a list of 1 to {MAX_DIM} numbers")
            values = numbers(row, name)
        if not width:
            width = len(values)
        elif len(values) != width:
            raise SpecError(
                f"{field}[{index}]", f"has {len(row)} coordinates; {field}[0] has {width}"
            )
        out.append(values)
    return tuple(out)


def position(data: dict[str, Any], size: int) -> int:
    """Return the spec's `position`, an integer in 0..size-1, or raise SpecError."""
    value = data.get("position")
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError("position", "is required and must be an integer")
    if not 0 <= value < size:
        raise SpecError("position", f"must be between 0 and {size - 1}, is {value}")
    return value


def rows_out(values: tuple[Vector, ...]) -> list[list[str]]:
    """Return rows as the spec writes them: lists of canonical exact strings."""
    return [[canonical_number(x) for x in row] for row in values]


def same_length(field: str, items: tuple[Any, ...], other: str, size: int) -> None:
    """Raise SpecError unless `items` has `size` entries, as `other` has."""
    if len(items) != size:
        raise SpecError(
            field, f"has {len(items)} entr{'y' if len(items) == 1 else 'ies'}; {other} has {size}"
        )


@dataclass(frozen=True, eq=False)
class Loaded:
    """Hold one validated spec: its kind, the kind's exact problem object, the spec as given
    (its JSON) and the answer's shape; `spec` is the normalised spec, written when asked for.

    Compared and hashed by identity: `load_problem` returns one object per distinct spec while
    it is cached, so per-problem caches key on it cheaply.
    """

    kind: Kind
    problem: Any
    source: str
    shape: Shape

    @property
    def name(self) -> str:
        """Return the kind's name."""
        return self.kind.name

    @cached_property
    def spec(self) -> dict[str, Any]:
        """Return the normalised spec: the kind's fields in canonical form, the other keys as
        given (only `validate_spec` needs it, so grading does not write it)."""
        normal: dict[str, Any] = {"kind": self.kind.name, **self.kind.normal(self.problem)}
        for key, value in json.loads(self.source).items():
            if key not in normal:
                normal[key] = value
        return normal


def _build(data: dict[str, Any], source: str) -> Loaded:
    from .kinds.base import REGISTRY as KINDS  # grading.kinds.KINDS, the registry itself

    if not isinstance(data, dict):
        raise SpecError("spec", "must be a JSON object")
    raw_kind = data.get("kind")
    kind = KINDS.get(raw_kind) if isinstance(raw_kind, str) else None
    if kind is None:
        known = ", ".join(KINDS)
        raise SpecError("kind", f"{str(raw_kind)[:40]!r} is not one of {known}")
    problem = kind.load(data)
    shape = kind.shape(problem)
    return filled(Loaded, {"kind": kind, "problem": problem, "source": source, "shape": shape})


# json.dumps(data, sort_keys=True) without building an encoder per call
_spec_key = json.JSONEncoder(sort_keys=True).encode
# the same text without recording every list and dict to detect a cycle: a cycle recurses
# until RecursionError, and then `_spec_key` says what it says of it (ValueError, or the
# RecursionError of data nested too deep)
_spec_key_unchecked = json.JSONEncoder(sort_keys=True, check_circular=False).encode


@lru_cache(maxsize=512)
def _load_cached(key: str) -> Loaded:
    return _build(json.loads(key), key)


def load_problem(data: dict[str, Any]) -> Loaded:
    """Return the validated, exact form of a spec, or raise SpecError naming the field."""
    if not isinstance(data, dict):
        raise SpecError("spec", "must be a JSON object")
    try:
        try:
            key = _spec_key_unchecked(data)
        except RecursionError:
            key = _spec_key(data)
    except (TypeError, ValueError):
        raise SpecError("spec", "must hold only JSON values") from None
    return _load_cached(key)


def validate_spec(data: dict[str, Any]) -> dict[str, Any]:
    """Return the normalised spec (a fresh dict), or raise SpecError naming the field."""
    return json.loads(json.dumps(load_problem(data).spec))
