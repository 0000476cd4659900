"""The tree an answer is parsed into (`grading.syntax` builds it; `evaluate` and `tex` walk it).

Every node keeps `pos`, the column of the text it was read from, so an error can name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .compare import Scalar

Value = Scalar | tuple[Scalar, ...]  # a node's value: a number or a vector


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
