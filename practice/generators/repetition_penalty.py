"""``repetition_penalty``: penalise the pieces already written, then softmax at a temperature.

The text so far is a phrase written twice (a loop in the making); before the penalty its top
piece is one it has already written, and the penalty must hand the top to another piece. Every
accepted problem has a seen piece with a positive score, a seen piece with a negative score,
an unseen piece with a nonzero score and a temperature other than 1, so each catalogued rule
mistake changes the answer.

Levels: 1, three pieces, T = 2 (flatter), scores -1..3; 2, four pieces, T = 1/2 (sharper);
3, four pieces, scores -2..4; 4, five pieces. θ = 2 throughout and T = 1/2 from level 2 keep
the exponents whole numbers or halves: with θ = 3/2 or 3 they get thirds and sixths, with
T = 2 quarters, and confirming a learner's exact answer symbolically then took up to 1.6 s
(θ = 3) and 0.43 s (T = 2, four pieces), measured on the shared machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds.repetition_penalty import PenaltyProblem, penalised, top

from .base import Draw, ProblemGenerator
from .draw import svg
from .statement import format_example, md_word, tex_number
from .words.decoding import PIECE_SETS


def _example(spec: dict, pieces: Sequence[str]) -> str:
    """Return the format example: three probabilities and a piece, never this problem's answer
    nor a catalogued mistake's (the piece named is the first of the list that keeps it so,
    from the last listed)."""
    vector = "[exp(1), exp(2), 1]/(exp(1) + exp(2) + 1)"
    return format_example(spec, [f"{vector}; {piece}" for piece in reversed(pieces)])


@dataclass(frozen=True)
class PenaltyLevel:
    pieces: int
    penalties: tuple[str, ...]
    temperatures: tuple[str, ...]
    low: int
    high: int


LEVELS: dict[int, PenaltyLevel] = {
    1: PenaltyLevel(pieces=3, penalties=("2",), temperatures=("2",), low=-1, high=3),
    2: PenaltyLevel(pieces=4, penalties=("2",), temperatures=("1/2",), low=-1, high=3),
    3: PenaltyLevel(pieces=4, penalties=("2",), temperatures=("1/2",), low=-2, high=4),
    4: PenaltyLevel(pieces=5, penalties=("2",), temperatures=("1/2",), low=-2, high=4),
}
# Two answers with the same top piece whose probabilities all agree within this relative
# difference could both be read from one answer typed in decimals (three significant figures
# round within 0.5 %).
SEPARATION = 0.02


def problem_of(spec: dict) -> PenaltyProblem:
    """Return the grading kind's problem object for a generated spec (no validation)."""
    return PenaltyProblem(
        tuple(spec["pieces"]),
        tuple(Fraction(z) for z in spec["scores"]),
        tuple(spec["text"]),
        Fraction(spec["penalty"]),
        Fraction(spec["temperature"]),
    )


class RepetitionPenaltyGenerator(ProblemGenerator):
    kind: ClassVar[str] = "repetition_penalty"
    name: ClassVar[str] = "repetition_penalty"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 20
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        words = draw.choice(PIECE_SETS)
        chosen = set(draw.sample(words, spec_level.pieces))
        pieces = [w for w in words if w in chosen]
        fillers = [w for w in words if w not in chosen]
        penalty = draw.choice(spec_level.penalties)
        theta = Fraction(penalty)
        # The loop's piece: seen, on top before the penalty. A challenger, unseen, that the
        # penalty puts on top (old / θ < challenger < old). A seen piece with a negative score.
        old = draw.integer(2, spec_level.high)
        challengers = [z for z in range(1, old) if Fraction(old) / theta < z]
        challenger = draw.choice(challengers) if challengers else old
        roles = draw.shuffled(range(len(pieces)))
        scores = [0] * len(pieces)
        seen: set[int] = set()
        scores[roles[0]], scores[roles[1]], scores[roles[2]] = (
            old,
            challenger,
            draw.integer(spec_level.low, -1),
        )
        seen |= {roles[0], roles[2]}
        for k in roles[3:]:
            scores[k] = draw.integer(spec_level.low, challenger - 1)
            if draw.below(2):
                seen.add(k)
        # The phrase keeps the set's word order, so it reads like text written twice over.
        extra = draw.sample(fillers, min(len(fillers), 1 + draw.below(2)))
        kept = {pieces[k] for k in seen} | set(extra)
        phrase = [w for w in words if w in kept]
        return {
            "pieces": pieces,
            "scores": [str(z) for z in scores],
            "text": phrase + phrase,
            "penalty": penalty,
            "temperature": draw.choice(spec_level.temperatures),
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        p = problem_of(spec)
        seen = [k for k in range(len(p.pieces)) if p.seen(k)]
        if not any(p.scores[k] > 0 for k in seen) or not any(p.scores[k] < 0 for k in seen):
            return False
        if not any(p.scores[k] != 0 for k in range(len(p.pieces)) if not p.seen(k)):
            return False
        before = top(p.scores)
        after = top(penalised(p))
        if before is None or after is None or not p.seen(before) or before == after:
            return False
        return separated(p)

    def statement(self, spec: dict) -> str:
        pieces, text = spec["pieces"], spec["text"]
        theta, t = tex_number(spec["penalty"]), tex_number(spec["temperature"])
        lines = [
            f"The text so far is {' '.join(md_word(w) for w in text)}. The model's scores for "
            "the next piece:",
            "",
        ]
        for piece, z in zip(pieces, spec["scores"], strict=True):
            note = " (already in the text)" if piece in text else ""
            lines.append(f"- {md_word(piece)}: $z = {tex_number(z)}${note}")
        lines += [
            "",
            f"A **repetition penalty** $\\theta = {theta}$ acts first, on the pieces already in "
            "the text only: a positive score is divided by $\\theta$, a negative score is "
            "multiplied by $\\theta$; the other pieces keep their scores. The probabilities are "
            f"then taken at **temperature** $T = {t}$:",
            "",
            "$$p_v = \\frac{\\exp(z'_v / T)}{\\sum_u \\exp(z'_u / T)}$$",
            "",
            "where $z'_v$ is piece $v$'s score after the penalty (its score $z_v$ when it is "
            "not in the text).",
            "",
            "**Compute** the probabilities, in the order listed, and **name** the piece with "
            "the highest probability.",
            "",
            "Answer with the vector, a semicolon and the piece, exactly (write $e^2$ as "
            "`exp(2)`) or in decimals with at least three significant figures, for example "
            f"`{_example(spec, pieces)}` for three pieces.",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        show = answer is not None if solution is None else solution
        return bars_picture(spec, answer, solution=show)


def separated(p: PenaltyProblem) -> bool:
    """Return whether the right answer and every rule mistake stay apart when typed in
    decimals: a different top piece, or a probability that differs by SEPARATION (relative)."""
    answers = []
    for rule, times_t in (
        ("right", False),
        ("every", False),
        ("multiply_positive", False),
        ("divide_negative", False),
        ("right", True),
        ("none", False),
    ):
        scores = penalised(p, rule)
        exponents = [float(z * p.temperature if times_t else z / p.temperature) for z in scores]
        answers.append((exponents.index(max(exponents)), _softmax(exponents)))
    for a in range(len(answers)):
        for b in range(a + 1, len(answers)):
            (top_a, probs_a), (top_b, probs_b) = answers[a], answers[b]
            gap = max(
                abs(x - y) / max(abs(x), abs(y)) for x, y in zip(probs_a, probs_b, strict=True)
            )
            if top_a == top_b and gap < SEPARATION:
                return False
    return True


def _softmax(values: list[float]) -> list[float]:
    peak = max(values)
    exps = [math.exp(v - peak) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def _learner_probabilities(answer: Any, count: int) -> list[float] | None:
    if not isinstance(answer, tuple) or len(answer) != 2:
        return None
    vector = answer[0]
    try:
        values = [float(x) for x in vector]
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    if len(values) != count or not all(math.isfinite(v) for v in values):
        return None
    return values


_GROUP, _BASE = 96, 200  # pixels: one piece's column, the baseline of the bars


def _score_bars(p: PenaltyProblem, width: float) -> tuple[list[str], float]:
    """Return the scores as bars about a middle line, the pieces already in the text outlined,
    and the height they take."""
    top_score = max(1.0, *(abs(float(z)) for z in p.scores))
    unit = 70 / top_score
    middle = 120
    # The pieces' names just below the deepest bar (and clear of the scores under the line).
    names = middle + max(34, -min(0.0, *(float(z) for z in p.scores)) * unit + 18)
    body = [
        svg.text(10, 16, "each bar: a piece's score z; outlined dashed: already in the text"),
        svg.line(30, middle, width - 10, middle, stroke=svg.COLOURS["muted"]),
    ]
    for k, (piece, z) in enumerate(zip(p.pieces, p.scores, strict=True)):
        x = 50 + _GROUP * k
        value = float(z)
        body.append(
            svg.rect(
                x,
                middle - max(value, 0) * unit,
                40,
                abs(value) * unit,
                fill=svg.COLOURS["before"],
                stroke=svg.COLOURS["query"] if p.seen(k) else "none",
                stroke_dasharray="3 2" if p.seen(k) else None,
                data_role="score",
                data_piece=piece,
                data_value=str(z),
                data_seen="yes" if p.seen(k) else "no",
            )
        )
        written = str(z).replace("-", "−")
        body.append(
            svg.text(x + 20, middle + (16 if value >= 0 else -8), written, text_anchor="middle")
        )
        body.append(svg.text(x + 20, names, piece, text_anchor="middle"))
        if p.seen(k):
            body.append(svg.text(x + 20, names + 16, "in the text", text_anchor="middle"))
    return body, names + 28


def _probability_bars(
    piece: str, x: float, before: float, after: float, learner: float | None
) -> list[str]:
    """Return one piece's bars, before and after the penalty, the learner's dashed beside."""
    unit = 170
    body = [
        svg.rect(
            x + offset,
            _BASE - value * unit,
            24,
            value * unit,
            fill=svg.COLOURS[role],
            data_role=role,
            data_piece=piece,
            data_probability=f"{value:.6f}",
        )
        for offset, role, value in ((0, "before", before), (26, "after", after))
    ]
    if learner is not None:
        value = max(0.0, min(learner, 1.2))
        body.append(
            svg.rect(
                x + 52,
                _BASE - value * unit,
                24,
                value * unit,
                fill="none",
                stroke=svg.COLOURS["answer"],
                stroke_dasharray="4 3",
                data_role="answer",
                data_piece=piece,
                data_probability=f"{learner:.6f}",
            )
        )
    body.append(svg.text(x + 38, _BASE + 18, piece, text_anchor="middle"))
    body.append(
        svg.text(
            x + 38, _BASE + 34, f"{after:.3f}", text_anchor="middle", fill=svg.COLOURS["after"]
        )
    )
    return body


def bars_picture(spec: dict, answer: Any = None, *, solution: bool = False) -> str:
    """Fresh: the scores as bars, the pieces already in the text marked. With an answer: the
    probabilities before the penalty and after it side by side, the learner's drawn dashed."""
    p = problem_of(spec)
    n = len(p.pieces)
    width, height = max(60 + _GROUP * n, 540), 260  # the legend's line needs 540 px
    prefix = svg.picture_id(
        ("penalty", spec.get("scores"), spec.get("text"), str(answer), solution)
    )
    if not solution:
        title = "The scores before the penalty"
        desc = (
            "Each piece's score as a bar; the pieces already in the text are outlined. The "
            "probabilities are not drawn."
        )
        body, height = _score_bars(p, width)
        return svg.document(width, height, title, desc, body, prefix=prefix)
    before = _softmax([float(z / p.temperature) for z in p.scores])
    after = _softmax([float(z / p.temperature) for z in penalised(p)])
    learner = _learner_probabilities(answer, n)
    body = [svg.line(30, _BASE, width - 10, _BASE, stroke=svg.COLOURS["muted"])]
    for k, piece in enumerate(p.pieces):
        mine = learner[k] if learner is not None else None
        body += _probability_bars(piece, 46 + _GROUP * k, before[k], after[k], mine)
    legend = "grey: before the penalty; blue: after it"
    if learner is not None:
        legend += "; orange dashed: your probabilities"
    body.append(svg.text(10, 16, legend))
    best = p.pieces[after.index(max(after))]
    old = p.pieces[before.index(max(before))]
    return svg.document(
        width,
        height,
        "Probabilities before and after the repetition penalty",
        f"Before the penalty the top piece is {old}; after it, {best}.",
        body,
        prefix=prefix,
    )
