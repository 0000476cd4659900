"""``nearest_by_cosine``: which candidate's row is nearest a query's row by cosine.

Rows are drawn at random and the words are given by the role each row plays: the cosine winner
gets the query's near-antonym or sibling (*hot* → *cold*), one other row the word that means
nearly the same (*warm*), the rest topic words. Every accepted problem has three different
winners, by cosine, by dot product (a long row) and by Euclidean distance (a row whose tip is
near the query's), and the synonym is none of them, so each mistaken rule picks its own word.

Levels: 1, two dimensions, entries 0..4, four candidates; 2, two dimensions with negative
entries; 3, three dimensions, five candidates; 4, four dimensions, five candidates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Draw, ProblemGenerator
from .draw import svg
from .draw.nearest_figures import NearestScene, arrows_picture, bars_picture, ranking_picture
from .statement import format_example, md_word, tex_vector
from .words.embedding import NEIGHBOUR_SETS

# Words for the format example: the first that is not a candidate (an option-shaped word that
# can never be an answer; see statement.format_example).
_NOT_CANDIDATES = ("word", "example", "something", "anything")


@dataclass(frozen=True)
class NearestLevel:
    dim: int
    candidates: int
    low: int
    high: int


LEVELS: dict[int, NearestLevel] = {
    1: NearestLevel(dim=2, candidates=4, low=0, high=4),
    2: NearestLevel(dim=2, candidates=4, low=-2, high=4),
    3: NearestLevel(dim=3, candidates=5, low=-1, high=3),
    4: NearestLevel(dim=4, candidates=5, low=-2, high=3),
}

# The cosine winner beats the runner-up by at least this much, so hand arithmetic settles it.
MARGIN = 0.02
# Rows drawn per attempt; the candidates are chosen among them.
POOL = 20


def _dot(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _cos(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return _dot(a, b) / math.sqrt(_dot(a, a) * _dot(b, b))


def _parallel(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Return whether a is a positive multiple of b (the same direction)."""
    return _dot(a, b) > 0 and _dot(a, b) ** 2 == _dot(a, a) * _dot(b, b)


def _unique(values: list[float], *, highest: bool) -> int | None:
    best = max(values) if highest else min(values)
    found = [k for k, x in enumerate(values) if x == best]
    return found[0] if len(found) == 1 else None


def roles(query: tuple[int, ...], rows: list[tuple[int, ...]]) -> dict[str, int | None]:
    """Return the candidate each rule picks (None on a tie): float cosines are only used to
    draw; the grading kind decides exactly."""
    return {
        "cosine": _unique([_cos(query, r) for r in rows], highest=True),
        "dot": _unique([_dot(query, r) for r in rows], highest=True),
        "distance": _unique(
            [sum((a - b) ** 2 for a, b in zip(query, r, strict=True)) for r in rows],
            highest=False,
        ),
    }


def _pick_candidates(
    query: tuple[int, ...], pool: list[tuple[int, ...]], count: int
) -> list[tuple[int, ...]] | None:
    """Choose ``count`` rows from ``pool`` with three different winners: ``c`` by cosine,
    ``long`` by dot product, ``near`` by distance; the rest lose on all three (None if the
    pool has no such choice). The pool's order (already random) decides among choices."""
    cos = {r: _cos(query, r) for r in pool}
    dot = {r: _dot(query, r) for r in pool}
    dist = {r: sum((a - b) ** 2 for a, b in zip(query, r, strict=True)) for r in pool}
    for c in pool:
        for long in pool:
            if not (dot[long] > dot[c] and cos[long] <= cos[c] - MARGIN):
                continue
            for near in pool:
                if near in (c, long) or not (
                    dist[near] < min(dist[c], dist[long])
                    and cos[near] <= cos[c] - MARGIN
                    and dot[near] < dot[long]
                ):
                    continue
                rest = [
                    r
                    for r in pool
                    if r not in (c, long, near)
                    and cos[r] <= cos[c] - MARGIN
                    and dot[r] < dot[long]
                    and dist[r] > dist[near]
                ]
                if len(rest) >= count - 3:
                    return [c, long, near, *rest[: count - 3]]
    return None


class NearestByCosineGenerator(ProblemGenerator):
    kind: ClassVar[str] = "nearest_by_cosine"
    name: ClassVar[str] = "nearest_by_cosine"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 17
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        words = draw.choice(NEIGHBOUR_SETS)

        def row() -> tuple[int, ...]:
            while True:
                drawn = tuple(
                    draw.integer(spec_level.low, spec_level.high) for _ in range(spec_level.dim)
                )
                if any(drawn):
                    return drawn

        query = row()
        pool: list[tuple[int, ...]] = []
        for _ in range(POOL):
            drawn = row()
            # A multiple of the query would win with cos = 1 at a glance: left out.
            if drawn not in pool and not _parallel(drawn, query):
                pool.append(drawn)
        rows = _pick_candidates(query, pool, spec_level.candidates)
        if rows is None:
            return {"query": words.query, "query_row": [str(x) for x in query]}
        rows = draw.shuffled(rows)
        picked = roles(query, rows)
        others = [k for k in range(len(rows)) if k not in picked.values()]
        synonym_at = draw.choice(others)
        topic = iter(draw.sample(words.topic, len(rows) - 2))
        names = [
            words.sibling
            if k == picked["cosine"]
            else words.synonym
            if k == synonym_at
            else next(topic)
            for k in range(len(rows))
        ]
        return {
            "query": words.query,
            "query_row": [str(x) for x in query],
            "candidates": names,
            "rows": [[str(x) for x in r] for r in rows],
            "synonym": words.synonym,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        if "rows" not in spec:
            return False
        query = tuple(int(x) for x in spec["query_row"])
        rows = [tuple(int(x) for x in r) for r in spec["rows"]]
        picked = roles(query, rows)
        if None in picked.values() or len(set(picked.values())) != 3:
            return False
        cosines = sorted((_cos(query, r) for r in rows), reverse=True)
        return cosines[0] - cosines[1] >= MARGIN

    def statement(self, spec: dict) -> str:
        query = spec["query"]
        lines = [
            f"In a small embedding table, {md_word(query)} has the row "
            f"$\\mathbf{{q}} = {tex_vector(spec['query_row'])}$. The candidates:",
            "",
        ]
        for word, row in zip(spec["candidates"], spec["rows"], strict=True):
            lines.append(f"- {md_word(word)}: ${tex_vector(row)}$")
        lines += [
            "",
            f"**Which candidate is nearest to {md_word(query)} by cosine similarity**, "
            "$\\cos\\theta = \\dfrac{\\mathbf{q} \\cdot \\mathbf{v}}"
            "{\\lVert\\mathbf{q}\\rVert\\,\\lVert\\mathbf{v}\\rVert}$ (the highest cosine; "
            "there is no tie)?",
            "",
            "Answer with the word as it is listed (letter case does not matter); the format is "
            f"one word, for example `{format_example(spec, _NOT_CANDIDATES)}` (which is not one "
            "of the candidates).",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        show = answer is not None if solution is None else solution
        query = tuple(int(x) for x in spec["query_row"])
        rows = [tuple(int(x) for x in r) for r in spec["rows"]]
        words = list(spec["candidates"])
        scene = NearestScene(
            prefix=svg.picture_id(
                ("nearest", spec.get("query_row"), spec.get("rows"), answer, show)
            ),
            query_word=spec["query"],
            query=query,
            rows=rows,
            words=words,
            cosines=[_cos(query, r) for r in rows],
            dots=[_dot(query, r) for r in rows],
            right=roles(query, rows)["cosine"],
            chosen=words.index(answer) if isinstance(answer, str) and answer in words else None,
        )
        if len(query) == 2:
            return arrows_picture(scene, show)
        if not show:
            return bars_picture(scene)
        return ranking_picture(scene)
