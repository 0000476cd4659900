"""``two_layers``: a position after two layers that each mix only immediate neighbours.

Sentences are today's (``vocab.FRAMES`` through ``vocab.draw_sentence``), restricted to frames
where the ambiguous word stands at least two places from the edge the window looks towards, so
every sum has all its terms. Levels 1 and 2 use a left-to-right window (the word and the one
before it); levels 3 and 4 look both ways. At level 2, and at level 3 when the sentence is long
enough, a second sentence differs only outside the two layers' reach (``words.layers``): the
statement shows that its output at the word is the same vector.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from .base import Draw, ProblemGenerator, composition, distinct_rows, frac_str
from .statement import (
    SUM_EXAMPLES,
    VECTOR_EXAMPLES,
    format_example,
    md_sentence,
    md_word,
    row_lines,
    tex_number,
)
from .words.layers import outside_swap
from .words.vocab import FRAMES, WORD, Sentence

WINDOW_OF_LEVEL = {1: "previous", 2: "previous", 3: "both", 4: "both"}
OFFSETS = {"previous": (-1, 0), "both": (-1, 0, 1)}
DIM = {1: 2, 2: 2, 3: 2, 4: 3}
LENGTHS = {1: (3,), 2: (4, 5), 3: (5, 6), 4: (5, 6)}
ROWS = {1: (0, 2), 2: (-1, 2), 3: (-1, 2), 4: (-2, 2)}
DENOMINATORS = {1: (3, 4), 2: (3, 4, 5), 3: (4, 5, 6), 4: (5, 6, 8)}
WITH_SECOND_SENTENCE = {1: False, 2: True, 3: True, 4: False}


def frames_for(level: int) -> list[tuple[str, ...]]:
    """Return the frames of the level's lengths whose word has two layers' room."""
    window = WINDOW_OF_LEVEL[level]
    out = []
    for length in LENGTHS[level]:
        for frame in FRAMES[length]:
            i = frame.index(WORD)
            if i >= 2 and (window == "previous" or i + 2 <= len(frame) - 1):
                out.append(frame)
    return out


def _weights(draw: Draw, level: int, window: str) -> list[str]:
    total = draw.choice(DENOMINATORS[level])
    parts = composition(draw, total, len(OFFSETS[window]))
    return [frac_str(Fraction(p, total)) for p in parts]


class TwoLayersGenerator(ProblemGenerator):
    kind: ClassVar[str] = "two_layers"
    name: ClassVar[str] = "two_layers"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 22
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: Any) -> dict:
        window = WINDOW_OF_LEVEL[level]
        from .words.vocab import AMBIGUOUS_WORDS

        sentence = Sentence(
            frame=draw.choice(frames_for(level)),
            word=draw.choice(AMBIGUOUS_WORDS),
            sense=draw.below(2),
            modifier_index=draw.below(4),
            noun_index=draw.below(3),
        )
        tokens = sentence.tokens()
        i = sentence.position
        low, high = ROWS[level]
        table = distinct_rows(draw, len(tokens) + 1, DIM[level], low, high)
        rows = [[frac_str(x) for x in row] for row in table[: len(tokens)]]
        fields: dict[str, Any] = {
            "tokens": tokens,
            "rows": rows,
            "position": i,
            "window": window,
            "weights_1": _weights(draw, level, window),
            "weights_2": _weights(draw, level, window),
        }
        if WITH_SECOND_SENTENCE[level]:
            reach = range(i - 2, i + (1 if window == "previous" else 3))
            swap = outside_swap(sentence, reach)
            if swap is not None:
                k, word = swap
                tokens_b = list(tokens)
                tokens_b[k] = word
                rows_b = [list(r) for r in rows]
                rows_b[k] = [frac_str(x) for x in table[len(tokens)]]
                fields.update(tokens_b=tokens_b, rows_b=rows_b)
        return fields

    def plausible(self, spec: dict, target: Any) -> bool:
        # each layer its own weights, none zero, and no weight repeated across the layers at the
        # same offset, so that "reused layer 1's weight" names every term it could
        return all(a != b for a, b in zip(spec["weights_1"], spec["weights_2"], strict=True))

    def statement(self, spec: dict) -> str:
        tokens, i, window = spec["tokens"], spec["position"], spec["window"]
        names = {-1: "the position before", 0: "the position itself", 1: "the position after"}
        u = ", ".join(f"{tex_number(w)}" for w in spec["weights_1"])
        w = ", ".join(f"{tex_number(x)}" for x in spec["weights_2"])
        order = ", ".join(names[o] for o in OFFSETS[window])
        rule, layer1, layer2 = _layer_rule(window)
        lines = [
            f"The sentence is {md_sentence(tokens)} (positions 0 to {len(tokens) - 1}), with "
            "these lookup rows:",
            "",
        ]
        lines += row_lines(tokens, spec["rows"])
        lines += [
            "",
            rule,
            "",
            f"$${layer1}, \\qquad {layer2}$$",
            "",
            f"The weights are the same at every position of a layer; in the order {order}, "
            f"layer 1 has $u = ({u})$ and layer 2 has $w = ({w})$.",
            "",
            f"**Compute** $\\mathbf{{h}}_{{{i}}}^{{(2)}}$, the vector at position {i}, "
            f"{md_word(tokens[i])}, after both layers.",
        ]
        if spec.get("tokens_b"):
            lines += ["", _sentence_b_line(spec)]
        lines += ["", _how_to_answer(spec)]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        from .draw.layer_figures import layers_picture

        return layers_picture(spec, answer, solution=solution)


def _layer_rule(window: str) -> tuple[str, str, str]:
    """Return the words of the window's rule and the TeX of the two layers' sums."""
    if window == "previous":
        rule = (
            "Each layer is left to right: it rebuilds position $j$ from position $j$ itself "
            "and the position just before it, nothing else:"
        )
        layer1 = "\\mathbf{h}_j^{(1)} = u_{-1}\\,\\mathbf{x}_{j-1} + u_0\\,\\mathbf{x}_j"
        layer2 = (
            "\\mathbf{h}_j^{(2)} = w_{-1}\\,\\mathbf{h}_{j-1}^{(1)} + w_0\\,\\mathbf{h}_j^{(1)}"
        )
        return rule, layer1, layer2
    rule = (
        "Each layer rebuilds position $j$ from its immediate neighbours and itself, nothing else:"
    )
    layer1 = (
        "\\mathbf{h}_j^{(1)} = u_{-1}\\,\\mathbf{x}_{j-1} + u_0\\,\\mathbf{x}_j + "
        "u_{+1}\\,\\mathbf{x}_{j+1}"
    )
    layer2 = (
        "\\mathbf{h}_j^{(2)} = w_{-1}\\,\\mathbf{h}_{j-1}^{(1)} + w_0\\,"
        "\\mathbf{h}_j^{(1)} + w_{+1}\\,\\mathbf{h}_{j+1}^{(1)}"
    )
    return rule, layer1, layer2


def _sentence_b_line(spec: dict) -> str:
    """Return why sentence B, differing at one position out of reach, gives the same vector."""
    tokens, tokens_b, i = spec["tokens"], spec["tokens_b"], spec["position"]
    k = next(j for j, (a, b) in enumerate(zip(tokens, tokens_b, strict=True)) if a != b)
    return (
        f"Then look at sentence B, {md_sentence(tokens_b)}: it differs only at "
        f"position {k} ({md_word(tokens_b[k])}, with its own row). Its "
        f"$\\mathbf{{h}}_{{{i}}}^{{(2)}}$ is the same vector as sentence A's, because "
        f"after two layers position {i} has mixed in only the positions within two "
        "steps of it"
        + (", on its left" if spec["window"] == "previous" else "")
        + ", and those are identical in both sentences."
    )


def _how_to_answer(spec: dict) -> str:
    """Return how to type the answer: the vector, or layer 2's sum written out."""
    return (
        f"Answer with the vector, for example `{format_example(spec, VECTOR_EXAMPLES)}`, or "
        "with layer 2's sum written out term by term, each term a weight times a layer-1 "
        f"output, for example `{format_example(spec, SUM_EXAMPLES[1:] + SUM_EXAMPLES[:1])}`. "
        "Fractions are exact; a decimal counts when it rounds the "
        "exact value at the digits typed, with at least three significant figures."
    )
