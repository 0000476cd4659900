"""``static_vs_contextual``: one word in two sentences, before and after one layer.

The learner looks the word up in both sentences and subtracts (``x_i^B - x_i^A``: zero, for
the table holds one row per entry and the lookup reads nothing but the id), then mixes both
sentences with the same weights and subtracts (``h_i^B - h_i^A``: what the different
neighbours make). The answer is the pair ``lookup difference; layer difference``.

Spec fields: ``vocab`` and ``table`` (one row per entry; an entry's id is its index),
``tokens_a`` and ``tokens_b`` (two sentences of one length, the same word at ``position``),
``position`` and ``weights`` (one per position, the same in both sentences). A diagnosis's
terms are positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.exact import combine, difference, scale
from grading.kinds._sums import vector_total
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import Format, TupleShape, Vector
from grading.spec import (
    MAX_POSITIONS,
    MAX_VOCAB,
    SpecError,
    canonical_number,
    list_field,
    number,
    position,
    rows,
    rows_out,
    same_length,
    strings,
)
from grading.tex import scalar_tex, vector_tex

from .base import Numbered

Row = tuple[Fraction, ...]
LOOKUP, LAYER = 0, 1


@dataclass(frozen=True)
class StaticVsContextual:
    """A validated pair of sentences over one table, and the layer's weights."""

    vocab: tuple[str, ...]
    table: tuple[Row, ...]
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    position: int
    weights: tuple[Fraction, ...]

    def row(self, token: str) -> Row:
        """Return the table row of a token (its id is its index in the vocabulary)."""
        return self.table[self.vocab.index(token)]

    @property
    def rows_a(self) -> tuple[Row, ...]:
        return tuple(self.row(t) for t in self.tokens_a)

    @property
    def rows_b(self) -> tuple[Row, ...]:
        return tuple(self.row(t) for t in self.tokens_b)

    @property
    def changed(self) -> tuple[int, ...]:
        """Return the positions whose rows differ between the sentences."""
        return tuple(
            k for k, (a, b) in enumerate(zip(self.rows_a, self.rows_b, strict=True)) if a != b
        )


P = StaticVsContextual


def layer(p: P, rows_: tuple[Row, ...]) -> Row:
    """Return one layer's output at the word, ``sum_j w_j x_j``."""
    return combine(p.weights, rows_)


def layer_difference(p: P) -> Row:
    """Return ``h_i^B - h_i^A``."""
    return difference(layer(p, p.rows_b), layer(p, p.rows_a))


def _zero(p: P) -> Row:
    return (Fraction(0),) * len(p.table[0])


def _right(p: P) -> tuple[Row, Row]:
    return (
        difference(p.row(p.tokens_b[p.position]), p.row(p.tokens_a[p.position])),
        layer_difference(p),
    )


def _word(p: P) -> str:
    return p.tokens_a[p.position]


def _lookup_tex(p: P) -> str:
    i, word = p.position, _word(p)
    row = p.row(word)
    return (
        f"both sentences look up *{word}* at id {p.vocab.index(word)}, so "
        f"$\\mathbf{{x}}_{i}^B - \\mathbf{{x}}_{i}^A = {vector_tex(row)} - {vector_tex(row)} = "
        f"{vector_tex(_zero(p))}$"
    )


def _layer_tex(p: P) -> str:
    i = p.position
    parts = " + ".join(
        f"{scalar_tex(p.weights[k])}\\left({vector_tex(p.rows_b[k])} - "
        f"{vector_tex(p.rows_a[k])}\\right)"
        for k in p.changed
    )
    return (
        f"$\\mathbf{{h}}_{i}^B - \\mathbf{{h}}_{i}^A = {parts} = {vector_tex(layer_difference(p))}$"
    )


def _position_name(p: P, k: int) -> str:
    a, b = p.tokens_a[k], p.tokens_b[k]
    return f"position {k} (*{a}* in A, *{b}* in B)"


# ---------------------------------------------------------------- the mistakes


def _second_row_apply(p: P, v: Any) -> tuple[Row, Row]:
    d = layer_difference(p)
    return (d, d)


def _neighbour_variants(p: P) -> list[Variant]:
    return [Variant("neighbour_row", (k,), {}) for k in p.changed if k != p.position]


def _neighbour_apply(p: P, v: Any) -> tuple[Row, Row]:
    (k,) = v.terms
    return (difference(p.rows_b[k], p.rows_a[k]), layer_difference(p))


def _reversed_apply(p: P, v: Any) -> tuple[Row, Row]:
    return (_zero(p), scale(Fraction(-1), layer_difference(p)))


def _forgot_variants(p: P) -> list[Variant]:
    return [Variant("weight_left_out", (k,), {}) for k in p.changed]


def _forgot_apply(p: P, v: Any) -> tuple[Row, Row]:
    (k,) = v.terms
    change = difference(p.rows_b[k], p.rows_a[k])
    return (_zero(p), combine((Fraction(1), 1 - p.weights[k]), (layer_difference(p), change)))


def _second_row_explain(p: P, d: Any) -> str:
    return (
        "For the lookup you seem to have given the layer's difference, as if *"
        f"{_word(p)}* had a second row for its other sense. The table has one row per entry and "
        f"the lookup reads only the id: {_lookup_tex(p)}. The difference appears only after "
        f"mixing: {_layer_tex(p)}."
    )


def _neighbour_explain(p: P, d: Any) -> str:
    (k,) = d.terms
    return (
        f"For the lookup you seem to have subtracted the rows at {_position_name(p, k)}, the "
        f"word's neighbour, not the word's own. The word at position {p.position} is "
        f"*{_word(p)}* in both sentences: {_lookup_tex(p)}."
    )


def _reversed_explain(p: P, d: Any) -> str:
    return (
        "Your layer difference has every sign flipped: you seem to have computed "
        f"$\\mathbf{{h}}^A - \\mathbf{{h}}^B$. The question asks for sentence B minus sentence "
        f"A: {_layer_tex(p)}."
    )


def _forgot_explain(p: P, d: Any) -> str:
    (k,) = d.terms
    change = difference(p.rows_b[k], p.rows_a[k])
    return (
        f"In the layer difference, the term for {_position_name(p, k)} seems to be "
        f"$\\mathbf{{x}}_{k}^B - \\mathbf{{x}}_{k}^A = {vector_tex(change)}$ without its weight "
        f"${scalar_tex(p.weights[k])}$. The same weight multiplies the row in both sentences, "
        f"so it multiplies the change: {_layer_tex(p)}."
    )


@register
class StaticVsContextualKind(Kind):
    name = "static_vs_contextual"
    label = "One word in two sentences: lookup and layer differences"
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.tokens_a), first=0)}
    mistakes = (
        MistakeDef(
            code="second_row",
            number=1,
            label="gave the layer's difference for the lookup (a second row for the other sense)",
            explain=_second_row_explain,
            apply=_second_row_apply,
        ),
        MistakeDef(
            code="neighbour_row",
            number=2,
            label="subtracted a neighbour's rows for the lookup",
            parts="[k]: the neighbour's position",
            explain=_neighbour_explain,
            variants=_neighbour_variants,
            apply=_neighbour_apply,
            describe=lambda p, d: f"subtracting the rows at {_position_name(p, d.terms[0])}",
        ),
        MistakeDef(
            code="difference_reversed",
            number=3,
            label="took the layer difference the wrong way (A minus B)",
            explain=_reversed_explain,
            apply=_reversed_apply,
        ),
        MistakeDef(
            code="weight_left_out",
            number=4,
            label="left a changed neighbour's weight out of the layer difference",
            parts="[k]: the position whose weight was left out",
            explain=_forgot_explain,
            variants=_forgot_variants,
            apply=_forgot_apply,
            describe=lambda p, d: f"leaving the weight out at {_position_name(p, d.terms[0])}",
        ),
    )

    def load(self, spec: dict) -> P:
        """Return the validated problem, or raise SpecError naming the field."""
        vocab = strings(spec, "vocab", low=1, high=MAX_VOCAB)
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "has a repeated entry")
        table = rows(spec, "table", low=1, high=MAX_VOCAB)
        same_length("table", table, "vocab", len(vocab))
        tokens_a = strings(spec, "tokens_a", low=1, high=MAX_POSITIONS)
        tokens_b = strings(spec, "tokens_b", low=1, high=MAX_POSITIONS)
        same_length("tokens_b", tokens_b, "tokens_a", len(tokens_a))
        for field, tokens in (("tokens_a", tokens_a), ("tokens_b", tokens_b)):
            for k, token in enumerate(tokens):
                if token not in vocab:
                    raise SpecError(f"{field}[{k}]", f"{token!r} is not in vocab")
        at = position(spec, len(tokens_a))
        if tokens_a[at] != tokens_b[at]:
            raise SpecError("tokens_b", f"must hold the same word as tokens_a at position {at}")
        raw = list_field(spec, "weights", low=1, high=MAX_POSITIONS)
        weights = tuple(number(w, f"weights[{j}]") for j, w in enumerate(raw))
        same_length("weights", weights, "tokens_a", len(tokens_a))
        return P(vocab, table, tokens_a, tokens_b, at, weights)

    def normal(self, problem: P) -> dict[str, Any]:
        return {
            "vocab": list(problem.vocab),
            "table": rows_out(problem.table),
            "tokens_a": list(problem.tokens_a),
            "tokens_b": list(problem.tokens_b),
            "position": problem.position,
            "weights": [canonical_number(w) for w in problem.weights],
        }

    def shape(self, problem: P) -> TupleShape:
        dim = len(problem.table[0])
        return TupleShape((Vector(dim), Vector(dim)), ("lookup difference", "layer difference"))

    def right(self, problem: P) -> tuple[Row, Row]:
        return _right(problem)

    def right_tex(self, problem: P) -> str:
        return f"{_lookup_tex(problem)}; {_layer_tex(problem)}"

    def size(self, problem: P) -> int:
        return len(problem.tokens_a)

    def steps(self, problem: P) -> tuple[Step, ...]:
        i, word = problem.position, _word(problem)
        row_id = problem.vocab.index(word)
        row_a, row_b = problem.row(problem.tokens_a[i]), problem.row(problem.tokens_b[i])
        static = difference(row_b, row_a)
        steps = [
            Step(
                f"Lookup: both sentences have *{word}* at position {i}, id {row_id}, and the "
                f"table has one row per id: $\\mathbf{{x}}_{{{i}}}^B - \\mathbf{{x}}_{{{i}}}^A = "
                f"{vector_tex(row_b)} - {vector_tex(row_a)} = {vector_tex(static)}$.",
                static,
            )
        ]
        changed = problem.changed
        steps.append(
            Step(
                "One layer: both sentences use the same weights, so "
                f"$\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A = \\sum_k w_k\\,"
                "(\\mathbf{x}_k^B - \\mathbf{x}_k^A)$, and only the positions whose words "
                f"differ count: {', '.join(str(k) for k in changed) or 'none'}."
            )
        )
        terms = []
        for k in changed:
            a, b = problem.rows_a[k], problem.rows_b[k]
            change = difference(b, a)
            term = scale(problem.weights[k], change)
            terms.append(term)
            steps.append(
                Step(
                    f"Position {k} (*{problem.tokens_a[k]}* in A, *{problem.tokens_b[k]}* in B): "
                    f"${vector_tex(b)} - {vector_tex(a)} = {vector_tex(change)}$, times its "
                    f"weight ${scalar_tex(problem.weights[k])}$: ${vector_tex(term)}$.",
                    term,
                )
            )
        contextual = vector_total(terms) if terms else _zero(problem)
        steps.append(
            Step(
                f"Add them: $\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A = "
                f"{vector_tex(contextual)}$. The answer is the pair "
                f"${vector_tex(static)};\\ {vector_tex(contextual)}$: the lookup is the same "
                "in both sentences, the layer's output is not.",
                (static, contextual),
            )
        )
        return tuple(steps)

    def answer_formats(self, problem: P) -> tuple[Format, ...]:
        # No example pair: its first vector would either give the lookup difference away or
        # show a nonzero one, which undercuts the point of the problem.
        dim = len(problem.table[0])
        return (
            Format(
                f"Two vectors of {dim} coordinates in brackets, separated by ';': the lookup "
                "difference, then the layer difference"
            ),
        )

    def hint(self, problem: P) -> str:
        return (
            "Look the word up by its id in each sentence and subtract (B minus A); then compute "
            "each sentence's weighted sum at the word and subtract. Only the positions whose "
            "words differ survive the second difference."
        )
