"""Validate and normalise problem specs; build the internal, exact form of a problem.

A spec is plain JSON (DESIGN.md): numbers are strings of exact rationals, rows and positions
are 0-based. `validate_spec` returns the normalised spec (numbers in canonical form such as
`"1/2"`, `"-3"`) or raises `SpecError` naming the field. Keys grading does not read
(`level`, `generator`, ...) are kept as they are.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .kinds import ProblemKind

MAX_DIM = 8
MAX_POSITIONS = 12
MAX_VOCAB = 500
MAX_TOKEN_CHARS = 40
MAX_NUMBER_CHARS = 24
# content_weights answers are exact in exp(score); bounded scores keep them cheap to confirm.
MAX_SCORE = 60
MAX_SCORE_DENOMINATOR = 60

_NUMBER = re.compile(r"-?\d+(?:/\d+|\.\d+)?")

Vector = tuple[Fraction, ...]


class SpecError(ValueError):
    """Raise for a malformed problem spec; `.field` names the field, `.message` says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, eq=False)
class Problem:
    """Hold one validated spec in exact form (Fractions), ready for marking.

    Compared and hashed by identity: `load_problem` returns one object per distinct spec
    while it is cached, so per-problem caches key on it cheaply.
    """

    kind: ProblemKind
    spec: dict[str, Any]
    dim: int
    position: int = 0
    tokens: tuple[str, ...] = ()
    weights: tuple[Fraction, ...] = ()
    rows: tuple[Vector, ...] = ()
    rows_a: tuple[Vector, ...] = ()
    rows_b: tuple[Vector, ...] = ()
    tokens_a: tuple[str, ...] = ()
    tokens_b: tuple[str, ...] = ()
    vocab: tuple[str, ...] = ()
    table: tuple[Vector, ...] = ()

    @property
    def size(self) -> int:
        """Return the number of terms (positions) of the sum."""
        if self.kind == ProblemKind.CONTRAST:
            return len(self.rows_a)
        if self.kind == ProblemKind.LOOKUP:
            return len(self.tokens)
        return len(self.rows)

    def token_id(self, position: int) -> int:
        """Return the vocabulary id of the token at `position` (lookup problems)."""
        return self.vocab.index(self.tokens[position])


def canonical_number(value: Fraction) -> str:
    """Return the canonical exact string of a rational: `"1/2"`, `"-3"`, `"0"`."""
    return str(value)


@lru_cache(maxsize=4096)
def _plain_number(text: str) -> Fraction | None:
    """Return the value of `"-3"` or `"1/4"` (ASCII digits, no spaces), else None.

    Cached by text, like the parser's literals: specs spell the same few numbers again and
    again, in every problem."""
    numerator, slash, denominator = text.partition("/")
    digits = numerator[1:] if numerator[:1] == "-" else numerator
    if not (digits.isascii() and digits.isdigit()):
        return None
    if not slash:
        return Fraction(int(numerator))
    if denominator.isascii() and denominator.isdigit() and int(denominator):
        return Fraction(int(numerator), int(denominator))
    return None


def _number(value: Any, field: str) -> Fraction:
    if type(value) is str and len(value) <= MAX_NUMBER_CHARS:
        plain = _plain_number(value)  # the usual spelling, without the regex
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


def _list(data: dict[str, Any], field: str, *, low: int, high: int) -> list[Any]:
    value = data.get(field)
    if not isinstance(value, list):
        raise SpecError(field, "is required and must be a list")
    if not low <= len(value) <= high:
        raise SpecError(field, f"must have between {low} and {high} entries, has {len(value)}")
    return value


def _strings(data: dict[str, Any], field: str, *, low: int, high: int) -> tuple[str, ...]:
    items = _list(data, field, low=low, high=high)
    for index, item in enumerate(items):
        if not isinstance(item, str) or not 1 <= len(item) <= MAX_TOKEN_CHARS:
            raise SpecError(
                f"{field}[{index}]", f"must be a non-empty string of at most {MAX_TOKEN_CHARS}"
            )
    return tuple(items)


def _rows(data: dict[str, Any], field: str, *, low: int, high: int) -> tuple[Vector, ...]:
    items = _list(data, field, low=low, high=high)
    rows: list[Vector] = []
    for index, row in enumerate(items):
        name = f"{field}[{index}]"
        if not isinstance(row, list) or not 1 <= len(row) <= MAX_DIM:
            raise SpecError(name, f"must be a list of 1 to {MAX_DIM} numbers")
        rows.append(tuple(_number(x, f"{name}[{j}]") for j, x in enumerate(row)))
        if len(rows[-1]) != len(rows[0]):
            raise SpecError(name, f"has {len(row)} coordinates; {field}[0] has {len(rows[0])}")
    return tuple(rows)


def _position(data: dict[str, Any], size: int) -> int:
    value = data.get("position")
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError("position", "is required and must be an integer")
    if not 0 <= value < size:
        raise SpecError("position", f"must be between 0 and {size - 1}, is {value}")
    return value


def _same_length(field: str, items: tuple[Any, ...], other: str, size: int) -> None:
    if len(items) != size:
        raise SpecError(
            field, f"has {len(items)} entr{'y' if len(items) == 1 else 'ies'}; {other} has {size}"
        )


def _build(data: dict[str, Any]) -> Problem:
    if not isinstance(data, dict):
        raise SpecError("spec", "must be a JSON object")
    raw_kind = data.get("kind")
    try:
        kind = ProblemKind(raw_kind)
    except ValueError:
        known = ", ".join(k.value for k in ProblemKind)
        raise SpecError("kind", f"{str(raw_kind)[:40]!r} is not one of {known}") from None
    normal: dict[str, Any] = {"kind": kind.value}

    def rows_out(rows: tuple[Vector, ...]) -> list[list[str]]:
        return [[canonical_number(x) for x in row] for row in rows]

    if kind == ProblemKind.LOOKUP:
        vocab = _strings(data, "vocab", low=1, high=MAX_VOCAB)
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "has a repeated entry")
        table = _rows(data, "table", low=1, high=MAX_VOCAB)
        _same_length("table", table, "vocab", len(vocab))
        tokens = _strings(data, "tokens", low=1, high=MAX_POSITIONS)
        for index, token in enumerate(tokens):
            if token not in vocab:
                raise SpecError(f"tokens[{index}]", f"{token!r} is not in vocab")
        position = _position(data, len(tokens))
        normal.update(vocab=list(vocab), table=rows_out(table), tokens=list(tokens))
        normal["position"] = position
        problem = Problem(kind, normal, len(table[0]), position, tokens, vocab=vocab, table=table)
    elif kind == ProblemKind.WEIGHTED_SUM:
        rows = _rows(data, "rows", low=1, high=MAX_POSITIONS)
        tokens = _strings(data, "tokens", low=1, high=MAX_POSITIONS)
        _same_length("tokens", tokens, "rows", len(rows))
        weights_raw = _list(data, "weights", low=1, high=MAX_POSITIONS)
        weights = tuple(_number(w, f"weights[{j}]") for j, w in enumerate(weights_raw))
        _same_length("weights", weights, "rows", len(rows))
        position = _position(data, len(rows))
        normal.update(tokens=list(tokens), position=position)
        normal.update(weights=[canonical_number(w) for w in weights], rows=rows_out(rows))
        problem = Problem(kind, normal, len(rows[0]), position, tokens, weights, rows)
    elif kind == ProblemKind.CONTRAST:
        rows_a = _rows(data, "rows_a", low=1, high=MAX_POSITIONS)
        rows_b = _rows(data, "rows_b", low=1, high=MAX_POSITIONS)
        _same_length("rows_b", rows_b, "rows_a", len(rows_a))
        if len(rows_b[0]) != len(rows_a[0]):
            raise SpecError("rows_b[0]", "has a different number of coordinates from rows_a")
        weights_raw = _list(data, "weights", low=1, high=MAX_POSITIONS)
        weights = tuple(_number(w, f"weights[{j}]") for j, w in enumerate(weights_raw))
        _same_length("weights", weights, "rows_a", len(rows_a))
        position = _position(data, len(rows_a))
        tokens_a: tuple[str, ...] = ()
        tokens_b: tuple[str, ...] = ()
        if "tokens_a" in data or "tokens_b" in data:
            tokens_a = _strings(data, "tokens_a", low=1, high=MAX_POSITIONS)
            tokens_b = _strings(data, "tokens_b", low=1, high=MAX_POSITIONS)
            _same_length("tokens_a", tokens_a, "rows_a", len(rows_a))
            _same_length("tokens_b", tokens_b, "rows_b", len(rows_b))
            normal.update(tokens_a=list(tokens_a), tokens_b=list(tokens_b))
        normal["position"] = position
        normal.update(weights=[canonical_number(w) for w in weights])
        normal.update(rows_a=rows_out(rows_a), rows_b=rows_out(rows_b))
        problem = Problem(
            kind,
            normal,
            len(rows_a[0]),
            position,
            weights=weights,
            rows_a=rows_a,
            rows_b=rows_b,
            tokens_a=tokens_a,
            tokens_b=tokens_b,
        )
    else:
        rows = _rows(data, "rows", low=1, high=MAX_POSITIONS)
        tokens = _strings(data, "tokens", low=1, high=MAX_POSITIONS)
        _same_length("tokens", tokens, "rows", len(rows))
        position = _position(data, len(rows))
        for j, row in enumerate(rows):
            score = sum((a * b for a, b in zip(rows[position], row, strict=True)), Fraction(0))
            if abs(score) > MAX_SCORE or score.denominator > MAX_SCORE_DENOMINATOR:
                raise SpecError(
                    f"rows[{j}]",
                    f"its score with the row at position {position} is {score}; scores must "
                    f"stay within ±{MAX_SCORE} with denominators up to {MAX_SCORE_DENOMINATOR}",
                )
        normal.update(tokens=list(tokens), position=position, rows=rows_out(rows))
        problem = Problem(kind, normal, len(rows[0]), position, tokens, rows=rows)
    for key, value in data.items():
        if key not in normal:
            normal[key] = value
    return problem


@lru_cache(maxsize=512)
def _load_cached(key: str) -> Problem:
    return _build(json.loads(key))


def load_problem(data: dict[str, Any]) -> Problem:
    """Return the exact internal form of a spec, or raise SpecError naming the field."""
    if not isinstance(data, dict):
        raise SpecError("spec", "must be a JSON object")
    try:
        key = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):
        raise SpecError("spec", "must hold only JSON values") from None
    return _load_cached(key)


def validate_spec(data: dict[str, Any]) -> dict[str, Any]:
    """Return the normalised spec (a fresh dict), or raise SpecError naming the field."""
    return json.loads(json.dumps(load_problem(data).spec))
