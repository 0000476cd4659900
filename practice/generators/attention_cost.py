"""``attention_cost``: attention's score entries at a passage's two lengths, and the ratio."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.attention_cost import entries

from .base import Draw, ProblemGenerator
from .draw.text_figures import COLOURS, label, svg_root


@dataclass(frozen=True)
class CostLevel:
    masks: tuple[str, ...]
    shorts: tuple[int, ...]
    factors: tuple[int, ...]  # long = short * factor + extra
    extra: tuple[int, ...]


# n = 3 is left out: there n(n-1) = 6 = 3*4/2, so two mistakes would give the same count.
COST_LEVELS: dict[int, CostLevel] = {
    1: CostLevel(masks=("full",), shorts=(2, 4, 5), factors=(2, 3), extra=(0,)),
    2: CostLevel(masks=("causal",), shorts=(4, 5, 6), factors=(2, 3), extra=(0,)),
    3: CostLevel(masks=("full", "causal"), shorts=(5, 6, 7, 8), factors=(4,), extra=(0, 1, 2, 3)),
    4: CostLevel(masks=("causal",), shorts=(8, 9, 10, 11), factors=(4,), extra=(2, 3, 4, 5)),
}

PANEL = 300  # pixels for the long grid's side; the short grid is drawn at the same scale


class AttentionCostGenerator(ProblemGenerator):
    kind: ClassVar[str] = "attention_cost"
    name: ClassVar[str] = "attention_cost"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 11
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = COST_LEVELS[level]
        short = draw.choice(spec_level.shorts)
        long = short * draw.choice(spec_level.factors) + draw.choice(spec_level.extra)
        return {"short": short, "long": long, "mask": draw.choice(spec_level.masks)}

    def plausible(self, spec: dict, target: str | None) -> bool:
        return 3 not in (spec["short"], spec["long"])

    def statement(self, spec: dict) -> str:
        short, long, mask = spec["short"], spec["long"], spec["mask"]
        if mask == "full":
            rule = (
                "The attention is **full**: every position gets a score with every position, "
                "itself included, so $n$ positions need $n \\times n$ scores."
            )
        else:
            rule = (
                "The attention is **causal** (the model writes left to right): every position "
                "gets a score with itself and with every earlier position, none with later ones."
            )
        return "\n".join(
            [
                f"A sentence takes ${short}$ positions as subword pieces and ${long}$ positions "
                f"as characters. One attention layer computes a score for each pair of positions "
                f"it compares.",
                "",
                rule,
                "",
                f"How many scores does the layer compute at ${short}$ positions, how many at "
                f"${long}$, and how many times as many is that at the longer length "
                f"(scores at ${long}$ divided by scores at ${short}$)?",
                "",
                "Answer with the three numbers separated by semicolons, for example "
                "`10; 40; 4` (the ratio as a fraction, or a decimal).",
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        short, long, mask = spec["short"], spec["long"], spec["mask"]
        cell = min(24.0, PANEL / long)
        x0, y0 = 16.0, 28.0
        body: list[str] = []
        x = x0
        for n in (short, long):
            body.extend(_grid(x, y0, n, cell, mask))
            body.append(label(x, y0 - 10, f"{n} positions"))
            x += n * cell + 40
        width = max(x, 360.0)
        height = y0 + long * cell + 16
        what = "all cells" if mask == "full" else "the cells on and below the diagonal"
        title = f"The {mask} score grids at {short} and at {long} positions, to scale"
        desc = (
            f"Each grid has one cell per pair of positions (row: the position scoring, column: "
            f"the position scored); {what} are scores the layer computes."
        )
        if reveal:
            a, b = entries(short, mask), entries(long, mask)
            desc += f" The layer computes {a} and {b} scores."
            body.append(
                label(x0, height + 6, f"{a} and {b} scores; ratio {b}/{a}", colour=COLOURS["right"])
            )
            height += 24
            try:
                la, lb, ratio = answer
                words = f"Your answer: {int(la)} and {int(lb)} scores; ratio {ratio}"
            except (TypeError, ValueError):
                words = ""
            if words:
                desc += f" {words}."
                body.append(label(x0, height + 6, words, colour=COLOURS["answer"], role="answer"))
                height += 24
        return svg_root(width, height, title, desc, body)


def _grid(x: float, y: float, n: int, cell: float, mask: str) -> list[str]:
    """Return an n-by-n grid: the computed cells filled, grid lines where cells are big enough."""
    side = n * cell
    if mask == "full":
        shape = f"M{x:g},{y:g} h{side:g} v{side:g} h{-side:g} z"
    else:
        # A staircase: row i (from the top) is filled in columns 0..i.
        steps = "".join(f" h{cell:g} v{cell:g}" for _ in range(n))
        shape = f"M{x:g},{y:g}{steps} h{-side:g} z"
    out = [
        f'<g class="grid" data-role="grid" data-n="{n}" data-mask="{mask}" data-cell="{cell:g}">',
        f'<path d="{shape}" fill="#bfdbfe" stroke="none"/>',
    ]
    if cell >= 4:
        lines = "".join(
            f" M{x:g},{y + k * cell:g} h{side:g} M{x + k * cell:g},{y:g} v{side:g}"
            for k in range(n + 1)
        )
        out.append(f'<path d="{lines.strip()}" stroke="#93c5fd" stroke-width="0.6" fill="none"/>')
    out.append(
        f'<rect x="{x:g}" y="{y:g}" width="{side:g}" height="{side:g}" fill="none" '
        f'stroke="{COLOURS["cell"]}" stroke-width="1.5"/>'
    )
    out.append("</g>")
    return out
