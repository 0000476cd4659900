"""``static_vs_contextual``: the ambiguous word in two sentences (*river* bank / *savings*
bank), looked up in one table and mixed by one layer with the same weights in both.

The sentences are today's (``vocab.draw_sentence``, the other sense for sentence B) and the
weights today's (``weighted_sum.draw_weights``); the table holds every word of both sentences
and a few unrelated entries, one row each, so *bank* has exactly one row to find.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from .base import Draw, ProblemGenerator, distinct_rows, frac_str
from .noise_step import stands_out
from .statement import md_sentence, md_word, tex_number, tex_vector
from .weighted_sum import MIX_LEVELS, draw_weights
from .words.vocab import DISTRACTORS, draw_sentence

EXTRA_ENTRIES = {1: 1, 2: 2, 3: 2, 4: 3}


class StaticVsContextualGenerator(ProblemGenerator):
    kind: ClassVar[str] = "static_vs_contextual"
    name: ClassVar[str] = "static_vs_contextual"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 21
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: Any) -> dict:
        mix = MIX_LEVELS[level]
        sentence = draw_sentence(draw, draw.choice(mix.lengths))
        tokens_a = sentence.tokens()
        tokens_b = sentence.tokens(1 - sentence.sense)
        words = list(dict.fromkeys([*tokens_a, *tokens_b]))
        spare = [w for w in DISTRACTORS if w not in words]
        vocab = draw.shuffled([*words, *draw.sample(spare, EXTRA_ENTRIES[level])])
        table = distinct_rows(draw, len(vocab), mix.dim, mix.low, mix.high)
        # a small weight on the changed neighbours: forgetting it changes the answer visibly
        weights = draw_weights(
            draw, len(tokens_a), sentence.position, mix.denominators, heavy_self=True
        )
        return {
            "vocab": vocab,
            "table": [[frac_str(x) for x in row] for row in table],
            "tokens_a": tokens_a,
            "tokens_b": tokens_b,
            "position": sentence.position,
            "weights": weights,
        }

    def plausible(self, spec: dict, target: Any) -> bool:
        weights = [Fraction(w) for w in spec["weights"]]
        changed = [
            k
            for k, (a, b) in enumerate(zip(spec["tokens_a"], spec["tokens_b"], strict=True))
            if a != b
        ]
        # forgetting a weight of 1 would change nothing
        return all(weights[k] < 1 for k in changed)

    def shows_clearly(self, spec: dict, target: Any, right: Any, answers: list) -> bool:
        return stands_out(right, answers)

    def statement(self, spec: dict) -> str:
        tokens_a, tokens_b, i = spec["tokens_a"], spec["tokens_b"], spec["position"]
        word = tokens_a[i]
        lines = [
            f"Sentence A is {md_sentence(tokens_a)}; sentence B is {md_sentence(tokens_b)} "
            f"(positions 0 to {len(tokens_a) - 1}). Both hold {md_word(word)} at position {i}.",
            "",
            "The embedding table $E$ has one row per entry; an entry's id is its row number, "
            "counting from 0:",
            "",
        ]
        for index, (entry, row) in enumerate(zip(spec["vocab"], spec["table"], strict=True)):
            lines.append(f"- id {index}, {md_word(entry)}: $E[{index}] = {tex_vector(row)}$")
        weights = ", ".join(
            f"$w_{{{i},{j}}} = {tex_number(w)}$" for j, w in enumerate(spec["weights"])
        )
        lines += [
            "",
            "The lookup gives each position the row of its word, "
            "$\\mathbf{x}_j = E[\\mathrm{id}(t_j)]$. Then one layer mixes, in both sentences "
            f"with the same weights ({weights}):",
            "",
            f"$$\\mathbf{{h}}_{{{i}}} = \\sum_j w_{{{i},j}}\\,\\mathbf{{x}}_j$$",
            "",
            f"**Compute** two differences, sentence B minus sentence A: the lookup's, "
            f"$\\mathbf{{x}}_{{{i}}}^B - \\mathbf{{x}}_{{{i}}}^A$, and the layer's, "
            f"$\\mathbf{{h}}_{{{i}}}^B - \\mathbf{{h}}_{{{i}}}^A$.",
            "",
            "Answer with both vectors, separated by `;`, the lookup difference first; each "
            "vector in brackets, for example `[1/2, -1]`. Fractions are exact; a decimal counts "
            "when it rounds the exact value at the digits typed, with at least three significant "
            "figures.",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        from .draw.layer_figures import contrast_picture

        return contrast_picture(spec, answer, solution=solution)
