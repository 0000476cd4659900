"""``greedy_steps``: write k pieces by greedy decoding from a next-piece score table.

Levels: 1, three pieces and three steps; 2, four pieces, three steps; 3, five pieces, four
steps; 4, six pieces, five steps. Scores are distinct whole numbers 0..9 in each row. Every
accepted problem's right path leaves the prompt's row (so "kept using the prompt's last piece"
shows, at step 2 or later) and visits at least two different pieces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.greedy_steps import GreedyProblem, ScoreTable, decode
from grading.spec import number

from .base import Draw, ProblemGenerator
from .draw import geometry, svg
from .statement import md_word
from .words.decoding import PIECE_SETS


@dataclass(frozen=True)
class GreedyLevel:
    pieces: int
    steps: int


LEVELS: dict[int, GreedyLevel] = {
    1: GreedyLevel(pieces=3, steps=3),
    2: GreedyLevel(pieces=4, steps=3),
    3: GreedyLevel(pieces=5, steps=4),
    4: GreedyLevel(pieces=6, steps=5),
}


def draw_pieces(draw: Draw, count: int) -> list[str]:
    """Return ``count`` pieces of one set, in the set's order (tables read more easily)."""
    pieces = draw.choice(PIECE_SETS)
    chosen = set(draw.sample(pieces, count))
    return [p for p in pieces if p in chosen]


def draw_scores(draw: Draw, rows: int, columns: int) -> list[list[str]]:
    """Return ``rows`` rows of ``columns`` distinct whole-number scores from 0 to 9."""
    return [[str(x) for x in draw.sample(range(10), columns)] for _ in range(rows)]


def problem_of(spec: dict) -> GreedyProblem:
    """Return the grading kind's problem object for a generated spec (no validation)."""
    pieces = tuple(spec["pieces"])
    rows = tuple(tuple(number(x, "scores") for x in row) for row in spec["scores"])
    return GreedyProblem(ScoreTable(pieces, rows), tuple(spec["prompt"]), spec["steps"])


def score_table_markdown(
    pieces: list[str], row_labels: list[str], rows: list[list[str]], corner: str
) -> list[str]:
    """Return a Markdown table: one row per context, one column per next piece."""
    header = f"| {corner} | " + " | ".join(md_word(p) for p in pieces) + " |"
    rule = "|---|" + "---|" * len(pieces)
    body = [f"| {label} | " + " | ".join(rows[k]) + " |" for k, label in enumerate(row_labels)]
    return [header, rule, *body]


class GreedyStepsGenerator(ProblemGenerator):
    kind: ClassVar[str] = "greedy_steps"
    name: ClassVar[str] = "greedy_steps"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 18
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        pieces = draw_pieces(draw, spec_level.pieces)
        prompt_length = 1 if level == 1 else 2
        return {
            "pieces": pieces,
            "scores": draw_scores(draw, len(pieces), len(pieces)),
            "prompt": [draw.choice(pieces) for _ in range(prompt_length)],
            "steps": spec_level.steps,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        problem = problem_of(spec)
        right = decode(problem)
        stuck = decode(problem, feed_back=False)
        return right != stuck and len(set(right)) >= 2

    def statement(self, spec: dict) -> str:
        pieces, prompt, steps = spec["pieces"], spec["prompt"], spec["steps"]
        labels = [md_word(p) for p in pieces]
        lines = [
            "A tiny model scores every possible next piece, and its scores depend only on the "
            "**last piece** of the text so far. The row is the last piece; the column is the "
            "next piece:",
            "",
            *score_table_markdown(pieces, labels, spec["scores"], "last ↓ / next →"),
            "",
            f"The text so far (the prompt) is {' '.join(md_word(p) for p in prompt)}. Greedy "
            "decoding writes, at each step, the piece with the **highest** score in the row of "
            "the text's last piece, appends it, and reads again; no row has a tie:",
            "",
            "$$y_t = \\operatorname*{argmax}_v \\; s(y_{t-1}, v)$$",
            "",
            "where $s(a, v)$ is the score in row $a$, column $v$, and $y_0$ is the prompt's last "
            "piece.",
            "",
            f"**Write the {steps} pieces** greedy decoding produces, in order.",
            "",
            f"Answer with the pieces separated by spaces, for example `{' '.join(pieces[:2])}`.",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        show = answer is not None if solution is None else solution
        right = decode(problem_of(spec)) if show else None
        learner = tuple(answer) if isinstance(answer, tuple | list) else None
        return chain_picture(spec, right, learner if show else None)


ROW = 58  # pixels from one step's box to the next: a box, then a gap for the arrow
BOX_HEIGHT = 26
TOP = 40  # the prompt's box; the lanes' headings sit above it
EXTRA = 2  # a learner's pieces drawn past the steps asked for, at most
LEGEND = ("each step reads the row of the piece above it", "and writes that row's top piece")


def _score(spec: dict, last: str, piece: str) -> int | None:
    """Return the score of ``piece`` in the row of ``last`` (None when either is no piece)."""
    pieces = spec["pieces"]
    if last not in pieces or piece not in pieces:
        return None
    return int(spec["scores"][pieces.index(last)][pieces.index(piece)])


def _top(spec: dict, last: str) -> tuple[str, int]:
    """Return the top-scoring piece of the row of ``last`` and its score."""
    row = [int(x) for x in spec["scores"][spec["pieces"].index(last)]]
    best = max(range(len(row)), key=row.__getitem__)
    return spec["pieces"][best], row[best]


def _q(piece: str) -> str:
    """Return a piece quoted, so a piece such as *the* or *a* does not read as a word."""
    return f"‘{piece}’"


def _box_top(k: int) -> float:
    return TOP + ROW * k


def _arrow_labels(spec: dict, right: tuple[str, ...] | None) -> list[str]:
    """Return the words beside each arrow of the greedy chain: the row it reads and the top
    score there (solved), or the rule (fresh)."""
    last = spec["prompt"][-1]
    if right is None:
        first = f"the top piece of row {_q(last)}"
        return [first, *["the top piece of the row above"] * (spec["steps"] - 1)]
    written = [last, *right]
    return [f"row {_q(written[k])}, top {_top(spec, written[k])[1]}" for k in range(len(right))]


def _learner_note(spec: dict, last: str, piece: str) -> tuple[str, ...]:
    """Return, in one or two short lines, what the learner's piece scores in the row of their
    own previous piece, and that row's top piece when it is not the top."""
    score = _score(spec, last, piece)
    if piece not in spec["pieces"]:
        return ("not in the table",)
    if score is None:
        return ()
    top, best = _top(spec, last)
    if top == piece:
        return (f"top of row {_q(last)}",)
    return (f"{score} in row {_q(last)};", f"its top: {_q(top)} {best}")


@dataclass(frozen=True)
class _Lanes:
    """Where a chain picture's columns start: the greedy boxes, the learner's boxes and their
    notes (and the common box width)."""

    left: float
    box: float
    mine: float

    @property
    def notes(self) -> float:
        return self.mine + self.box + 8


def _lanes(spec: dict, steps: int) -> _Lanes:
    """Return the columns: step names, then the greedy boxes, then the learner's boxes right
    beside them (the arrows' words run in the gaps between rows, clear of every box)."""
    names = ["prompt", *(f"step {k}" for k in range(1, steps + 1))]
    left = 8 + max(geometry.text_width(name, 12) for name in names) + 10
    box = max(44, max(geometry.text_width(p, 12) for p in spec["pieces"]) + 16)
    return _Lanes(left, box, left + box + 14)


def _step_box(x: float, k: int, width: float, text: str, role: str, **extra: object) -> list[str]:
    """Return a step's box (``data-role`` ``role``) with its piece written in the middle."""
    y = _box_top(k)
    return [
        svg.rect(
            x, y, width, BOX_HEIGHT, rx=6, fill="#ffffff", data_role=role, data_step=k, **extra
        ),
        svg.text(x + width / 2, y + 17, text, text_anchor="middle"),
    ]


def _greedy_lane(
    spec: dict, prefix: str, lanes: _Lanes, right: tuple[str, ...] | None, notes: list[str]
) -> list[str]:
    """Return the greedy chain: the prompt's last piece, then one box per step (a ``?`` when
    fresh), an arrow into each with the row it reads written beside it."""
    steps = spec["steps"]
    colour = svg.COLOURS["path"] if right is not None else svg.COLOURS["row"]
    body = _step_box(
        lanes.left, 0, lanes.box, spec["prompt"][-1], "prompt", stroke=svg.COLOURS["query"]
    )
    cx = lanes.left + lanes.box / 2
    for k in range(1, steps + 1):
        piece = right[k - 1] if right is not None else "?"
        role = "path" if right else "step"
        body += _step_box(
            lanes.left, k, lanes.box, piece, role, stroke=colour, stroke_width=2, data_piece=piece
        )
        start, end = (cx, _box_top(k - 1) + BOX_HEIGHT + 2), (cx, _box_top(k) - 3)
        body.append(svg.arrow(prefix, "path" if right else "row", start, end, data={"step": k}))
        body.append(svg.text(cx + 8, _box_top(k) - 12, notes[k - 1], fill=colour))
    return body


def _learner_lane(
    spec: dict, lanes: _Lanes, right: tuple[str, ...], learner: tuple[str, ...]
) -> tuple[list[str], float]:
    """Return the learner's pieces beside the greedy ones, orange and dashed where they differ,
    each differing one with what it scores in the row of the learner's own previous piece;
    and the x where the lane's widest text ends."""
    body = [svg.text(lanes.mine, 18, "yours", fill=svg.COLOURS["answer"])]
    edge = lanes.notes
    shown = learner[: len(right) + EXTRA]
    written = [spec["prompt"][-1], *learner]
    for k, piece in enumerate(shown, start=1):
        same = k <= len(right) and right[k - 1] == piece
        colour = svg.COLOURS["row"] if same else svg.COLOURS["answer"]
        dashes = None if same else "5 3"
        body += _step_box(
            lanes.mine,
            k,
            lanes.box,
            piece,
            "answer",
            stroke=colour,
            stroke_width=2,
            stroke_dasharray=dashes,
            data_piece=piece,
        )
        lines = () if same else _learner_note(spec, written[k - 1], piece)
        for n, line in enumerate(lines):
            y = _box_top(k) + (17 if len(lines) == 1 else 10 + 14 * n)
            body.append(svg.text(lanes.notes, y, line, fill=colour, data_role="answer-note"))
            edge = max(edge, lanes.notes + geometry.text_width(line, 12))
    if len(learner) > len(shown):
        more = f"and {len(learner) - len(shown)} more"
        y = _box_top(len(shown)) + BOX_HEIGHT + 18
        body.append(svg.text(lanes.mine, y, more, fill=svg.COLOURS["answer"]))
    return body, edge


def chain_picture(
    spec: dict, right: tuple[str, ...] | None, learner: tuple[str, ...] | None
) -> str:
    """Draw greedy decoding as a chain: each piece written is the row the next step reads. With
    the solution, each arrow names that row and its top score, and the learner's pieces stand
    beside the chain."""
    steps = spec["steps"]
    notes = _arrow_labels(spec, right)
    mine = learner is not None and right is not None and tuple(learner) != tuple(right)
    lanes = _lanes(spec, steps)
    prefix = svg.picture_id(
        ("greedy-chain", spec.get("scores"), spec.get("prompt"), right, learner)
    )
    heading = ("greedy", "path") if right is not None else ("greedy decoding, step by step", "text")
    body = [svg.text(lanes.left, 18, heading[0], fill=svg.COLOURS[heading[1]])]
    body += _greedy_lane(spec, prefix, lanes, right, notes)
    rows = steps
    edge = lanes.left + lanes.box / 2 + 8 + max(geometry.text_width(t, 12) for t in notes)
    if mine:
        assert right is not None and learner is not None
        lane, lane_edge = _learner_lane(spec, lanes, right, learner)
        body += lane
        edge = max(edge, lane_edge)
        rows = max(steps, min(len(learner), steps + EXTRA))
    names = ["prompt", *(f"step {k}" for k in range(1, rows + 1))]
    body += [svg.text(8, _box_top(k) + 17, name) for k, name in enumerate(names)]
    if mine and len(learner) > steps + EXTRA:
        rows += 1  # the line that says how many more pieces the learner wrote
    bottom = _box_top(rows) + BOX_HEIGHT + 6
    for n, line in enumerate(LEGEND):
        body.append(svg.text(8, bottom + 16 * (n + 1), line))
    width = max(*(geometry.text_width(line, 12) + 16 for line in LEGEND), edge + 8)
    height = bottom + 16 * len(LEGEND) + 10
    title, desc = _chain_words(spec, right, learner)
    return svg.document(
        width, height, title, desc, body, markers=["path" if right else "row"], prefix=prefix
    )


def _chain_words(
    spec: dict, right: tuple[str, ...] | None, learner: tuple[str, ...] | None
) -> tuple[str, str]:
    """Return the chain picture's title and description."""
    last = spec["prompt"][-1]
    if right is None:
        return (
            "How greedy decoding chains its steps",
            f"The prompt ends with {last}; step 1 writes the top piece of row {last}, and each "
            "later step the top piece of the row of the piece written just before.",
        )
    desc = (
        f"Greedy decoding writes {' '.join(right)}: from {last}, each arrow reads the row of "
        "the piece above it and writes that row's top piece."
    )
    if learner is not None and tuple(learner) != tuple(right):
        desc += f" Your pieces, {' '.join(learner)}, stand beside it, dashed where they differ."
    return "The greedy chain: each piece written picks the row the next step reads", desc
