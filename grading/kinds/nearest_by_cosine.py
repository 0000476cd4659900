"""`nearest_by_cosine`: which candidate word's row is nearest a query's row by cosine.

Spec fields: `query` (a word), `query_row`, `candidates` (2 to 8 distinct words), `rows` (one
nonzero integer row per candidate, the query row's length), and `synonym` (the candidate that
means nearly the same as the query, or absent). The highest cosine must be unique. The answer
is one choice among the candidates.

Mistakes: ranked by the dot product (the longest well-aligned row wins); ranked by Euclidean
distance (the row whose tip is nearest wins); picked the word that means the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..shapes import Choice, Shape
from ..spec import SpecError, strings
from ..tex import scalar_tex, vector_tex
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Step, Variant, register, variant
from .cosine_similarity import cosine, integer_row, integer_rows, length_tex

MAX_CANDIDATES = 8


@dataclass(frozen=True)
class NearestProblem:
    query: str
    query_row: tuple[int, ...]
    candidates: tuple[str, ...]
    rows: tuple[tuple[int, ...], ...]
    synonym: str | None

    def dot(self, k: int) -> int:
        return sum(a * b for a, b in zip(self.query_row, self.rows[k], strict=True))

    def squared_length(self, k: int) -> int:
        return sum(a * a for a in self.rows[k])

    def squared_distance(self, k: int) -> int:
        return sum((a - b) ** 2 for a, b in zip(self.query_row, self.rows[k], strict=True))

    def cosine_key(self, k: int) -> Fraction:
        """Return a number ordered as candidate k's cosine: sign(u·v) (u·v)² / ‖v‖² (the
        query's length is common to all and left out), exact."""
        dot = self.dot(k)
        return Fraction(dot * abs(dot), self.squared_length(k))


def unique_best(values: list[Any], *, highest: bool = True) -> int | None:
    """Return the index of the unique highest (or lowest) value, None on a tie."""
    best = max(values) if highest else min(values)
    found = [k for k, x in enumerate(values) if x == best]
    return found[0] if len(found) == 1 else None


def winners(p: NearestProblem) -> dict[str, int | None]:
    """Return the candidate each rule picks: cosine, dot product, Euclidean distance."""
    n = len(p.candidates)
    return {
        "cosine": unique_best([p.cosine_key(k) for k in range(n)]),
        "dot": unique_best([p.dot(k) for k in range(n)]),
        "distance": unique_best([p.squared_distance(k) for k in range(n)], highest=False),
    }


def cosine_of(p: NearestProblem, k: int) -> Any:
    """Return candidate k's exact cosine with the query."""
    return cosine(p.query_row, p.rows[k])


def _about(p: NearestProblem, k: int) -> str:
    return f"{float(cosine_of(p, k)):.3f}"


def _right_sentence(p: NearestProblem) -> str:
    k = winners(p)["cosine"]
    assert k is not None
    value = cosine_of(p, k)
    shown = scalar_tex(value)
    if not isinstance(value, Fraction):
        shown += f" \\approx {_about(p, k)}"
    return f"The nearest by cosine is *{p.candidates[k]}*: $\\cos = {shown}$, the highest of all."


def _pick(p: NearestProblem, d: Any) -> int:
    return int(d.detail["candidate"])


def _dot_variants(p: NearestProblem) -> list[Variant]:
    k = winners(p)["dot"]
    return [] if k is None else [variant("ranked_by_dot", detail={"candidate": k})]


def _dot_explain(p: NearestProblem, d: Diagnosis) -> str:
    k = _pick(p, d)
    return (
        f"You picked *{p.candidates[k]}*, whose row has the largest dot product with "
        f"*{p.query}*'s row (${p.dot(k)}$). The dot product also grows with length, and "
        f"*{p.candidates[k]}*'s row is long ($\\lVert\\mathbf{{v}}\\rVert = "
        f"{length_tex(p.squared_length(k))}$); cosine divides by both lengths, which leaves "
        f"*{p.candidates[k]}* at $\\cos \\approx {_about(p, k)}$. {_right_sentence(p)}"
    )


def _distance_variants(p: NearestProblem) -> list[Variant]:
    k = winners(p)["distance"]
    return [] if k is None else [variant("ranked_by_distance", detail={"candidate": k})]


def _distance_explain(p: NearestProblem, d: Diagnosis) -> str:
    k = _pick(p, d)
    return (
        f"You picked *{p.candidates[k]}*, whose row's tip is nearest to *{p.query}*'s "
        f"(distance ${length_tex(p.squared_distance(k))}$). Distance mixes length with "
        f"direction: a short row near the query's tip can point elsewhere. *{p.candidates[k]}*"
        f"'s cosine with *{p.query}* is only about {_about(p, k)}. {_right_sentence(p)}"
    )


def _synonym_variants(p: NearestProblem) -> list[Variant]:
    if p.synonym is None:
        return []
    return [variant("picked_synonym", detail={"candidate": p.candidates.index(p.synonym)})]


def _synonym_explain(p: NearestProblem, d: Diagnosis) -> str:
    k = _pick(p, d)
    right = winners(p)["cosine"]
    assert right is not None
    return (
        f"You picked *{p.candidates[k]}*, the word that means nearly the same as *{p.query}*. "
        "The rows do not know meanings; they were shaped by the company each word keeps, and "
        f"the question is which row points most nearly the same way. *{p.candidates[k]}*'s "
        f"cosine is about {_about(p, k)}, below *{p.candidates[right]}*'s {_about(p, right)}. "
        f"Words such as *{p.query}* and *{p.candidates[right]}* fill the same slots in "
        f"sentences, so their rows end up close. {_right_sentence(p)}"
    )


def _apply_pick(p: NearestProblem, d: Any) -> str:
    return p.candidates[_pick(p, d)]


@register
class NearestByCosine(Kind):
    name = "nearest_by_cosine"
    label = "Nearest word by cosine"
    mistakes = (
        MistakeDef(
            code="ranked_by_dot",
            number=1,
            label="ranked by the dot product",
            variants=_dot_variants,
            apply=_apply_pick,
            explain=_dot_explain,
        ),
        MistakeDef(
            code="ranked_by_distance",
            number=2,
            label="ranked by Euclidean distance",
            variants=_distance_variants,
            apply=_apply_pick,
            explain=_distance_explain,
        ),
        MistakeDef(
            code="picked_synonym",
            number=3,
            label="picked the word that means the same",
            variants=_synonym_variants,
            apply=_apply_pick,
            explain=_synonym_explain,
        ),
    )

    def load(self, spec: dict[str, Any]) -> NearestProblem:
        query = _word(spec, "query")
        candidates = strings(spec, "candidates", low=2, high=MAX_CANDIDATES)
        if len(set(candidates)) != len(candidates):
            raise SpecError("candidates", "has a repeated word")
        if query in candidates:
            raise SpecError("candidates", f"must not contain the query {query!r}")
        query_row = integer_row(spec.get("query_row"), "query_row")
        rows = integer_rows(spec, "rows", len(candidates))
        for k, row in enumerate(rows):
            if len(row) != len(query_row):
                raise SpecError(
                    f"rows[{k}]", f"has {len(row)} coordinates; query_row has {len(query_row)}"
                )
        synonym = spec.get("synonym")
        if synonym is not None and synonym not in candidates:
            raise SpecError("synonym", f"{str(synonym)[:40]!r} is not one of the candidates")
        problem = NearestProblem(query, query_row, candidates, rows, synonym)
        if winners(problem)["cosine"] is None:
            raise SpecError("rows", "two candidates tie for the highest cosine")
        return problem

    def normal(self, problem: NearestProblem) -> dict[str, Any]:
        out: dict[str, Any] = {
            "query": problem.query,
            "query_row": [str(x) for x in problem.query_row],
            "candidates": list(problem.candidates),
            "rows": [[str(x) for x in row] for row in problem.rows],
        }
        if problem.synonym is not None:
            out["synonym"] = problem.synonym
        return out

    def shape(self, problem: NearestProblem) -> Shape:
        return Choice(problem.candidates)

    def right(self, problem: NearestProblem) -> str:
        k = winners(problem)["cosine"]
        assert k is not None  # load refuses ties
        return problem.candidates[k]

    def steps(self, problem: NearestProblem) -> tuple[Step, ...]:
        q = problem.query_row
        nq = sum(a * a for a in q)
        steps = [
            Step(
                f"*{problem.query}* has the row $\\mathbf{{q}} = {vector_tex(q)}$, of length "
                f"${length_tex(nq)}$. For each candidate, its cosine with $\\mathbf{{q}}$ is "
                "the dot product divided by both lengths."
            )
        ]
        values = []
        for word, row in zip(problem.candidates, problem.rows, strict=True):
            dot = sum(a * b for a, b in zip(q, row, strict=True))
            squared = sum(b * b for b in row)
            value = cosine(q, row)
            values.append(float(value))
            steps.append(
                Step(
                    f"*{word}*: $\\mathbf{{q}}\\cdot{vector_tex(row)} = {dot}$, length "
                    f"${length_tex(squared)}$, so $\\cos = \\dfrac{{{dot}}}{{{length_tex(nq)}"
                    f" \\cdot {length_tex(squared)}}} \\approx {float(value):.3f}$."
                )
            )
        best = max(range(len(values)), key=values.__getitem__)
        steps.append(
            Step(
                f"The largest cosine is *{problem.candidates[best]}*'s "
                f"(about {values[best]:.3f}): it is the nearest by direction.",
                problem.candidates[best],
            )
        )
        return tuple(steps)

    def hint(self, problem: NearestProblem) -> str:
        return (
            f"For each candidate, divide its dot product with *{problem.query}*'s row by its "
            "row's length (the query's length is the same for all, so it does not change the "
            "ranking), and pick the largest."
        )


def _word(spec: dict[str, Any], field: str) -> str:
    value = spec.get(field)
    if not isinstance(value, str) or not 1 <= len(value) <= 40:
        raise SpecError(field, "is required and must be a non-empty string of at most 40")
    return value
