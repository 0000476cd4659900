"""`greedy_steps`: k steps of greedy decoding with a next-piece score table.

Spec fields: `pieces` (2 to 8 distinct pieces), `scores` (one row per piece: the scores of every
next piece when that piece is the last of the text; no row has two equal scores), `prompt` (1 to
4 pieces) and `steps` (1 to 8). Each step appends the piece with the highest score in the row
of the text's last piece, which is then the last piece. The answer is the sequence of pieces
written, a piece sequence.

Mistakes (the terms name the first step, 0-based, at which the answer leaves the right one):
kept using the prompt's last piece (the new piece not fed back); took the second-best piece at
every step; took the lowest score at every step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..shapes import Format, PieceSequence, Shape
from ..spec import SpecError, list_field, number, strings
from ..tex import scalar_tex
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

MAX_PIECES = 8
MAX_STEPS = 8
MAX_PROMPT = 4
MAX_SCORE = 100


@dataclass(frozen=True)
class ScoreTable:
    """Scores of the next piece given a context (rows) over `pieces` (columns)."""

    pieces: tuple[str, ...]
    rows: tuple[tuple[Fraction, ...], ...]

    def ranked(self, row: int) -> tuple[int, ...]:
        """Return the columns of a row from the highest score to the lowest."""
        values = self.rows[row]
        return tuple(sorted(range(len(values)), key=lambda j: -values[j]))

    def score(self, row: int, column: int) -> Fraction:
        return self.rows[row][column]


def read_pieces(spec: dict[str, Any], field: str = "pieces") -> tuple[str, ...]:
    """Read distinct pieces without spaces (2 to MAX_PIECES)."""
    pieces = strings(spec, field, low=2, high=MAX_PIECES)
    for k, piece in enumerate(pieces):
        if piece != piece.strip() or " " in piece or "|" in piece or ";" in piece:
            raise SpecError(f"{field}[{k}]", "must have no spaces, '|' or ';'")
    if len({p.casefold() for p in pieces}) != len(pieces):
        raise SpecError(field, "has a repeated piece")
    return pieces


def read_score_rows(
    spec: dict[str, Any], field: str, count: int, width: int
) -> tuple[tuple[Fraction, ...], ...]:
    """Read `count` rows of `width` distinct scores (rationals within ±MAX_SCORE)."""
    items = list_field(spec, field, low=count, high=count)
    out = []
    for k, item in enumerate(items):
        name = f"{field}[{k}]"
        if not isinstance(item, list) or len(item) != width:
            raise SpecError(name, f"must be a list of {width} scores, one per piece")
        row = tuple(number(x, f"{name}[{j}]") for j, x in enumerate(item))
        for j, x in enumerate(row):
            if abs(x) > MAX_SCORE or x.denominator > 12:
                raise SpecError(
                    f"{name}[{j}]", f"must stay within ±{MAX_SCORE} with a small denominator"
                )
        if len(set(row)) != len(row):
            raise SpecError(name, "has two equal scores; the rule must never meet a tie")
        out.append(row)
    return tuple(out)


def read_prompt(spec: dict[str, Any], pieces: tuple[str, ...], low: int = 1) -> tuple[str, ...]:
    prompt = strings(spec, "prompt", low=low, high=MAX_PROMPT)
    for k, piece in enumerate(prompt):
        if piece not in pieces:
            raise SpecError(f"prompt[{k}]", f"{piece[:40]!r} is not one of the pieces")
    return prompt


def read_count(spec: dict[str, Any], field: str, high: int) -> int:
    value = spec.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise SpecError(field, f"is required and must be a whole number from 1 to {high}")
    return value


@dataclass(frozen=True)
class GreedyProblem:
    table: ScoreTable
    prompt: tuple[str, ...]
    steps: int

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.table.pieces


def decode(p: GreedyProblem, rank: int = 0, *, feed_back: bool = True) -> tuple[str, ...]:
    """Return the pieces written when every step takes the `rank`-th best (0 the best, -1 the
    lowest) in the row of the last piece (or, without feeding back, of the prompt's)."""
    last = p.pieces.index(p.prompt[-1])
    out = []
    for _ in range(p.steps):
        column = p.table.ranked(last)[rank]
        out.append(p.pieces[column])
        if feed_back:
            last = column
    return tuple(out)


def first_difference(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Return the first position where two sequences differ (the shorter length if none)."""
    for k, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return k
    return min(len(a), len(b))


def _context(p: GreedyProblem, right: tuple[str, ...], step: int) -> str:
    """Return the last piece of the text before 0-based `step`."""
    return right[step - 1] if step else p.prompt[-1]


def _row_score(p: GreedyProblem, context: str, piece: str) -> str:
    return scalar_tex(p.table.score(p.pieces.index(context), p.pieces.index(piece)))


def _variants_for(
    code: str, rank: int, feed_back: bool
) -> Callable[[GreedyProblem], list[Variant]]:
    def variants(p: GreedyProblem) -> list[Variant]:
        wrong = decode(p, rank, feed_back=feed_back)
        right = decode(p)
        if wrong == right:
            return []
        return [variant(code, (first_difference(wrong, right),))]

    return variants


def _no_feedback_explain(p: GreedyProblem, d: Diagnosis) -> str:
    (step,) = d.terms
    right = decode(p)
    wrong = decode(p, feed_back=False)
    context = _context(p, right, step)
    return (
        f"Step {step + 1}: you kept using *{p.prompt[-1]}*, the prompt's last piece; the piece "
        f"written at step {step}, *{context}*, is now the context. Its row's highest score is "
        f"*{right[step]}* (${_row_score(p, context, right[step])}$), not *{wrong[step]}*. What "
        "the model writes becomes part of what it reads next, so every step reads the row of "
        f"the piece written just before. The right pieces are *{' '.join(right)}*."
    )


def _ranked_explain(which: str, rank: int) -> Callable[[GreedyProblem, Diagnosis], str]:
    def explain(p: GreedyProblem, d: Diagnosis) -> str:
        (step,) = d.terms
        right = decode(p)
        wrong = decode(p, rank)
        context = _context(p, right, step)
        return (
            f"Step {step + 1}: you wrote *{wrong[step]}*, the {which} score in the row of "
            f"*{context}* (${_row_score(p, context, wrong[step])}$). Greedy decoding takes the "
            f"highest: *{right[step]}* (${_row_score(p, context, right[step])}$). The right "
            f"pieces are *{' '.join(right)}*."
        )

    return explain


def _apply_for(rank: int, feed_back: bool) -> Callable[[GreedyProblem, Any], tuple[str, ...]]:
    def apply(p: GreedyProblem, d: Any) -> tuple[str, ...]:
        return decode(p, rank, feed_back=feed_back)

    return apply


@register
class GreedySteps(Kind):
    name = "greedy_steps"
    label = "Greedy decoding, step by step"
    # What its sentences number: steps from 1.
    numbering = {"step": Numbered(lambda p: p.steps)}
    mistakes = (
        MistakeDef(
            code="no_feedback",
            number=1,
            label="kept using the prompt's last piece",
            parts="[k]: the first step (0-based) the answer leaves the right pieces",
            variants=_variants_for("no_feedback", 0, False),
            apply=_apply_for(0, False),
            explain=_no_feedback_explain,
        ),
        MistakeDef(
            code="second_best",
            number=2,
            label="took the second-best piece",
            parts="[k]: the first step (0-based) the answer leaves the right pieces",
            variants=_variants_for("second_best", 1, True),
            apply=_apply_for(1, True),
            explain=_ranked_explain("second-highest", 1),
        ),
        MistakeDef(
            code="lowest_score",
            number=3,
            label="took the lowest score",
            parts="[k]: the first step (0-based) the answer leaves the right pieces",
            variants=_variants_for("lowest_score", -1, True),
            apply=_apply_for(-1, True),
            explain=_ranked_explain("lowest", -1),
        ),
    )

    def load(self, spec: dict[str, Any]) -> GreedyProblem:
        pieces = read_pieces(spec)
        rows = read_score_rows(spec, "scores", len(pieces), len(pieces))
        prompt = read_prompt(spec, pieces)
        steps = read_count(spec, "steps", MAX_STEPS)
        return GreedyProblem(ScoreTable(pieces, rows), prompt, steps)

    def normal(self, problem: GreedyProblem) -> dict[str, Any]:
        return {
            "pieces": list(problem.pieces),
            "scores": [[str(x) for x in row] for row in problem.table.rows],
            "prompt": list(problem.prompt),
            "steps": problem.steps,
        }

    def shape(self, problem: GreedyProblem) -> Shape:
        return PieceSequence(MAX_STEPS * 2, space_marks=())

    def right(self, problem: GreedyProblem) -> tuple[str, ...]:
        return decode(problem)

    def size(self, problem: GreedyProblem) -> int:
        return problem.steps

    def steps(self, problem: GreedyProblem) -> tuple[Step, ...]:
        pieces, rows = problem.pieces, problem.table.rows
        last = problem.prompt[-1]
        steps = [Step(f"The text ends with *{last}*: start in its row.")]
        written: list[str] = []
        for n in range(problem.steps):
            row = rows[pieces.index(last)]
            best = max(range(len(row)), key=row.__getitem__)
            scores = ", ".join(
                f"*{piece}* ${scalar_tex(x)}$" for piece, x in zip(pieces, row, strict=True)
            )
            steps.append(
                Step(
                    f"Step {n + 1}, the row of *{last}*: {scores}. The highest is "
                    f"*{pieces[best]}* (${scalar_tex(row[best])}$): write it; it is now the "
                    "last piece."
                )
            )
            last = pieces[best]
            written.append(last)
        shown = " · ".join(f"*{piece}*" for piece in written)
        steps.append(Step(f"The pieces written: {shown}.", tuple(written)))
        return tuple(steps)

    def answer_formats(self, problem: GreedyProblem) -> tuple[Format, ...]:
        pieces = problem.pieces
        return (
            Format(
                "The pieces written, in order, separated by spaces (or by |)",
                tuple(f"{a} {b}" for a in pieces for b in pieces if a != b),
            ),
        )

    def hint(self, problem: GreedyProblem) -> str:
        return (
            f"Start from the row of *{problem.prompt[-1]}*, the prompt's last piece: write the "
            "piece with the highest score there, then move to that piece's row for the next "
            f"step, {problem.steps} steps in all."
        )
