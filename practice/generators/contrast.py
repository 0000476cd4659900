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
from .draw import figures, plane
from .draw.figures import Arrow, Number, Panel, h_label, mix_arrows, number, vec
from .statement import (
    answer_forms,
    md_sentence,
    md_word,
    tex_number,
    tex_vector,
)
from .weighted_sum import MIX_LEVELS, draw_weights
from .words.vocab import draw_sentence


class ContrastGenerator(figures.ArrowPicture, ProblemGenerator):
    kind: ClassVar[str] = "contrast"
    name: ClassVar[str] = "contrast"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 3
    picture_rows: ClassVar[str] = "rows_a"
    picture_title: ClassVar[str] = "The same word's sum in sentence A and in sentence B"
    picture_fresh_title: ClassVar[str] = "The rows of sentence A and of sentence B"
    # One panel a row, sentence A above sentence B above the difference: 312 px, a phone's width.
    picture_layout: ClassVar[plane.Layout] = plane.PHONE

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
        tokens_a, tokens_b, position = spec["tokens_a"], spec["tokens_b"], spec["position"]
        lines = [
            f"Sentence A is {md_sentence(tokens_a)}; sentence B is {md_sentence(tokens_b)}. In "
            f"both, position {position} is {md_word(tokens_a[position])}, and one layer mixes "
            "the rows with the same weights:",
            "",
            f"$$\\mathbf{{h}}_{{{position}}} = \\sum_j w_{{{position},j}}\\,\\mathbf{{x}}_j$$",
            "",
        ]
        for j, weight in enumerate(spec["weights"]):
            a, b = tokens_a[j], tokens_b[j]
            row_a, row_b = tex_vector(spec["rows_a"][j]), tex_vector(spec["rows_b"][j])
            rows = (
                f"{md_word(a)} $\\mathbf{{x}}_{{{j}}} = {row_a}$ in both"
                if a == b and spec["rows_a"][j] == spec["rows_b"][j]
                else f"A: {md_word(a)} $\\mathbf{{x}}_{{{j}}}^{{A}} = {row_a}$,"
                f" B: {md_word(b)} $\\mathbf{{x}}_{{{j}}}^{{B}} = {row_b}$"
            )
            lines.append(f"- position {j}, $w_{{{position},{j}}} = {tex_number(weight)}$: {rows}")
        lines += [
            "",
            f"**Compute** the difference $\\mathbf{{h}}_{{{position}}}^{{B}} - "
            f"\\mathbf{{h}}_{{{position}}}^{{A}}$ that the change of neighbours makes.",
            "",
            answer_forms(spec),
        ]
        return "\n".join(lines)

    def picture_panels(self, spec: dict) -> tuple[list[Panel], tuple[Number, Number]]:
        i = spec["position"]
        weights = [number(w) for w in spec["weights"]]
        panels, tips = [], []
        for side in ("a", "b"):
            rows = [vec(r) for r in spec[f"rows_{side}"]]
            arrows, tip = mix_arrows(spec[f"tokens_{side}"], rows, weights)
            label = h_label(i, side.upper())
            arrows.append(Arrow("sum", (0, 0), tip, label=label))
            panels.append(Panel(f"sentence {side.upper()}: {label}", arrows))
            tips.append(tip)
        difference = (tips[1][0] - tips[0][0], tips[1][1] - tips[0][1])
        caption = f"{h_label(i, 'B')} − {h_label(i, 'A')}"
        # At its own scale: a difference much smaller than the sums would be a dot beside them.
        arrow = Arrow("right", (0, 0), difference, label=caption)
        panels.append(Panel(caption, [arrow], own_scale=True))
        return panels, difference

    def fresh_panels(self, panels: list[Panel]) -> list[Panel]:
        # The two sentences' rows, each panel captioned by its sentence only.
        return figures.rows_only(panels[:2], [p.caption.split(":")[0] for p in panels[:2]])
