"""The pictures of ``nearest_by_cosine``: the rows as arrows (two dimensions), as bars (more),
and, solved in more than two dimensions, the candidates ranked by cosine.

The generator measures the rows (`NearestScene`); these functions only draw them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from grading.kinds.cosine_similarity import cosine

from . import geometry, labels, svg
from .crop import crop_to

PANEL = 360  # the arrows panel's height; its width is ``WIDE``
WIDE = 280  # with the crop's 14 px either side, within a phone's 312 px verdict column
PAD = 56
LABEL_ROOM = 130  # more room above and below when the labels do not fit the panel


@dataclass(frozen=True)
class NearestScene:
    """A problem as its pictures need it: the rows, their measures against the query, and
    which candidate is right and which the learner chose (indexes into ``rows``)."""

    prefix: str
    query_word: str
    query: tuple[int, ...]
    rows: list[tuple[int, ...]]
    words: list[str]
    cosines: list[float]  # each row's cosine with the query, as a float (for drawing only)
    dots: list[int]  # each row's dot product with the query
    right: int | None
    chosen: int | None


@dataclass(frozen=True)
class _Frame:
    """Where the origin sits in the panel and how many pixels one unit is."""

    ox: float
    oy: float
    scale: float

    def tip(self, p: tuple[int, ...]) -> tuple[float, float]:
        return self.ox + p[0] * self.scale, self.oy - p[1] * self.scale


def _frame(points: list[tuple[int, ...]], side: float = PAD) -> _Frame:
    """Return the frame that fits the origin and ``points`` in the panel, centred, one scale
    for both axes, ``side`` pixels left free at the left and right for labels."""
    xs = [0, *(p[0] for p in points)]
    ys = [0, *(p[1] for p in points)]
    scale = min(
        (WIDE - 2 * side) / max(max(xs) - min(xs), 1), (PANEL - 2 * PAD) / max(max(ys) - min(ys), 1)
    )
    ox = side + (WIDE - 2 * side - (max(xs) - min(xs)) * scale) / 2 - min(xs) * scale
    oy = PAD + (PANEL - 2 * PAD - (max(ys) - min(ys)) * scale) / 2 + max(ys) * scale
    return _Frame(ox, oy, scale)


class _TipLabels:
    """The arrows' lines, and a label per arrow to place near its tip, else beside its shaft."""

    def __init__(self, frame: _Frame) -> None:
        self.frame = frame
        self.segments: list[labels.Segment] = []
        self.labels: list[labels.Label] = []
        self.colours: list[str] = []

    def add(self, text: str, end: tuple[float, float], role: str) -> None:
        origin = (self.frame.ox, self.frame.oy)
        self.segments.extend(geometry.arrow_segments(origin, end))
        outward = (end[0] - origin[0], end[1] - origin[1])
        candidates = [
            *labels.around_point(end, text, 12, toward=outward),
            *labels.along_segment((origin, end), text, 12),
        ]
        bounds = labels.Box(0, 0, WIDE, PANEL)
        self.labels.append(labels.Label(text, 12, tuple(candidates), bounds=bounds))
        self.colours.append(svg.COLOURS[role])

    def placed(self) -> tuple[list[str], list[labels.Placed]]:
        """Return the placed labels' texts and where they went."""
        spots = labels.place(self.labels, segments=self.segments)
        if not all(spot.free for spot in spots):
            # Arrows crowded in the panel: give their labels room above and below (never
            # beside, which would widen the picture past a phone's column).
            roomier = labels.Box(0, -LABEL_ROOM, WIDE, PANEL + LABEL_ROOM)
            self.labels = [labels.Label(t.text, t.size, t.candidates, roomier) for t in self.labels]
            spots = labels.place(self.labels, segments=self.segments)
        texts = [labels.svg_text(s, fill=c) for s, c in zip(spots, self.colours, strict=True)]
        return texts, spots


def _role(scene: NearestScene, k: int, solved: bool) -> str:
    if solved and k == scene.right:
        return "right"
    if solved and k == scene.chosen:
        return "answer"
    return "candidate"


def _candidate_arrows(
    scene: NearestScene, frame: _Frame, tips: _TipLabels, solved: bool
) -> tuple[list[str], list[str]]:
    """Return an arrow per candidate (the right one and the learner's marked when solved) and
    the roles they use; their labels go to ``tips``."""
    body, roles_used = [], []
    origin = (frame.ox, frame.oy)
    for k, (word, row) in enumerate(zip(scene.words, scene.rows, strict=True)):
        role = _role(scene, k, solved)
        roles_used.append(role)
        end = frame.tip(row)
        data = {"index": k, "word": word, "x": row[0], "y": row[1]}
        width = 3 if role != "candidate" else 1.5
        body.append(
            svg.arrow(
                scene.prefix, role, origin, end, data=data, width=width, dashed=role == "answer"
            )
        )
        label = word + (f" (cos {scene.cosines[k]:.2f})" if solved else "")
        tips.add(label, end, role)
    return body, roles_used


def _arrows_caption(scene: NearestScene, solved: bool) -> tuple[str, str]:
    """Return the arrows picture's title and description."""
    if not solved:
        return (
            "The query and the candidates as arrows",
            "Each row is an arrow from the origin, labelled with its word; no winner is marked.",
        )
    assert scene.right is not None
    desc = f"The nearest by cosine is {scene.words[scene.right]}."
    if scene.chosen is not None and scene.chosen != scene.right:
        desc += f" Your pick, {scene.words[scene.chosen]}, is drawn dashed."
    return "The query and the candidates; the nearest by cosine highlighted", desc


def _drawn_arrows(
    scene: NearestScene, frame: _Frame, solved: bool
) -> tuple[list[str], list[str], list[str], list[labels.Placed]]:
    """Return the arrows (the query's last), the roles they use, their labels' texts and
    where the labels went."""
    tips = _TipLabels(frame)
    arrows, roles_used = _candidate_arrows(scene, frame, tips, solved)
    query, end = scene.query, frame.tip(scene.query)
    data = {"word": scene.query_word, "x": query[0], "y": query[1]}
    arrows.append(svg.arrow(scene.prefix, "query", (frame.ox, frame.oy), end, data=data, width=3))
    tips.add(f"{scene.query_word} (query)", end, "query")
    texts, spots = tips.placed()
    return arrows, roles_used, texts, spots


def _beside_tips(spots: list[labels.Placed], tips: list[tuple[float, float]]) -> bool:
    """Return whether every label's box comes within 40 px of its arrow's tip (beside its
    shaft's outer part, not down by the origin where the arrows meet)."""
    for spot, (x, y) in zip(spots, tips, strict=True):
        dx = max(spot.box.left - x, 0, x - spot.box.right)
        dy = max(spot.box.top - y, 0, y - spot.box.bottom)
        if math.hypot(dx, dy) > 40:
            return False
    return True


def arrows_picture(scene: NearestScene, solved: bool) -> str:
    """Draw two-dimensional rows as arrows from the origin, each labelled with its word (and,
    solved, its cosine), the query's arrow last; cropped to what is drawn. The panel is a
    phone's column wide: when the labels find no room, or one lies away from its arrow's tip,
    the arrows are drawn shorter."""
    tries = []
    for side in (PAD, 76, 96):
        frame = _frame([scene.query, *scene.rows], side)
        drawn = _drawn_arrows(scene, frame, solved)
        free = all(spot.free for spot in drawn[3])
        tips = [frame.tip(p) for p in (*scene.rows, scene.query)]
        tries.append((not free, not _beside_tips(drawn[3], tips), frame, drawn))
        if not any(tries[-1][:2]):
            break
    *_, frame, (arrows, roles_used, texts, spots) = min(tries, key=lambda t: t[:2])
    ox, oy, query = frame.ox, frame.oy, scene.query
    ends = [frame.tip(p) for p in (*scene.rows, query)]
    kept = crop_to([(ox, oy), *ends], [spot.box for spot in spots])
    body = [
        f'<g class="panel" data-origin="{svg.px(ox)},{svg.px(oy)}" data-scale="{frame.scale:g}">',
        *kept.axes((ox, oy)),  # faint guides a label may cross
        *arrows,
        *texts,
        "</g>",
    ]
    title, desc = _arrows_caption(scene, solved)
    return svg.document(
        kept.width,
        kept.height,
        title,
        desc,
        kept.shifted(body),
        markers=["query", "candidate", *roles_used],
        prefix=scene.prefix,
    )


def bars_picture(scene: NearestScene) -> str:
    """Draw each word's coordinates as bars, the query first, the groups wrapping into bands
    within a phone's column; no winner is marked."""
    labelled = [(scene.query_word, scene.query), *zip(scene.words, scene.rows, strict=True)]
    dim = len(scene.query)
    top = max(1, *(abs(x) for _, r in labelled for x in r))
    bar = 12
    group = bar * dim + 16
    per_band = max(1, int((PHONE - 16) // group))
    band = 160
    unit = (band / 2 - 30) / top
    bands = -(-len(labelled) // per_band)
    width = 16 + group * min(per_band, len(labelled))
    body = [svg.text(8, 18, f"{dim} coordinates a word, the query first")]
    for b in range(bands):
        middle = 24 + band * b + band / 2
        body.append(
            svg.line(8, middle, width - 8, middle, stroke=svg.COLOURS["muted"], class_="axis")
        )
    for n, (word, row) in enumerate(labelled):
        left = 12 + group * (n % per_band)
        middle = 24 + band * (n // per_band) + band / 2
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
        body.append(
            svg.text(left + group / 2 - 8, middle + band / 2 - 8, word, text_anchor="middle")
        )
    return svg.document(
        width,
        24 + band * bands,
        "The query's and the candidates' rows, coordinate by coordinate",
        f"Each word's {dim} coordinates as bars, the query first; no winner is marked.",
        body,
        prefix=scene.prefix,
    )


PHONE = 312  # pixels: the verdict's column on a 390 px phone
BAR = 140  # pixels of a cosine of 1


def ranking_picture(scene: NearestScene) -> str:
    """Draw the candidates ranked by cosine as bars, with each one's dot product and distance
    under its bar (stacked, to fit a phone's column)."""
    query, rows, words = scene.query, scene.rows, scene.words
    order = sorted(range(len(rows)), key=lambda k: -scene.cosines[k])
    line_height = 44
    keys = ["green: the nearest by cosine"]
    if scene.chosen is not None and scene.chosen != scene.right:
        keys.append("orange: your pick")
    bottom = 30 + line_height * len(rows) + 8
    body = [svg.text(10, 18, "cosine, then dot product and distance", font_weight="bold")]
    for n, k in enumerate(order):
        y = 30 + n * line_height
        value = float(cosine(query, rows[k]))
        role = "right" if k == scene.right else ("answer" if k == scene.chosen else "candidate")
        length = max(value, 0) * BAR
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
        body.append(
            svg.text(100, y + 33, f"dot {scene.dots[k]}, distance {distance:.3f}", font_size=12)
        )
    for j, key in enumerate(keys):
        body.append(svg.text(10, bottom + 18 * j, key))
    assert scene.right is not None
    desc = (
        f"Candidates ranked by cosine with {scene.query_word}; the nearest is {words[scene.right]}."
    )
    if scene.chosen is not None and scene.chosen != scene.right:
        desc += f" Your pick, {words[scene.chosen]}, is marked in orange."
    return svg.document(
        PHONE,
        bottom + 18 * len(keys),
        "The candidates ranked by cosine, with their dot products and distances",
        desc,
        body,
        prefix=scene.prefix,
    )
