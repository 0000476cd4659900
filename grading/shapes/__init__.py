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

One module per shape; `base` holds the contract, `reading` the bounds and character
checks every reading shares, `differences` the words for what differs.
"""

from .base import Format, Shape, listed, ordinal
from .choice import Choice
from .differences import FAR_OFF
from .integer import IntegerShape
from .integer_sequence import IntegerSequence
from .piece_sequence import PieceSequence
from .reading import (
    MAX_CHOICE_CHARS,
    MAX_INTEGER_DIGITS,
    MAX_PARTS,
    MAX_PIECE_CHARS,
    MAX_PIECES,
    MAX_SEQUENCE_CHARS,
    text_tex,
)
from .scalar import ScalarShape
from .tuple_shape import TupleShape
from .vector import Vector, sum_examples

__all__ = [
    "FAR_OFF",
    "MAX_CHOICE_CHARS",
    "MAX_INTEGER_DIGITS",
    "MAX_PARTS",
    "MAX_PIECES",
    "MAX_PIECE_CHARS",
    "MAX_SEQUENCE_CHARS",
    "Choice",
    "Format",
    "IntegerSequence",
    "IntegerShape",
    "PieceSequence",
    "ScalarShape",
    "Shape",
    "TupleShape",
    "Vector",
    "listed",
    "ordinal",
    "sum_examples",
    "text_tex",
]
