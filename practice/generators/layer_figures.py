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

from typing import Any

from . import svg_plot as svg

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
    return svg.document(width, height, title.replace("*", ""), desc, body, [spec, str(answer)])


def layers_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the two-row diagram of who mixes whom, and (once answered) the values."""
    from grading.kinds.two_layers import TwoLayersKind, layer_one

    kind = TwoLayersKind()
    p = kind.load(spec)
    i = p.position
    n = len(p.tokens)
    step, left = 96, 60
    width = max(left + n * step, 560)
    x_of = {j: left + j * step + step / 2 - 30 for j in range(n)}
    y2, y1, y0 = 50, 150, 250
    solved = answer is not None if solution is None else solution
    reach = set(p.reach)
    middle = p.neighbourhood(i)
    body: list[str] = [
        svg.text(4, y2 + 4, "layer 2"),
        svg.text(4, y1 + 4, "layer 1"),
        svg.text(4, y0 + 4, "lookup"),
    ]
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
        # near the layer-1 end of the edge, where the edges are furthest apart
        mx, my = x_of[j] + 0.3 * (x_of[i] - x_of[j]), y1 - 0.3 * (y1 - y2)
        body.append(
            svg.text(
                mx + (6 if j >= i else -6),
                my,
                f"w={svg.fmt(w_of[j - i])}",
                text_anchor="start" if j >= i else "end",
                fill=svg.COLOURS["right"],
            )
        )
    weights_note = "u = (" + ", ".join(svg.fmt(u) for u in p.weights_1) + ")"
    body.append(
        svg.text(
            left,
            y0 + 70,
            f"layer 1 mixes with {weights_note}; layer 2 with w = ("
            + ", ".join(svg.fmt(w) for w in p.weights_2)
            + ")",
            fill="#374151",
        )
    )
    for j in range(n):
        inside = j in reach
        colour = svg.COLOURS["given"] if inside else "#d1d5db"
        body.append(
            svg.circle(
                x_of[j],
                y0,
                10,
                fill=colour,
                data_role="lookup" if inside else "outside",
                data_index=j,
            )
        )
        body.append(
            svg.text(
                x_of[j],
                y0 + 28,
                p.tokens[j],
                text_anchor="middle",
                fill="#111827" if inside else "#9ca3af",
            )
        )
        if p.tokens_b and p.tokens_b[j] != p.tokens[j]:
            body.append(
                svg.text(
                    x_of[j],
                    y0 + 46,
                    f"B: {p.tokens_b[j]}",
                    text_anchor="middle",
                    fill=svg.COLOURS["noise"],
                    data_role="token-b-changed",
                    data_index=j,
                )
            )
        if j in middle:
            body.append(
                svg.circle(
                    x_of[j], y1, 10, fill=svg.COLOURS["signal"], data_role="layer-1", data_index=j
                )
            )
            if solved:
                value = layer_one(p, j)
                body.append(
                    svg.text(
                        x_of[j] + 14,
                        y1 + 4,
                        _vec(value),
                        fill=svg.COLOURS["signal"],
                        data_role="value-1",
                        data_index=j,
                        data_value=_vec(value),
                    )
                )
    body.append(
        svg.circle(x_of[i], y2, 12, fill=svg.COLOURS["right"], data_role="layer-2", data_index=i)
    )
    height = y0 + 84
    if solved:
        right = kind.right(p)
        body.append(
            svg.text(
                x_of[i] + 18,
                y2 - 8,
                f"h{str(i).translate(_SUB)}⁽²⁾ = {_vec(right)}",
                fill=svg.COLOURS["right"],
                data_role="right",
                data_value=_vec(right),
            )
        )
        if isinstance(answer, tuple) and len(answer) == len(right):
            body.append(
                svg.text(
                    x_of[i] + 18,
                    y2 + 12,
                    f"yours: {_vec(answer)}",
                    fill=svg.COLOURS["answer"],
                    data_role="answer",
                    data_value=_vec(answer),
                )
            )
    else:
        body.append(
            svg.text(
                x_of[i] + 18, y2 + 4, f"h{str(i).translate(_SUB)}⁽²⁾ = ?", fill=svg.COLOURS["right"]
            )
        )
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
    return svg.document(width, height, title, desc, body, [spec, str(answer)])
