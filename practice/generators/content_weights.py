"""``content_weights``: weights computed from the content, ``w_ij = softmax_j(x_i · x_j)``.

The exact answer ``h_i = sum_j w_ij x_j`` contains ``exp`` and is graded symbolically. Rows
are kept small so the scores stay between about -4 and 6 and the exponentials readable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds import MistakeCode

from .base import Draw, ProblemGenerator, distinct_rows, frac_str
from .vocab import draw_sentence


@dataclass(frozen=True)
class ContentLevel:
    dim: int
    lengths: tuple[int, ...]
    low: int
    high: int


CONTENT_LEVELS: dict[int, ContentLevel] = {
    1: ContentLevel(dim=2, lengths=(3,), low=-1, high=1),
    2: ContentLevel(dim=2, lengths=(3, 4), low=-1, high=2),
    3: ContentLevel(dim=3, lengths=(4,), low=-1, high=1),
    4: ContentLevel(dim=4, lengths=(5,), low=-1, high=1),
}


def scores(rows: list[list[int]], position: int) -> list[int]:
    """Return the dot products ``x_i · x_j`` for every position ``j``."""
    own = rows[position]
    return [sum(a * b for a, b in zip(own, row, strict=True)) for row in rows]


def softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


class ContentWeightsGenerator(ProblemGenerator):
    kind: ClassVar[str] = "content_weights"
    name: ClassVar[str] = "content_weights"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 4
    # Learners may answer in decimals; mistakes closer than this could be read either way.
    separation: ClassVar[float] = 0.05

    def draw_fields(self, draw: Draw, level: int, target: MistakeCode | None) -> dict:
        spec_level = CONTENT_LEVELS[level]
        sentence = draw_sentence(draw, draw.choice(spec_level.lengths))
        tokens = sentence.tokens()
        rows = distinct_rows(draw, len(tokens), spec_level.dim, spec_level.low, spec_level.high)
        return {
            "tokens": tokens,
            "position": sentence.position,
            "rows": [[frac_str(x) for x in row] for row in rows],
        }

    def plausible(self, spec: dict, target: MistakeCode | None) -> bool:
        rows = [[int(x) for x in row] for row in spec["rows"]]
        position = spec["position"]
        own = scores(rows, position)
        if len(set(own)) == 1:
            # Equal scores give equal weights: the content has nothing to say.
            return False
        if target == MistakeCode.OMITTED_SELF_SCORE:
            # The self score the largest by a margin, so leaving it out moves the answer.
            others = [s for j, s in enumerate(own) if j != position]
            return own[position] >= max(others) + 1
        if target == MistakeCode.POSITIONAL_WEIGHTS:
            # Position favours the nearest words; here some farther word outscores a nearer one.
            return any(
                own[far] > own[near]
                for far in range(len(own))
                for near in range(len(own))
                if abs(far - position) > abs(near - position)
            )
        return True

    def statement(self, spec: dict) -> str:
        from . import statement

        return statement._content_weights(spec)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        from . import figures

        return figures.render_svg(spec, answer=answer, solution=solution)
