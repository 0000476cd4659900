"""What every shape's reading shares: the bounds on length and count, the characters allowed
in whole numbers and in text, and TeX that shows learner text as typed."""

from __future__ import annotations

import re
import unicodedata

from ..parse import AnswerError

MAX_SEQUENCE_CHARS = 2000
MAX_INTEGER_DIGITS = 30
MAX_PIECE_CHARS = 40
MAX_PIECES = 200
MAX_CHOICE_CHARS = 200
MAX_PARTS = 8

# What a learner may type between and around integers and pieces: spaces of every width fold
# to one space, the dashes and minus signs of other keyboards to "-". One character in, one out,
# so columns still point into the learner's text.
_SPACES = "\t\n\r\u00a0\u2002\u2003\u2009\u202f\u3000"
_INTEGER_FOLD = str.maketrans(
    {**dict.fromkeys(_SPACES, " "), "\u2212": "-", "\u2013": "-", "\u2012": "-", "\uff0d": "-"}
)
_INTEGER_ITEM = re.compile(r"[+-]?[0-9]+")
_HEX_ITEM = re.compile(r"0[xX][0-9a-fA-F]+")


def length_bound(text: str, limit: int) -> None:
    """Raise AnswerError when the text is longer than `limit` characters."""
    if len(text) > limit:
        raise AnswerError(
            f"the answer is {len(text)} characters long; at most {limit} are read",
            bound="length",
        )


def shown(char: str) -> str:
    """Return a character as a message may quote it: itself when printable, else U+XXXX."""
    if char.isprintable() and unicodedata.category(char)[0] in "LMNPS":
        return repr(char)
    return f"U+{ord(char):04X}"


def read_integer(item: str, column: int, *, hexadecimal: bool = False) -> int:
    """Return one whole number typed at `column`, or raise AnswerError saying why not."""
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


def check_integer_text(text: str, *, hexadecimal: bool = False) -> str:
    """Return the text with spaces and dashes folded, or raise AnswerError at a character
    whole numbers are not typed with."""
    folded = text.translate(_INTEGER_FOLD)
    extra = "abcdefABCDEFxX" if hexadecimal else ""
    for index, char in enumerate(folded):
        if not (char.isascii() and (char.isdigit() or char in " +-,[]()" or char in extra)):
            raise AnswerError(
                f"the character {shown(char)} is not allowed: type whole numbers such as 7",
                column=index + 1,
                bound="character",
            )
    return folded


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


def check_text(text: str, limit: int) -> str:
    """Return the text NFC-normalised with every kind of space as " ", or raise AnswerError."""
    length_bound(text, limit)
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
