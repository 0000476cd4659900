"""The ``two_layers`` problem and its arithmetic: the two layers' outputs, and their names
and TeX as the kind's words and steps show them. The catalog and the kind are in
``two_layers.py``."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from grading.exact import combine
from grading.tex import term_tex, vector_tex

Row = tuple[Fraction, ...]
WINDOWS: dict[str, tuple[int, ...]] = {"previous": (-1, 0), "both": (-1, 0, 1)}


@dataclass(frozen=True)
class TwoLayers:
    """A validated two-layer problem."""

    tokens: tuple[str, ...]
    rows: tuple[Row, ...]
    position: int
    window: str
    weights_1: tuple[Fraction, ...]
    weights_2: tuple[Fraction, ...]
    tokens_b: tuple[str, ...] = ()
    rows_b: tuple[Row, ...] = ()

    @property
    def offsets(self) -> tuple[int, ...]:
        return WINDOWS[self.window]

    def neighbourhood(self, j: int) -> tuple[int, ...]:
        """Return the positions layer 1 or 2 mixes into position ``j``, in window order."""
        return tuple(j + o for o in self.offsets)

    @property
    def reach(self) -> tuple[int, ...]:
        """Return every position whose lookup row reaches ``h_i^(2)``."""
        return tuple(
            sorted({m for j in self.neighbourhood(self.position) for m in self.neighbourhood(j)})
        )


P = TwoLayers


def layer_one(p: P, j: int, *, leave_out: int | None = None) -> Row:
    """Return ``h_j^(1)``, optionally without the term for position ``leave_out``."""
    terms = [
        (u, p.rows[m])
        for u, m in zip(p.weights_1, p.neighbourhood(j), strict=True)
        if m != leave_out
    ]
    if not terms:
        return (Fraction(0),) * len(p.rows[0])
    return combine([u for u, _ in terms], [x for _, x in terms])


def layer_two(
    p: P,
    vectors: dict[int, Row] | None = None,
    weights: dict[int, Fraction] | None = None,
    *,
    leave_out: int | None = None,
) -> Row:
    """Return ``h_i^(2)``; ``vectors``/``weights`` replace the layer-1 output or the weight of
    some terms (by position); ``leave_out`` drops one term."""
    vectors, weights = vectors or {}, weights or {}
    ws, xs = [], []
    for w, j in zip(p.weights_2, p.neighbourhood(p.position), strict=True):
        if j == leave_out:
            continue
        ws.append(weights.get(j, w))
        xs.append(vectors[j] if j in vectors else layer_one(p, j))
    if not ws:
        return (Fraction(0),) * len(p.rows[0])
    return combine(ws, xs)


# ---------------------------------------------------------------- names and TeX


def h1(j: int) -> str:
    """Return the TeX of h_j^(1), layer 1's output at position ``j``."""
    return f"\\mathbf{{h}}_{{{j}}}^{{(1)}}"


def token(p: P, j: int) -> str:
    """Return the word at position ``j``, in italics."""
    return f"*{p.tokens[j]}*"


def term_name(p: P, j: int) -> str:
    """Return 'in layer 2, the term for position 1 (*river*)'."""
    return f"in layer 2, the term for position {j} ({token(p, j)})"


def layer_one_tex(p: P, j: int) -> str:
    """Return ``h_j^(1)`` written out: its terms and its value."""
    parts = " + ".join(
        term_tex(u, p.rows[m]) for u, m in zip(p.weights_1, p.neighbourhood(j), strict=True)
    )
    return f"{h1(j)} = {parts} = {vector_tex(layer_one(p, j))}"


def layer_two_tex(p: P) -> str:
    """Return ``h_i^(2)`` written out: its terms and its value."""
    i = p.position
    parts = " + ".join(
        term_tex(w, layer_one(p, j)) for w, j in zip(p.weights_2, p.neighbourhood(i), strict=True)
    )
    return f"\\mathbf{{h}}_{{{i}}}^{{(2)}} = {parts} = {vector_tex(layer_two(p))}"


def right_term(p: P, j: int) -> str:
    """Return layer 2's right term for position ``j``, in math mode."""
    w = dict(zip(p.neighbourhood(p.position), p.weights_2, strict=True))[j]
    return f"${term_tex(w, layer_one(p, j))}$"


def terms_of_layer_two(p: P) -> tuple[int, ...]:
    """Return the positions of layer 2's terms, in window order."""
    return p.neighbourhood(p.position)
