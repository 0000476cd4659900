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

from grading.kinds.cosine_similarity import cosine

from . import geometry, labels, svg
from .base import Draw, ProblemGenerator
from .statement import format_example, md_word, tex_vector
from .words_embedding import NEIGHBOUR_SETS

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
PANEL = 360
PAD = 56
LABEL_ROOM = 130


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
        prefix = svg.picture_id(("nearest", spec.get("query_row"), spec.get("rows"), answer, show))
        right = roles(query, rows)["cosine"]
        chosen = words.index(answer) if isinstance(answer, str) and answer in words else None
        if len(query) == 2:
            return _arrows(prefix, spec, query, rows, words, right, chosen, show)
        if not show:
            return _rows_as_bars(prefix, spec, query, rows, words)
        return _ranking(prefix, spec, query, rows, words, right, chosen)


def _arrows(
    prefix: str,
    spec: dict,
    query: tuple[int, ...],
    rows: list[tuple[int, ...]],
    words: list[str],
    right: int | None,
    chosen: int | None,
    solved: bool,
) -> str:
    points = [query, *rows]
    xs = [0, *(p[0] for p in points)]
    ys = [0, *(p[1] for p in points)]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1)
    scale = (PANEL - 2 * PAD) / span
    ox = PAD + (PANEL - 2 * PAD - (max(xs) - min(xs)) * scale) / 2 - min(xs) * scale
    oy = PAD + (PANEL - 2 * PAD - (max(ys) - min(ys)) * scale) / 2 + max(ys) * scale
    body = [
        f'<g class="panel" data-origin="{svg.px(ox)},{svg.px(oy)}" data-scale="{scale:g}">',
        # Faint axes: guides a label may cross.
        svg.line(4, oy, PANEL - 4, oy, class_="axis guide", stroke=svg.COLOURS["muted"]),
        svg.line(ox, 4, ox, PANEL - 4, class_="axis guide", stroke=svg.COLOURS["muted"]),
    ]
    roles_used = ["query", "candidate"]
    bounds = labels.Box(0, 0, PANEL + LABEL_ROOM, PANEL)
    segments: list[labels.Segment] = []
    tip_labels: list[labels.Label] = []
    colours: list[str] = []

    def label_tip(text: str, end: tuple[float, float], role: str) -> None:
        """Add a label to place near an arrow's tip, else beside its shaft."""
        outward = (end[0] - ox, end[1] - oy)
        candidates = [
            *labels.around_point(end, text, 12, toward=outward),
            *labels.along_segment(((ox, oy), end), text, 12),
        ]
        tip_labels.append(labels.Label(text, 12, tuple(candidates), bounds=bounds))
        colours.append(svg.COLOURS[role])

    def tip(p: tuple[int, ...]) -> tuple[float, float]:
        return ox + p[0] * scale, oy - p[1] * scale

    for k, (word, row) in enumerate(zip(words, rows, strict=True)):
        role = "candidate"
        if solved and k == right:
            role = "right"
        elif solved and k == chosen:
            role = "answer"
        roles_used.append(role)
        x, y = tip(row)
        body.append(
            svg.arrow(
                prefix,
                role,
                (ox, oy),
                (x, y),
                data={"index": k, "word": word, "x": row[0], "y": row[1]},
                width=3 if role != "candidate" else 1.5,
                dashed=role == "answer",
            )
        )
        label = word
        if solved:
            label += f" (cos {_cos(query, row):.2f})"
        segments.extend(geometry.arrow_segments((ox, oy), (x, y)))
        label_tip(label, (x, y), role)
    x, y = tip(query)
    body.append(
        svg.arrow(
            prefix,
            "query",
            (ox, oy),
            (x, y),
            data={"word": spec["query"], "x": query[0], "y": query[1]},
            width=3,
        )
    )
    segments.extend(geometry.arrow_segments((ox, oy), (x, y)))
    label_tip(f"{spec['query']} (query)", (x, y), "query")
    spots = labels.place(tip_labels, segments=segments)
    left = 0.0
    if not all(spot.free for spot in spots):
        # An arrow near the left edge with another close by: give its label room on the left.
        left = LABEL_ROOM
        roomier = labels.Box(-left, 0, PANEL + LABEL_ROOM, PANEL)
        tip_labels = [labels.Label(t.text, t.size, t.candidates, roomier) for t in tip_labels]
        spots = labels.place(tip_labels, segments=segments)
    body += [labels.svg_text(s, fill=c) for s, c in zip(spots, colours, strict=True)]
    body.append("</g>")
    if left:
        body = [f'<g transform="translate({svg.px(left)},0)">', *body, "</g>"]
    if solved:
        assert right is not None
        title = "The query and the candidates; the nearest by cosine highlighted"
        desc = f"The nearest by cosine is {words[right]}."
        if chosen is not None and chosen != right:
            desc += f" Your pick, {words[chosen]}, is drawn dashed."
    else:
        title = "The query and the candidates as arrows"
        desc = "Each row is an arrow from the origin, labelled with its word; no winner is marked."
    # Labels run to the right of the arrows' tips: room for them beyond the panel.
    return svg.document(
        left + PANEL + LABEL_ROOM, PANEL, title, desc, body, markers=roles_used, prefix=prefix
    )


def _rows_as_bars(
    prefix: str, spec: dict, query: tuple[int, ...], rows: list[tuple[int, ...]], words: list[str]
) -> str:
    labelled = [(spec["query"], query), *zip(words, rows, strict=True)]
    dim = len(query)
    top = max(1, *(abs(x) for _, r in labelled for x in r))
    bar = 12
    group = bar * dim + 16
    width = 110 + group * len(labelled)
    height = 200
    middle = height / 2
    unit = (middle - 36) / top
    body = [svg.line(100, middle, width - 8, middle, stroke=svg.COLOURS["muted"], class_="axis")]
    for n, (word, row) in enumerate(labelled):
        left = 108 + group * n
        for d, value in enumerate(row):
            body.append(
                svg.rect(
                    left + d * bar,
                    middle - max(value, 0) * unit,
                    bar - 2,
                    abs(value) * unit,
                    fill=svg.COLOURS["query" if n == 0 else "candidate"],
                    data_role="coordinate",
                    data_word=word,
                    data_index=d,
                    data_value=value,
                )
            )
        body.append(svg.text(left + group / 2 - 8, height - 10, word, text_anchor="middle"))
    body.append(svg.text(8, middle + 4, f"{dim} coordinates"))
    return svg.document(
        width,
        height,
        "The query's and the candidates' rows, coordinate by coordinate",
        f"Each word's {dim} coordinates as bars, the query first; no winner is marked.",
        body,
        prefix=prefix,
    )


def _ranking(
    prefix: str,
    spec: dict,
    query: tuple[int, ...],
    rows: list[tuple[int, ...]],
    words: list[str],
    right: int | None,
    chosen: int | None,
) -> str:
    """Draw the candidates ranked by cosine as bars, with dot product and distance beside."""
    order = sorted(range(len(rows)), key=lambda k: -_cos(query, rows[k]))
    line_height = 30
    width, height = 520, 50 + line_height * len(rows)
    body = [
        svg.text(10, 18, "cosine", font_weight="bold"),
        svg.text(330, 18, "dot product", font_weight="bold"),
        svg.text(420, 18, "distance", font_weight="bold"),
    ]
    roles_used: list[str] = []
    for n, k in enumerate(order):
        y = 30 + n * line_height
        value = float(cosine(query, rows[k]))
        role = "right" if k == right else ("answer" if k == chosen else "candidate")
        roles_used.append(role)
        length = max(value, 0) * 180
        body.append(
            svg.rect(
                100,
                y,
                length,
                18,
                fill=svg.COLOURS[role],
                data_role=role,
                data_word=words[k],
                data_cosine=f"{value:.6f}",
            )
        )
        body.append(svg.text(10, y + 13, words[k], fill=svg.COLOURS[role]))
        body.append(svg.text(106 + length, y + 13, f"{value:.3f}"))
        distance = math.sqrt(sum((a - b) ** 2 for a, b in zip(query, rows[k], strict=True)))
        body.append(svg.text(330, y + 13, str(_dot(query, rows[k]))))
        body.append(svg.text(420, y + 13, f"{distance:.3f}"))
    assert right is not None
    desc = f"Candidates ranked by cosine with {spec['query']}; the nearest is {words[right]}."
    if chosen is not None and chosen != right:
        desc += f" Your pick, {words[chosen]}, is marked in orange."
    return svg.document(
        width,
        height,
        "The candidates ranked by cosine, with their dot products and distances",
        desc,
        body,
        prefix=prefix,
    )
