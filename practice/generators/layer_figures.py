"""Pictures of the layer kinds, for rows of any dimension: who mixes whom, as diagrams.

``contrast_picture`` (``static_vs_contextual``): the two sentences as columns of word boxes side
by side (narrow enough for a phone), both occurrences of the word pointing at the one table
row they share, the changed neighbours marked; once answered, the two sums and both
differences, the learner's beside the right ones.

``layers_picture`` (``two_layers``): the positions as three rows of nodes (lookup rows, layer-1
outputs, the layer-2 output at the word) with an edge for every term that is mixed in, so a
word two places away visibly reaches the word only through layer 2; once answered, every
layer-1 output and the answer, the learner's beside the right one.
"""

from __future__ import annotations

import math
from typing import Any

from . import geometry, labels, svg
from .sketch import Sketch

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _vec(values: Any) -> str:
    return "[" + ", ".join(svg.fmt(v) for v in values) + "]"


def _answer_parts(answer: Any, count: int) -> list[Any] | None:
    if not isinstance(answer, tuple) or len(answer) != count:
        return None
    return list(answer)


# The sentences as two columns of word boxes, A's left and B's right, each position's weight
# between them: the margin outside the columns (where the lookup lines run), a box's width and
# height, the weights' column, one position's height, the first row's top. 304 px wide in all.
_MARGIN, _BOX, _BOX_HIGH, _MIDDLE, _ROW, _FIRST = 18, 96, 30, 76, 38, 30
_WIDTH = 2 * (_MARGIN + _BOX) + _MIDDLE
_X = {"A": _MARGIN, "B": _MARGIN + _BOX + _MIDDLE}


def _row_top(k: int) -> float:
    return _FIRST + k * _ROW


def _sentence_boxes(p: Any) -> list[str]:
    """Return both sentences as columns of word boxes, the word and the changed neighbours
    marked, each position's weight between its two boxes."""
    body = [svg.text(_X[side] + _BOX / 2, _FIRST - 10, side, text_anchor="middle") for side in _X]
    for k in range(len(p.tokens_a)):
        y = _row_top(k)
        changed = p.tokens_a[k] != p.tokens_b[k]
        role = "word" if k == p.position else "changed" if changed else "token"
        colour = (
            svg.COLOURS["right"]
            if k == p.position
            else svg.COLOURS["noise"]
            if changed
            else "#9ca3af"
        )
        for side, token in (("A", p.tokens_a[k]), ("B", p.tokens_b[k])):
            x = _X[side]
            body.append(
                svg.rect(
                    x,
                    y,
                    _BOX,
                    _BOX_HIGH,
                    fill="none",
                    stroke=colour,
                    stroke_width="2" if k == p.position or changed else "1",
                    data_role=role,
                    data_side=side,
                    data_index=k,
                )
            )
            body.append(svg.text(x + _BOX / 2, y + 19, token, text_anchor="middle"))
        weight = f"w = {svg.fmt(p.weights[k])}"
        body.append(svg.text(_WIDTH / 2, y + 19, weight, text_anchor="middle", fill="#6b7280"))
    return body


def _shared_top(p: Any) -> float:
    return _row_top(len(p.tokens_a)) + 12


def _shared_row(p: Any, row_id: int) -> list[str]:
    """Return the table row both occurrences of the word look up, under the sentences, with a
    line to each running down outside its column."""
    top, word = _shared_top(p), _row_top(p.position) + _BOX_HIGH / 2
    row, middle = _vec(p.table[row_id]), top + _BOX_HIGH / 2
    left, right = _WIDTH / 2 - 90, _WIDTH / 2 + 90
    outer = {"A": (_MARGIN, _MARGIN - 10, left), "B": (_WIDTH - _MARGIN, _WIDTH - 8, right)}
    body = [
        svg.rect(
            left,
            top,
            180,
            _BOX_HIGH,
            fill="#ecfdf5",
            stroke=svg.COLOURS["right"],
            data_role="shared-row",
            data_value=row,
        ),
        svg.text(_WIDTH / 2, top + 19, f"E[{row_id}] = {row}", text_anchor="middle"),
    ]
    for side, (edge, lane, end) in outer.items():
        path = [(edge, word), (lane, word), (lane, middle), (end, middle)]
        body.append(
            svg.polyline(
                path, fill="none", stroke=svg.COLOURS["right"], data_role="lookup", data_side=side
            )
        )
    return body


def _contrast_values(p: Any, right: Any, answer: Any) -> list[str]:
    """Return the lines under the shared row: both sums, both differences and the learner's
    (its two parts on two lines)."""
    from grading.kinds.static_vs_contextual import layer

    h_a, h_b = layer(p, p.rows_a), layer(p, p.rows_b)
    i = str(p.position).translate(_SUB)
    lines = [
        ("sum", f"h{i}ᴬ = {_vec(h_a)}", _vec(h_a)),
        ("sum", f"h{i}ᴮ = {_vec(h_b)}", _vec(h_b)),
        ("right", f"lookup difference = {_vec(right[0])}", _vec(right[0])),
        ("right", f"layer difference = {_vec(right[1])}", _vec(right[1])),
    ]
    parts = _answer_parts(answer, 2)
    if parts is not None:
        written = [_vec(part) if isinstance(part, tuple) else svg.fmt(part) for part in parts]
        lines.append(("answer", f"yours: {written[0]};", ""))
        lines.append(("answer-more", written[1], ""))
    colours = {"answer": svg.COLOURS["answer"], "right": svg.COLOURS["right"], "sum": "#374151"}
    top = _shared_top(p) + _BOX_HIGH + 24
    return [
        svg.text(
            _MARGIN + (42 if role == "answer-more" else 0),
            top + 18 * k,
            content,
            fill=colours.get(role, svg.COLOURS["answer"]),
            data_role=role if role != "answer-more" else None,
            data_value=value or None,
        )
        for k, (role, content, value) in enumerate(lines)
    ]


def contrast_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the two sentences, the shared row and (once answered) the sums and differences."""
    from grading.kinds.static_vs_contextual import StaticVsContextualKind

    kind = StaticVsContextualKind()
    p = kind.load(spec)
    solved = answer is not None if solution is None else solution
    word = p.tokens_a[p.position]
    row_id = p.vocab.index(word)
    body = _sentence_boxes(p) + _shared_row(p, row_id)
    height = _shared_top(p) + _BOX_HIGH + 10
    desc = (
        f"Sentence A on the left, sentence B on the right, each position's weight between them; "
        f"both occurrences of {word} point at the same table row E[{row_id}], drawn below. The "
        "neighbours that differ are marked."
    )
    if solved:
        right = kind.right(p)
        values = _contrast_values(p, right, answer)
        body += values
        height = _shared_top(p) + _BOX_HIGH + 24 + 18 * len(values) - 8
        desc += (
            f" The lookup difference is {_vec(right[0])}; the layer difference is {_vec(right[1])}."
        )
    title = f"One row for {word}, shared by both sentences"
    return svg.document(_WIDTH, height, title, desc, body, key=[spec, str(answer)])


# The diagram's rows: the layer-2 output, the layer-1 outputs and the lookup rows (pixels).
_Y2, _Y1, _Y0 = 50, 150, 250
_TOP_GAPS = (15, 20, 26, 34, 44)
_NODES_LEFT = 60  # where the first position's column starts, past the rows' names


class _Layers:
    """The two-layer diagram being drawn: nodes per position, an edge per term mixed in."""

    def __init__(self, p: Any, solved: bool) -> None:
        from grading.kinds.two_layers import layer_one

        self.p, self.solved, self.sketch = p, solved, Sketch()
        self.middle = p.neighbourhood(p.position)
        step, left = 96, _NODES_LEFT
        if solved:
            # Room for each layer-1 value beside its dot, between it and the next dot.
            widest = max(geometry.text_width(_vec(layer_one(p, j)), 12) for j in self.middle)
            step = max(step, math.ceil(widest) + 44)
        self.width = max(left + len(p.tokens) * step, 560)
        self.x_of = {j: left + j * step + step / 2 - 30 for j in range(len(p.tokens))}
        self.bounds = labels.Box(0, 0, self.width, _Y0 + 84)

    def near_top(self, text: str, toward: tuple[float, float], **attributes: Any) -> None:
        """Queue a label beside the layer-2 output's dot."""
        at = (self.x_of[self.p.position], _Y2)
        candidates = labels.around_point(at, text, 12, toward=toward, gaps=_TOP_GAPS)
        self.sketch.label(text, candidates, self.bounds, **attributes)

    def top_labels(self, right: Any, answer: Any) -> None:
        """Queue the layer-2 output's value (``?`` before an answer) and the learner's."""
        name = f"h{str(self.p.position).translate(_SUB)}⁽²⁾"
        if not self.solved:
            self.near_top(f"{name} = ?", (1, 0), fill=svg.COLOURS["right"])
            return
        value = _vec(right)
        self.near_top(
            f"{name} = {value}",
            (1, -0.4),
            fill=svg.COLOURS["right"],
            data_role="right",
            data_value=value,
        )
        if isinstance(answer, tuple) and len(answer) == len(right):
            self.near_top(
                f"yours: {_vec(answer)}",
                (1, 0.4),
                fill=svg.COLOURS["answer"],
                data_role="answer",
                data_value=_vec(answer),
            )

    def edges(self) -> None:
        """Draw an edge for every term mixed in by layer 1 and layer 2, layer 2's weighted."""
        p, x_of, i = self.p, self.x_of, self.p.position
        u_of = dict(zip(p.offsets, p.weights_1, strict=True))
        w_of = dict(zip(p.offsets, p.weights_2, strict=True))
        for j in self.middle:
            for m in p.neighbourhood(j):
                self.edge(
                    ((x_of[m], _Y0 - 10), (x_of[j], _Y1 + 10)),
                    stroke=svg.COLOURS["signal"],
                    stroke_width="1.5",
                    data_role="mix-1",
                    data_from=m,
                    data_to=j,
                    data_weight=svg.fmt(u_of[m - j]),
                )
            edge = ((x_of[j], _Y1 - 10), (x_of[i], _Y2 + 10))
            self.edge(
                edge,
                stroke=svg.COLOURS["right"],
                stroke_width="2",
                data_role="mix-2",
                data_from=j,
                data_to=i,
                data_weight=svg.fmt(w_of[j - i]),
            )
            # Near the layer-1 end of the edge first, where the edges are furthest apart.
            text = f"w={svg.fmt(w_of[j - i])}"
            candidates = labels.along_segment(
                edge, text, 12, side=1 if j >= i else -1, fractions=(0.3, 0.2, 0.4, 0.5, 0.6, 0.1)
            )
            self.sketch.label(text, candidates, self.bounds, fill=svg.COLOURS["right"])

    def edge(self, ends: labels.Segment, **extra: Any) -> None:
        (x1, y1), (x2, y2) = ends
        self.sketch.body.append(svg.line(x1, y1, x2, y2, **extra))
        self.sketch.segments.append(ends)

    def nodes(self) -> None:
        """Draw every position's lookup dot and word, and the layer-1 dots (valued, solved)."""
        from grading.kinds.two_layers import layer_one

        p, x_of, reach = self.p, self.x_of, set(self.p.reach)
        for j in range(len(p.tokens)):
            inside = j in reach
            colour = svg.COLOURS["given"] if inside else "#d1d5db"
            role = "lookup" if inside else "outside"
            self.sketch.dot(x_of[j], _Y0, 10, fill=colour, data_role=role, data_index=j)
            self.sketch.fixed(
                x_of[j], _Y0 + 28, p.tokens[j], "middle", fill="#111827" if inside else "#9ca3af"
            )
            if p.tokens_b and p.tokens_b[j] != p.tokens[j]:
                self.sketch.fixed(
                    x_of[j],
                    _Y0 + 46,
                    f"B: {p.tokens_b[j]}",
                    "middle",
                    fill=svg.COLOURS["noise"],
                    data_role="token-b-changed",
                    data_index=j,
                )
            if j not in self.middle:
                continue
            layer_1 = svg.COLOURS["signal"]
            self.sketch.dot(x_of[j], _Y1, 10, fill=layer_1, data_role="layer-1", data_index=j)
            if self.solved:
                value = _vec(layer_one(p, j))
                candidates = labels.around_point(
                    (x_of[j], _Y1), value, 12, toward=(1, 0), gaps=(13, 18, 24, 32, 44)
                )
                self.sketch.label(
                    value,
                    candidates,
                    self.bounds,
                    fill=layer_1,
                    **{"data-role": "value-1", "data-index": str(j), "data-value": value},
                )


def _layers_desc(p: Any, right: Any) -> str:
    i = p.position
    far = sorted(m for m in p.reach if m not in p.neighbourhood(i))
    desc = (
        f"Lookup rows at the bottom, layer-1 outputs in the middle, position {i} after layer 2 at "
        f"the top. Position{'s' if len(far) != 1 else ''} {', '.join(map(str, far))} reach"
        f"{'' if len(far) != 1 else 'es'} position {i} only through layer 2; grey positions do not "
        "reach it at all."
    )
    return desc + (f" The answer is {_vec(right)}." if right is not None else "")


def layers_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the two-row diagram of who mixes whom, and (once answered) the values."""
    from grading.kinds.two_layers import TwoLayersKind

    kind = TwoLayersKind()
    p = kind.load(spec)
    solved = answer is not None if solution is None else solution
    right = kind.right(p) if solved else None
    diagram = _Layers(p, solved)
    # The labels are placed in the order queued: the output's first, then the weights, the values.
    diagram.top_labels(right, answer)
    for y, name in ((_Y2, "layer 2"), (_Y1, "layer 1"), (_Y0, "lookup")):
        diagram.sketch.fixed(4, y + 4, name)
    diagram.edges()
    diagram.sketch.fixed(
        _NODES_LEFT,
        _Y0 + 70,
        "layer 1 mixes with u = ("
        + ", ".join(svg.fmt(u) for u in p.weights_1)
        + "); layer 2 with w = ("
        + ", ".join(svg.fmt(w) for w in p.weights_2)
        + ")",
        fill="#374151",
    )
    diagram.nodes()
    diagram.sketch.dot(
        diagram.x_of[p.position],
        _Y2,
        12,
        fill=svg.COLOURS["right"],
        data_role="layer-2",
        data_index=p.position,
    )
    diagram.sketch.place_labels()
    title = "Who mixes whom in two neighbour-only layers"
    return svg.document(
        diagram.width,
        _Y0 + 84,
        title,
        _layers_desc(p, right),
        diagram.sketch.body,
        key=[spec, str(answer)],
    )
