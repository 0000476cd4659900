"""The syntax: parse tokens into a tree, by recursive descent over this grammar.

    answer   := items EOF                      several items, or one separated, are a vector
    items    := item ((',' | ';' | split) item)*
    item     := number | expr                  a plain (negated) number or ratio is a shortcut
    expr     := ('+' | '-')? term (('+' | '-') term)*
    term     := unary (('*' | '/' | '') unary)*  '' is implicit multiplication: 2(1/2), 2e
    unary    := ('+' | '-') unary | power
    power    := atom ('^' unary)?              right-associative; `**` is read as `^`
    atom     := NUM | 'pi' | 'e' | \\pi
              | ('exp' | 'sqrt' | \\exp | \\sqrt) group
              | ('log' | \\log | \\ln) group       only where the shape accepts log
              | \\frac group group
              | '(' items ')' | '[' items ']' | '{' items '}'
              | \\begin{bmatrix} matrix \\end{bmatrix}   (also pmatrix, matrix, ...)
    group    := ('(' | '{' | '[') expr (')' | '}' | ']')
    matrix   := expr (('&' | '\\\\') expr)*      one row or one column: a vector

`split`: inside a list, whitespace before a number, or before a sign followed directly by an
operand, separates two coordinates (`[0.5 1]`, `[1 -1]`). Brackets with one item and no
separator are a group, except `[...]`, which is always a vector. Nesting of brackets, signs and
powers is bounded by MAX_DEPTH; every error names the column.
"""

from __future__ import annotations

from fractions import Fraction

from .bounds import MAX_DEPTH
from .errors import AnswerError
from .exact import decimal_literal
from .lexer import _OPERAND_START, Token, tokenize
from .tree import Call, Const, Frac, Group, Neg, Node, Num, Power, Product, Sum, Value, Vec

_CLOSE = {"(": ")", "[": "]", "{": "}"}


def negative_literal(text: str) -> Fraction:
    """Return minus the exact value of a typed number (a coordinate such as `-2`)."""
    return -decimal_literal(text)


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
            node = Num(number.pos, number.text, decimal_literal(number.text), "." in number.text)
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
        top, bottom = decimal_literal(number.text), decimal_literal(below.text)
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
            return Num(token.pos, token.text, decimal_literal(token.text), "." in token.text)
        if kind == "PI":
            self.take()
            return Const(token.pos, "pi")
        if kind == "NAME":
            self.take()
            if token.text in ("exp", "sqrt", "log"):
                return Call(token.pos, token.text, self.group(self.tokens[self.i]))
            return Const(token.pos, "pi" if token.text == "pi" else "e")
        if kind in ("EXP", "SQRT", "LOG"):
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


def parse(text: str, *, logs: bool = False) -> Node:
    """Parse learner text into a syntax tree, or raise AnswerError (`log` read with `logs`)."""
    return parse_with_values(text, logs=logs)[0]


def parse_with_values(text: str, *, logs: bool = False) -> tuple[Node, dict[int, Value]]:
    """Parse learner text; return the tree and the values of the nodes the parser already
    knows (ratios read by the shortcut), or raise AnswerError. `log(x)`, the natural
    logarithm, is a name only with `logs`."""
    if not isinstance(text, str):
        raise AnswerError("the answer must be text")
    if not text.strip():
        raise AnswerError("the answer is empty")
    parser = _Parser(tokenize(text, logs=logs))
    return parser.answer(), parser.values
