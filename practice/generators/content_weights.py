"""``content_weights``: weights computed from the content, ``w_ij = softmax_j(x_i · x_j)``.

The exact answer ``h_i = sum_j w_ij x_j`` contains ``exp`` and is graded symbolically. Rows
are kept small so the scores stay between about -4 and 6 and the exponentials readable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from grading.kinds import MistakeCode

from .base import Draw, ProblemGenerator, distinct_rows, frac_str
from .draw import figures
from .draw.figures import Arrow, Number, Panel, h_label, mix_arrows, vec
from .statement import (
    md_sentence,
    md_word,
    positions,
    row_lines,
)
from .words.vocab import draw_sentence


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


class ContentWeightsGenerator(figures.ArrowPicture, ProblemGenerator):
    kind: ClassVar[str] = "content_weights"
    name: ClassVar[str] = "content_weights"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 4
    picture_title: ClassVar[str] = "Rows, content-weighted terms and their sum"
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
        tokens, position = spec["tokens"], spec["position"]
        i = position
        lines = [
            f"The sentence is {md_sentence(tokens)} ({positions(len(tokens))}), with these rows:",
            "",
        ]
        lines += row_lines(tokens, spec["rows"])
        lines += [
            "",
            f"At position {i}, {md_word(tokens[i])}, the layer scores every position by its "
            "content, turns the scores into weights that sum to 1, and mixes the rows with them:",
            "",
            f"$$s_{{{i},j}} = \\mathbf{{x}}_{{{i}}} \\cdot \\mathbf{{x}}_j,\\quad "
            f"w_{{{i},j}} = \\frac{{e^{{s_{{{i},j}}}}}}{{\\sum_k e^{{s_{{{i},k}}}}}},\\quad "
            f"\\mathbf{{h}}_{{{i}}} = \\sum_j w_{{{i},j}}\\,\\mathbf{{x}}_j$$",
            "",
            f"**Compute** $\\mathbf{{h}}_{{{i}}}$, exactly (write $e^2$ as `exp(2)`) or in "
            "decimals with at least three significant figures.",
            "",
            "Answer with the vector, for example `[exp(1)/(1 + exp(1)), 0]`, or with the vector "
            "over a common denominator, for example `[exp(1), 1]/(1 + exp(1))`, or with the sum "
            "written out term by term.",
        ]
        return "\n".join(lines)

    def picture_panels(self, spec: dict) -> tuple[list[Panel], tuple[Number, Number]]:
        i = spec["position"]
        rows = [vec(r) for r in spec["rows"]]
        own = scores([[float(x) for x in row] for row in rows], i)
        arrows, tip = mix_arrows(spec["tokens"], rows, softmax(own))
        arrows.append(Arrow("sum", (0, 0), tip, label=h_label(i)))
        return [Panel(f"{h_label(i)} at {spec['tokens'][i]}", arrows)], tip
