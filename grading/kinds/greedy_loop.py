"""`greedy_loop`: where greedy decoding enters a loop, and the loop's pieces.

Spec fields: `pieces` (2 to 8 distinct pieces), `prompt` (two pieces), `contexts` (pairs of
pieces: the last two pieces of the text) and `scores` (one row per context, one score per next
piece, no ties). Greedy decoding appends the top piece of the row of the text's last two pieces;
every context it reaches must have a row. The state is the pair of last pieces, so once a pair
comes back the text repeats forever.

Steps count from 1 (the first piece written after the prompt). The answer is a tuple: the loop
(the pieces that repeat, from the first step of the part that repeats forever) and the step at
which it starts.

Mistakes: stopped at the first repeated piece instead of the first repeated pair (state); the
loop's pieces rotated (listed from another piece); the start step off by one; the loop entered
one step late (from the step where the pair that comes back is complete: the loop rotated and
its start moved with it, true of the text from that step on, but not where the loop begins).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..shapes import Format, IntegerShape, PieceSequence, Shape, TupleShape, ordinal
from ..spec import SpecError, list_field
from ..tex import scalar_tex
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant
from .greedy_steps import read_pieces, read_prompt, read_score_rows

MAX_CONTEXTS = 40
MAX_WRITTEN = 40


@dataclass(frozen=True)
class LoopProblem:
    pieces: tuple[str, ...]
    prompt: tuple[str, str]
    contexts: tuple[tuple[str, str], ...]
    rows: tuple[tuple[Fraction, ...], ...]

    def next_piece(self, context: tuple[str, str]) -> str:
        """Return the top-scoring next piece after `context` (KeyError when it has no row)."""
        row = self.rows[self.contexts.index(context)]
        return self.pieces[max(range(len(row)), key=row.__getitem__)]


@dataclass(frozen=True)
class Run:
    """Greedy decoding until the first repeated context, with the loop it implies."""

    written: tuple[str, ...]  # y_1 .. y_m: up to the step whose context repeats an earlier one
    start: int  # μ, 1-based: the first step of the part that repeats forever
    loop: tuple[str, ...]  # y_μ .. y_{μ+λ-1}
    repeat_step: int  # m: the step after which the context is one seen before
    first_context_step: int  # j: the earlier step (0 for the prompt) with that same context


def run(p: LoopProblem) -> Run:
    """Decode greedily until a context repeats; return the written pieces and the loop."""
    text = list(p.prompt)
    seen = {(text[-2], text[-1]): 0}
    while True:
        context = (text[-2], text[-1])
        if context not in p.contexts:
            raise SpecError(
                "contexts", f"decoding reaches ({context[0]}, {context[1]}), which has no row"
            )
        text.append(p.next_piece(context))
        step = len(text) - 2
        now = (text[-2], text[-1])
        if now in seen:
            j, m = seen[now], step
            break
        if step >= MAX_WRITTEN:
            raise SpecError("contexts", f"decoding does not repeat within {MAX_WRITTEN} steps")
        seen[now] = step
    period = m - j
    # y_t for t >= 1 is text[t + 1]; extend by two periods to read off the periodic part.
    written = text[2:]
    for _ in range(2 * period + 2):
        text.append(p.next_piece((text[-2], text[-1])))
    y = text[2:]
    start = len(written)
    while start > 1 and y[start - 2] == y[start - 2 + period]:
        start -= 1
    loop = tuple(y[start - 1 : start - 1 + period])
    return Run(tuple(written), start, loop, m, j)


def first_repeated_piece(r: Run) -> tuple[tuple[str, ...], int] | None:
    """Return the (loop, start) a learner reads off the first written piece that repeats an
    earlier written piece, or None when no written piece repeats."""
    for later, piece in enumerate(r.written):
        if piece in r.written[:later]:
            earlier = r.written.index(piece)
            return tuple(r.written[earlier:later]), earlier + 1
    return None


def rotate(loop: tuple[str, ...], by: int) -> tuple[str, ...]:
    return loop[by:] + loop[:by]


def _right_sentence(p: LoopProblem, r: Run) -> str:
    return (
        f"The text repeats forever from step {r.start}: the loop is *{' '.join(r.loop)}* "
        f"({len(r.loop)} pieces), starting at step {r.start}."
    )


def _first_repeat_variants(p: LoopProblem) -> list[Variant]:
    r = run(p)
    found = first_repeated_piece(r)
    if found is None or found == (r.loop, r.start):
        return []
    return [variant("first_repeated_piece", (), {"loop": list(found[0]), "start": found[1]})]


def _first_repeat_apply(p: LoopProblem, d: Any) -> tuple[tuple[str, ...], int]:
    return tuple(d.detail["loop"]), int(d.detail["start"])


def _pair(context: tuple[str, ...]) -> str:
    return f"(*{context[0]}*, *{context[1]}*)"


def _first_repeat_explain(p: LoopProblem, d: Diagnosis) -> str:
    r = run(p)
    start = int(d.detail["start"])
    later = start + len(d.detail["loop"])
    text = (*p.prompt, *r.written)
    at_repeat = (text[later], text[later + 1])
    before = (text[start], text[start + 1])
    repeat_context = (text[r.repeat_step], text[r.repeat_step + 1])
    return (
        f"Step {later}: *{text[later + 1]}* repeats the piece written at step {start}, but the "
        "model reads the last two pieces, and they differ there: "
        f"{_pair(before)} after step {start}, {_pair(at_repeat)} after step {later}. A piece "
        "coming back does not start a loop; the pair of last pieces (the state) coming back "
        f"does. The first pair to come back is {_pair(repeat_context)}, after step "
        f"{r.repeat_step}. {_right_sentence(p, r)}"
    )


def _rotated_variants(p: LoopProblem) -> list[Variant]:
    r = run(p)
    return [
        variant("loop_rotated", (0,), {"by": by})
        for by in range(1, len(r.loop))
        if rotate(r.loop, by) != r.loop
    ]


def _rotated_apply(p: LoopProblem, d: Any) -> tuple[tuple[str, ...], int]:
    r = run(p)
    return rotate(r.loop, int(d.detail["by"])), r.start


def _rotated_explain(p: LoopProblem, d: Diagnosis) -> str:
    r = run(p)
    by = int(d.detail["by"])
    return (
        f"Your loop has the right pieces but lists them from its {ordinal(by)} piece, "
        f"*{r.loop[by]}*. The text enters "
        f"the loop at step {r.start} with *{r.loop[0]}*, so read from there the loop is "
        f"*{' '.join(r.loop)}*. {_right_sentence(p, r)}"
    )


def _off_by_one_variants(p: LoopProblem) -> list[Variant]:
    r = run(p)
    return [variant("off_by_one_step", (1,), {"start": r.start + shift}) for shift in (-1, 1)]


def _off_by_one_apply(p: LoopProblem, d: Any) -> tuple[tuple[str, ...], int]:
    return run(p).loop, int(d.detail["start"])


def _off_by_one_explain(p: LoopProblem, d: Diagnosis) -> str:
    r = run(p)
    used = int(d.detail["start"])
    how = (
        "counted the steps from 0"
        if used == r.start - 1
        else "started counting one step late (perhaps at the prompt's last piece)"
    )
    return (
        f"Your loop's pieces are right, but you gave step {used}: it seems you {how}. Step 1 is "
        f"the first piece written after the prompt, and *{r.loop[0]}*, the loop's first piece, "
        f"is written at step {r.start}. {_right_sentence(p, r)}"
    )


def _late_variants(p: LoopProblem) -> list[Variant]:
    # The pair after step j (the first to come back) is (y_{j-1}, y_j), and the text repeats
    # from step j - 1 exactly; a learner who starts the loop where that pair is complete, at
    # y_j, enters it one step late.
    return [variant("entered_loop_late", (0, 1), {"late": 1})]


def _late_apply(p: LoopProblem, d: Any) -> tuple[tuple[str, ...], int]:
    r = run(p)
    late = int(d.detail["late"])
    return rotate(r.loop, late % len(r.loop)), r.start + late


def _late_explain(p: LoopProblem, d: Diagnosis) -> str:
    r = run(p)
    late = int(d.detail["late"])
    used = r.start + late
    late_loop = " ".join(rotate(r.loop, late % len(r.loop)))
    text = (*p.prompt, *r.written)
    back = (text[r.first_context_step], text[r.first_context_step + 1])
    return (
        f"Step {used}: you started the loop there, one step late. From step {used} on the text "
        f"does repeat *{late_loop}*, but it repeats already from step {r.start}: the piece "
        f"written at step {r.start}, *{r.loop[0]}*, comes back at step "
        f"{r.start + len(r.loop)}. The pair that comes back, {_pair(back)}, is complete after "
        f"step {r.first_context_step}, but its first piece was written at step {r.start}. "
        f"{_right_sentence(p, r)}"
    )


@register
class GreedyLoop(Kind):
    name = "greedy_loop"
    label = "Where greedy decoding loops"
    # What its sentences number: steps from 1, up to the one completing the pair that comes back.
    numbering = {"step": Numbered(lambda p: run(p).repeat_step)}
    mistakes = (
        MistakeDef(
            code="first_repeated_piece",
            number=1,
            label="stopped at the first repeated piece, not the first repeated state",
            variants=_first_repeat_variants,
            apply=_first_repeat_apply,
            explain=_first_repeat_explain,
        ),
        MistakeDef(
            code="loop_rotated",
            number=2,
            label="listed the loop from another piece",
            parts="[0]: the loop part",
            variants=_rotated_variants,
            apply=_rotated_apply,
            explain=_rotated_explain,
        ),
        MistakeDef(
            code="off_by_one_step",
            number=3,
            label="gave the start step off by one",
            parts="[1]: the step part",
            variants=_off_by_one_variants,
            apply=_off_by_one_apply,
            explain=_off_by_one_explain,
        ),
        MistakeDef(
            code="entered_loop_late",
            number=4,
            label="entered the loop late: its pieces rotated and its start moved with them",
            parts="[0, 1]: the loop part and the step part",
            variants=_late_variants,
            apply=_late_apply,
            explain=_late_explain,
        ),
    )

    def load(self, spec: dict[str, Any]) -> LoopProblem:
        pieces = read_pieces(spec)
        prompt = read_prompt(spec, pieces, low=2)
        if len(prompt) != 2:
            raise SpecError("prompt", "must hold exactly two pieces (the first context)")
        raw = list_field(spec, "contexts", low=1, high=MAX_CONTEXTS)
        contexts = []
        for k, pair in enumerate(raw):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(x, str) and x in pieces for x in pair)
            ):
                raise SpecError(f"contexts[{k}]", "must be a pair of two of the pieces")
            if tuple(pair) in contexts:
                raise SpecError(f"contexts[{k}]", "repeats an earlier context")
            contexts.append((pair[0], pair[1]))
        rows = read_score_rows(spec, "scores", len(contexts), len(pieces))
        problem = LoopProblem(pieces, (prompt[0], prompt[1]), tuple(contexts), rows)
        run(problem)  # every context decoding reaches has a row, and it repeats in time
        return problem

    def normal(self, problem: LoopProblem) -> dict[str, Any]:
        return {
            "pieces": list(problem.pieces),
            "prompt": list(problem.prompt),
            "contexts": [list(c) for c in problem.contexts],
            "scores": [[str(x) for x in row] for row in problem.rows],
        }

    def shape(self, problem: LoopProblem) -> Shape:
        return TupleShape(
            (PieceSequence(MAX_WRITTEN, space_marks=()), IntegerShape()),
            ("the loop", "the step it starts"),
        )

    def right(self, problem: LoopProblem) -> tuple[tuple[str, ...], int]:
        r = run(problem)
        return r.loop, r.start

    def size(self, problem: LoopProblem) -> int:
        return 2

    def steps(self, problem: LoopProblem) -> tuple[Step, ...]:
        text = list(problem.prompt)
        seen = {(text[-2], text[-1]): 0}
        lines = []
        while True:
            context = (text[-2], text[-1])
            text.append(problem.next_piece(context))
            step = len(text) - 2
            lines.append(f"step {step}: after {_pair(context)} the top piece is *{text[-1]}*")
            now = (text[-2], text[-1])
            if now in seen:
                earlier = seen[now]
                break
            seen[now] = step
        when = "the prompt" if earlier == 0 else f"step {earlier}"
        r = run(problem)
        return (
            Step(
                "Decode greedily, keeping the pair of the last two pieces (the state): "
                + "; ".join(lines)
                + "."
            ),
            Step(
                f"After step {step} the last two pieces are {_pair(now)}, as after {when}: "
                f"from here the text repeats every {step - earlier} steps."
            ),
            Step(
                "Reading back from there (the pieces just before may already repeat), the part "
                f"that repeats forever begins at step {r.start}: the loop is "
                f"*{' '.join(r.loop)}*, starting at step {r.start}.",
                (r.loop, r.start),
            ),
        )

    def answer_formats(self, problem: LoopProblem) -> tuple[Format, ...]:
        pieces = problem.pieces
        return (
            Format(
                "Two parts separated by ';': the loop's pieces separated by spaces, then the "
                "step it starts (a whole number)",
                tuple(
                    f"{a} {b}; {step}"
                    for step in (3, 4, 2, 5)
                    for a in pieces
                    for b in pieces
                    if a != b
                ),
            ),
        )

    def hint(self, problem: LoopProblem) -> str:
        return (
            "Write the text step by step, noting after each step the pair of the last two "
            "pieces. When a pair comes back, everything after it repeats: the loop is the "
            "part that repeats, read from the first step it begins."
        )


def score_tex(value: Fraction) -> str:
    """Return a score in TeX."""
    return scalar_tex(value)
