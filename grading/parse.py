"""Read learner text into exact values, safely: a whitelist tokenizer and a bounded parser.

Learner text never reaches `eval`, `sympify` or `parse_expr`. The text is checked character by
character against a whitelist, tokenized, parsed by a recursive-descent parser of a small
grammar (numbers, `+ - * / ^ **`, brackets, implicit multiplication, `exp`, `sqrt`, `pi`, `e`,
LaTeX `\\frac`, `\\sqrt`, `\\cdot`, `\\left(`, `bmatrix`/`pmatrix`), and evaluated node by
node into Fractions (or SymPy expressions once `exp`, `sqrt`, `pi` or `e` appear). Every size
is bounded before it is computed: text length, token count, nesting depth, digits of a
number, bits of every rational built, exponents, the argument of `exp`, the number of
irrational atoms; a cooperative clock check bounds wall time. Past a bound, or on anything
unreadable, `AnswerError` says what and where (1-based column).

Decimals are read exactly (`0.1` is 1/10) and remember their typed text, so marking can apply
the decimal policy.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import NamedTuple

import sympy

from .compare import Scalar, approx, as_fraction, to_sympy

MAX_CHARS = 2000
MAX_TOKENS = 400
MAX_DEPTH = 40
MAX_NUMBER_DIGITS = 30
MAX_BITS = 4096
MAX_INTEGER_POWER = 1000
MAX_SYMBOLIC_POWER = 12
MAX_EXP_ARGUMENT = 200
MAX_EXP_DENOMINATOR = 1000
MAX_ROOT_DENOMINATOR = 12
MAX_IRRATIONAL_ATOMS = 64
MAX_COORDINATES = 16
TIME_BUDGET_SECONDS = 1.0

Value = Scalar | tuple[Scalar, ...]

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
}
_SPACING = {"quad", "qquad", "left", "right", "displaystyle", "bigl", "bigr", "Bigl", "Bigr"}
_ENVIRONMENTS = {"bmatrix", "pmatrix", "matrix", "Bmatrix", "smallmatrix"}
_SCIENTIFIC = re.compile(r"[eE][+-]?\d")
_OPERAND_START = {"NUM", "NAME", "LP", "FRAC", "SQRT", "EXP", "PI", "BEGIN"}


class AnswerError(Exception):
    """Raise when learner text cannot be read; `.message` says what and where."""

    def __init__(
        self, message: str, *, column: int | None = None, bound: str = "", tex: str = ""
    ) -> None:
        if column is not None:
            message = f"{message} (at column {column})"
        super().__init__(message)
        self.message = message
        self.column = column
        self.bound = bound
        self.tex = tex  # what was read, when the text was read but is not of the right shape


class Token(NamedTuple):
    """One token: its kind, its text, its 0-based position, and whether space preceded it."""

    kind: str
    text: str
    pos: int
    space: bool = False


# ---------------------------------------------------------------- syntax tree


@dataclass(eq=False)
class Node:
    pos: int


@dataclass(eq=False)
class Num(Node):
    text: str
    value: Fraction
    decimal: bool


@dataclass(eq=False)
class Const(Node):
    name: str


@dataclass(eq=False)
class Call(Node):
    fn: str
    arg: Node


@dataclass(eq=False)
class Neg(Node):
    arg: Node


@dataclass(eq=False)
class Sum(Node):
    terms: list[tuple[int, Node]]


@dataclass(eq=False)
class Product(Node):
    factors: list[tuple[str, Node]]


@dataclass(eq=False)
class Power(Node):
    base: Node
    exponent: Node


@dataclass(eq=False)
class Vec(Node):
    items: list[Node]
    bracket: str


@dataclass(eq=False)
class Group(Node):
    inner: Node
    bracket: str = "("


@dataclass(eq=False)
class Frac(Node):
    num: Node
    den: Node


# ---------------------------------------------------------------- tokenizer


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


def tokenize(text: str) -> list[Token]:
    """Split whitelisted text into tokens, or raise AnswerError."""
    text = _check_characters(text)
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
                raise AnswerError(
                    f"a number has more than {MAX_NUMBER_DIGITS} digits",
                    column=start + 1,
                    bound="digits",
                )
            if i < n and text[i] in "eE" and _SCIENTIFIC.match(text, i):
                raise AnswerError(
                    "scientific notation is not accepted; write the number out, or use 10^k",
                    column=i + 1,
                )
            append(_make_token(Token, ("NUM", literal, start, space)))
        elif first in _LETTERS:
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            if literal not in _NAMES:
                raise AnswerError(
                    f"unknown name {literal[:20]!r}; the names allowed are exp, sqrt, pi and e",
                    column=start + 1,
                )
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
            if len(literal) == 2 and literal[1] in ",;: !":
                space = True
                continue
            if len(tokens) >= MAX_TOKENS:
                raise _too_many(start + 1)
            if literal == "\\\\":
                append(_make_token(Token, ("ROWSEP", literal, start, space)))
                space = False
                continue
            command = literal[1:]
            jump = None
            if command in _SPACING:
                space = True
                if command == "right" and text.startswith(".", i):
                    jump = i + 1
                else:
                    continue
            elif command in ("begin", "end"):
                environment = _ENVIRONMENT.match(text, i)
                if not environment or environment.group(1) not in _ENVIRONMENTS:
                    raise AnswerError(
                        f"\\{command} is read only for bmatrix or pmatrix", column=start + 1
                    )
                jump = environment.end()
                append(_make_token(Token, (command.upper(), environment.group(1), start, space)))
            elif command in _COMMANDS:
                kind = _COMMANDS[command]
                if kind in ("*", "/"):
                    append(_make_token(Token, ("OP", kind, start, space)))
                else:
                    append(_make_token(Token, (kind, command, start, space)))
            else:
                shown = command[:20] or text[i : i + 1]
                raise AnswerError(f"the LaTeX command \\{shown} is not supported", column=start + 1)
            if jump is not None:  # text was consumed past this piece: split the rest anew
                i = jump
                pieces = _PIECES.findall(text, i)
                k = 0
                if command in _SPACING:
                    continue
        space = False
    tokens.append(Token("EOF", "", n, space))
    return tokens


# ---------------------------------------------------------------- parser

_CLOSE = {"(": ")", "[": "]", "{": "}"}


@lru_cache(maxsize=1024)
def _literal(text: str) -> Fraction:
    """Return the exact value of a typed number (`0.1` is 1/10), without a regex."""
    whole, _, decimals = text.partition(".")
    if not decimals:
        return Fraction(int(whole or "0"))
    return Fraction(int((whole or "0") + decimals), 10 ** len(decimals))


@lru_cache(maxsize=1024)
def _negative_literal(text: str) -> Fraction:
    """Return minus the exact value of a typed number (a coordinate such as `-2`)."""
    return -_literal(text)


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.last = len(tokens) - 1
        self.i = 0
        self.depth = 0
        self.values: dict[int, Value] = {}  # values of nodes read by a shortcut, by id

    def peek(self, offset: int = 0) -> Token:
        index = self.i + offset
        return self.tokens[index] if index < self.last else self.tokens[self.last]

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def enter(self, token: Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise AnswerError(
                f"brackets or signs are nested more than {MAX_DEPTH} deep",
                column=token.pos + 1,
                bound="depth",
            )

    def unexpected(self, token: Token, wanted: str) -> AnswerError:
        if token.kind == "EOF":
            return AnswerError(f"the answer ends where {wanted} was expected", column=token.pos)
        shown = token.text if token.kind != "ROWSEP" else "\\\\"
        return AnswerError(f"expected {wanted}, found {shown!r}", column=token.pos + 1)

    def is_split(self, token: Token) -> bool:
        """Return True where whitespace separates two coordinates: `[0.5 1]`, `[1 -1]`."""
        return self.splits_at(self.i)

    def splits_at(self, index: int) -> bool:
        token = self.tokens[index]
        if not token.space:
            return False
        if token.kind == "NUM":
            return True
        if token.kind == "OP" and token.text in "+-":
            after = self.tokens[min(index + 1, self.last)]
            return not after.space and after.kind in _OPERAND_START
        return False

    def plain_number(self, *, list_context: bool) -> Node | None:
        """Return a coordinate that is one (negated) number, without descending the grammar.

        Most coordinates are: this shortcut halves the cost of reading a typical answer.
        """
        index = self.i
        token = self.tokens[index]
        negative = token.kind == "OP" and token.text == "-"
        number = self.tokens[index + 1] if negative else token
        if number.kind != "NUM":
            return None
        end = index + 2 if negative else index + 1
        after = self.tokens[end]
        if after.kind in ("COMMA", "RP", "EOF") or (list_context and self.splits_at(end)):
            self.i = end
            node = Num(number.pos, number.text, _literal(number.text), "." in number.text)
            return Neg(token.pos, node) if negative else node
        if after.kind == "OP" and after.text == "/":
            return self.plain_ratio(token, number, end, list_context=list_context)
        return None

    def plain_ratio(
        self, sign: Token, number: Token, slash: int, *, list_context: bool
    ) -> Node | None:
        """Return a coordinate that is one (negated) ratio of numbers, `-1/2`: the same nodes
        the grammar builds, with their values, which need no checks, recorded for the
        evaluator."""
        negative = sign is not number
        below = self.tokens[slash + 1]
        if below.kind != "NUM" or (negative and self.depth + 1 > MAX_DEPTH):
            return None  # the grammar reads it, or says what is wrong
        end = slash + 2
        after = self.tokens[end]
        if not (after.kind in ("COMMA", "RP", "EOF") or (list_context and self.splits_at(end))):
            return None
        top, bottom = _literal(number.text), _literal(below.text)
        if not bottom:
            return None  # the evaluator says "division by zero", and where
        self.i = end
        ratio = Product(
            number.pos,
            [
                ("*", Num(number.pos, number.text, top, "." in number.text)),
                ("/", Num(below.pos, below.text, bottom, "." in below.text)),
            ],
        )
        value = top / bottom
        self.values[id(ratio)] = value
        if not negative:
            return ratio
        node = Neg(sign.pos, ratio)
        self.values[id(node)] = -value
        return node

    # answer := items EOF
    def answer(self) -> Node:
        items, separated = self.items(list_context=True)
        token = self.tokens[self.i]
        if token.kind != "EOF":
            if token.kind == "RP":
                raise AnswerError(
                    f"{token.text!r} has no matching opening bracket", column=token.pos + 1
                )
            raise self.unexpected(token, "an operator or a comma")
        if len(items) == 1 and not separated:
            return items[0]
        return Vec(items[0].pos, items, "")

    def items(self, *, list_context: bool) -> tuple[list[Node], bool]:
        items: list[Node] = []
        separated = False
        while True:
            if self.tokens[self.i].kind in ("EOF", "RP", "COMMA"):
                raise self.unexpected(self.tokens[self.i], "a number or a vector")
            plain = self.plain_number(list_context=list_context)
            items.append(plain if plain is not None else self.expr(list_context=list_context))
            token = self.tokens[self.i]
            if token.kind == "COMMA":
                self.take()
                separated = True
                continue
            if token.kind in ("EOF", "RP"):
                return items, separated
            if list_context and self.is_split(token):
                separated = True
                continue
            raise self.unexpected(token, "an operator, a comma or a closing bracket")

    def expr(self, *, list_context: bool) -> Node:
        start = self.tokens[self.i]
        sign = 1
        if start.kind == "OP" and start.text in "+-":
            self.take()
            self.enter(start)
            sign = -1 if start.text == "-" else 1
        terms = [(sign, self.term(list_context=list_context))]
        if sign == -1:
            self.depth -= 1
        while True:
            token = self.tokens[self.i]
            if token.kind != "OP" or token.text not in "+-":
                break
            if list_context and self.is_split(token):
                break
            self.take()
            terms.append((-1 if token.text == "-" else 1, self.term(list_context=list_context)))
        if len(terms) == 1:
            sign, node = terms[0]
            return node if sign == 1 else Neg(start.pos, node)
        return Sum(start.pos, terms)

    def term(self, *, list_context: bool) -> Node:
        first = self.tokens[self.i]
        factors: list[tuple[str, Node]] = [("*", self.unary())]
        while True:
            token = self.tokens[self.i]
            if token.kind == "OP" and token.text in "*/":
                self.take()
                factors.append((token.text, self.unary()))
            elif token.kind == "NUM":
                if list_context and token.space:
                    break
                raise AnswerError(
                    f"the number {token.text!r} follows without an operator or a comma",
                    column=token.pos + 1,
                )
            elif token.kind in _OPERAND_START:
                factors.append(("", self.unary()))
            else:
                break
        return factors[0][1] if len(factors) == 1 else Product(first.pos, factors)

    def unary(self) -> Node:
        token = self.tokens[self.i]
        if token.kind == "OP" and token.text in "+-":
            self.take()
            self.enter(token)
            inner = self.unary()
            self.depth -= 1
            return inner if token.text == "+" else Neg(token.pos, inner)
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        token = self.tokens[self.i]
        if token.kind == "OP" and token.text == "^":
            self.take()
            self.enter(token)
            exponent = self.unary()
            self.depth -= 1
            return Power(token.pos, base, exponent)
        return base

    def group(self, opener: Token) -> Node:
        """Parse `( expr )` or `{ expr }` as a single scalar-or-vector expression."""
        if opener.kind != "LP":
            raise self.unexpected(opener, "an opening bracket")
        self.take()
        self.enter(opener)
        inner = self.expr(list_context=False)
        self.close(opener)
        self.depth -= 1
        return inner

    def close(self, opener: Token) -> None:
        token = self.tokens[self.i]
        want = _CLOSE[opener.text]
        if token.kind == "RP" and token.text == want:
            self.take()
            return
        if token.kind == "EOF":
            raise AnswerError(f"the {opener.text!r} at column {opener.pos + 1} is never closed")
        if token.kind == "RP":
            raise AnswerError(
                f"{token.text!r} does not match the {opener.text!r} at column {opener.pos + 1}",
                column=token.pos + 1,
            )
        raise self.unexpected(token, f"{want!r} to close the {opener.text!r}")

    def atom(self) -> Node:
        token = self.tokens[self.i]
        kind = token.kind
        if kind == "NUM":
            self.take()
            return Num(token.pos, token.text, _literal(token.text), "." in token.text)
        if kind == "PI":
            self.take()
            return Const(token.pos, "pi")
        if kind == "NAME":
            self.take()
            if token.text in ("exp", "sqrt"):
                return Call(token.pos, token.text, self.group(self.tokens[self.i]))
            return Const(token.pos, "pi" if token.text == "pi" else "e")
        if kind in ("EXP", "SQRT"):
            self.take()
            if kind == "SQRT" and self.tokens[self.i].text == "[":
                raise AnswerError("only square roots are accepted", column=token.pos + 1)
            return Call(token.pos, kind.lower(), self.group(self.tokens[self.i]))
        if kind == "FRAC":
            self.take()
            num = self.group(self.tokens[self.i])
            den = self.group(self.tokens[self.i])
            return Frac(token.pos, num, den)
        if kind == "LP":
            self.take()
            self.enter(token)
            items, separated = self.items(list_context=True)
            self.close(token)
            self.depth -= 1
            if token.text == "[" or separated or len(items) > 1:
                return Vec(token.pos, items, token.text)
            return Group(token.pos, items[0], token.text)
        if kind == "BEGIN":
            return self.matrix()
        raise self.unexpected(token, "a number, a name or an opening bracket")

    def matrix(self) -> Node:
        begin = self.take()
        self.enter(begin)
        rows: list[list[Node]] = [[]]
        while True:
            token = self.tokens[self.i]
            if token.kind == "END":
                if token.text != begin.text:
                    raise AnswerError(
                        f"\\end{{{token.text}}} does not match \\begin{{{begin.text}}}",
                        column=token.pos + 1,
                    )
                self.take()
                break
            rows[-1].append(self.expr(list_context=False))
            token = self.tokens[self.i]
            if token.kind == "COLSEP":
                self.take()
            elif token.kind == "ROWSEP":
                self.take()
                if self.tokens[self.i].kind != "END":
                    rows.append([])
            elif token.kind != "END":
                if token.kind == "EOF":
                    raise AnswerError(
                        f"\\begin{{{begin.text}}} at column {begin.pos + 1} has no \\end",
                        column=token.pos,
                    )
                raise self.unexpected(token, "&, \\\\ or \\end")
        self.depth -= 1
        if not rows[-1]:
            raise AnswerError("the matrix is empty", column=begin.pos + 1)
        if all(len(row) == 1 for row in rows):
            return Vec(begin.pos, [row[0] for row in rows], begin.text)
        if len(rows) == 1:
            return Vec(begin.pos, rows[0], begin.text)
        raise AnswerError(
            "a matrix with several rows and columns was typed; the answer is one vector",
            column=begin.pos + 1,
        )


def parse(text: str) -> Node:
    """Parse learner text into a syntax tree, or raise AnswerError."""
    return _parse(text)[0]


def _parse(text: str) -> tuple[Node, dict[int, Value]]:
    if not isinstance(text, str):
        raise AnswerError("the answer must be text")
    if not text.strip():
        raise AnswerError("the answer is empty")
    parser = _Parser(tokenize(text))
    return parser.answer(), parser.values


# ---------------------------------------------------------------- evaluation


def _is_vector(value: Value) -> bool:
    return isinstance(value, tuple)


def _is_zero(value: Scalar) -> bool:
    fraction = as_fraction(value)
    if fraction is not None:
        return fraction == 0
    return bool(abs(approx(value)) < 1e-25)


_ARITHMETIC = frozenset({Sum, Product, Power, Frac, Neg})
_NOT_FINITE = (sympy.zoo, sympy.oo, -sympy.oo, sympy.nan)


class _Evaluator:
    def __init__(self, deadline: float, values: dict[int, Value] | None = None) -> None:
        self.deadline = deadline
        self.values: dict[int, Value] = values if values is not None else {}
        self.irrational = 0

    def value(self, node: Node) -> Value:
        if type(node) is Num:  # a literal: its digits are already bounded
            return node.value
        cached = self.values.get(id(node))
        if cached is None:
            if time.perf_counter() > self.deadline:
                raise AnswerError(
                    f"reading the answer took longer than {TIME_BUDGET_SECONDS:g} s",
                    column=node.pos + 1,
                    bound="time",
                )
            cached = self._value(node)
            if isinstance(cached, sympy.Basic):
                if cached.has(*_NOT_FINITE):  # zoo, oo, nan: never a value a learner meant
                    raise AnswerError("division by zero", column=node.pos + 1)
                if cached.is_Rational:  # e - e is 0: keep rationals on the Fraction path
                    cached = Fraction(int(cached.p), int(cached.q))
            if type(cached) is Fraction and type(node) in _ARITHMETIC:
                self._check_fraction(cached, node)
            self.values[id(node)] = cached
        return cached

    def _check_fraction(self, value: Fraction, node: Node) -> None:
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
            raise AnswerError(
                f"a number in the answer grows past {MAX_BITS} bits",
                column=node.pos + 1,
                bound="size",
            )

    def scalar(self, node: Node, what: str) -> Scalar:
        value = self.value(node)
        if _is_vector(value):
            raise AnswerError(f"{what} must be a number, not a vector", column=node.pos + 1)
        return value

    def irrational_atom(self, node: Node) -> None:
        self.irrational += 1
        if self.irrational > MAX_IRRATIONAL_ATOMS:
            raise AnswerError(
                f"the answer uses exp, sqrt, pi or e more than {MAX_IRRATIONAL_ATOMS} times",
                column=node.pos + 1,
                bound="size",
            )

    def _value(self, node: Node) -> Value:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Const):
            self.irrational_atom(node)
            return sympy.pi if node.name == "pi" else sympy.E
        if isinstance(node, Group):
            return self.value(node.inner)
        if isinstance(node, Neg):
            return _negate(self.value(node.arg))
        if isinstance(node, Vec):
            if len(node.items) > MAX_COORDINATES:
                raise AnswerError(
                    f"a vector has more than {MAX_COORDINATES} coordinates",
                    column=node.pos + 1,
                    bound="size",
                )
            return tuple(
                item.value
                if type(item) is Num
                else _negative_literal(item.arg.text)  # type: ignore[attr-defined]
                if type(item) is Neg and type(item.arg) is Num  # type: ignore[attr-defined]
                else self.scalar(item, "a coordinate")
                for item in node.items
            )
        if isinstance(node, Sum):
            total: Value | None = None
            for sign, term in node.terms:
                value = self.value(term)
                value = value if sign == 1 else _negate(value)
                total = value if total is None else _add(total, value, term)
            assert total is not None
            return total
        if isinstance(node, Product):
            result = self.value(node.factors[0][1])
            for op, factor in node.factors[1:]:
                value = self.value(factor)
                if op == "/":
                    result = self.divide(result, value, factor)
                else:
                    result = _multiply(result, value, factor)
            return result
        if isinstance(node, Frac):
            return self.divide(self.value(node.num), self.value(node.den), node.den)
        if isinstance(node, Power):
            return self.power(node)
        if isinstance(node, Call):
            return self.call(node)
        raise AnswerError("unreadable answer", column=node.pos + 1)

    def divide(self, left: Value, right: Value, node: Node) -> Value:
        if _is_vector(right):
            raise AnswerError("division by a vector", column=node.pos + 1)
        if _is_zero(right):
            raise AnswerError("division by zero", column=node.pos + 1)
        if isinstance(right, Fraction):
            if isinstance(left, Fraction):
                return left / right
            return _multiply(left, 1 / right, node)
        return _multiply(left, 1 / to_sympy(right), node)

    def power(self, node: Power) -> Value:
        base = self.value(node.base)
        if _is_vector(base):
            raise AnswerError("a vector cannot be raised to a power", column=node.pos + 1)
        exponent = as_fraction(self.scalar(node.exponent, "an exponent"))
        if exponent is None:
            raise AnswerError("an exponent must be a rational number", column=node.pos + 1)
        if base is sympy.E:
            return self.exp(exponent, node)
        if isinstance(base, Fraction):
            if base == 0 and exponent < 0:
                raise AnswerError("division by zero (0 to a negative power)", column=node.pos + 1)
            bits = max(base.numerator.bit_length(), base.denominator.bit_length())
            size = abs(exponent.numerator)
            if size > MAX_INTEGER_POWER or bits * size > MAX_BITS:
                raise AnswerError(
                    f"the power is too large (more than {MAX_BITS} bits)",
                    column=node.pos + 1,
                    bound="power",
                )
            if exponent.denominator == 1:
                return base**exponent.numerator
            if base < 0:
                raise AnswerError(
                    "a root of a negative number: complex numbers are not accepted",
                    column=node.pos + 1,
                )
            if exponent.denominator > MAX_ROOT_DENOMINATOR:
                raise AnswerError("the root is too deep", column=node.pos + 1, bound="power")
            self.irrational_atom(node)
            return to_sympy(base) ** sympy.Rational(exponent.numerator, exponent.denominator)
        if exponent < 0 and _is_zero(base):
            raise AnswerError("division by zero (0 to a negative power)", column=node.pos + 1)
        if exponent.denominator != 1 or abs(exponent.numerator) > MAX_SYMBOLIC_POWER:
            raise AnswerError(
                f"powers of exp, sqrt or pi are limited to whole exponents up to "
                f"{MAX_SYMBOLIC_POWER}",
                column=node.pos + 1,
                bound="power",
            )
        return base**exponent.numerator

    def exp(self, argument: Fraction, node: Node) -> Scalar:
        if abs(argument) > MAX_EXP_ARGUMENT or argument.denominator > MAX_EXP_DENOMINATOR:
            raise AnswerError(
                f"exp is read for rational arguments up to {MAX_EXP_ARGUMENT} in size with "
                f"denominators up to {MAX_EXP_DENOMINATOR}",
                column=node.pos + 1,
                bound="exp",
            )
        self.irrational_atom(node)
        return sympy.exp(sympy.Rational(argument.numerator, argument.denominator))

    def call(self, node: Call) -> Scalar:
        argument = self.scalar(node.arg, f"the argument of {node.fn}")
        fraction = as_fraction(argument)
        if fraction is None:
            raise AnswerError(
                f"{node.fn} is read only for a rational argument here", column=node.pos + 1
            )
        if node.fn == "exp":
            return self.exp(fraction, node)
        if fraction < 0:
            raise AnswerError(
                "the square root of a negative number: complex numbers are not accepted",
                column=node.pos + 1,
            )
        self.irrational_atom(node)
        return sympy.sqrt(sympy.Rational(fraction.numerator, fraction.denominator))


def _negate(value: Value) -> Value:
    if isinstance(value, tuple):
        return tuple(-x for x in value)
    return -value


def _scalar_add(a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    return to_sympy(a) + to_sympy(b)


def _scalar_multiply(a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    return to_sympy(a) * to_sympy(b)


def _add(left: Value, right: Value, node: Node) -> Value:
    if (
        type(left) is tuple
        and type(right) is tuple
        and len(left) == len(right)
        and all(type(x) is Fraction for x in left)
        and all(type(y) is Fraction for y in right)
    ):
        return tuple(x + y for x, y in zip(left, right, strict=True))
    if _is_vector(left) and _is_vector(right):
        if len(left) != len(right):
            raise AnswerError(
                f"a vector with {len(right)} coordinates is added to one with {len(left)}",
                column=node.pos + 1,
            )
        return tuple(_scalar_add(a, b) for a, b in zip(left, right, strict=True))
    if _is_vector(left) or _is_vector(right):
        raise AnswerError("a number is added to a vector", column=node.pos + 1)
    return _scalar_add(left, right)


def _multiply(left: Value, right: Value, node: Node) -> Value:
    if type(left) is Fraction:
        if type(right) is Fraction:
            return left * right
        if type(right) is tuple and all(type(x) is Fraction for x in right):
            return tuple(left * x for x in right)
    if _is_vector(left) and _is_vector(right):
        raise AnswerError(
            "two vectors are multiplied; write a number times a vector", column=node.pos + 1
        )
    if _is_vector(left):
        return tuple(_scalar_multiply(x, right) for x in left)
    if _is_vector(right):
        return tuple(_scalar_multiply(left, x) for x in right)
    return _scalar_multiply(left, right)


# ---------------------------------------------------------------- written-out terms


@dataclass(frozen=True)
class Term:
    """One term of a written-out sum: coefficient times vector, as the learner typed it."""

    coefficient: Scalar
    vector: tuple[Scalar, ...]
    decimal: str | None = None  # the coefficient's text when typed as one bare decimal
    explicit: bool = False  # a coefficient was written (`1/2*[1,0]`, not `[1/2,0]`)


def _decimal_text(node: Node) -> str | None:
    if isinstance(node, Num) and node.decimal:
        return node.text
    if isinstance(node, Neg) and isinstance(node.arg, Num) and node.arg.decimal:
        return "-" + node.arg.text
    if isinstance(node, Group):
        return _decimal_text(node.inner)
    return None


_ONE = Fraction(1)


def _expand(node: Node, ev: _Evaluator) -> list[Term] | None:
    """Return the terms of a vector-valued node, distributing a coefficient over a sum.

    Sub-nodes are evaluated in the order the evaluator takes them, and None is returned at the
    first thing the evaluator would refuse (a product or quotient of vectors, a division by
    zero, vectors of different lengths, a number added to a vector) before anything after it
    is evaluated: expanding an answer first therefore raises nothing the evaluator would not
    raise first, and on None the evaluator gives its own message.
    """
    if isinstance(node, Group):
        return _expand(node.inner, ev)
    if isinstance(node, Vec):
        return [Term(_ONE, ev.value(node))]  # type: ignore[arg-type]
    if isinstance(node, Neg):
        inner = _expand(node.arg, ev)
        if inner is None:
            return None
        return [
            Term(
                -t.coefficient,
                t.vector,
                None if t.decimal is None else ("-" + t.decimal).replace("--", ""),
                t.explicit,
            )
            for t in inner
        ]
    if isinstance(node, Sum):
        terms: list[Term] = []
        for sign, item in node.terms:
            part = _expand(Neg(item.pos, item) if sign == -1 else item, ev)
            if part is None or (terms and len(part[0].vector) != len(terms[0].vector)):
                return None
            terms.extend(part)
        return terms
    if isinstance(node, Product):
        vector_at = -1
        values: list[Value] = []
        for k, (op, factor) in enumerate(node.factors):
            value = ev.value(factor)
            if _is_vector(value):
                if vector_at >= 0 or (k > 0 and op == "/"):
                    return None
                vector_at = k
            elif op == "/" and _is_zero(value):
                return None
            values.append(value)
        if vector_at < 0:
            return None
        coefficient: Scalar | None = None
        scalars = [(op, f) for k, (op, f) in enumerate(node.factors) if k != vector_at]
        for k, (op, _) in enumerate(node.factors):
            if k == vector_at:
                continue
            value = values[k]
            if op == "/":
                value = 1 / value if isinstance(value, Fraction) else 1 / to_sympy(value)
            coefficient = value if coefficient is None else _scalar_multiply(coefficient, value)
        assert coefficient is not None  # a product has two factors or more, one the vector
        decimal = None
        if len(scalars) == 1 and scalars[0][0] != "/":
            decimal = _decimal_text(scalars[0][1])
        inner = _expand(node.factors[vector_at][1], ev)
        if inner is None:
            return None
        return [
            Term(
                coefficient
                if t.coefficient is _ONE
                else _scalar_multiply(coefficient, t.coefficient),
                t.vector,
                decimal if t.coefficient == 1 and not t.explicit else None,
                True,
            )
            for t in inner
        ]
    if isinstance(node, Frac) and _is_vector(ev.value(node.num)):
        inner = _expand(node.num, ev)
        if inner is None:
            return None
        den = ev.value(node.den)
        if _is_vector(den) or _is_zero(den):
            return None
        factor = 1 / den if isinstance(den, Fraction) else 1 / to_sympy(den)
        return [Term(_scalar_multiply(factor, t.coefficient), t.vector, None, True) for t in inner]
    return None


def _sum_terms(terms: Sequence[Term]) -> tuple[Fraction, ...]:
    """Return sum_k c_k v_k of rational terms in integers, one Fraction per coordinate (the
    running denominator is the least common multiple of the terms' denominators)."""
    out = []
    for d in range(len(terms[0].vector)):
        num, den = 0, 1
        for term in terms:
            c, x = term.coefficient, term.vector[d]
            term_num = c.numerator * x.numerator  # type: ignore[union-attr]
            if not term_num:
                continue
            term_den = c.denominator * x.denominator  # type: ignore[union-attr]
            if term_den == den:
                num += term_num
                continue
            common = gcd(den, term_den)
            if common == term_den:
                num += term_num * (den // term_den)
            else:
                grow = term_den // common
                num = num * grow + term_num * (den // common)
                den *= grow
        out.append(Fraction(num, den))
    return tuple(out)


def _rational_terms(terms: Sequence[Term]) -> bool:
    return all(
        type(t.coefficient) is Fraction and all(type(x) is Fraction for x in t.vector)
        for t in terms
    )


# ---------------------------------------------------------------- TeX of what was read


def _wrap(node: Node) -> str:
    text = to_tex(node)
    if isinstance(node, (Sum, Neg)):
        return f"\\left({text}\\right)"
    return text


def to_tex(node: Node) -> str:
    """Return TeX for a parsed answer, numbers as typed."""
    if isinstance(node, Num):
        return node.text
    if isinstance(node, Const):
        return "\\pi" if node.name == "pi" else "e"
    if isinstance(node, Group):
        if node.bracket == "{":
            return to_tex(node.inner) if isinstance(node.inner, (Num, Const)) else _wrap(node.inner)
        return f"\\left({to_tex(node.inner)}\\right)"
    if isinstance(node, Neg):
        return "-" + _wrap(node.arg)
    if isinstance(node, Sum):
        parts = []
        for index, (sign, term) in enumerate(node.terms):
            text = _wrap(term) if isinstance(term, Sum) else to_tex(term)
            if index == 0:
                parts.append(("-" if sign == -1 else "") + text)
            else:
                parts.append((" - " if sign == -1 else " + ") + text)
        return "".join(parts)
    if isinstance(node, Product):
        text = _wrap(node.factors[0][1])
        for op, factor in node.factors[1:]:
            if op == "/":
                inner = factor.inner if isinstance(factor, Group) else factor
                text = f"\\frac{{{text}}}{{{to_tex(inner)}}}"
            elif isinstance(factor, (Num, Const)) and op == "*":
                text = f"{text} \\cdot {_wrap(factor)}"
            else:
                text = f"{text}\\,{_wrap(factor)}"
        return text
    if isinstance(node, Power):
        base = to_tex(node.base)
        if not isinstance(node.base, (Num, Const, Group)) or "." in base:
            base = f"\\left({base}\\right)"
        return f"{base}^{{{to_tex(node.exponent)}}}"
    if isinstance(node, Call):
        if node.fn == "exp":
            return f"e^{{{to_tex(node.arg)}}}"
        return f"\\sqrt{{{to_tex(node.arg)}}}"
    if isinstance(node, Frac):
        return f"\\frac{{{to_tex(node.num)}}}{{{to_tex(node.den)}}}"
    if isinstance(node, Vec):
        return "\\begin{bmatrix}" + "\\\\".join(to_tex(x) for x in node.items) + "\\end{bmatrix}"
    return ""


# ---------------------------------------------------------------- the result


@dataclass(frozen=True)
class Reading:
    """What was read from one answer: its value, its TeX, its typed decimals, its terms."""

    value: Value
    tex: str
    coordinate_decimals: tuple[str | None, ...] = ()
    terms: tuple[Term, ...] = ()
    written_out: bool = False
    symbolic: bool = False
    parts: tuple[Reading, ...] = ()  # a tuple answer: the reading of each part
    timings: dict[str, float] = field(default_factory=dict, compare=False)


def read_answer(text: str, *, budget: float = TIME_BUDGET_SECONDS) -> Reading:
    """Read learner text into a Reading, or raise AnswerError saying what and where."""
    deadline = time.perf_counter() + budget
    node, known = _parse(text)
    evaluator = _Evaluator(deadline, known)
    top = node.inner if isinstance(node, Group) else node
    value: Value | None = None
    expanded: list[Term] | None = None
    if isinstance(top, (Sum, Product, Neg, Frac)):
        # Perhaps a sum written out: expand it first; when its terms are rational, their sum
        # in integers is the value, without a Fraction for every product and partial sum.
        expanded = _expand(node, evaluator)
        if expanded and _rational_terms(expanded):
            value = _sum_terms(expanded)
    if value is None:  # the terms (if any) are the same once the evaluator has run
        value = evaluator.value(node)
    decimals: tuple[str | None, ...] = ()
    if isinstance(top, Vec):
        decimals = tuple(_decimal_text(item) for item in top.items)
    elif not _is_vector(value) and _decimal_text(top) is not None:
        decimals = (_decimal_text(top),)  # one number typed as a decimal
    terms: tuple[Term, ...] = ()
    written_out = False
    if _is_vector(value) and not isinstance(top, Vec):
        if expanded is None:
            expanded = _expand(node, evaluator)
        if expanded:
            terms = tuple(expanded)
            written_out = len(terms) > 1 or terms[0].explicit
    return Reading(
        value=value,
        tex=to_tex(node),
        coordinate_decimals=decimals,
        terms=terms,
        written_out=written_out,
        symbolic=evaluator.irrational > 0,
    )
