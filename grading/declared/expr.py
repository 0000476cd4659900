"""The expression language of a declared kind: read safely, evaluated exactly, printed as TeX.

An author writes the answer (and constraints) in SymPy's syntax over the kind's parameters:

    expression := number | name | name[index]... | expression op expression | -expression
                | function(expression, ...) | Sum(expression, (j, low, high))
    op         := + | - | * | / | ** (also written ^)
    function   := sqrt exp log Abs dot norm softmax len
    reductions := Sum Product Mean, over an index j from low to high, both ends included

The text is never given to `eval`, `sympify` or `parse_expr` (they run Python; see the grading
notes): Python's `ast` reads it, a whitelist of node types and names is enforced, and this module
builds its own small tree (`Node`), which the derived mistakes (`grading.declared.derive`)
rewrite. Every size is bounded before anything is computed: the text's length, the tree's node
count, integer literals, and every power's size (`evaluate` refuses a power whose result would
pass `MAX_POWER_BITS`), every Sum, Product or Mean's terms (`MAX_RANGE`) and their nesting
(`MAX_NESTING`). Values are exact: `Fraction` while rational, SymPy for `sqrt`, `exp`,
`log`; vectors are tuples, matrices tuples of rows.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy

from ..tex import scalar_tex, vector_tex

MAX_TEXT = 400
MAX_NODES = 120
MAX_LITERAL = 10**6
MAX_POWER_BITS = 4096  # a power's result, bits of the base times the exponent
MAX_RANGE = 64  # terms of one Sum, Product or Mean
MAX_NESTING = 2  # reductions inside reductions: at most MAX_RANGE ** 2 terms computed
FUNCTIONS = ("sqrt", "exp", "log", "Abs", "dot", "norm", "softmax", "len")
REDUCTIONS = ("Sum", "Product", "Mean")
OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
COMPARISONS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}


class ExpressionError(ValueError):
    """An expression an author wrote that cannot be read: what, and where in the text."""


class EvaluationError(ValueError):
    """An expression that cannot be computed on some values (a type, a bound, a zero divisor)."""


@dataclass(frozen=True)
class Node:
    """One node of an expression tree: `op` says what it is.

    - `num`: `value` (a Fraction);  `ref`: `name` (a parameter, an index or a step);
    - `item`: `args` (the vector or matrix, the index);  `neg`: `args` (one);
    - `+ - * / **`: `args` (two);  `call`: `name` (a function), `args`;
    - `Sum`, `Product`, `Mean`: `args` (the body, the low and high ends), `name` (the index).
    """

    op: str
    args: tuple[Node, ...] = ()
    name: str = ""
    value: Fraction = Fraction(0)
    skip: int | None = None  # a reduction's index value left out (a derived mistake)

    def walk(self, path: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Node]]:
        """Return every node with its path (child numbers from the root), in pre-order."""
        out = [(path, self)]
        for k, arg in enumerate(self.args):
            out.extend(arg.walk((*path, k)))
        return out

    def at(self, path: tuple[int, ...]) -> Node:
        """Return the node at a path."""
        node = self
        for k in path:
            node = node.args[k]
        return node

    def put(self, path: tuple[int, ...], new: Node) -> Node:
        """Return a copy of the tree with the node at `path` replaced by `new`."""
        if not path:
            return new
        args = list(self.args)
        args[path[0]] = args[path[0]].put(path[1:], new)
        return replace(self, args=tuple(args))

    def names(self) -> set[str]:
        """Return every name referred to (parameters, indices, steps)."""
        return {node.name for _, node in self.walk() if node.op == "ref"}


def calls(node: Node, function: str) -> bool:
    """Return True when the tree calls `function` anywhere (a kind whose steps take a `log`
    has answers a learner types with one)."""
    return any(n.op == "call" and n.name == function for _, n in node.walk())


def num(value: int | Fraction) -> Node:
    """Return a number node."""
    return Node("num", value=Fraction(value))


def ref(name: str) -> Node:
    """Return a name node."""
    return Node("ref", name=name)


def parse(text: str, *, names: set[str]) -> Node:
    """Read one expression over `names`; ExpressionError says what is refused and where."""
    tree = _syntax(text)
    if not isinstance(tree.body, ast.Compare):
        return _Builder(names).build(tree.body)
    raise ExpressionError("a comparison is not an expression (constraints are)")


def parse_condition(text: str, *, names: set[str]) -> tuple[str, Node, Node]:
    """Read one constraint `left <op> right` (one comparison) over `names`."""
    tree = _syntax(text)
    body = tree.body
    if not isinstance(body, ast.Compare) or len(body.ops) != 1:
        raise ExpressionError("must be one comparison, e.g. `i < n` or `dot(q, k) != 0`")
    op = COMPARISONS.get(type(body.ops[0]))
    if op is None:
        raise ExpressionError("compares with an operator that is not < <= > >= == !=")
    builder = _Builder(names)
    return op, builder.build(body.left), builder.build(body.comparators[0])


def _syntax(text: str) -> ast.Expression:
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("must be an expression (text)")
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"is {len(text)} characters long; at most {MAX_TEXT}")
    if not text.isascii() or any(c in text for c in "\\#@;:'\"`{}$"):
        raise ExpressionError("may use only ASCII letters, digits, spaces and + - * / ^ ( ) [ ] ,")
    try:
        tree = ast.parse(text.replace("^", "**").strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ExpressionError(f"cannot be read ({getattr(exc, 'msg', exc)})") from None
    count = sum(1 for _ in ast.walk(tree))
    if count > 3 * MAX_NODES:
        raise ExpressionError(f"is too large ({count} syntax nodes; at most {3 * MAX_NODES})")
    return tree


class _Builder:
    def __init__(self, names: set[str]) -> None:
        self.names = set(names)
        self.count = 0
        self.depth = 0

    def build(self, node: ast.AST) -> Node:
        self.count += 1
        if self.count > MAX_NODES:
            raise ExpressionError(f"is too large (more than {MAX_NODES} parts)")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int):
                raise ExpressionError(f"{node.value!r}: write numbers as whole numbers or a/b")
            if abs(node.value) > MAX_LITERAL:
                raise ExpressionError(f"the number {node.value} is larger than {MAX_LITERAL}")
            return num(node.value)
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                raise ExpressionError(
                    f"names {node.id!r}, which is not a parameter, step or index "
                    f"(known: {', '.join(sorted(self.names))})"
                )
            return ref(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return Node(OPERATORS[type(node.op)], (self.build(node.left), self.build(node.right)))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.build(node.operand)
            return Node("neg", (inner,)) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.Subscript):
            return Node("item", (self.build(node.value), self.build(node.slice)))
        if isinstance(node, ast.Call):
            return self._call(node)
        raise ExpressionError(f"uses {type(node).__name__}, which expressions may not use")

    def _call(self, node: ast.Call) -> Node:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise ExpressionError("calls only the functions " + ", ".join(FUNCTIONS + REDUCTIONS))
        name = node.func.id
        if name in REDUCTIONS:
            return self._reduction(name, node.args)
        if name not in FUNCTIONS:
            raise ExpressionError(f"calls {name!r}, not one of {', '.join(FUNCTIONS + REDUCTIONS)}")
        arity = 2 if name == "dot" else 1
        if len(node.args) != arity:
            raise ExpressionError(f"{name} takes {arity} argument{'s' if arity > 1 else ''}")
        return Node("call", tuple(self.build(a) for a in node.args), name=name)

    def _reduction(self, name: str, args: list[ast.expr]) -> Node:
        limits = args[1] if len(args) == 2 else None
        if (
            not isinstance(limits, ast.Tuple)
            or len(limits.elts) != 3
            or not isinstance(limits.elts[0], ast.Name)
        ):
            raise ExpressionError(f"{name} is written {name}(body, (j, low, high))")
        index = limits.elts[0].id
        if index in self.names:
            raise ExpressionError(f"{name}'s index {index!r} is already a name")
        low, high = self.build(limits.elts[1]), self.build(limits.elts[2])
        if self.depth >= MAX_NESTING:
            raise ExpressionError(f"nests more than {MAX_NESTING} of Sum, Product and Mean")
        self.names.add(index)
        self.depth += 1
        try:
            body = self.build(args[0])
        finally:
            self.names.discard(index)
            self.depth -= 1
        return Node(name, (body, low, high), name=index)


# ---- exact values -------------------------------------------------------------------------

Value = Any  # Fraction | sympy.Expr (a scalar), or a tuple of them (a vector), or of vectors


def exact(value: Any) -> Any:
    """Return a rational SymPy value as a Fraction; anything else unchanged."""
    if isinstance(value, sympy.Basic) and value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, int):
        return Fraction(value)
    return value


def _sym(value: Any) -> sympy.Expr:
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    return value


def is_scalar(value: Any) -> bool:
    """Return True for one number (not a vector or matrix)."""
    return not isinstance(value, tuple)


def _scalar(value: Any, what: str) -> Any:
    if not is_scalar(value):
        raise EvaluationError(f"{what} needs a number, not a vector")
    return value


def _vector(value: Any, what: str) -> tuple:
    if is_scalar(value) or any(not is_scalar(x) for x in value):
        raise EvaluationError(f"{what} needs a vector")
    return value


def _integer(value: Any, what: str) -> int:
    if not isinstance(value, Fraction) or value.denominator != 1:
        raise EvaluationError(f"{what} must be a whole number, is {value}")
    return int(value)


def add(a: Any, b: Any) -> Any:
    """Return a + b (numbers, or vectors of one length)."""
    if is_scalar(a) and is_scalar(b):
        if isinstance(a, Fraction) and isinstance(b, Fraction):
            return a + b
        return exact(_sym(a) + _sym(b))
    if is_scalar(a) or is_scalar(b) or len(a) != len(b):
        raise EvaluationError("adds a number to a vector, or vectors of different lengths")
    return tuple(add(x, y) for x, y in zip(a, b, strict=True))


def neg(a: Any) -> Any:
    """Return -a."""
    return tuple(neg(x) for x in a) if not is_scalar(a) else -a


def mul(a: Any, b: Any) -> Any:
    """Return a * b (numbers, or a number times a vector)."""
    if is_scalar(a) and is_scalar(b):
        if isinstance(a, Fraction) and isinstance(b, Fraction):
            return a * b
        return exact(_sym(a) * _sym(b))
    if is_scalar(a):
        return tuple(mul(a, x) for x in b)
    if is_scalar(b):
        return tuple(mul(x, b) for x in a)
    raise EvaluationError("multiplies two vectors (write dot(u, v) for the dot product)")


def div(a: Any, b: Any) -> Any:
    """Return a / b (b a nonzero number)."""
    b = _scalar(b, "dividing")
    if b == 0:
        raise EvaluationError("divides by zero")
    if not is_scalar(a):
        return tuple(div(x, b) for x in a)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    return exact(_sym(a) / _sym(b))


def power(a: Any, b: Any) -> Any:
    """Return a ** b, refusing a result larger than MAX_POWER_BITS before computing it."""
    a, b = _scalar(a, "a power"), _scalar(b, "a power")
    if isinstance(a, Fraction) and isinstance(b, Fraction) and b.denominator == 1:
        size = max(abs(a.numerator), a.denominator).bit_length()
        if size * abs(b.numerator) > MAX_POWER_BITS:
            raise EvaluationError(f"the power {a}^{b} is too large to compute")
        if a == 0 and b < 0:
            raise EvaluationError("divides by zero")
        return a**b.numerator
    for x in (a, b):
        if isinstance(x, Fraction) and max(abs(x.numerator), x.denominator) > MAX_LITERAL:
            raise EvaluationError("a power of large numbers is too large to compute")
    if not isinstance(b, Fraction):
        raise EvaluationError("a power's exponent must be rational")
    if abs(b.numerator) > 64 or b.denominator > 8:
        raise EvaluationError(f"the exponent {b} is too large")
    return exact(sympy.Pow(_sym(a), _sym(b)))


def dot(u: Any, v: Any) -> Any:
    """Return the dot product of two vectors of one length."""
    u, v = _vector(u, "dot"), _vector(v, "dot")
    if len(u) != len(v):
        raise EvaluationError("dot of vectors of different lengths")
    total: Any = Fraction(0)
    for x, y in zip(u, v, strict=True):
        total = add(total, mul(x, y))
    return total


def sqrt(a: Any) -> Any:
    """Return the square root of a number that is not negative, exactly."""
    a = _scalar(a, "sqrt")
    if isinstance(a, Fraction):
        if a < 0:
            raise EvaluationError("takes the square root of a negative number")
        n, d = math.isqrt(a.numerator), math.isqrt(a.denominator)
        if n * n == a.numerator and d * d == a.denominator:
            return Fraction(n, d)
    return exact(sympy.sqrt(_sym(a)))


def _exp(a: Any) -> Any:
    a = _scalar(a, "exp")
    if isinstance(a, Fraction) and abs(a) > 100:
        raise EvaluationError("exp of a number larger than 100")
    return exact(sympy.exp(_sym(a)))


def _log(a: Any) -> Any:
    a = _scalar(a, "log")
    if isinstance(a, Fraction) and a <= 0:
        raise EvaluationError("takes the logarithm of a number that is not positive")
    return exact(sympy.log(_sym(a)))


def _abs(a: Any) -> Any:
    a = _scalar(a, "Abs")
    return abs(a) if isinstance(a, Fraction) else exact(sympy.Abs(a))


def softmax(v: Any) -> tuple:
    """Return exp(v_k) / sum_j exp(v_j) for every k, exactly."""
    v = _vector(v, "softmax")
    exps = [_exp(x) for x in v]
    total: Any = Fraction(0)
    for x in exps:
        total = add(total, x)
    return tuple(div(x, total) for x in exps)


CALLS: dict[str, Callable[..., Any]] = {
    "sqrt": sqrt,
    "exp": _exp,
    "log": _log,
    "Abs": _abs,
    "dot": dot,
    "norm": lambda u: sqrt(dot(u, u)),
    "softmax": softmax,
    "exps": lambda v: tuple(_exp(x) for x in _vector(v, "exp")),  # derived: softmax unnormalised
    "len": lambda u: Fraction(len(_vector(u, "len") if is_scalar(u[0]) else u)),
}


def evaluate(node: Node, env: Mapping[str, Any]) -> Any:
    """Return the exact value of a tree over `env` (names to values); EvaluationError when it
    cannot be computed (a type, a range, a bound)."""
    op = node.op
    if op == "num":
        return node.value
    if op == "ref":
        return env[node.name]
    if op == "neg":
        return neg(evaluate(node.args[0], env))
    if op in ("+", "-", "*", "/", "**"):
        a, b = (evaluate(arg, env) for arg in node.args)
        if op == "+":
            return add(a, b)
        if op == "-":
            return add(a, neg(b))
        if op == "*":
            return mul(a, b)
        if op == "/":
            return div(a, b)
        return power(a, b)
    if op == "item":
        seq, index = evaluate(node.args[0], env), evaluate(node.args[1], env)
        k = _integer(index, "an index")
        if is_scalar(seq) or not 0 <= k < len(seq):
            raise EvaluationError(f"index {k} is outside a vector of length {len(seq)}")
        return seq[k]
    if op == "call":
        return CALLS[node.name](*(evaluate(arg, env) for arg in node.args))
    if op in REDUCTIONS:
        return reduce(node, env, node.skip)
    raise EvaluationError(f"unknown node {op}")  # pragma: no cover (the builder makes none)


def reduction_range(node: Node, env: Mapping[str, Any]) -> range:
    """Return the index values of a Sum, Product or Mean (both ends included), bounded."""
    low = _integer(evaluate(node.args[1], env), f"{node.op}'s low end")
    high = _integer(evaluate(node.args[2], env), f"{node.op}'s high end")
    if high - low + 1 > MAX_RANGE:
        raise EvaluationError(f"{node.op} over {high - low + 1} terms; at most {MAX_RANGE}")
    return range(low, high + 1)


def term(node: Node, env: Mapping[str, Any], k: int) -> Any:
    """Return the body of a reduction at index value k."""
    return evaluate(node.args[0], {**env, node.name: Fraction(k)})


def reduce(node: Node, env: Mapping[str, Any], skip: int | None = None) -> Any:
    """Return a Sum, Product or Mean's value (leaving out index value `skip`, if given)."""
    indices = [k for k in reduction_range(node, env) if k != skip]
    if not indices:
        raise EvaluationError(f"{node.op} over no terms")
    values = [term(node, env, k) for k in indices]
    if node.op == "Product":
        out = values[0]
        for v in values[1:]:
            out = mul(_scalar(out, "Product"), v)
        return out
    out = values[0]
    for v in values[1:]:
        out = add(out, v)
    return div(out, Fraction(len(values))) if node.op == "Mean" else out


def condition(op: str, left: Any, right: Any) -> bool:
    """Return whether a constraint holds (numbers compared exactly; vectors by == and !=)."""
    if op in ("==", "!="):
        same = left == right
        if (
            is_scalar(left)
            and is_scalar(right)
            and not (isinstance(left, Fraction) and isinstance(right, Fraction))
        ):
            same = sympy.simplify(_sym(left) - _sym(right)) == 0
        return same if op == "==" else not same
    a, b = float(_scalar(left, op)), float(_scalar(right, op))
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


# ---- TeX --------------------------------------------------------------------------------

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "**": 4}
_FUNCTION_TEX = {
    "exp": "\\exp",
    "exps": "\\exp",
    "log": "\\log",
    "softmax": "\\operatorname{softmax}",
}


def value_tex(value: Any) -> str:
    """Return a value in TeX: a number, a column vector, or a matrix."""
    if is_scalar(value):
        return scalar_tex(value)
    if value and not is_scalar(value[0]):
        rows = " \\\\ ".join(" & ".join(scalar_tex(x) for x in row) for row in value)
        return f"\\begin{{bmatrix}} {rows} \\end{{bmatrix}}"
    return vector_tex(value)


def tex(node: Node, symbols: Mapping[str, str]) -> str:
    """Return a tree in TeX, each name written as `symbols` says (default: the name)."""
    op = node.op
    if op == "num":
        v = node.value
        return (
            str(v.numerator)
            if v.denominator == 1
            else f"\\frac{{{v.numerator}}}{{{v.denominator}}}"
        )
    if op == "ref":
        return symbols.get(
            node.name, node.name if len(node.name) == 1 else f"\\mathrm{{{node.name}}}"
        )
    if op == "item":
        base, index = node.args
        if base.op == "item":  # X[i][j] as X_{i,j}
            row, column = tex(base.args[1], symbols), tex(index, symbols)
            return f"{tex(base.args[0], symbols)}_{{{row},{column}}}"
        return f"{tex(base, symbols)}_{{{tex(index, symbols)}}}"
    if op == "neg":
        return f"-{_wrapped(node.args[0], 3, symbols)}"
    if op == "/":
        return f"\\frac{{{tex(node.args[0], symbols)}}}{{{tex(node.args[1], symbols)}}}"
    if op == "**":
        return f"{_wrapped(node.args[0], 5, symbols)}^{{{tex(node.args[1], symbols)}}}"
    if op in ("+", "-"):
        right = _wrapped(node.args[1], 2 if op == "-" else 1, symbols)
        return f"{tex(node.args[0], symbols)} {op} {right}"
    if op == "*":
        return f"{_wrapped(node.args[0], 2, symbols)} \\cdot {_wrapped(node.args[1], 2, symbols)}"
    if op == "call":
        args = [tex(a, symbols) for a in node.args]
        if node.name == "sqrt":
            return f"\\sqrt{{{args[0]}}}"
        if node.name == "dot":
            return (
                f"{_wrapped(node.args[0], 5, symbols)} \\cdot {_wrapped(node.args[1], 5, symbols)}"
            )
        if node.name == "norm":
            return f"\\lVert {args[0]} \\rVert"
        if node.name == "Abs":
            return f"\\lvert {args[0]} \\rvert"
        if node.name == "len":
            return f"\\lvert {args[0]} \\rvert"
        return f"{_FUNCTION_TEX[node.name]}\\left({args[0]}\\right)"
    body, low, high = node.args
    sign = {"Sum": "\\sum", "Product": "\\prod", "Mean": "\\frac{1}{N}\\sum"}[op]
    limits = f"_{{{node.name}={tex(low, symbols)}}}^{{{tex(high, symbols)}}}"
    return f"{sign}{limits} {_wrapped(body, 2, symbols)}"


def _wrapped(node: Node, level: int, symbols: Mapping[str, str]) -> str:
    inner = tex(node, symbols)
    own = _PRECEDENCE.get(node.op, 9)
    if node.op == "num" and node.value < 0:
        own = 0
    return f"\\left({inner}\\right)" if own < level else inner


def substituted(node: Node, env: Mapping[str, Any], symbols: Mapping[str, str]) -> str:
    """Return a tree in TeX with every index and integer name replaced by its value (used to
    name one term of a sum: `q_{2} k_{2}` at j = 2)."""
    names = {
        name: scalar_tex(value)
        for name, value in env.items()
        if isinstance(value, Fraction) and value.denominator == 1 and name not in symbols
    }
    return tex(node, {**symbols, **names})
