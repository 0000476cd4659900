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

from . import svg
from .base import Draw, ProblemGenerator
from .statement import md_word
from .words_decoding import PIECE_SETS


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
        problem = problem_of(spec)
        right = decode(problem) if show else None
        learner = tuple(answer) if isinstance(answer, tuple | list) else None
        return table_picture(spec, right, learner)


CELL = 46
LEFT = 80
TOP = 40


def path_cells(prompt_last: str, pieces: list[str], written: tuple[str, ...]) -> list[tuple]:
    """Return (step, row, column) for every step of a written path that stays in the table."""
    cells = []
    last = prompt_last
    for step, piece in enumerate(written):
        if piece not in pieces or last not in pieces:
            break
        cells.append((step, pieces.index(last), pieces.index(piece)))
        last = piece
    return cells


def table_picture(
    spec: dict, right: tuple[str, ...] | None, learner: tuple[str, ...] | None
) -> str:
    """Draw the score table; with the solution, the greedy path's cells numbered by step and
    the learner's path outlined beside it."""
    pieces = list(spec["pieces"])
    prompt_last = spec["prompt"][-1]
    paths = []
    desc = f"The score table; the prompt ends with {prompt_last}, whose row is outlined."
    title = "The next-piece score table"
    if right is not None:
        paths.append(("path", path_cells(prompt_last, pieces, right)))
        title = "The score table with the greedy path, step by step"
        desc += f" Greedy decoding writes {' '.join(right)}; each step's cell is numbered."
        if learner is not None:
            paths.append(("answer", path_cells(prompt_last, pieces, learner)))
            if tuple(learner) != tuple(right):
                desc += f" Your pieces, {' '.join(learner)}, are outlined dashed."
    return grid_picture(
        key=("greedy", spec.get("scores"), spec.get("prompt"), right, learner),
        columns=pieces,
        row_labels=pieces,
        scores=spec["scores"],
        outlined=pieces.index(prompt_last),
        paths=paths,
        title=title,
        desc=desc,
    )


def grid_picture(
    *,
    key: object,
    columns: list[str],
    row_labels: list[str],
    scores: list[list[str]],
    outlined: int | None,
    paths: list[tuple[str, list[tuple[int, int, int]]]],
    title: str,
    desc: str,
) -> str:
    """Draw a score grid (rows: contexts, columns: next pieces); ``paths`` are (role, cells)
    with cells (step, row, column), numbered at the left (path) or right (answer)."""
    n_rows, n_cols = len(row_labels), len(columns)
    left = max(LEFT, 14 + 7 * max(len(label) for label in row_labels))
    width = max(left + CELL * n_cols + 20, 380)  # the legend's lines need 380 px
    height = TOP + CELL * n_rows + 56
    body = _grid_cells(left, columns, row_labels, scores)
    if outlined is not None:
        body.append(_row_outline(left, outlined))
    for role, cells in paths:
        body += _path_marks(left, role, cells)
    body += _path_legend(TOP + CELL * n_rows + 24, [role for role, _ in paths])
    return svg.document(width, height, title, desc, body, prefix=svg.picture_id(key))


def _grid_cells(
    left: float, columns: list[str], row_labels: list[str], scores: list[list[str]]
) -> list[str]:
    """Return the grid's headers, row labels and scored cells, ``left`` px from the edge."""
    body = [svg.text(left, 16, "next piece →"), svg.text(6, TOP - 8, "last ↓")]
    for j, piece in enumerate(columns):
        body.append(svg.text(left + CELL * j + CELL / 2, TOP - 8, piece, text_anchor="middle"))
    for r, label in enumerate(row_labels):
        body.append(svg.text(left - 8, TOP + CELL * r + CELL / 2 + 4, label, text_anchor="end"))
    for r, row in enumerate(scores):
        for c, value in enumerate(row):
            body.append(
                svg.rect(
                    left + CELL * c,
                    TOP + CELL * r,
                    CELL,
                    CELL,
                    fill="#ffffff",
                    stroke=svg.COLOURS["muted"],
                    data_role="cell",
                    data_row=r,
                    data_column=c,
                    data_score=value,
                )
            )
            body.append(
                svg.text(
                    left + CELL * c + CELL / 2,
                    TOP + CELL * r + CELL / 2 + 4,
                    str(value),
                    text_anchor="middle",
                )
            )
    return body


def _row_outline(left: float, row: int) -> str:
    """Return the dashed outline around a row's label (the prompt's row)."""
    return svg.rect(
        4,
        TOP + CELL * row + 6,
        left - 8,
        CELL - 12,
        fill="none",
        stroke=svg.COLOURS["query"],
        stroke_dasharray="3 2",
        data_role="prompt-row",
    )


def _path_marks(left: float, role: str, cells: list[tuple[int, int, int]]) -> list[str]:
    """Return a path's cell outlines and step badges; ``role`` is "path" or "answer"."""
    body = []
    inset = 3 if role == "path" else 8
    steps_at: dict[tuple[int, int], list[int]] = {}
    for step, r, c in cells:
        steps_at.setdefault((r, c), []).append(step + 1)
        body.append(
            svg.rect(
                left + CELL * c + inset,
                TOP + CELL * r + inset,
                CELL - 2 * inset,
                CELL - 2 * inset,
                fill="none",
                stroke=svg.COLOURS[role],
                stroke_width=3 if role == "path" else 2,
                stroke_dasharray="5 3" if role == "answer" else None,
                data_role=role,
                data_step=step + 1,
            )
        )
    # A path may pass one cell twice (a loop): its label lists every step there. The numbers
    # sit in a filled badge in the cell's corner (top left for the path, bottom right for the
    # answer), clear of the cell's score and of the outlines' borders.
    for (r, c), steps in steps_at.items():
        number = ",".join(str(n) for n in steps)
        badge = 8 + 7.5 * len(number)
        x = left + CELL * c + 1 if role == "path" else left + CELL * (c + 1) - 1 - badge
        y = TOP + CELL * r + 1 if role == "path" else TOP + CELL * (r + 1) - 17
        body.append(svg.rect(x, y, badge, 16, rx=4, fill=svg.COLOURS[role], data_role="step-badge"))
        body.append(
            svg.text(
                x + badge / 2,
                y + 12.5,
                number,
                fill="#ffffff",
                text_anchor="middle",
                font_weight="600",
            )
        )
    return body


_PATH_NOTES = {
    "path": "green: the greedy path (steps at the top left of a cell)",
    "answer": "orange, dashed: your pieces (steps at the bottom right)",
}


def _path_legend(top: float, roles: list[str]) -> list[str]:
    """Return one coloured line of legend per path drawn, from ``top`` down."""
    return [
        svg.text(6, top + 16 * n, _PATH_NOTES[role], fill=svg.COLOURS[role])
        for n, role in enumerate(roles)
    ]
