"""Pictures of the layer kinds, for rows of any dimension: who mixes whom, as diagrams.

``contrast_picture`` (``static_vs_contextual``): the two sentences as columns of word boxes side
by side (narrow enough for a phone), both occurrences of the word pointing at the one table
row they share, the changed neighbours marked; once answered, the two sums and both
differences, the learner's beside the right ones.

``layers_picture`` (``two_layers``): a row per position and three columns of nodes (lookup rows,
layer-1 outputs, the layer-2 output at the word) with an edge for every term that is mixed in,
so a word two places away visibly reaches the word only through layer 2; under it the weights
and, once answered, every layer-1 output and the answer, the learner's under the right one.
"""

from __future__ import annotations

from typing import Any

from . import labels, svg
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


# The diagram's columns: the words (right-aligned), the lookup rows, the layer-1 outputs and
# the layer-2 output at the word; each position a row of the diagram, its first row's middle
# and its height (room for sentence B's word under a changed one). 304 px wide in all.
_WORDS, _X0, _X1, _X2, _TOP, _STEP = 102, 120, 196, 272, 50, 36
_LAYERS_WIDTH = 304
_W_FRACTIONS = (0.3, 0.2, 0.4, 0.5, 0.6, 0.1)


class _Layers:
    """The two-layer diagram being drawn: a row per position, an edge per term mixed in."""

    def __init__(self, p: Any) -> None:
        self.p, self.sketch = p, Sketch()
        self.middle = p.neighbourhood(p.position)
        self.y_of = {j: _TOP + j * _STEP for j in range(len(p.tokens))}
        self.bottom = self.y_of[len(p.tokens) - 1] + 26
        self.lines: list[tuple[str, dict[str, Any]]] = []  # the text under the diagram
        self.bounds = labels.Box(0, 0, _LAYERS_WIDTH, self.bottom)

    def write(self, content: str, **attributes: Any) -> None:
        """Queue a line of text under the diagram."""
        self.lines.append((content, attributes))

    def values(self, right: Any, answer: Any) -> None:
        """Queue each layer-1 output's value and the layer-2 output's (``?`` before an answer)
        and the learner's, as lines under the diagram."""
        from grading.kinds.two_layers import layer_one

        p, sub = self.p, str(self.p.position).translate(_SUB)
        if right is None:
            self.write(f"h{sub}⁽²⁾ = ?", fill=svg.COLOURS["right"])
            return
        for j in self.middle:
            value = _vec(layer_one(p, j))
            name = f"h{str(j).translate(_SUB)}⁽¹⁾"
            self.write(
                f"{name} = {value}",
                fill=svg.COLOURS["signal"],
                **{"data-role": "value-1", "data-index": str(j), "data-value": value},
            )
        value = _vec(right)
        self.write(
            f"h{sub}⁽²⁾ = {value}", fill=svg.COLOURS["right"], data_role="right", data_value=value
        )
        if isinstance(answer, tuple) and len(answer) == len(right):
            self.write(
                f"yours: {_vec(answer)}",
                fill=svg.COLOURS["answer"],
                data_role="answer",
                data_value=_vec(answer),
            )

    def edges(self) -> None:
        """Draw an edge for every term mixed in by layer 1 and layer 2, layer 2's weighted."""
        p, y_of, i = self.p, self.y_of, self.p.position
        u_of = dict(zip(p.offsets, p.weights_1, strict=True))
        w_of = dict(zip(p.offsets, p.weights_2, strict=True))
        for j in self.middle:
            for m in p.neighbourhood(j):
                self.edge(
                    ((_X0 + 10, y_of[m]), (_X1 - 10, y_of[j])),
                    stroke=svg.COLOURS["signal"],
                    stroke_width="1.5",
                    data_role="mix-1",
                    data_from=m,
                    data_to=j,
                    data_weight=svg.fmt(u_of[m - j]),
                )
            edge = ((_X1 + 10, y_of[j]), (_X2 - 12, y_of[i]))
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
            side = -1 if j <= i else 1
            candidates = labels.along_segment(edge, text, 12, side=side, fractions=_W_FRACTIONS)
            self.sketch.label(text, candidates, self.bounds, fill=svg.COLOURS["right"])

    def edge(self, ends: labels.Segment, **extra: Any) -> None:
        (x1, y1), (x2, y2) = ends
        self.sketch.body.append(svg.line(x1, y1, x2, y2, **extra))
        self.sketch.segments.append(ends)

    def nodes(self) -> None:
        """Draw every position's word and lookup dot, and the layer-1 dots."""
        p, reach = self.p, set(self.p.reach)
        for j in range(len(p.tokens)):
            y, inside = self.y_of[j], j in reach
            colour = svg.COLOURS["given"] if inside else "#d1d5db"
            role = "lookup" if inside else "outside"
            self.sketch.dot(_X0, y, 10, fill=colour, data_role=role, data_index=j)
            ink = "#111827" if inside else "#9ca3af"
            self.sketch.fixed(_WORDS, y + 4, p.tokens[j], "end", fill=ink)
            if p.tokens_b and p.tokens_b[j] != p.tokens[j]:
                self.sketch.fixed(
                    _WORDS,
                    y + 19,
                    f"B: {p.tokens_b[j]}",
                    "end",
                    fill=svg.COLOURS["noise"],
                    data_role="token-b-changed",
                    data_index=j,
                )
            if j in self.middle:
                layer_1 = svg.COLOURS["signal"]
                self.sketch.dot(_X1, y, 10, fill=layer_1, data_role="layer-1", data_index=j)


def _layers_desc(p: Any, right: Any) -> str:
    i = p.position
    far = sorted(m for m in p.reach if m not in p.neighbourhood(i))
    desc = (
        f"A row per position: its word, its lookup row, its layer-1 output, and position {i}'s "
        f"output after layer 2 at the right. Position{'s' if len(far) != 1 else ''} "
        f"{', '.join(map(str, far))} reach{'' if len(far) != 1 else 'es'} position {i} only "
        "through layer 2; grey positions do not reach it at all."
    )
    return desc + (f" The answer is {_vec(right)}." if right is not None else "")


def layers_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the diagram of who mixes whom, a row per position, and (once answered) the
    values, written under it."""
    from grading.kinds.two_layers import TwoLayersKind

    kind = TwoLayersKind()
    p = kind.load(spec)
    solved = answer is not None if solution is None else solution
    right = kind.right(p) if solved else None
    diagram = _Layers(p)
    for x, name in ((_X0, "lookup"), (_X1, "layer 1"), (_X2, "layer 2")):
        diagram.sketch.fixed(x, 20, name, "middle")
    diagram.edges()
    diagram.nodes()
    diagram.sketch.dot(
        _X2,
        diagram.y_of[p.position],
        12,
        fill=svg.COLOURS["right"],
        data_role="layer-2",
        data_index=p.position,
    )
    diagram.sketch.place_labels()
    # The weights on two lines, then the values: under the diagram, as wide as the column.
    diagram.write("layer 1 mixes with u = (" + ", ".join(svg.fmt(u) for u in p.weights_1) + ");")
    diagram.write("layer 2 with w = (" + ", ".join(svg.fmt(w) for w in p.weights_2) + ")")
    diagram.values(right, answer)
    body = diagram.sketch.body
    for k, (content, attributes) in enumerate(diagram.lines):
        attributes.setdefault("fill", "#374151")
        body.append(svg.text(8, diagram.bottom + 20 + 18 * k, content, **attributes))
    height = diagram.bottom + 10 + 18 * len(diagram.lines)
    title = "Who mixes whom in two neighbour-only layers"
    return svg.document(
        _LAYERS_WIDTH, height, title, _layers_desc(p, right), body, key=[spec, str(answer)]
    )
