"""The variant parameters an attempt is counted under: read from its problem's spec by one rule
for every kind, no kind authoring anything.

- A **number** of the spec (an integer, or a string holding an exact rational such as ``"1/4"``)
  is a parameter under its key: ``position``, ``beta``, ``temperature``.
- A **list of numbers** in a spec that has an integer ``position`` inside it gives the entry at
  that position, under ``<key>[position]``: ``weights[position]`` is weighted_sum's self weight.
- A dict of the spec (the declared kinds' ``params``) is read by the same two rules, its keys
  named as they are.

Words, lists of words, rows and tables are not parameters: no rule tells a choice from a word
without the kind saying so. ``kind``, ``level`` and ``generator`` are the problem's, not its
variant's. At most ``MAX_PARAMETERS`` per spec, in the spec's key order.

A value is counted in a **bucket**, so that a parameter drawn from many values still has few rows:
an integer from -9 to 9 is its own bucket; a value between -1 and 1 falls in a tenth (0.5 to
under 0.6); one between -10 and 10 in a unit (2 to under 3); a larger one in a power of ten (10
to under 100). Each bucket has a label and a sort key (its lower end).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from grading.exact import ratio_literal

MAX_PARAMETERS = 8
NAME_MAX_LENGTH = 40
BUCKET_MAX_LENGTH = 24
NOT_PARAMETERS = frozenset({"kind", "level", "generator"})

Parameter = tuple[str, str, float]  # (name, bucket label, sort key)


def _number(value: Any) -> Fraction | None:
    """Return the exact value of a spec number, or None for anything else (bools included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str) and 0 < len(value) <= 24:
        return ratio_literal(value)
    return None


def _decimal(value: Fraction) -> str:
    """Return a bucket end as words: ``0.5``, ``-3``, ``100``, ``3e9`` (a million or more)."""
    if value.denominator != 1:
        return f"{float(value):.1f}"
    number = value.numerator
    if abs(number) < 10**6:
        return str(number)
    digits = str(abs(number))
    mantissa = digits.rstrip("0")
    return f"{'-' if number < 0 else ''}{mantissa}e{len(digits) - len(mantissa)}"


def bucket(value: Fraction) -> tuple[str, float]:
    """Return the label and sort key of the bucket a value is counted in."""
    if value.denominator == 1 and -9 <= value <= 9:
        return str(value.numerator), float(value)
    magnitude = abs(value)
    if magnitude < 1:
        width = Fraction(1, 10)
    elif magnitude < 10:
        width = Fraction(1)
    else:
        width = Fraction(10) ** math.floor(math.log10(magnitude))
    low = math.floor(value / width) * width
    return f"{_decimal(low)} to under {_decimal(low + width)}", float(low)


def _read(data: dict, position: int | None, found: dict[str, Parameter]) -> None:
    for key, value in data.items():
        if key in NOT_PARAMETERS or len(found) >= MAX_PARAMETERS:
            continue
        number = _number(value)
        if number is not None:
            name = str(key)
        elif (
            isinstance(value, list)
            and position is not None
            and 0 <= position < len(value)
            and all(_number(v) is not None for v in value)
        ):
            name, number = f"{key}[position]", _number(value[position])
        else:
            continue
        name = name[:NAME_MAX_LENGTH]
        if name not in found and number is not None:
            label, sort = bucket(number)
            found[name] = (name, label[:BUCKET_MAX_LENGTH], sort)


def parameters_of(spec: Any) -> tuple[Parameter, ...]:
    """Return the (name, bucket, sort key) of every variant parameter of a problem spec."""
    if not isinstance(spec, dict):
        return ()
    position = spec.get("position")
    position = position if type(position) is int else None
    found: dict[str, Parameter] = {}
    _read(spec, position, found)
    for value in spec.values():
        if isinstance(value, dict) and value is not spec.get("generator"):
            _read(value, position, found)
    return tuple(found.values())
