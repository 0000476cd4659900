"""Pictures of the layer kinds, for rows of any dimension: who mixes whom, as diagrams.

``contrast_picture`` (``static_vs_contextual``): the two sentences as rows of word boxes, both
occurrences of the word pointing at the one table row they share, the changed neighbours
marked; once answered, the two sums and both differences, the learner's beside the right ones.

``layers_picture`` (``two_layers``): the positions as three rows of nodes (lookup rows, layer-1
outputs, the layer-2 output at the word) with an edge for every term that is mixed in, so a
word two places away visibly reaches the word only through layer 2; once answered, every
layer-1 output and the answer, the learner's beside the right one.
"""

from __future__ import annotations

import math
from typing import Any

from . import geometry, labels, svg

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _vec(values: Any) -> str:
    return "[" + ", ".join(svg.fmt(v) for v in values) + "]"


def _answer_parts(answer: Any, count: int) -> list[Any] | None:
    if not isinstance(answer, tuple) or len(answer) != count:
        return None
    return list(answer)


def contrast_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the two sentences, the shared row and (once answered) the sums and differences."""
    from grading.kinds.static_vs_contextual import StaticVsContextualKind, layer

    kind = StaticVsContextualKind()
    p = kind.load(spec)
    i = p.position
    n = len(p.tokens_a)
    box, gap, left = 92, 8, 20
    width = max(left + n * (box + gap) + 20, 560)
    solved = answer is not None if solution is None else solution
    body: list[str] = []
    row_y = {"A": 30, "B": 190}
    for side, tokens in (("A", p.tokens_a), ("B", p.tokens_b)):
        y = row_y[side]
        body.append(svg.text(4, y + 20, side))
        for k, token in enumerate(tokens):
            x = left + k * (box + gap)
            changed = p.tokens_a[k] != p.tokens_b[k]
            role = "word" if k == i else "changed" if changed else "token"
            colour = (
                svg.COLOURS["right"] if k == i else svg.COLOURS["noise"] if changed else "#9ca3af"
            )
            body.append(
                svg.rect(
                    x,
                    y,
                    box,
                    30,
                    fill="none",
                    stroke=colour,
                    stroke_width="2" if k == i or changed else "1",
                    data_role=role,
                    data_side=side,
                    data_index=k,
                )
            )
            body.append(svg.text(x + box / 2, y + 19, token, text_anchor="middle"))
            if side == "A":
                body.append(
                    svg.text(
                        x + box / 2,
                        y - 6,
                        f"w = {svg.fmt(p.weights[k])}",
                        text_anchor="middle",
                        fill="#6b7280",
                    )
                )
    word = p.tokens_a[i]
    row_id = p.vocab.index(word)
    cx = left + i * (box + gap) + box / 2
    body.append(
        svg.rect(
            cx - 90,
            105,
            180,
            30,
            fill="#ecfdf5",
            stroke=svg.COLOURS["right"],
            data_role="shared-row",
            data_value=_vec(p.table[row_id]),
        )
    )
    body.append(svg.text(cx, 124, f"E[{row_id}] = {_vec(p.table[row_id])}", text_anchor="middle"))
    body.append(
        svg.line(cx, 60, cx, 105, stroke=svg.COLOURS["right"], data_role="lookup", data_side="A")
    )
    body.append(
        svg.line(cx, 135, cx, 190, stroke=svg.COLOURS["right"], data_role="lookup", data_side="B")
    )
    height = 240
    if solved:
        right = kind.right(p)
        h_a, h_b = layer(p, p.rows_a), layer(p, p.rows_b)
        lines = [
            ("sum", f"h{str(i).translate(_SUB)}ᴬ = {_vec(h_a)}", _vec(h_a)),
            ("sum", f"h{str(i).translate(_SUB)}ᴮ = {_vec(h_b)}", _vec(h_b)),
            ("right", f"lookup difference = {_vec(right[0])}", _vec(right[0])),
            ("right", f"layer difference = {_vec(right[1])}", _vec(right[1])),
        ]
        parts = _answer_parts(answer, 2)
        if parts is not None:
            lines.append(
                (
                    "answer",
                    "yours: "
                    + "; ".join(
                        _vec(part) if isinstance(part, tuple) else svg.fmt(part) for part in parts
                    ),
                    "",
                )
            )
        for k, (role, content, value) in enumerate(lines):
            colour = (
                svg.COLOURS["answer"]
                if role == "answer"
                else svg.COLOURS["right"]
                if role == "right"
                else "#374151"
            )
            body.append(
                svg.text(
                    left,
                    250 + 18 * k,
                    content,
                    fill=colour,
                    data_role=role,
                    data_value=value or None,
                )
            )
        height = 250 + 18 * len(lines)
    title = f"One row for *{word}*, shared by both sentences"
    desc = (
        f"Sentence A above, sentence B below; both occurrences of {word} point at the same table "
        f"row E[{row_id}]. The neighbours that differ are marked."
    )
    if solved:
        right = kind.right(p)
        desc += (
            f" The lookup difference is {_vec(right[0])}; the layer difference is {_vec(right[1])}."
        )
    return svg.document(width, height, title.replace("*", ""), desc, body, key=[spec, str(answer)])


def layers_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the two-row diagram of who mixes whom, and (once answered) the values."""
    from grading.kinds.two_layers import TwoLayersKind, layer_one

    kind = TwoLayersKind()
    p = kind.load(spec)
    i = p.position
    n = len(p.tokens)
    solved = answer is not None if solution is None else solution
    reach = set(p.reach)
    middle = p.neighbourhood(i)
    step, left = 96, 60
    if solved:
        # Room for each layer-1 value beside its dot, between it and the next dot.
        widest = max(geometry.text_width(_vec(layer_one(p, j)), 12) for j in middle)
        step = max(step, math.ceil(widest) + 44)
    width = max(left + n * step, 560)
    x_of = {j: left + j * step + step / 2 - 30 for j in range(n)}
    y2, y1, y0 = 50, 150, 250
    body: list[str] = []
    segments: list[labels.Segment] = []
    obstacles: list[labels.Box] = []
    # Labels placed by the pass after everything else is drawn: (label, its attributes).
    placed: list[tuple[labels.Label, dict[str, str]]] = []
    bounds = labels.Box(0, 0, width, y0 + 84)

    def fixed(x: float, y: float, content: str, anchor: str = "start", **extra: Any) -> None:
        """Write a text whose place is fixed, and keep the placed labels off it."""
        body.append(svg.text(x, y, content, text_anchor=anchor, **extra))
        obstacles.append(labels.text_box(x, y, content, size=12, anchor=anchor))

    def dot(x: float, y: float, r: float, **extra: Any) -> None:
        body.append(svg.circle(x, y, r, **extra))
        obstacles.append(labels.Box(x - r, y - r, x + r, y + r))

    def near(content: str, candidates: list[labels.Candidate], attributes: dict[str, str]) -> None:
        label = labels.Label(content, 12, tuple(candidates), bounds=bounds)
        placed.append((label, attributes))

    fixed(4, y2 + 4, "layer 2")
    fixed(4, y1 + 4, "layer 1")
    fixed(4, y0 + 4, "lookup")
    weight_labels: list[tuple[labels.Label, dict[str, str]]] = []
    u_of = dict(zip(p.offsets, p.weights_1, strict=True))
    w_of = dict(zip(p.offsets, p.weights_2, strict=True))
    for j in middle:
        for m in p.neighbourhood(j):
            body.append(
                svg.line(
                    x_of[m],
                    y0 - 10,
                    x_of[j],
                    y1 + 10,
                    stroke=svg.COLOURS["signal"],
                    stroke_width="1.5",
                    data_role="mix-1",
                    data_from=m,
                    data_to=j,
                    data_weight=svg.fmt(u_of[m - j]),
                )
            )
            segments.append(((x_of[m], y0 - 10), (x_of[j], y1 + 10)))
        body.append(
            svg.line(
                x_of[j],
                y1 - 10,
                x_of[i],
                y2 + 10,
                stroke=svg.COLOURS["right"],
                stroke_width="2",
                data_role="mix-2",
                data_from=j,
                data_to=i,
                data_weight=svg.fmt(w_of[j - i]),
            )
        )
        edge = ((x_of[j], y1 - 10), (x_of[i], y2 + 10))
        segments.append(edge)
        # Near the layer-1 end of the edge first, where the edges are furthest apart.
        text = f"w={svg.fmt(w_of[j - i])}"
        candidates = labels.along_segment(
            edge, text, 12, side=1 if j >= i else -1, fractions=(0.3, 0.2, 0.4, 0.5, 0.6, 0.1)
        )
        label = labels.Label(text, 12, tuple(candidates), bounds=bounds)
        weight_labels.append((label, {"fill": svg.COLOURS["right"]}))
    weights_note = "u = (" + ", ".join(svg.fmt(u) for u in p.weights_1) + ")"
    fixed(
        left,
        y0 + 70,
        f"layer 1 mixes with {weights_note}; layer 2 with w = ("
        + ", ".join(svg.fmt(w) for w in p.weights_2)
        + ")",
        fill="#374151",
    )
    value_labels: list[tuple[labels.Label, dict[str, str]]] = []
    for j in range(n):
        inside = j in reach
        colour = svg.COLOURS["given"] if inside else "#d1d5db"
        dot(x_of[j], y0, 10, fill=colour, data_role="lookup" if inside else "outside", data_index=j)
        fixed(x_of[j], y0 + 28, p.tokens[j], "middle", fill="#111827" if inside else "#9ca3af")
        if p.tokens_b and p.tokens_b[j] != p.tokens[j]:
            fixed(
                x_of[j],
                y0 + 46,
                f"B: {p.tokens_b[j]}",
                "middle",
                fill=svg.COLOURS["noise"],
                data_role="token-b-changed",
                data_index=j,
            )
        if j in middle:
            dot(x_of[j], y1, 10, fill=svg.COLOURS["signal"], data_role="layer-1", data_index=j)
            if solved:
                value = _vec(layer_one(p, j))
                candidates = labels.around_point(
                    (x_of[j], y1), value, 12, toward=(1, 0), gaps=(13, 18, 24, 32, 44)
                )
                label = labels.Label(value, 12, tuple(candidates), bounds=bounds)
                value_labels.append(
                    (
                        label,
                        {
                            "fill": svg.COLOURS["signal"],
                            "data-role": "value-1",
                            "data-index": str(j),
                            "data-value": value,
                        },
                    )
                )
    dot(x_of[i], y2, 12, fill=svg.COLOURS["right"], data_role="layer-2", data_index=i)
    top_gaps = (15, 20, 26, 34, 44)
    height = y0 + 84
    if solved:
        right = kind.right(p)
        text = f"h{str(i).translate(_SUB)}⁽²⁾ = {_vec(right)}"
        near(
            text,
            labels.around_point((x_of[i], y2), text, 12, toward=(1, -0.4), gaps=top_gaps),
            {"fill": svg.COLOURS["right"], "data-role": "right", "data-value": _vec(right)},
        )
        if isinstance(answer, tuple) and len(answer) == len(right):
            text = f"yours: {_vec(answer)}"
            near(
                text,
                labels.around_point((x_of[i], y2), text, 12, toward=(1, 0.4), gaps=top_gaps),
                {"fill": svg.COLOURS["answer"], "data-role": "answer", "data-value": _vec(answer)},
            )
    else:
        text = f"h{str(i).translate(_SUB)}⁽²⁾ = ?"
        near(
            text,
            labels.around_point((x_of[i], y2), text, 12, toward=(1, 0), gaps=top_gaps),
            {"fill": svg.COLOURS["right"]},
        )
    everything = [*placed, *weight_labels, *value_labels]
    spots = labels.place([lab for lab, _ in everything], segments=segments, obstacles=obstacles)
    body += [labels.svg_text(spot, **a) for spot, (_, a) in zip(spots, everything, strict=True)]
    title = "Who mixes whom in two neighbour-only layers"
    far = sorted(m for m in reach if m not in middle)
    desc = (
        f"Lookup rows at the bottom, layer-1 outputs in the middle, position {i} after layer 2 at "
        f"the top. Position{'s' if len(far) != 1 else ''} {', '.join(map(str, far))} reach"
        f"{'' if len(far) != 1 else 'es'} position {i} only through layer 2; grey positions do not "
        "reach it at all."
    )
    if solved:
        desc += f" The answer is {_vec(kind.right(p))}."
    return svg.document(width, height, title, desc, body, key=[spec, str(answer)])
