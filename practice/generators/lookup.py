"""``lookup``: the starting row of a token, ``E[id(tokens[position])]``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds import MistakeCode

from .base import Draw, ProblemGenerator, distance, distinct_rows, frac_str
from .draw import figures
from .draw.figures import Arrow, Number, Panel, vec
from .statement import (
    format_example,
    md_sentence,
    md_word,
    positions,
    tex_token,
    tex_vector,
)
from .words.vocab import DISTRACTORS, draw_sentence

# Rows for the format example, tried in order (see statement.format_example).
_ROW_EXAMPLES = ("[1, 0]", "[-1, 3]", "[3, -2]", "[-3, -1]", "[1/2, 5]")


@dataclass(frozen=True)
class LookupLevel:
    dim: int
    lengths: tuple[int, ...]
    vocab_size: int
    low: int
    high: int


LOOKUP_LEVELS: dict[int, LookupLevel] = {
    1: LookupLevel(dim=2, lengths=(3,), vocab_size=6, low=0, high=2),
    2: LookupLevel(dim=2, lengths=(4,), vocab_size=7, low=-1, high=2),
    3: LookupLevel(dim=3, lengths=(4, 5), vocab_size=8, low=-2, high=2),
    4: LookupLevel(dim=4, lengths=(5, 6), vocab_size=10, low=-2, high=3),
}


class LookupGenerator(figures.ArrowPicture, ProblemGenerator):
    kind: ClassVar[str] = "lookup"
    name: ClassVar[str] = "lookup"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 1
    picture_rows: ClassVar[str] = "table"
    picture_title: ClassVar[str] = "The table's rows as arrows; the looked-up row highlighted"
    picture_fresh_title: ClassVar[str] = "The table's rows as arrows"

    def draw_fields(self, draw: Draw, level: int, target: MistakeCode | None) -> dict:
        spec_level = LOOKUP_LEVELS[level]
        sentence = draw_sentence(draw, draw.choice(spec_level.lengths))
        tokens = sentence.tokens()
        spare = [word for word in DISTRACTORS if word not in tokens]
        vocab = draw.shuffled([*tokens, *draw.sample(spare, spec_level.vocab_size - len(tokens))])
        table = distinct_rows(draw, len(vocab), spec_level.dim, spec_level.low, spec_level.high)
        return {
            "vocab": vocab,
            "table": [[frac_str(x) for x in row] for row in table],
            "tokens": tokens,
            "position": draw.below(len(tokens)),
        }

    def plausible(self, spec: dict, target: MistakeCode | None) -> bool:
        # Rows are distinct, so answers coincide exactly when the row numbers do: the row
        # numbered by the position, the rows next to the right one, and the other tokens' rows
        # must be different row numbers, none of them the right one.
        vocab, position = spec["vocab"], spec["position"]
        right = vocab.index(spec["tokens"][position])
        by_position = {position}
        next_to = {right - 1, right + 1} & set(range(len(vocab)))
        others = {vocab.index(t) for k, t in enumerate(spec["tokens"]) if k != position}
        groups = (by_position, next_to, others)
        if any(right in group for group in groups):
            return False
        return all(not (a & b) for n, a in enumerate(groups) for b in groups[n + 1 :])

    def shows_clearly(
        self,
        spec: dict,
        target: MistakeCode,
        right: tuple[float, ...],
        answers: list[tuple[Any, tuple[float, ...]]],
    ) -> bool:
        # Integer rows always differ by 1 somewhere; "clearly" asks for 2.
        return any(distance(vector, right) >= 2 for _, vector in answers)

    def statement(self, spec: dict) -> str:
        tokens, position = spec["tokens"], spec["position"]
        lines = [
            "The embedding table $E$ has one row per vocabulary entry; an entry's id is its row "
            "number, counting from 0.",
            "",
        ]
        for index, (word, row) in enumerate(zip(spec["vocab"], spec["table"], strict=True)):
            lines.append(f"- id {index}, {md_word(word)}: $E[{index}] = {tex_vector(row)}$")
        lines += [
            "",
            f"The sentence is {md_sentence(tokens)} ({positions(len(tokens))}).",
            "",
            f"**Compute** the starting row $\\mathbf{{x}}_{{{position}}}^{{(0)}}$ that the lookup "
            f"gives position {position}, {md_word(tokens[position])}:",
            "",
            f"$$\\mathbf{{x}}_{{{position}}}^{{(0)}} = E[\\mathrm{{id}}"
            f"({tex_token(tokens[position], f't_{{{position}}}')})]$$",
            "",
            f"Answer with the vector, for example `{format_example(spec, _ROW_EXAMPLES)}`.",
        ]
        return "\n".join(lines)

    def picture_panels(self, spec: dict) -> tuple[list[Panel], tuple[Number, Number]]:
        table = [vec(r) for r in spec["table"]]
        arrows = [
            Arrow("row", (0, 0), (row[0], row[1]), label=f"{word} ({k})", index=k)
            for k, (word, row) in enumerate(zip(spec["vocab"], table, strict=True))
        ]
        token = spec["tokens"][spec["position"]]
        right = table[spec["vocab"].index(token)]
        tip = (right[0], right[1])
        arrows.append(Arrow("right", (0, 0), tip, label=f"E[id({token})]"))
        return [Panel(f"the table E; position {spec['position']} is {token}", arrows)], tip
