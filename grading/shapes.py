"""Answer shapes: how an answer is typed, read, shown, compared and indexed.

A kind's answer has one shape. Every shape reads learner text with a whitelist and bounds on
length and count before any work, and never raises anything but `AnswerError` (whose message
says what and where) on learner text. Values are plain, hashable Python:

| shape | value | typed as |
|---|---|---|
| `Vector(dim)` | `tuple[Scalar, ...]` | `[1/2, 1]`, `(0.5, 1)`, `1/2*[1,0] + 1/2*[0,2]`, bmatrix |
| `ScalarShape()` | `Scalar` (Fraction or SymPy number) | `3/5`, `2/sqrt(13)`, `0.554` |
| `IntegerShape()` | `int` | `7`, `-3` |
| `IntegerSequence(max_len)` | `tuple[int, ...]` | `[4, 0, 7]`, `4 0 7`, `4, 0, 7` |
| `PieceSequence(max_pieces)` | `tuple[str, ...]` (NFC) | `low est`, `low|est`, `["low", "est"]` |
| `Choice(options)` | `str` (the option as listed) | the option, in any letter case |
| `TupleShape(parts, names)` | `tuple` of the parts' values | the parts separated by `;` |

Each shape has `read(text) -> Reading`, `equal(answer, expected)`, `key(value)` (an exact
canonical key for indexing mistaken answers, None when there is none), `tex(value)` (what "your
answer was read as" shows), `differences(answer, expected)` (the 0-based positions or
coordinates that differ) and `describe_differences(answer, expected)` (the same in words, for
an answer no catalogued mistake explains). `matches(reading, target)` applies the decimal
policy where the shape has one (vectors, scalars): a typed decimal counts when it rounds
`target` at the digits typed.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from .compare import (
    Bound,
    Scalar,
    approx,
    as_fraction,
    bound_sum,
    equal,
    float_bound,
    vectors_equal,
)
from .fraction_parts import num_den
from .parse import AnswerError, Reading, read_answer
from .rounding import Rounding, rounding
from .tex import ratio_tex, scalar_tex, vector_tex

MAX_SEQUENCE_CHARS = 2000
MAX_INTEGER_DIGITS = 30
MAX_PIECE_CHARS = 40
MAX_PIECES = 200
MAX_CHOICE_CHARS = 200
MAX_PARTS = 8
# An offset at least this large is told as "far too large/small", not as a number.
FAR_OFF = 1e12
_COUNTS = {2: "Two", 3: "Three", 4: "Four", 5: "Five"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

# Coordinates of the example vectors in the answer box's help, cycled to the shape's dimension.
_EXAMPLE_COORDINATES = (
    ("1/2", "1", "0", "-2"),
    ("-7/3", "5/4", "2", "1/3"),
    ("9/7", "-2/9", "-1", "4"),
)


def sum_examples(dim: int) -> tuple[str, ...]:
    """Return sums of two weighted vectors of `dim` coordinates, written out term by term."""
    rows = [
        "[" + ", ".join(row[k % len(row)] for k in range(dim)) + "]"
        for row in (("1", "0", "2"), ("0", "2", "-1"), ("-2", "3", "1"), ("4", "-1", "0"))
    ]
    return (
        f"1/2*{rows[0]} + 1/2*{rows[1]}",
        f"1/3*{rows[0]} + 2/3*{rows[1]}",
        f"5/7*{rows[2]} + 2/7*{rows[3]}",
    )


class Format(NamedTuple):
    """One way of typing an answer: a phrase that starts a sentence ("A vector with 2
    coordinates in brackets") and examples of it, tried in order until one is neither the
    problem's answer nor a catalogued mistake's (none: the phrase says enough)."""

    phrase: str
    examples: tuple[str, ...] = ()


# What a learner may type between and around integers and pieces: spaces of every width fold
# to one space, the dashes and minus signs of other keyboards to "-". One character in, one out,
# so columns still point into the learner's text.
_SPACES = "\t\n\r\u00a0\u2002\u2003\u2009\u202f\u3000"
_INTEGER_FOLD = str.maketrans(
    {**dict.fromkeys(_SPACES, " "), "\u2212": "-", "\u2013": "-", "\u2012": "-", "\uff0d": "-"}
)
_INTEGER_ITEM = re.compile(r"[+-]?[0-9]+")
_HEX_ITEM = re.compile(r"0[xX][0-9a-fA-F]+")


def ordinal(index: int) -> str:
    """Return 'first', 'second', ... for a 0-based index."""
    return _ORDINALS[index] if index < len(_ORDINALS) else f"number {index + 1}"


def listed(parts: Sequence[str]) -> str:
    """Return 'a', 'a and b' or 'a, b and c'."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _length_bound(text: str, limit: int) -> None:
    if len(text) > limit:
        raise AnswerError(
            f"the answer is {len(text)} characters long; at most {limit} are read",
            bound="length",
        )


def _shown(char: str) -> str:
    """Return a character as a message may quote it: itself when printable, else U+XXXX."""
    if char.isprintable() and unicodedata.category(char)[0] in "LMNPS":
        return repr(char)
    return f"U+{ord(char):04X}"


class Shape:
    """Base of every answer shape: the methods each shape defines (see the module docstring)."""

    #: What the answer is, for messages: "a vector with 2 coordinates", "a whole number".
    noun: str = "an answer"
    #: How the engine names a learner's whole answer: "the final vector".
    final: str = "the final answer"

    def read(self, text: str) -> Reading:
        """Read learner text, or raise AnswerError saying what could not be read and where."""
        raise NotImplementedError

    def equal(self, answer: Any, expected: Any) -> bool:
        """Return True when two values of this shape are exactly equal."""
        return bool(answer == expected)

    def key(self, value: Any) -> Hashable | None:
        """Return an exact canonical key of a value (None when it has none)."""
        return value

    def tex(self, value: Any) -> str:
        """Return TeX for a value: what "your answer was read as" shows."""
        raise NotImplementedError

    def typed(self, value: Any) -> str:
        """Return text a learner could type for a value, which this shape reads back as it
        (for question tests, examples and the command line)."""
        return str(value)

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        """Return the 0-based positions at which the answer differs from the expected value."""
        return () if self.equal(answer, expected) else (0,)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        """Return a phrase saying what differs (no capital, no full stop)."""
        return "your answer is not the right one"

    def matches(self, reading: Reading, target: Any) -> bool:
        """Return True when what was read is `target` (a typed decimal may round it)."""
        return self.equal(reading.value, target)

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        """Return high-precision approximations of a value's numbers for a cheap first test
        (None: the shape compares exactly only)."""
        return None

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        """Return a value's numbers as floats with error bounds, for the cheapest first test
        (None: the shape has none, or one is not available)."""
        return None

    def formats(self) -> tuple[Format, ...]:
        """Return how an answer of this shape is typed: one `Format` per way, each a phrase
        and example candidates (for the answer box's help; see grading.answer_help)."""
        return (Format(f"Type {self.noun}"),)


# ---------------------------------------------------------------- arithmetic shapes


def _rounds(text: str | None, got: Scalar, want: Scalar) -> bool:
    if text is not None:
        return rounding(text, Fraction(text), want) != Rounding.WRONG
    return equal(got, want)


def _offset(index: int, what: str, got: Scalar, want: Scalar) -> str | None:
    if type(got) is Fraction and type(want) is Fraction:
        # the commonest: got - want from integers, written as scalar_tex writes the Fraction
        (gn, gd), (wn, wd) = num_den(got), num_den(want)
        top = gn * wd - wn * gd
        if not top:
            return None
        sign = "+" if top > 0 else ""
        off = ratio_tex(top, gd * wd)
        return f"the {ordinal(index)} {what} is off by ${sign}{off}$"
    got_fraction, want_fraction = as_fraction(got), as_fraction(want)
    if got_fraction is not None and want_fraction is not None:
        diff = got_fraction - want_fraction
        if diff == 0:
            return None
        sign = "+" if diff > 0 else ""
        return f"the {ordinal(index)} {what} is off by ${sign}{scalar_tex(diff)}$"
    told = _told_offset(got, want)
    if told is None:  # the float filter cannot say it: 40 digits
        off = float(approx(got) - approx(want))
        if abs(off) < 1e-12:
            return None
        if not abs(off) < FAR_OFF:  # inf included: no figure a learner can use
            return f"the {ordinal(index)} {what} is far too {'large' if off > 0 else 'small'}"
        told = f"{off:+.4g}"
    elif not told:
        return None
    elif "inf" in told or not abs(float(told)) < FAR_OFF:
        return f"the {ordinal(index)} {what} is far too {'large' if told[0] == '+' else 'small'}"
    return f"the {ordinal(index)} {what} is off by about ${told}$"


def _told_offset(got: Scalar, want: Scalar) -> str | None:
    """Return got − want written to 4 significant figures, "" when it is below 1e-12 in size,
    from floats with error bounds, when every value within the bounds is written the same
    (else None): what the 40-digit difference gives, without computing it."""
    bounds = float_bound(got), float_bound(want)
    if bounds[0] is None or bounds[1] is None:
        return None
    (g, eg), (w, ew) = bounds
    try:
        off, error = bound_sum([(g, eg), (-w, ew)])
    except OverflowError:
        return None
    error += 1e-30 * (abs(g) + abs(w))  # the 40-digit approximations' own error
    if not (math.isfinite(off - error) and math.isfinite(off + error)):
        return None
    if abs(off) + error < 1e-12:
        return ""
    if abs(off) - error < 1e-12:
        return None
    low, high = f"{off - error:+.4g}", f"{off + error:+.4g}"
    return low if low == high else None


class Vector(Shape):
    """A column vector of `dim` exact coordinates, or a sum of weighted vectors written out."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.final = "the final vector"
        self.noun = f"a vector with {dim} coordinate{'s' if dim != 1 else ''}"

    def __repr__(self) -> str:
        return f"Vector({self.dim})"

    def formats(self) -> tuple[Format, ...]:
        examples = tuple(
            "[" + ", ".join(row[k % len(row)] for k in range(self.dim)) + "]"
            for row in _EXAMPLE_COORDINATES
        )
        return (Format(f"A vector with {self.dim} coordinates in brackets", examples),)

    def read(self, text: str) -> Reading:
        reading = read_answer(text)
        value = reading.value
        if not isinstance(value, tuple):
            raise AnswerError(
                f"a single number was read; the answer is {self.noun}", tex=reading.tex
            )
        if len(value) != self.dim:
            raise AnswerError(
                f"your vector has {len(value)} coordinate{'s' if len(value) != 1 else ''}; "
                f"this problem's vectors have {self.dim}",
                tex=reading.tex,
            )
        return reading

    def equal(self, answer: Any, expected: Any) -> bool:
        return vectors_equal(answer, expected)

    def key(self, value: Any) -> Hashable | None:
        fractions = tuple(as_fraction(x) for x in value)
        return None if None in fractions else fractions

    def tex(self, value: Any) -> str:
        return vector_tex(value)

    def typed(self, value: Any) -> str:
        return "[" + ", ".join(str(x) for x in value) + "]"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return tuple(
            d for d, (x, y) in enumerate(zip(answer, expected, strict=True)) if not equal(x, y)
        )

    def describe_differences(self, answer: Any, expected: Any) -> str:
        parts = [
            part
            for d, (got, want) in enumerate(zip(answer, expected, strict=True))
            if (part := _offset(d, "coordinate", got, want)) is not None
        ]
        return listed(parts) if parts else "your vector is not the answer"

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        return tuple(approx(x) for x in value)

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        found = tuple(float_bound(x) for x in value)
        return None if None in found else found  # type: ignore[return-value]

    def matches(self, reading: Reading, target: Any) -> bool:
        decimals = reading.coordinate_decimals
        for d, (got, want) in enumerate(zip(reading.value, target, strict=True)):
            if not _rounds(decimals[d] if d < len(decimals) else None, got, want):
                return False
        return True


class ScalarShape(Shape):
    """One exact number: rational, or with `sqrt`, `exp`, `pi`, `e`; decimals per the policy."""

    noun = "one number"

    def __repr__(self) -> str:
        return "ScalarShape()"

    def formats(self) -> tuple[Format, ...]:
        return (
            Format(
                "One number, exact or as a decimal with at least three significant figures",
                ("2/sqrt(13)", "-7/4", "0.554"),
            ),
        )

    def read(self, text: str) -> Reading:
        reading = read_answer(text)
        if isinstance(reading.value, tuple):
            raise AnswerError(
                f"a vector of {len(reading.value)} coordinates was read; the answer is one number",
                tex=reading.tex,
            )
        return reading

    def equal(self, answer: Any, expected: Any) -> bool:
        return equal(answer, expected)

    def key(self, value: Any) -> Hashable | None:
        return as_fraction(value)

    def tex(self, value: Any) -> str:
        return scalar_tex(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        offset = _offset(0, "number", answer, expected)
        return (offset or "your number is not the answer").replace("the first number", "it")

    def approximate(self, value: Any) -> tuple[Any, ...] | None:
        return (approx(value),)

    def bounds(self, value: Any) -> tuple[Bound, ...] | None:
        found = float_bound(value)
        return None if found is None else (found,)

    def matches(self, reading: Reading, target: Any) -> bool:
        decimals = reading.coordinate_decimals
        return _rounds(decimals[0] if decimals else None, reading.value, target)


def _integer(item: str, column: int, *, hexadecimal: bool = False) -> int:
    if hexadecimal and _HEX_ITEM.fullmatch(item):
        if len(item) - 2 > MAX_INTEGER_DIGITS:
            raise AnswerError(
                f"the number has more than {MAX_INTEGER_DIGITS} digits",
                column=column,
                bound="digits",
            )
        return int(item, 16)
    if not _INTEGER_ITEM.fullmatch(item):
        also = " (hexadecimal numbers start with 0x, such as 0xC3)" if hexadecimal else ""
        raise AnswerError(f"{item[:20]!r} is not a whole number{also}", column=column)
    if len(item.lstrip("+-")) > MAX_INTEGER_DIGITS:
        raise AnswerError(
            f"the number has more than {MAX_INTEGER_DIGITS} digits", column=column, bound="digits"
        )
    return int(item)


def _check_integer_text(text: str, *, hexadecimal: bool = False) -> str:
    folded = text.translate(_INTEGER_FOLD)
    extra = "abcdefABCDEFxX" if hexadecimal else ""
    for index, char in enumerate(folded):
        if not (char.isascii() and (char.isdigit() or char in " +-,[]()" or char in extra)):
            raise AnswerError(
                f"the character {_shown(char)} is not allowed: type whole numbers such as 7",
                column=index + 1,
                bound="character",
            )
    return folded


class IntegerShape(Shape):
    """One whole number, such as `7` or `-3`."""

    noun = "a whole number"

    def __repr__(self) -> str:
        return "IntegerShape()"

    def formats(self) -> tuple[Format, ...]:
        return (Format("A whole number", ("7", "12", "-3")),)

    def read(self, text: str) -> Reading:
        _length_bound(text, MAX_SEQUENCE_CHARS)
        folded = _check_integer_text(text)
        item = folded.strip()
        if not item:
            raise AnswerError("the answer is empty: type a whole number such as 7")
        value = _integer(item, folded.index(item[0]) + 1)
        return Reading(value=value, tex=str(value))

    def tex(self, value: Any) -> str:
        return str(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return f"{answer} is not the answer"


class IntegerSequence(Shape):
    """A sequence of whole numbers: `[4, 0, 7]`, `4 0 7` or `4, 0, 7` (at most `max_len`).

    With `hexadecimal`, an entry may also be written `0xC3` (any letter case after `0x`),
    mixed with decimal ones; the value and "read as" are decimal.
    """

    def __init__(self, max_len: int, *, min_len: int = 1, hexadecimal: bool = False) -> None:
        self.max_len = max_len
        self.min_len = min_len
        self.hexadecimal = hexadecimal
        self.noun = "a sequence of whole numbers"

    def __repr__(self) -> str:
        return f"IntegerSequence({self.max_len})"

    def formats(self) -> tuple[Format, ...]:
        if self.hexadecimal:
            return (
                Format(
                    "Whole numbers in order, separated by spaces or commas, in decimal or in "
                    "hexadecimal with 0x",
                    ("67 97 195 169", "0x43 0x61 0xC3 0xA9", "[7, 0x20, 201]"),
                ),
            )
        return (
            Format(
                "Whole numbers in order, separated by spaces or commas",
                ("[4, 0, 7]", "4 0 7", "[5, 2, 9, 1]", "3 1 2"),
            ),
        )

    def read(self, text: str) -> Reading:
        _length_bound(text, MAX_SEQUENCE_CHARS)
        folded = _check_integer_text(text, hexadecimal=self.hexadecimal)
        body, offset = _unbracket(folded)
        items: list[int] = []
        for match in re.finditer(r"[^\s,]+", body):
            if len(items) >= self.max_len:
                raise AnswerError(
                    f"the answer has more than {self.max_len} numbers",
                    column=offset + match.start() + 1,
                    bound="count",
                )
            items.append(
                _integer(match.group(), offset + match.start() + 1, hexadecimal=self.hexadecimal)
            )
        _check_separators(body, offset)
        if len(items) < self.min_len:
            raise AnswerError(
                f"the answer has {len(items)} number{'s' if len(items) != 1 else ''}; "
                f"type at least {self.min_len}, such as [4, 0, 7]"
            )
        value = tuple(items)
        return Reading(value=value, tex=self.tex(value))

    def tex(self, value: Any) -> str:
        return "\\left[" + ",\\ ".join(str(x) for x in value) + "\\right]"

    def typed(self, value: Any) -> str:
        return "[" + ", ".join(str(x) for x in value) + "]"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return _sequence_differences(answer, expected)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return _describe_sequence(answer, expected, "number", str)


def _unbracket(text: str) -> tuple[str, int]:
    """Return the text inside one pair of [] or () around it (or the text), and its offset."""
    stripped = text.strip()
    start = text.index(stripped[0]) if stripped else 0
    if stripped[:1] in "[(" and stripped:
        close = "]" if stripped[0] == "[" else ")"
        if stripped[-1:] != close:
            raise AnswerError(f"the bracket {stripped[0]!r} is not closed", column=start + 1)
        inner = stripped[1:-1]
        if any(bracket in inner for bracket in "[]()"):
            raise AnswerError("brackets inside the sequence are not read; type [4, 0, 7]")
        return inner, start + 1
    for index, char in enumerate(text):
        if char in "[]()":
            raise AnswerError(f"the bracket {char!r} is out of place", column=index + 1)
    return text, 0


def _check_separators(body: str, offset: int) -> None:
    """Refuse empty entries such as `4,,7` or a comma before the first number."""
    for match in re.finditer(r",", body):
        before = body[: match.start()].rstrip()
        after = body[match.end() :].lstrip()
        if not before or before.endswith(",") or not after:
            raise AnswerError(
                "an entry is missing around a comma", column=offset + match.start() + 1
            )


def _sequence_differences(answer: Sequence[Any], expected: Sequence[Any]) -> tuple[int, ...]:
    longest = max(len(answer), len(expected))
    return tuple(
        k
        for k in range(longest)
        if k >= len(answer) or k >= len(expected) or answer[k] != expected[k]
    )


def _describe_sequence(answer: Sequence[Any], expected: Sequence[Any], noun: str, show) -> str:
    parts = []
    if len(answer) != len(expected):
        parts.append(
            f"your answer has {len(answer)} {noun}{'s' if len(answer) != 1 else ''}, the "
            f"answer has {len(expected)}"
        )
    wrong = [
        k for k in _sequence_differences(answer, expected) if k < len(answer) and k < len(expected)
    ]
    if wrong:
        # Positions counted from 1, as every position a learner is told (docs/kinds.md).
        shown = listed([f"{k + 1} ({show(answer[k])})" for k in wrong[:6]])
        more = f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""
        many = len(wrong) > 1
        parts.append(f"position{'s' if many else ''} {shown}{more} differ{'' if many else 's'}")
    return listed(parts) if parts else "your answer is not the right one"


# ---------------------------------------------------------------- text shapes

# Whitelist by Unicode general category: letters, marks, numbers, punctuation, symbols and the
# plain space. Control characters (NUL, escapes), format characters (bidi controls, zero-width
# spaces and joiners), surrogates, private-use and unassigned code points are refused by name.
_TEXT_CATEGORIES = frozenset("LMNPS")
_REFUSED_REASONS = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (bidi control or zero-width)",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_TEXT_SPACES = str.maketrans(dict.fromkeys(_SPACES, " "))


def _check_text(text: str, limit: int) -> str:
    """Return the text NFC-normalised with every kind of space as " ", or raise AnswerError."""
    _length_bound(text, limit)
    folded = text.translate(_TEXT_SPACES)
    for index, char in enumerate(folded):
        if char == " ":
            continue
        category = unicodedata.category(char)
        if category[0] not in _TEXT_CATEGORIES:
            reason = _REFUSED_REASONS.get(category, "not a visible character")
            raise AnswerError(
                f"the character U+{ord(char):04X} is not allowed: it is {reason}",
                column=index + 1,
                bound="character",
            )
    return unicodedata.normalize("NFC", folded)


_QUOTED = re.compile(r"\s*(?:\"((?:[^\"\\]|\\[\"\\])*)\"|'((?:[^'\\]|\\['\\])*)')\s*(,|$)")
_TEX_ESCAPES = {
    "\\": "\\backslash ",
    "{": "\\{",
    "}": "\\}",
    "$": "\\$",
    "#": "\\#",
    "%": "\\%",
    "&": "\\&",
    "^": "\\hat{}",
    "~": "\\sim ",
    "_": "\\_",
}


def text_tex(text: str) -> str:
    """Return text as TeX that shows every character as it is (`\\text{...}` around plain runs,
    math escapes for TeX's own characters)."""
    out: list[str] = []
    run: list[str] = []
    for char in text:
        escape = _TEX_ESCAPES.get(char)
        if escape is None:
            run.append(char)
            continue
        if run:
            out.append("\\text{" + "".join(run) + "}")
            run = []
        out.append(escape)
    if run:
        out.append("\\text{" + "".join(run) + "}")
    return "".join(out) or "\\text{}"


def _looks_listed(text: str) -> bool:
    """Return True for text typed as a list of quoted pieces (`["low", "est"]`, or `[a, b]`,
    which is then refused with the form to use); `[UNK] low` is two plain pieces."""
    if text[:2] in ('["', "['"):
        return True
    return text.startswith("[") and text.endswith("]") and "," in text


class PieceSequence(Shape):
    """A sequence of text pieces: `low est`, `low|est` or `["low", "est"]`.

    Pieces are NFC-normalised; `▁` (and `_`, unless the kind leaves it out of `space_marks`)
    types a space inside a piece, so the value holds real spaces. At most `max_pieces` pieces of
    at most `max_chars` characters each.
    """

    def __init__(
        self,
        max_pieces: int,
        *,
        space_marks: tuple[str, ...] = ("▁", "_"),
        max_chars: int = MAX_PIECE_CHARS,
    ) -> None:
        if max_pieces > MAX_PIECES:
            raise ValueError(f"max_pieces is at most {MAX_PIECES}")
        self.max_pieces = max_pieces
        self.space_marks = space_marks
        self.max_chars = max_chars
        self.noun = "a sequence of pieces"
        self._spaces = str.maketrans(dict.fromkeys(space_marks, " "))

    def __repr__(self) -> str:
        return f"PieceSequence({self.max_pieces}, space_marks={self.space_marks!r})"

    def formats(self) -> tuple[Format, ...]:
        phrase = "The pieces in order, separated by spaces (or by |)"
        if self.space_marks == ("▁",):
            phrase += "; type a space inside a piece as ▁ (_ is an underscore)"
            return (Format(phrase, ("▁▁ if ▁x", "▁ return ▁y", "▁▁▁ for")),)
        if "▁" in self.space_marks:
            phrase += "; type a piece's leading space as ▁ or _"
            return (Format(phrase, ("low est", "ab ▁cd", "x yz")),)
        return (Format(phrase, ("low est", "ab cd ef", "x yz")),)

    def read(self, text: str) -> Reading:
        normal = _check_text(text, MAX_SEQUENCE_CHARS)
        stripped = normal.strip()
        if not stripped:
            raise AnswerError("the answer is empty: type the pieces, such as low est")
        if _looks_listed(stripped):
            raw = self._listed(stripped)
        elif "|" in stripped:
            raw = [piece.strip() for piece in stripped.split("|")]
        else:
            raw = stripped.split()
        pieces = []
        for index, piece in enumerate(raw):
            if not piece:
                raise AnswerError(f"piece {index} is empty")
            if len(piece) > self.max_chars:
                raise AnswerError(
                    f"piece {index} has {len(piece)} characters; at most {self.max_chars} are read",
                    bound="length",
                )
            pieces.append(piece.translate(self._spaces))
        if len(pieces) > self.max_pieces:
            raise AnswerError(
                f"the answer has {len(pieces)} pieces; at most {self.max_pieces} are read",
                bound="count",
            )
        value = tuple(pieces)
        return Reading(value=value, tex=self.tex(value))

    def _listed(self, text: str) -> list[str]:
        """Read `["low", "est"]` (double or single quotes; `\\"` and `\\\\` inside them)."""
        if not text.endswith("]"):
            raise AnswerError("the list is not closed with ]")
        body = text[1:-1]
        if not body.strip():
            return []
        pieces, at = [], 0
        while at < len(body):
            if len(pieces) > self.max_pieces:
                raise AnswerError(
                    f"the answer has more than {self.max_pieces} pieces", bound="count"
                )
            match = _QUOTED.match(body, at)
            if match is None:
                raise AnswerError(
                    'inside [ ] each piece is quoted and separated by commas: ["low", "est"]',
                    column=at + 2,
                )
            quoted = match.group(1) if match.group(1) is not None else match.group(2)
            pieces.append(re.sub(r"\\(.)", r"\1", quoted))
            at = match.end()
            if match.group(3) == "," and at >= len(body):
                raise AnswerError("a piece is missing after the last comma")
        return pieces

    def typed(self, value: Any) -> str:
        quoted = (piece.replace("\\", "\\\\").replace('"', '\\"') for piece in value)
        return "[" + ", ".join(f'"{piece}"' for piece in quoted) + "]"

    def tex(self, value: Any) -> str:
        shown = [text_tex(piece.replace(" ", "▁")) for piece in value]
        return "\\;|\\;".join(shown) if shown else "\\text{(no pieces)}"

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return _sequence_differences(answer, expected)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return _describe_sequence(answer, expected, "piece", lambda p: repr(p.replace(" ", "▁")))


class Choice(Shape):
    """One option among named ones, read case-insensitively (`options` as listed).

    Letter case only: `str.lower`, not `casefold`, whose compatibility folding would read
    *ſell* as *sell*, *ﬁlled* as *filled* and *glaß* as *glass*."""

    def __init__(self, options: Sequence[str]) -> None:
        if not options:
            raise ValueError("a choice needs at least one option")
        self.options = tuple(options)
        self._by_fold = {unicodedata.normalize("NFC", o).lower(): o for o in self.options}
        if len(self._by_fold) != len(self.options):
            raise ValueError("two options differ only in letter case")
        self.noun = "one of " + listed(list(self.options))

    def __repr__(self) -> str:
        return f"Choice({self.options!r})"

    def formats(self) -> tuple[Format, ...]:
        return (
            Format(f"One of the options as listed, in any letter case: {', '.join(self.options)}"),
        )

    def read(self, text: str) -> Reading:
        normal = _check_text(text, MAX_CHOICE_CHARS)
        word = " ".join(normal.split())
        option = self._by_fold.get(word.lower())
        if option is None:
            shown = f"{word[:40]!r} is not" if word else "the answer is empty; it must be"
            raise AnswerError(f"{shown} one of the options: {', '.join(self.options)}")
        return Reading(value=option, tex=self.tex(option))

    def tex(self, value: Any) -> str:
        return text_tex(value)

    def describe_differences(self, answer: Any, expected: Any) -> str:
        return f"{answer} is not the right option"


class TupleShape(Shape):
    """Two or more answers in one, typed separated by `;` (`parts` and their `names`)."""

    def __init__(self, parts: Sequence[Shape], names: Sequence[str]) -> None:
        if not 2 <= len(parts) <= MAX_PARTS or len(parts) != len(names):
            raise ValueError(f"a tuple has 2 to {MAX_PARTS} parts, each with a name")
        self.parts = tuple(parts)
        self.names = tuple(names)
        self.noun = listed(
            [f"{name} ({part.noun})" for part, name in zip(parts, names, strict=True)]
        )

    def __repr__(self) -> str:
        return f"TupleShape({self.parts!r}, {self.names!r})"

    def formats(self) -> tuple[Format, ...]:
        ways = [part.formats()[0] for part in self.parts]
        # A part without examples (a choice) contributes its options, in turn.
        pools = [
            way.examples or getattr(part, "options", ("…",))
            for way, part in zip(ways, self.parts, strict=True)
        ]
        count = max(len(pool) for pool in pools)
        examples = tuple(
            "; ".join(pool[(k + i) % len(pool)] for i, pool in enumerate(pools))
            for k in range(count)
        )
        return (
            Format(
                f"{_COUNTS.get(len(self.parts), str(len(self.parts)))} parts separated by ';': "
                + ", then ".join(
                    f"{name} ({part.noun})"
                    for name, part in zip(self.names, self.parts, strict=True)
                ),
                examples,
            ),
        )

    def read(self, text: str) -> Reading:
        _length_bound(text, MAX_SEQUENCE_CHARS * len(self.parts))
        pieces = _split_parts(text)
        if len(pieces) != len(self.parts):
            raise AnswerError(
                f"the answer has {len(pieces)} part{'s' if len(pieces) != 1 else ''}; type "
                f"{len(self.parts)} separated by ';': {self.noun}"
            )
        readings = []
        for index, (part, (start, piece)) in enumerate(zip(self.parts, pieces, strict=True)):
            try:
                readings.append(part.read(piece))
            except AnswerError as error:
                column = "" if error.column is None else f" (at column {start + error.column})"
                raise AnswerError(
                    f"in the {ordinal(index)} part ({self.names[index]}): "
                    f"{error.message.rsplit(' (at column', 1)[0]}{column}",
                    bound=error.bound,
                ) from None
        value = tuple(r.value for r in readings)
        # A part typed as one decimal (a scalar part) carries it up, so the decimal policy
        # applies to it as to a scalar answer; other parts are compared exactly.
        decimals = tuple(
            r.coordinate_decimals[0] if len(r.coordinate_decimals) == 1 else None for r in readings
        )
        return Reading(
            value=value,
            tex=";\\quad ".join(r.tex for r in readings),
            parts=tuple(readings),
            coordinate_decimals=decimals if any(decimals) else (),
        )

    def equal(self, answer: Any, expected: Any) -> bool:
        return all(
            part.equal(a, b) for part, a, b in zip(self.parts, answer, expected, strict=True)
        )

    def key(self, value: Any) -> Hashable | None:
        keys = tuple(part.key(v) for part, v in zip(self.parts, value, strict=True))
        return None if None in keys else keys

    def tex(self, value: Any) -> str:
        return ";\\quad ".join(part.tex(v) for part, v in zip(self.parts, value, strict=True))

    def typed(self, value: Any) -> str:
        return "; ".join(part.typed(v) for part, v in zip(self.parts, value, strict=True))

    def differences(self, answer: Any, expected: Any) -> tuple[int, ...]:
        return tuple(
            k
            for k, (part, a, b) in enumerate(zip(self.parts, answer, expected, strict=True))
            if not part.equal(a, b)
        )

    def describe_differences(self, answer: Any, expected: Any) -> str:
        parts = [
            f"in the {ordinal(k)} part ({self.names[k]}), "
            + self.parts[k].describe_differences(answer[k], expected[k])
            for k in self.differences(answer, expected)
        ]
        return listed(parts) if parts else "your answer is not the right one"

    def matches(self, reading: Reading, target: Any) -> bool:
        if not reading.parts:
            return self.equal(reading.value, target)
        return all(
            part.matches(r, t) for part, r, t in zip(self.parts, reading.parts, target, strict=True)
        )


def _split_parts(text: str) -> list[tuple[int, str]]:
    """Split at `;` outside quotes and brackets; return (0-based start, text) per part."""
    parts: list[tuple[int, str]] = []
    depth, quote, start, escaped = 0, "", 0, False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in "\"'":
            quote = char
        elif char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            parts.append((start, text[start:index]))
            start = index + 1
            if len(parts) > MAX_PARTS:
                break
    parts.append((start, text[start:]))
    return parts
