"""``two_layers``: a position after two layers that each mix only immediate neighbours.

Layer 1 rebuilds every position from the lookup rows in its window,
``h_j^(1) = sum_o u_o x_(j+o)``; layer 2 rebuilds position ``i`` from the layer-1 outputs,
``h_i^(2) = sum_o w_o h_(i+o)^(1)``. The window is ``previous`` (offsets -1, 0: a left-to-right
model) or ``both`` (offsets -1, 0, +1), with the same weights at every position of a layer. A
word two places from ``i`` reaches it only through layer 2. The answer is ``h_i^(2)``; written
out, it is matched term by term against layer 2's terms ``w_o h_(i+o)^(1)``.

Spec fields: ``tokens`` and ``rows`` (the lookup rows, one per position), ``position``,
``window``, ``weights_1`` and ``weights_2`` (one weight per offset of the window, in order), and
optionally ``tokens_b`` and ``rows_b``: a second sentence that agrees with the first within
two places of ``position`` (the statement shows that its ``h_i^(2)`` is the same vector). A
diagnosis's terms are positions: ``[j]`` a term of layer 2, ``[j, m]`` the term for position
``m`` inside ``h_j^(1)``.

This module is the mistakes' catalog and the kind; the problem, its layers' arithmetic and
their TeX are in ``_two_layers_model.py``.
"""

from __future__ import annotations

from typing import Any

from grading.compare import equal, vectors_equal
from grading.exact import combine
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import Vector
from grading.spec import (
    MAX_POSITIONS,
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
from grading.terms import TermTable
from grading.tex import scalar_tex, term_tex, vector_tex
from grading.verdict import Diagnosis

from ._two_layers_model import (
    WINDOWS,
    P,
    Row,
    h1,
    layer_one,
    layer_one_tex,
    layer_two,
    layer_two_tex,
    right_term,
    term_name,
    terms_of_layer_two,
    token,
)
from .base import Numbered

# ---------------------------------------------------------------- the mistakes


def _lookup_variants(p: P) -> list[Variant]:
    return [Variant("lookup_rows_in_layer_two")] + [
        Variant("lookup_rows_in_layer_two", (j,), {}) for j in terms_of_layer_two(p)
    ]


def _lookup_apply(p: P, v: Any) -> Row:
    chosen = v.terms or terms_of_layer_two(p)
    return layer_two(p, vectors={j: p.rows[j] for j in chosen})


def _one_layer_apply(p: P, v: Any) -> Row:
    return layer_one(p, p.position)


def _reused_variants(p: P) -> list[Variant]:
    pairs = list(zip(p.weights_1, p.weights_2, terms_of_layer_two(p), strict=True))
    out = [Variant("reused_layer_one_weights")]
    out += [Variant("reused_layer_one_weights", (j,), {}) for u, w, j in pairs if u != w]
    return out


def _reused_apply(p: P, v: Any) -> Row:
    first = dict(zip(terms_of_layer_two(p), p.weights_1, strict=True))
    chosen = v.terms or terms_of_layer_two(p)
    return layer_two(p, weights={j: first[j] for j in chosen})


def _left_out_two_variants(p: P) -> list[Variant]:
    return [Variant("left_out_in_layer_two", (j,), {}) for j in terms_of_layer_two(p)]


def _left_out_two_apply(p: P, v: Any) -> Row:
    (j,) = v.terms
    return layer_two(p, leave_out=j)


def _left_out_one_variants(p: P) -> list[Variant]:
    return [
        Variant("left_out_in_layer_one", (j, m), {})
        for j in terms_of_layer_two(p)
        for m in p.neighbourhood(j)
    ]


def _left_out_one_apply(p: P, v: Any) -> Row:
    j, m = v.terms
    return layer_two(p, vectors={j: layer_one(p, j, leave_out=m)})


def _answer(p: P) -> str:
    return f"${layer_two_tex(p)}$"


def _lookup_explain(p: P, d: Any) -> str:
    if d.terms:
        (j,) = d.terms
        return (
            f"In layer 2, the term for position {j} ({token(p, j)}) used "
            f"$\\mathbf{{x}}_{{{j}}} = {vector_tex(p.rows[j])}$, the lookup row; layer 2 mixes "
            f"the layer-1 outputs, here ${layer_one_tex(p, j)}$. So the term should be "
            f"{right_term(p, j)}, and {_answer(p)}."
        )
    return (
        "Layer 2 seems to have mixed the lookup rows $\\mathbf{x}_j$, as if layer 1 had been "
        "skipped. Layer 2 mixes the layer-1 outputs: first "
        + ", ".join(f"${layer_one_tex(p, j)}$" for j in terms_of_layer_two(p))
        + f"; then {_answer(p)}."
    )


def _one_layer_explain(p: P, d: Any) -> str:
    i = p.position
    return (
        f"Your answer is ${h1(i)} = {vector_tex(layer_one(p, i))}$, the output of layer 1: you "
        "seem to have stopped after one layer. Layer 2 mixes again, this time the layer-1 "
        "outputs of the neighbourhood, which is how words two places away reach position "
        f"{i}: {_answer(p)}."
    )


def _reused_explain(p: P, d: Any) -> str:
    weights_2 = ", ".join(scalar_tex(w) for w in p.weights_2)
    if d.terms:
        (j,) = d.terms
        u = dict(zip(terms_of_layer_two(p), p.weights_1, strict=True))[j]
        return (
            f"In layer 2, the term for position {j} ({token(p, j)}) has the weight "
            f"${scalar_tex(u)}$, layer 1's weight for that offset. Layer 2 has its own "
            f"weights (${weights_2}$): the term should be {right_term(p, j)}, and {_answer(p)}."
        )
    return (
        "Layer 2 seems to have used layer 1's weights. Each layer has its own weights; layer "
        f"2's are ${weights_2}$: {_answer(p)}."
    )


def _left_out_two_explain(p: P, d: Any) -> str:
    (j,) = d.terms
    note = (
        " (the word's own layer-1 output: the sum includes the position itself)"
        if j == p.position
        else ""
    )
    return (
        f"In layer 2, the term for position {j} ({token(p, j)}) is missing{note}. It "
        f"should be {right_term(p, j)}, and {_answer(p)}."
    )


def _left_out_one_explain(p: P, d: Any) -> str:
    j, m = d.terms
    own = " (its own row: the sum includes the position itself)" if j == m else ""
    return (
        f"In layer 1, the output at position {j}, ${h1(j)}$, seems to lack the term for "
        f"position {m} ({token(p, m)}){own}. It should be ${layer_one_tex(p, j)}$, so in "
        f"layer 2 the term for position {j} is {right_term(p, j)}, and {_answer(p)}."
    )


def _describe_left_out_one(p: P, d: Any) -> str:
    j, m = d.terms
    return f"leaving the term for position {m} out of ${h1(j)}$ in layer 1"


def _from_terms(p: P, report: Any) -> Diagnosis | None:
    """Return the diagnosis a term-by-term comparison of layer 2 shows, if one mistake does."""
    if report.extras or not report.issues:
        return None
    order = terms_of_layer_two(p)
    first = dict(zip(order, p.weights_1, strict=True))
    found: list[tuple[str, tuple[int, ...]]] = []
    for what, k, used in report.issues:
        j = order[k]
        if what == "omitted":
            found.append(("left_out_in_layer_two", (j,)))
        elif what == "row" and vectors_equal(used, p.rows[j]):
            found.append(("lookup_rows_in_layer_two", (j,)))
        elif what == "row":
            missing = [
                m for m in p.neighbourhood(j) if vectors_equal(used, layer_one(p, j, leave_out=m))
            ]
            if not missing:
                return None
            found.append(("left_out_in_layer_one", (j, missing[0])))
        elif what == "weight" and equal(used, first[j]):
            found.append(("reused_layer_one_weights", (j,)))
        else:
            return None
    codes = {code for code, _ in found}
    if len(found) == 1:
        code, terms = found[0]
        return Diagnosis(code, terms)
    if (
        len(codes) == 1
        and len(found) == len(order)
        and codes
        & {
            "lookup_rows_in_layer_two",
            "reused_layer_one_weights",
        }
    ):
        return Diagnosis(codes.pop(), ())
    return None


@register
class TwoLayersKind(Kind):
    name = "two_layers"
    label = "A position after two neighbour-mixing layers"
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.tokens), first=0)}
    mistakes = (
        MistakeDef(
            code="lookup_rows_in_layer_two",
            number=1,
            label="mixed the lookup rows in layer 2 (skipped layer 1)",
            parts="[] every term, or [j]: the term for position j",
            explain=_lookup_explain,
            variants=_lookup_variants,
            apply=_lookup_apply,
            from_terms=_from_terms,
        ),
        MistakeDef(
            code="one_layer_only",
            number=2,
            label="stopped after one layer",
            explain=_one_layer_explain,
            apply=_one_layer_apply,
        ),
        MistakeDef(
            code="reused_layer_one_weights",
            number=3,
            label="used layer 1's weights in layer 2",
            parts="[] every term, or [j]: the term for position j",
            explain=_reused_explain,
            variants=_reused_variants,
            apply=_reused_apply,
            weights=lambda p: tuple(p.weights_1),
        ),
        MistakeDef(
            code="left_out_in_layer_two",
            number=4,
            label="left a term out of layer 2",
            parts="[j]: the term for position j",
            explain=_left_out_two_explain,
            variants=_left_out_two_variants,
            apply=_left_out_two_apply,
            describe=lambda p, d: f"leaving the term for position {d.terms[0]} out of layer 2",
        ),
        MistakeDef(
            code="left_out_in_layer_one",
            number=5,
            label="left a term out of a layer-1 output",
            parts="[j, m]: the term for position m inside h_j^(1)",
            explain=_left_out_one_explain,
            variants=_left_out_one_variants,
            apply=_left_out_one_apply,
            describe=_describe_left_out_one,
        ),
    )

    def load(self, spec: dict) -> P:
        """Return the validated problem, or raise SpecError naming the field."""
        lookup = rows(spec, "rows", low=3, high=MAX_POSITIONS)
        tokens = strings(spec, "tokens", low=3, high=MAX_POSITIONS)
        same_length("tokens", tokens, "rows", len(lookup))
        window = spec.get("window")
        if window not in WINDOWS:
            raise SpecError("window", f"must be one of {', '.join(WINDOWS)}")
        offsets = WINDOWS[window]
        at = position(spec, len(lookup))
        low, high = at + 2 * offsets[0], at + 2 * offsets[-1]
        if low < 0 or high >= len(lookup):
            raise SpecError(
                "position",
                f"must be at least 2 positions from where the window would leave the sentence "
                f"(positions {low} to {high} must exist)",
            )
        weights = []
        for field in ("weights_1", "weights_2"):
            raw = list_field(spec, field, low=len(offsets), high=len(offsets))
            weights.append(tuple(number(w, f"{field}[{k}]") for k, w in enumerate(raw)))
        tokens_b: tuple[str, ...] = ()
        rows_b: tuple[Row, ...] = ()
        if "tokens_b" in spec or "rows_b" in spec:
            tokens_b = strings(spec, "tokens_b", low=1, high=MAX_POSITIONS)
            rows_b = rows(spec, "rows_b", low=1, high=MAX_POSITIONS)
            same_length("tokens_b", tokens_b, "tokens", len(tokens))
            same_length("rows_b", rows_b, "rows", len(lookup))
            for m in range(low, high + 1):
                if tokens_b[m] != tokens[m] or rows_b[m] != lookup[m]:
                    raise SpecError(
                        "tokens_b",
                        f"must agree with the first sentence within reach (position {m})",
                    )
        return P(tokens, lookup, at, window, weights[0], weights[1], tokens_b, rows_b)

    def normal(self, problem: P) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tokens": list(problem.tokens),
            "rows": rows_out(problem.rows),
            "position": problem.position,
            "window": problem.window,
            "weights_1": [canonical_number(w) for w in problem.weights_1],
            "weights_2": [canonical_number(w) for w in problem.weights_2],
        }
        if problem.tokens_b:
            out.update(tokens_b=list(problem.tokens_b), rows_b=rows_out(problem.rows_b))
        return out

    def shape(self, problem: P) -> Vector:
        return Vector(len(problem.rows[0]))

    def right(self, problem: P) -> Row:
        return layer_two(problem)

    def right_tex(self, problem: P) -> str:
        return layer_two_tex(problem)

    def size(self, problem: P) -> int:
        return len(problem.tokens)

    def terms(self, problem: P) -> TermTable:
        order = terms_of_layer_two(problem)
        return TermTable(
            tuple(problem.weights_2),
            tuple(layer_one(problem, j) for j in order),
            tuple(term_name(problem, j) for j in order),
        )

    def steps(self, problem: P) -> tuple[Step, ...]:
        i = problem.position
        near = problem.neighbourhood(i)
        weights = " + ".join(
            f"{scalar_tex(w)}\\,{h1(j)}" for w, j in zip(problem.weights_2, near, strict=True)
        )
        steps = [
            Step(
                f"Layer 2 rebuilds position {i} ({token(problem, i)}) from the layer-1 outputs "
                f"at positions {', '.join(str(j) for j in near)}: "
                f"$\\mathbf{{h}}_{{{i}}}^{{(2)}} = {weights}$"
                ". Compute those layer-1 outputs first, each from the lookup rows around it."
            )
        ]
        outputs = []
        for j in near:
            around = [problem.rows[m] for m in problem.neighbourhood(j)]
            out = combine(problem.weights_1, around)
            outputs.append(out)
            parts = " + ".join(
                term_tex(u, x) for u, x in zip(problem.weights_1, around, strict=True)
            )
            steps.append(
                Step(
                    f"Position {j} ({token(problem, j)}): ${h1(j)} = {parts} = {vector_tex(out)}$",
                    out,
                )
            )
        total = combine(problem.weights_2, outputs)
        parts = " + ".join(term_tex(w, x) for w, x in zip(problem.weights_2, outputs, strict=True))
        steps.append(
            Step(
                f"Layer 2: $\\mathbf{{h}}_{{{i}}}^{{(2)}} = {parts} = {vector_tex(total)}$.",
                total,
            )
        )
        return tuple(steps)

    def hint(self, problem: P) -> str:
        return (
            "First compute layer 1's output at each position layer 2 needs, "
            "$\\mathbf{h}_j^{(1)} = \\sum_o u_o\\,\\mathbf{x}_{j+o}$; then mix those with layer "
            "2's weights."
        )
