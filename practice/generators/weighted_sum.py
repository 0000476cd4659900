"""``weighted_sum``: one layer's mix at the ambiguous word, ``h_i = sum_j w_ij x_j``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds import MistakeCode

from .base import Draw, ProblemGenerator, composition, distance, distinct_rows, frac_str
from .draw import figures
from .draw.figures import Arrow, Number, Panel, h_label, mix_arrows, number, vec
from .statement import (
    answer_forms,
    md_sentence,
    md_word,
    mix_lines,
    positions,
)
from .words.vocab import draw_sentence


@dataclass(frozen=True)
class MixLevel:
    """Size and number ranges of a mixing problem at one level."""

    dim: int
    lengths: tuple[int, ...]
    low: int
    high: int
    denominators: tuple[int, ...]


# Level 1 is the seed page's example size: two dimensions, the word and its neighbours.
MIX_LEVELS: dict[int, MixLevel] = {
    1: MixLevel(dim=2, lengths=(3,), low=0, high=2, denominators=(4, 5, 6)),
    2: MixLevel(dim=2, lengths=(4,), low=-2, high=2, denominators=(5, 6, 8)),
    3: MixLevel(dim=3, lengths=(4, 5), low=-2, high=2, denominators=(6, 8, 10)),
    4: MixLevel(dim=4, lengths=(5, 6), low=-2, high=3, denominators=(8, 10, 12)),
}


def draw_weights(
    draw: Draw, count: int, position: int, denominators: tuple[int, ...], *, heavy_self: bool
) -> list[str]:
    """Draw positive weights with a small common denominator, summing to 1.

    With ``heavy_self`` the self weight is at least one half, so leaving the self term out
    moves the answer visibly.
    """
    if heavy_self:
        # Only denominators that leave room for a self weight of at least one half.
        roomy = [d for d in denominators if math.ceil(d / 2) <= d - (count - 1)]
        total = draw.choice(roomy or (2 * count,))
        own = draw.integer(math.ceil(total / 2), total - (count - 1))
        others = composition(draw, total - own, count - 1)
        parts = [*others[:position], own, *others[position:]]
    else:
        parts = composition(draw, draw.choice(denominators), count)
        total = sum(parts)
    return [frac_str(Fraction(part, total)) for part in parts]


def rows_differ_visibly(rows: list[list[str]]) -> bool:
    """Return whether every two rows are at least 2 apart, coordinate differences added up."""
    values = [[Fraction(x) for x in row] for row in rows]
    return all(
        sum(abs(x - y) for x, y in zip(values[a], values[b], strict=True)) >= 2
        for a in range(len(values))
        for b in range(a + 1, len(values))
    )


class WeightedSumGenerator(figures.ArrowPicture, ProblemGenerator):
    kind: ClassVar[str] = "weighted_sum"
    name: ClassVar[str] = "weighted_sum"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 2
    picture_title: ClassVar[str] = "Rows, weighted terms and their sum"

    def draw_fields(self, draw: Draw, level: int, target: MistakeCode | None) -> dict:
        spec_level = MIX_LEVELS[level]
        sentence = draw_sentence(draw, draw.choice(spec_level.lengths))
        tokens = sentence.tokens()
        rows = distinct_rows(draw, len(tokens), spec_level.dim, spec_level.low, spec_level.high)
        weights = draw_weights(
            draw,
            len(tokens),
            sentence.position,
            spec_level.denominators,
            heavy_self=target == MistakeCode.OMITTED_TERM,
        )
        return {
            "tokens": tokens,
            "position": sentence.position,
            "weights": weights,
            "rows": [[frac_str(x) for x in row] for row in rows],
        }

    def plausible(self, spec: dict, target: MistakeCode | None) -> bool:
        weights = [Fraction(w) for w in spec["weights"]]
        # Equal weights make the plain average right: never diagnosable.
        if len(set(weights)) == 1:
            return False
        if target == MistakeCode.WRONG_ROW:
            return rows_differ_visibly(spec["rows"])
        if target in (MistakeCode.PLAIN_AVERAGE, MistakeCode.WRONG_WEIGHT):
            return max(weights) >= 3 * min(weights)
        return True

    def shows_clearly(
        self,
        spec: dict,
        target: MistakeCode,
        right: tuple[float, ...],
        answers: list[tuple[Any, tuple[float, ...]]],
    ) -> bool:
        weights = [Fraction(w) for w in spec["weights"]]
        if target == MistakeCode.OMITTED_TERM:
            position = spec["position"]
            return weights[position] >= Fraction(1, 2) and any(
                tuple(d.terms) == (position,) and distance(v, right) >= 0.5 for d, v in answers
            )
        return super().shows_clearly(spec, target, right, answers)

    def statement(self, spec: dict) -> str:
        tokens, position = spec["tokens"], spec["position"]
        lines = [
            f"The sentence is {md_sentence(tokens)} ({positions(len(tokens))}). One layer rebuilds "
            f"position {position}, {md_word(tokens[position])}, as a weighted sum of the rows at "
            "every position, itself included:",
            "",
            f"$$\\mathbf{{h}}_{{{position}}} = \\sum_j w_{{{position},j}}\\,\\mathbf{{x}}_j$$",
            "",
            *mix_lines(position, tokens, spec["rows"], spec["weights"]),
            "",
            f"**Compute** $\\mathbf{{h}}_{{{position}}}$.",
            "",
            answer_forms(spec),
        ]
        return "\n".join(lines)

    def picture_panels(self, spec: dict) -> tuple[list[Panel], tuple[Number, Number]]:
        i = spec["position"]
        rows = [vec(r) for r in spec["rows"]]
        arrows, tip = mix_arrows(spec["tokens"], rows, [number(w) for w in spec["weights"]])
        arrows.append(Arrow("sum", (0, 0), tip, label=h_label(i)))
        return [Panel(f"{h_label(i)} at {spec['tokens'][i]}", arrows)], tip
