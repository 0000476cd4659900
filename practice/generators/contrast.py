"""``contrast``: the same word in two sentences, ``h_i^B - h_i^A`` with the same weights.

The two sentences share a frame and differ only at the neighbours that carry the sense
(*river* bank / *savings* bank); a word has one row wherever it appears, so the rows differ
exactly where the tokens do.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds import MistakeCode

from .base import Draw, ProblemGenerator, distinct_rows, frac_str
from .vocab import draw_sentence
from .weighted_sum import MIX_LEVELS, draw_weights


class ContrastGenerator(ProblemGenerator):
    kind: ClassVar[str] = "contrast"
    name: ClassVar[str] = "contrast"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 3

    def draw_fields(self, draw: Draw, level: int, target: MistakeCode | None) -> dict:
        spec_level = MIX_LEVELS[level]
        sentence = draw_sentence(draw, draw.choice(spec_level.lengths))
        tokens_a = sentence.tokens()
        tokens_b = sentence.tokens(1 - sentence.sense)
        words = list(dict.fromkeys([*tokens_a, *tokens_b]))
        rows = distinct_rows(draw, len(words), spec_level.dim, spec_level.low, spec_level.high)
        row_of = {word: [frac_str(x) for x in row] for word, row in zip(words, rows, strict=True)}
        weights = draw_weights(
            draw,
            len(tokens_a),
            sentence.position,
            spec_level.denominators,
            heavy_self=target == MistakeCode.ANSWERED_ONE_SIDE,
        )
        return {
            "tokens_a": tokens_a,
            "tokens_b": tokens_b,
            "position": sentence.position,
            "weights": weights,
            "rows_a": [row_of[token] for token in tokens_a],
            "rows_b": [row_of[token] for token in tokens_b],
        }

    def plausible(self, spec: dict, target: MistakeCode | None) -> bool:
        if target == MistakeCode.FORGOT_WEIGHT:
            # A small weight on the changed neighbour: forgetting it multiplies the change.
            changed = [
                k
                for k, (a, b) in enumerate(zip(spec["tokens_a"], spec["tokens_b"], strict=True))
                if a != b
            ]
            return all(Fraction(spec["weights"][k]) <= Fraction(1, 3) for k in changed)
        return True

    def relevant(self, spec: dict, diagnosis: Any) -> bool:
        # Forgetting the weight of a term whose row is the same in both sentences changes
        # nothing: that term cancels in the difference, so it is no mistake there.
        if MistakeCode(diagnosis.mistake) == MistakeCode.FORGOT_WEIGHT:
            (k,) = diagnosis.terms
            return spec["rows_a"][k] != spec["rows_b"][k]
        return True

    def statement(self, spec: dict) -> str:
        from . import statement

        return statement._contrast(spec)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        from . import figures

        return figures.render_svg(spec, answer=answer, solution=solution)
