"""``greedy_loop``: greedy decoding with a table over the last two pieces; find the loop.

The scores depend on the last two pieces (the state), so a piece can come back without the
text looping: only a pair coming back starts the loop. Only the pairs decoding reaches get a
row, and levels 3 and 4 add exactly one pair it never reaches (a decoy).

Levels: 1, three pieces; 2, four; 3, five; 4, six; and the repeat begins by step 6, 7, 8, 9
(``max_steps``): the pair that comes back has its first piece written again at that step at the
latest, its second one step later (where decoding first meets a pair it has seen), so the loop
starts by step 4, 5, 6, 7. Every accepted problem has a lead-in of at least one step before the
loop, a loop of 2 to 4 pieces, and a piece that repeats before the state does (so "stopped at
the first repeated piece" gives another answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.greedy_loop import LoopProblem, first_repeated_piece, run
from grading.spec import number

from .base import Draw, ProblemGenerator
from .draw.loop_figures import state_graph, states_sketch
from .greedy_steps import draw_pieces, draw_scores, score_table_markdown
from .statement import format_example, md_word


def _loop_examples(pieces: Sequence[str]) -> list[str]:
    """Return format examples of a loop and its start: two of the pieces and a step."""
    return [
        f"{a} {b}; {step}" for step in (3, 4, 2, 5, 6) for a in pieces for b in pieces if a != b
    ]


@dataclass(frozen=True)
class LoopLevel:
    pieces: int
    # The latest step at which the repeat begins: the pairs after steps 0 (the prompt) to
    # max_steps are all decoding may pass through before one comes back, so the pair that
    # comes back is written again from this step at the latest.
    max_steps: int
    distractors: int


LEVELS: dict[int, LoopLevel] = {
    1: LoopLevel(pieces=3, max_steps=6, distractors=0),
    2: LoopLevel(pieces=4, max_steps=7, distractors=0),
    3: LoopLevel(pieces=5, max_steps=8, distractors=1),
    4: LoopLevel(pieces=6, max_steps=9, distractors=1),
}


def problem_of(spec: dict) -> LoopProblem:
    """Return the grading kind's problem object for a generated spec (no validation)."""
    return LoopProblem(
        tuple(spec["pieces"]),
        (spec["prompt"][0], spec["prompt"][1]),
        tuple((a, b) for a, b in spec["contexts"]),
        tuple(tuple(number(x, "scores") for x in row) for row in spec["scores"]),
    )


def _reached(pieces: list[str], prompt: list[str], table: dict, limit: int) -> list[tuple]:
    """Return the contexts greedy decoding reaches, in order, until one repeats."""
    context = (prompt[0], prompt[1])
    seen: list[tuple[str, str]] = []
    while context not in seen and len(seen) <= limit:
        seen.append(context)
        row = table[context]
        piece = pieces[max(range(len(row)), key=lambda j: int(row[j]))]
        context = (context[1], piece)
    return seen


def unreached_contexts(spec: dict) -> list[tuple[str, str]]:
    """Return the listed pairs greedy decoding never reaches (the decoys)."""
    r = run(problem_of(spec))
    text = (*spec["prompt"], *r.written)
    reached = {(text[k], text[k + 1]) for k in range(len(text) - 1)}
    return [(a, b) for a, b in spec["contexts"] if (a, b) not in reached]


class GreedyLoopGenerator(ProblemGenerator):
    kind: ClassVar[str] = "greedy_loop"
    name: ClassVar[str] = "greedy_loop"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 19
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        pieces = draw_pieces(draw, spec_level.pieces)
        prompt = [draw.choice(pieces), draw.choice(pieces)]
        pairs = [(a, b) for a in pieces for b in pieces]
        rows = draw_scores(draw, len(pairs), len(pieces))
        table = dict(zip(pairs, rows, strict=True))
        reached = _reached(pieces, prompt, table, spec_level.max_steps)
        unreached = [pair for pair in pairs if pair not in reached]
        extra = draw.sample(unreached, min(spec_level.distractors, len(unreached)))
        listed = sorted(
            [*reached, *extra], key=lambda pair: (pieces.index(pair[0]), pieces.index(pair[1]))
        )
        return {
            "pieces": pieces,
            "prompt": prompt,
            "contexts": [list(pair) for pair in listed],
            "scores": [table[pair] for pair in listed],
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        try:
            r = run(problem_of(spec))
        except ValueError:  # decoding leaves the listed pairs: drawn past the level's limit
            return False
        if not 2 <= len(r.loop) <= 4 or r.start < 2 or len(r.written) > 10:
            return False
        # Levels 3-4 list exactly one decoy pair decoding never reaches (a pair drawn as a
        # decoy before the reached list was cut off may be reached after all), levels 1-2 none.
        if len(unreached_contexts(spec)) != LEVELS[len(spec["pieces"]) - 2].distractors:
            return False
        found = first_repeated_piece(r)
        return found is not None and found != (r.loop, r.start)

    def statement(self, spec: dict) -> str:
        pieces, prompt = spec["pieces"], spec["prompt"]
        labels = [f"{md_word(a)} {md_word(b)}" for a, b in spec["contexts"]]
        lines = [
            "A tiny model scores every possible next piece, and its scores depend on the **last "
            "two pieces** of the text. Each row is a pair of last pieces; each column is a next "
            "piece (pairs that never come up are left out):",
            "",
            *score_table_markdown(pieces, labels, spec["scores"], "last two ↓ / next →"),
            "",
            f"The prompt is {md_word(prompt[0])} {md_word(prompt[1])}. Greedy decoding writes, "
            "at each step, the piece with the highest score in the row of the text's last two "
            "pieces, and never stops:",
            "",
            "$$y_t = \\operatorname*{argmax}_v \\; s(y_{t-2}\\,y_{t-1}, v)$$",
            "",
            "Step 1 is the first piece written after the prompt ($y_{-1}\\,y_0$ is the prompt).",
            "",
            "Sooner or later the text only repeats one group of pieces. **Give the loop** (the "
            "pieces that repeat, in order, from the first step where the repetition begins) "
            "**and the step at which it starts.**",
            "",
            "Answer with the loop's pieces, a semicolon, and the step, for example "
            f"`{format_example(spec, _loop_examples(pieces))}`.",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        show = answer is not None if solution is None else solution
        if not show:
            return states_sketch(spec)
        return state_graph(spec, run(problem_of(spec)), answer)
