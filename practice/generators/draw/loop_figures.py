"""The pictures of ``greedy_loop``: before answering, a sketch of how the state moves; after,
the states decoding passes through, the cycle marked. The generator runs the decoding; these
functions only draw it, at most 312 px wide (a phone's verdict column).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from grading.kinds.greedy_loop import Run

from . import geometry, labels, svg

HALF_W, HALF_H = 46, 14  # half a state's box: two five-letter pieces fit in it
DROP = 66  # pixels from one lead-in state to the next, down the column
RADIUS = {2: 50, 3: 66, 4: 62}  # the cycle's circle by its number of states (at most 4)
LABEL_ROOM = 36  # beside the column and the circle, for the edges' words
WIDEST = 300  # the key's lines wrap to this, so the picture fits a phone's verdict (312 px)
SKETCH_ROW = 58  # pixels from one state's box to the next in the fresh sketch
SKETCH_NOTES = (
    "a state: the last two pieces (the row read)",
    "writing y moves from the state (a, b) to (b, y)",
    "the text loops once a state comes back",
)


def states_sketch(spec: dict) -> str:
    """Draw, without solving anything, how the state moves: the prompt's pair, then the pairs
    after steps 1 and 2 with their unknown pieces (y₁, y₂), each arrow a step."""
    a, b = spec["prompt"]
    pairs = [f"{a} {b}", f"{b} y₁", "y₁ y₂"]
    notes = ["the prompt's pair", "after step 1", "after step 2"]
    box = max(90, *(geometry.text_width(p, 12) + 20 for p in pairs))
    left, top = 10, 40
    cx = left + box / 2
    prefix = svg.picture_id(("loop-sketch", spec.get("prompt")))
    body = [svg.text(left, 18, "states greedy decoding passes through")]
    for k, (pair, note) in enumerate(zip(pairs, notes, strict=True)):
        y = top + SKETCH_ROW * k
        body.append(
            svg.rect(
                left,
                y,
                box,
                28,
                rx=8,
                fill="#ffffff",
                stroke=svg.COLOURS["query"],
                data_role="state",
                data_pair=pair,
            )
        )
        body.append(svg.text(cx, y + 18, pair, text_anchor="middle"))
        body.append(svg.text(left + box + 12, y + 18, note, fill=svg.COLOURS["row"]))
        tail = top + SKETCH_ROW * (k + 1)
        body.append(svg.arrow(prefix, "path", (cx, y + 30), (cx, tail - 3), data={"step": k + 1}))
        words = f"step {k + 1} writes y{'₁₂₃'[k]}"
        body.append(svg.text(cx + 8, tail - 11, words, fill=svg.COLOURS["path"]))
    bottom = top + SKETCH_ROW * len(pairs) + 10
    body.append(svg.text(cx, bottom, "…", text_anchor="middle"))
    lines = [line for note in SKETCH_NOTES for line in _wrapped(note)]
    for n, line in enumerate(lines):
        body.append(svg.text(left, bottom + 24 + 16 * n, line))
    width = (
        max(
            left + box + 12 + max(geometry.text_width(n, 12) for n in notes),
            *(left + geometry.text_width(line, 12) for line in lines),
        )
        + 10
    )
    return svg.document(
        width,
        bottom + 24 + 16 * len(lines),
        "How the state moves at each step",
        f"The prompt's pair, {a} {b}, is the first state; step 1 writes a piece y₁ and the "
        f"state becomes {b} y₁, step 2 writes y₂ and it becomes y₁ y₂, and so on until a "
        "state comes back. No piece is worked out here.",
        body,
        markers=["path"],
        prefix=prefix,
    )


@dataclass(frozen=True)
class _GraphLayout:
    """Where each state sits (by step), and the picture's size."""

    positions: dict[int, tuple[float, float]]
    width: float
    height: float


def _layout(lead: int, cycle: int, top: float) -> _GraphLayout:
    """Place ``lead`` lead-in states down one column from ``top`` and the ``cycle`` states on a
    circle below it, the first at its top (right under the lead-in), turning clockwise."""
    radius = RADIUS.get(cycle, 40 + 8 * cycle)
    left_box = LABEL_ROOM + HALF_W if cycle == 2 else LABEL_ROOM + HALF_W + radius
    cx = 10 + left_box
    positions: dict[int, tuple[float, float]] = {t: (cx, top + DROP * t) for t in range(lead)}
    cy = top + DROP * lead + radius
    for n in range(cycle):
        angle = math.pi / 2 - 2 * math.pi * n / cycle
        positions[lead + n] = (cx + radius * math.cos(angle), cy - radius * math.sin(angle))
    right = max(x for x, _ in positions.values())
    bottom = max(y for _, y in positions.values())
    return _GraphLayout(positions, right + HALF_W + LABEL_ROOM + 10, bottom + HALF_H + 20)


def _leave_box(dx: float, dy: float) -> float:
    """Return how far from a state's centre, along (dx, dy), an edge starts clear of its box."""
    length = math.hypot(dx, dy) or 1.0
    ux, uy = abs(dx) / length, abs(dy) / length
    return min(HALF_W / ux if ux else math.inf, HALF_H / uy if uy else math.inf) + 4


def _wrapped(text: str, limit: float = WIDEST) -> list[str]:
    """Return ``text`` in lines of at most ``limit`` pixels (12 px text), broken at spaces."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and geometry.text_width(f"{lines[-1]} {word}", 12) <= limit:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


@dataclass
class _Drawing:
    """What a picture accumulates: its elements, the label placer's inputs."""

    body: list[str] = field(default_factory=list)
    segments: list[labels.Segment] = field(default_factory=list)
    edge_labels: list[labels.Label] = field(default_factory=list)
    edge_colours: list[str] = field(default_factory=list)
    obstacles: list[labels.Box] = field(default_factory=list)


def _draw_edges(drawing: _Drawing, prefix: str, r: Any, layout: _GraphLayout) -> None:
    """Add one arrow per step, from its state to the next (the last back into the cycle),
    each with a label "step: piece" to place beside its shaft."""
    j = r.first_context_step
    bounds = labels.Box(0, 0, layout.width, layout.height)
    for t in range(len(r.written)):
        source = layout.positions[t]
        target_index = t + 1 if t + 1 < r.repeat_step else j
        target = layout.positions[target_index]
        in_loop = t >= j
        role = "loop" if in_loop else "path"
        dx, dy = target[0] - source[0], target[1] - source[1]
        length = math.hypot(dx, dy) or 1.0
        # A loop of two pieces goes back and forth between two states: each way keeps to its
        # own side of the line between them, so the two arrows do not lie on one another.
        shift = 6 / length if in_loop and r.repeat_step - j == 2 else 0.0
        sx, sy = dy * shift, -dx * shift
        clear = _leave_box(dx, dy)
        start = (source[0] + clear * dx / length + sx, source[1] + clear * dy / length + sy)
        end = (target[0] - clear * dx / length + sx, target[1] - clear * dy / length + sy)
        drawing.body.append(
            svg.arrow(
                prefix,
                role,
                start,
                end,
                data={"step": t + 1, "piece": r.written[t], "from": t, "to": target_index},
                width=3 if in_loop else 2,
            )
        )
        drawing.segments += geometry.arrow_segments(start, end)
        text = f"{t + 1}: {r.written[t]}"
        # On the shaft's left first (outside the loop, which turns clockwise on screen).
        candidates = labels.along_segment((start, end), text, 12, side=1)
        drawing.edge_labels.append(labels.Label(text, 12, tuple(candidates), bounds=bounds))
        drawing.edge_colours.append(svg.COLOURS[role])


def _draw_states(
    drawing: _Drawing, states: list[tuple[str, str]], positions: dict[int, tuple[float, float]]
) -> None:
    """Add a labelled box per state, in step order; boxes and their text are obstacles."""
    for t, state in enumerate(states):
        x, y = positions[t]
        pair = f"{state[0]} {state[1]}"
        drawing.body.append(
            f"<g {svg.attrs({'class': 'state', 'data-state': t, 'data-pair': pair})}>"
        )
        drawing.body.append(
            svg.rect(
                x - HALF_W,
                y - HALF_H,
                2 * HALF_W,
                2 * HALF_H,
                rx=8,
                fill="#ffffff",
                stroke=svg.COLOURS["query"],
            )
        )
        drawing.body.append(svg.text(x, y + 4, pair, text_anchor="middle"))
        drawing.body.append("</g>")
        inside = labels.text_box(x, y + 4, pair, size=12, anchor="middle")
        drawing.obstacles += [labels.Box(x - HALF_W, y - HALF_H, x + HALF_W, y + HALF_H), inside]


def _draw_answer(drawing: _Drawing, answer: Any, r: Any, top: float) -> tuple[str, float]:
    """Add the learner's loop and start as lines from ``top`` down when they differ from the
    right ones; return the sentence the description gains (empty when none) and the height
    the lines take."""
    if not (isinstance(answer, tuple) and len(answer) == 2):
        return "", 0.0
    loop, start = answer
    if (tuple(loop), start) == (r.loop, r.start):
        return "", 0.0
    lines = _wrapped(f"your answer: {' '.join(loop)} from step {start}")
    for n, line in enumerate(lines):
        y = top + 16 * n
        drawing.body.append(svg.text(10, y, line, fill=svg.COLOURS["answer"], data_role="answer"))
        drawing.obstacles.append(labels.text_box(10, y, line, size=12))
    return f" Your answer: the loop {' '.join(loop)} from step {start}.", 16.0 * len(lines)


def _draw_keys(drawing: _Drawing, r: Any, first: str) -> float:
    """Write what the marks mean at the top, wrapped to fit a phone; return where the lines
    end (the y below them)."""
    j = r.first_context_step
    plain = _wrapped("states: the last two pieces; edges: the piece written at each step")
    purple = _wrapped(
        f"purple: the cycle; its first state, {first}, holds steps {j - 1} and {j}, so the "
        f"text repeats {' '.join(r.loop)} from step {r.start}"
    )
    y = 20.0
    for lines, extra in (
        (plain, {}),
        (purple, {"fill": svg.COLOURS["loop"], "data_role": "loop-key"}),
    ):
        for line in lines:
            drawing.body.append(svg.text(10, y, line, **extra))
            drawing.obstacles.append(labels.text_box(10, y, line, size=12))
            y += 16
    return y


def state_graph(spec: dict, r: Run, answer: Any) -> str:
    """Draw the states (pairs of last pieces) decoding passes through (``r``, the run of the
    problem ``spec``): the lead-in down a column, the cycle on a circle below it, each edge
    labelled with the piece written; the loop highlighted."""
    text = (*spec["prompt"], *r.written)
    states = [(text[t], text[t + 1]) for t in range(len(r.written) + 1)]
    # states[t] is the context after step t; states[m] == states[j].
    j = r.first_context_step
    drawing = _Drawing()
    below_keys = _draw_keys(drawing, r, f"{states[j][0]} {states[j][1]}")
    layout = _layout(j, r.repeat_step - j, below_keys + 24)
    prefix = svg.picture_id(("loop-graph", spec.get("contexts"), spec.get("scores"), str(answer)))
    desc = (
        f"The text enters a loop of {len(r.loop)} pieces, {' '.join(r.loop)}, at step "
        f"{r.start}; the pair ({states[j][0]}, {states[j][1]}) comes back after step "
        f"{r.repeat_step}."
    )
    mine, taken = _draw_answer(drawing, answer, r, layout.height + 10)
    layout = _GraphLayout(layout.positions, layout.width, layout.height + taken)
    _draw_edges(drawing, prefix, r, layout)
    _draw_states(drawing, states[: r.repeat_step], layout.positions)
    spots = labels.place(
        drawing.edge_labels, segments=drawing.segments, obstacles=drawing.obstacles
    )
    body = drawing.body
    body += [labels.svg_text(s, fill=c) for s, c in zip(spots, drawing.edge_colours, strict=True)]
    return svg.document(
        max(layout.width, WIDEST + 12),
        layout.height + 6,
        "The states greedy decoding passes through, and the cycle",
        desc + mine,
        body,
        markers=["path", "loop"],
        prefix=prefix,
    )
