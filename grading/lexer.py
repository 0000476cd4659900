"""The lexer: check learner text against a whitelist of characters and split it into tokens.

Characters other keyboards type for the same symbol are folded one for one (the minus sign and
the en dash to `-`, `×` and `·` to `*`, `÷` to `/`, the no-break and other spaces to a space),
so columns still point into the learner's text. Anything outside the whitelist is refused with
its column, and a hint for the usual suspects (`!`, `=`, `_`, quotes, `%`). Names are a closed
list (`exp`, `sqrt`, `pi`, `e`, and `log`, the natural logarithm, only where the problem's shape
accepts it: `tokenize(text, logs=True)`) and so are LaTeX commands and environments; numbers
are bounded in digits, the token count in MAX_TOKENS.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .bounds import MAX_CHARS, MAX_NUMBER_DIGITS, MAX_TOKENS
from .errors import AnswerError

# One character in, one character out, so columns still point into the learner's text.
_FOLD = {
    "\u2212": "-",  # minus sign
    "\u2013": "-",  # en dash
    "\u2012": "-",
    "\ufe63": "-",
    "\uff0d": "-",
    "\u00d7": "*",  # multiplication sign
    "\u00b7": "*",  # middle dot
    "\u22c5": "*",  # dot operator
    "\u2219": "*",
    "\u2217": "*",
    "\u00f7": "/",
    "\u2215": "/",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u3000": " ",
    "\t": " ",
    "\n": " ",
    "\r": " ",
}
_ALLOWED = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ +-*/^()[]{},;.\\&")
_CHARACTER_HINTS = {
    "!": "factorials are not accepted",
    "=": "type only the answer, not an equation",
    "_": "subscripts are not accepted",
    "'": "quotes are not accepted",
    '"': "quotes are not accepted",
    "%": "percentages are not accepted; write 0.5 or 1/2",
}
_NAMES = {"exp", "sqrt", "pi", "e", "E"}
_LOG_NAMES = _NAMES | {"log"}
_LOG_WORDS = {"log", "ln"}  # what a learner may type for a logarithm
_COMMANDS = {
    "frac": "FRAC",
    "dfrac": "FRAC",
    "tfrac": "FRAC",
    "sqrt": "SQRT",
    "exp": "EXP",
    "pi": "PI",
    "cdot": "*",
    "times": "*",
    "div": "/",
    "log": "LOG",
}
_SPACING = {"quad", "qquad", "left", "right", "displaystyle", "bigl", "bigr", "Bigl", "Bigr"}
_ENVIRONMENTS = {"bmatrix", "pmatrix", "matrix", "Bmatrix", "smallmatrix"}
_SCIENTIFIC = re.compile(r"[eE][+-]?\d")
_OPERAND_START = {"NUM", "NAME", "LP", "FRAC", "SQRT", "EXP", "LOG", "PI", "BEGIN"}


class Token(NamedTuple):
    """One token: its kind, its text, its 0-based position, and whether space preceded it."""

    kind: str
    text: str
    pos: int
    space: bool = False


_FOLD_TABLE = str.maketrans(_FOLD)
_DISALLOWED = re.compile("[^" + re.escape("".join(sorted(_ALLOWED))) + "]")
_TOKEN = re.compile(
    r"(?P<space> +)"
    r"|(?P<num>\d+(?:\.\d*)?|\.\d+)"
    r"|(?P<name>[A-Za-z]+)"
    r"|(?P<rowsep>\\\\)"
    r"|(?P<spacing>\\[,;:! ])"
    r"|(?P<command>\\[A-Za-z]*)"
    r"|(?P<pow>\*\*)"
    r"|(?P<op>[-+*/^])"
    r"|(?P<lp>[(\[{])"
    r"|(?P<rp>[)\]}])"
    r"|(?P<comma>[,;])"
    r"|(?P<colsep>&)"
)
_ENVIRONMENT = re.compile(r"\s*\{([A-Za-z]+)\}")


def _check_characters(text: str) -> str:
    if len(text) > MAX_CHARS:
        raise AnswerError(
            f"the answer is {len(text)} characters long; at most {MAX_CHARS} are read",
            bound="length",
        )
    folded = text.translate(_FOLD_TABLE)
    bad = _DISALLOWED.search(folded)
    if bad:
        char = bad.group()
        hint = _CHARACTER_HINTS.get(char, "")
        shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
        reason = f"the character {shown} is not allowed" + (f": {hint}" if hint else "")
        raise AnswerError(reason, column=bad.start() + 1, bound="character")
    return folded


def _too_many(column: int) -> AnswerError:
    return AnswerError(
        f"the answer has more than {MAX_TOKENS} symbols", column=column, bound="tokens"
    )


# The same rules as _TOKEN, without naming the rule: findall splits the whole text in one call
# (every character after the whitelist has a rule; a lone "." falls to the last alternative),
# and the first character of a piece says which rule matched.
_PIECES = re.compile(
    r" +|\d+(?:\.\d*)?|\.\d+|[A-Za-z]+|\\\\|\\[,;:! ]|\\[A-Za-z]*|\*\*|[-+*/^()\[\]{},;&.]"
)
_SINGLE = {
    **dict.fromkeys("+-*/^", "OP"),
    **dict.fromkeys("([{", "LP"),
    **dict.fromkeys(")]}", "RP"),
    ",": "COMMA",
    ";": "COMMA",
    "&": "COLSEP",
}
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_make_token = tuple.__new__  # Token(...) without NamedTuple's Python-level __new__


def tokenize(text: str, *, logs: bool = False) -> list[Token]:
    """Split whitelisted text into tokens, or raise AnswerError; `log` (and `\\log`, `\\ln`)
    is a name only with `logs`."""
    text = _check_characters(text)
    names = _LOG_NAMES if logs else _NAMES
    tokens: list[Token] = []
    append = tokens.append
    n, space = len(text), False
    pieces = _PIECES.findall(text)
    k, i = 0, 0
    while k < len(pieces):
        literal = pieces[k]
        k += 1
        start = i
        i += len(literal)
        first = literal[0]
        if first == " ":
            space = True
            continue
        single = _SINGLE.get(literal)
        if single is not None:
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            append(_make_token(Token, (single, literal, start, space)))
        elif first in _DIGITS or (first == "." and len(literal) > 1):
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            if len(literal) > MAX_NUMBER_DIGITS and (
                sum(ch.isdigit() for ch in literal) > MAX_NUMBER_DIGITS
            ):
                raise _too_many_digits(start + 1)
            if i < n and text[i] in "eE" and _SCIENTIFIC.match(text, i):
                raise _scientific(i + 1)
            append(_make_token(Token, ("NUM", literal, start, space)))
        elif first in _LETTERS:
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            if literal not in names:
                raise _unknown_name(literal, start, logs)
            append(_make_token(Token, ("NAME", literal, start, space)))
        elif literal == ".":  # no rule starts with a lone "."
            raise AnswerError(
                f"{text[start]!r} cannot start a number or a symbol", column=start + 1
            )
        elif literal == "**":
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            append(_make_token(Token, ("OP", "^", start, space)))
        else:  # a backslash: a row separator, a spacing macro or a command
            jump, space = _backslash(literal, text, start, i, space, tokens, logs)
            if jump is not None:  # text was consumed past this piece: split the rest anew
                i = jump
                pieces = _PIECES.findall(text, i)
                k = 0
            continue
        space = False
    tokens.append(Token("EOF", "", n, space))
    return tokens


def _unknown_name(literal: str, start: int, logs: bool) -> AnswerError:
    if literal in _LOG_WORDS:
        reason = (
            "the natural logarithm is written log, as in log(2)"
            if logs
            else "log is not accepted in this problem's answer, which needs no logarithm"
        )
        return AnswerError(f"{literal!r}: {reason}", column=start + 1)
    allowed = "exp, sqrt, log, pi and e" if logs else "exp, sqrt, pi and e"
    return AnswerError(
        f"unknown name {literal[:20]!r}; the names allowed are {allowed}", column=start + 1
    )


def _too_many_digits(column: int) -> AnswerError:
    return AnswerError(
        f"a number has more than {MAX_NUMBER_DIGITS} digits", column=column, bound="digits"
    )


def _scientific(column: int) -> AnswerError:
    return AnswerError(
        "scientific notation is not accepted; write the number out, or use 10^k", column=column
    )


def _backslash(
    literal: str,
    text: str,
    start: int,
    i: int,
    space: bool,
    tokens: list[Token],
    logs: bool = False,
) -> tuple[int | None, bool]:
    """Append the token of one backslash piece (a row separator, a spacing macro or a command)
    that starts at ``start`` and ends before ``i``; return where reading goes on when the piece
    consumed text after it (or None) and whether a space precedes the next token."""
    if len(literal) == 2 and literal[1] in ",;: !":
        return None, True
    if len(tokens) >= MAX_TOKENS:
        raise _too_many(start + 1)
    if literal == "\\\\":
        tokens.append(_make_token(Token, ("ROWSEP", literal, start, space)))
        return None, False
    command = literal[1:]
    if command in _SPACING:
        jump = i + 1 if command == "right" and text.startswith(".", i) else None
        return jump, True
    if command in ("begin", "end"):
        environment = _ENVIRONMENT.match(text, i)
        if not environment or environment.group(1) not in _ENVIRONMENTS:
            raise AnswerError(f"\\{command} is read only for bmatrix or pmatrix", column=start + 1)
        tokens.append(_make_token(Token, (command.upper(), environment.group(1), start, space)))
        return environment.end(), False
    if command in _COMMANDS:
        kind = _COMMANDS[command]
        if kind == "LOG" and not logs:
            raise _unknown_name("log", start, logs)
        if kind in ("*", "/"):
            tokens.append(_make_token(Token, ("OP", kind, start, space)))
        else:
            tokens.append(_make_token(Token, (kind, command, start, space)))
        return None, False
    shown = command[:20] or text[i : i + 1]
    raise AnswerError(f"the LaTeX command \\{shown} is not supported", column=start + 1)
