"""``closed_form_noise``: ``abar_t = prod (1 - beta_s)`` over a short schedule, then
``x_t = sqrt(abar_t) x_0 + sqrt(1 - abar_t) eps``.

Level 1 draws three steps whose ``1 - beta_s`` are squares of simple ratios (``beta = 19/100``
keeps ``(9/10)^2``) and whose product of ratios makes ``1 - abar_t`` a square too, so both
``sqrt(abar_t)`` and ``sqrt(1 - abar_t)`` are rational and the answer is found on paper;
level 2 uses small ``beta`` such as ``1/10`` with a genuine square root in the answer. Levels 3
and 4 do the same over three or four steps with a two-coordinate ``x_0``. There are always at
least three steps, so that leaving one step out is never the same as using the last alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds.closed_form_noise import ClosedFormNoiseKind, alpha_bar

from .base import Draw, ProblemGenerator, frac_str
from .draw import labels, svg
from .draw.sketch import Sketch
from .noise_step import nonzero_entry, stands_out, tex_value
from .statement import tex_number

# Paper-friendly schedules (levels 1 and 3): every 1 - beta = (k / (k + 1))^2, so
# beta = (2k + 1) / (k + 1)^2 (k = 2..24), and the product P of the k / (k + 1) is a leg ratio
# of a Pythagorean triple, so sqrt(abar_t) = P and sqrt(1 - abar_t) = sqrt(1 - P^2) are both
# rational; the betas add up below 1. All such sets of three and four steps, by step count
# (tests/kinds/test_closed_form_noise.py re-derives the property).
SQUARE_SCHEDULES: dict[int, tuple[tuple[str, ...], ...]] = {
    3: (
        ("5/9", "31/256", "49/625"),
        ("5/9", "37/361", "39/400"),
        ("7/16", "11/36", "49/625"),
        ("7/16", "13/49", "29/225"),
        ("7/16", "17/81", "19/100"),
        ("9/25", "11/36", "19/100"),
        ("9/25", "13/49", "15/64"),
        ("9/25", "33/289", "39/400"),
        ("15/64", "41/441", "49/625"),
        ("17/81", "31/256", "49/625"),
        ("17/81", "37/361", "39/400"),
        ("19/100", "29/225", "41/441"),
        ("19/100", "33/289", "35/324"),
        ("21/121", "23/144", "49/625"),
        ("25/169", "27/196", "29/225"),
    ),
    4: (
        ("5/9", "19/100", "29/225", "49/625"),
        ("7/16", "15/64", "41/441", "49/625"),
        ("7/16", "17/81", "31/256", "49/625"),
        ("7/16", "17/81", "37/361", "39/400"),
        ("7/16", "19/100", "29/225", "41/441"),
        ("7/16", "19/100", "33/289", "35/324"),
        ("7/16", "21/121", "23/144", "49/625"),
        ("7/16", "25/169", "27/196", "29/225"),
        ("7/16", "25/169", "35/324", "49/625"),
        ("9/25", "11/36", "31/256", "49/625"),
        ("9/25", "11/36", "37/361", "39/400"),
        ("9/25", "13/49", "23/144", "43/484"),
        ("9/25", "13/49", "29/225", "31/256"),
        ("9/25", "15/64", "19/100", "41/441"),
        ("9/25", "15/64", "25/169", "27/196"),
        ("9/25", "17/81", "19/100", "31/256"),
        ("9/25", "19/100", "21/121", "23/144"),
        ("9/25", "19/100", "25/169", "35/324"),
        ("11/36", "13/49", "15/64", "49/625"),
        ("11/36", "13/49", "19/100", "29/225"),
        ("11/36", "15/64", "25/169", "33/289"),
        ("11/36", "33/289", "39/400", "49/625"),
        ("13/49", "15/64", "17/81", "19/100"),
        ("13/49", "29/225", "33/289", "39/400"),
        ("15/64", "33/289", "39/400", "49/625"),
        ("17/81", "19/100", "33/289", "39/400"),
        ("19/100", "29/225", "33/289", "39/400"),
        ("21/121", "45/529", "47/576", "49/625"),
        ("23/144", "25/169", "47/576", "49/625"),
        ("23/144", "41/441", "43/484", "49/625"),
        ("25/169", "31/256", "33/289", "39/400"),
        ("29/225", "31/256", "41/441", "49/625"),
        ("29/225", "37/361", "39/400", "41/441"),
        ("31/256", "33/289", "35/324", "49/625"),
        ("33/289", "35/324", "37/361", "39/400"),
    ),
}
SMALL_BETAS = ("1/10", "1/5", "1/4", "1/9", "1/6", "1/8", "1/16")
STEPS = {1: (3,), 2: (3,), 3: (3, 4), 4: (4,)}


def _rational_roots(betas: list[Fraction]) -> bool:
    """Return True when sqrt(abar_t) and sqrt(1 - abar_t) are both rational."""
    abar = alpha_bar(tuple(betas))
    return all(
        math.isqrt(x.numerator) ** 2 == x.numerator
        and math.isqrt(x.denominator) ** 2 == x.denominator
        for x in (abar, 1 - abar)
    )


class ClosedFormNoiseGenerator(ProblemGenerator):
    kind: ClassVar[str] = "closed_form_noise"
    name: ClassVar[str] = "closed_form_noise"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 24
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    # A mistake in a small beta moves a number by about beta: a targeted problem shows it when
    # some number moves by at least this much (tests read it too).
    clear_gap: ClassVar[float] = 0.1

    def draw_fields(self, draw: Draw, level: int, target: Any) -> dict:
        t = draw.choice(STEPS[level])
        if level in (1, 3):
            betas = draw.shuffled(list(draw.choice(SQUARE_SCHEDULES[t])))
        else:
            betas = draw.sample(SMALL_BETAS, t)
        fields: dict[str, Any] = {"betas": betas}
        if level <= 2:
            fields["x0"] = frac_str(nonzero_entry(draw, 1, 3))
            fields["eps"] = frac_str(nonzero_entry(draw, 1, 2))
        else:
            fields["x0"] = [frac_str(draw.integer(-3, 3)) for _ in range(2)]
            fields["eps"] = [frac_str(nonzero_entry(draw, 1, 2)) for _ in range(2)]
        return fields

    def plausible(self, spec: dict, target: Any) -> bool:
        betas = [Fraction(b) for b in spec["betas"]]
        # small enough to add up below 1 (so "summed the betas" has a square root), and the noise
        # draw unlike x_0 (there the two noise-coefficient mistakes give the same x_t)
        if set(spec["betas"]) <= set(SMALL_BETAS) and _rational_roots(betas):
            return False  # levels 2 and 4 keep a genuine square root in the answer
        return sum(betas) < 1 and spec["x0"] != spec["eps"]

    def shows_clearly(self, spec: dict, target: Any, right: Any, answers: list) -> bool:
        return stands_out(right, answers, self.clear_gap)

    def statement(self, spec: dict) -> str:
        betas = spec["betas"]
        t = len(betas)
        vector = isinstance(spec["x0"], list)
        schedule = ", ".join(f"$\\beta_{{{s + 1}}} = {tex_number(b)}$" for s, b in enumerate(betas))
        example = "`64/125; [1/2, sqrt(3)]`" if vector else "`64/125; 3/5 - sqrt(61)/125`"
        lines = [
            f"A noising schedule has {t} steps: {schedule}. Step $s$ keeps the fraction "
            "$1 - \\beta_s$ of the signal's variance, so after all of them",
            "",
            f"$$\\bar\\alpha_{{{t}}} = \\prod_{{s=1}}^{{{t}}} (1 - \\beta_s), \\qquad "
            f"x_{{{t}}} = \\sqrt{{\\bar\\alpha_{{{t}}}}}\\; x_0 + "
            f"\\sqrt{{1 - \\bar\\alpha_{{{t}}}}}\\; \\epsilon$$",
            "",
            f"with one standard Gaussian draw $\\epsilon$ standing in for all {t} steps' noise.",
            "",
            f"**Compute** $\\bar\\alpha_{{{t}}}$ and $x_{{{t}}}$ for $x_0 = "
            f"{tex_value(spec['x0'])}$ and $\\epsilon = {tex_value(spec['eps'])}$.",
            "",
            "Answer with both, separated by `;`: $\\bar\\alpha_t$ first, then $x_t$, for example "
            f"{example}. Write square roots as `sqrt(61)`; a decimal counts when it rounds the "
            "exact value at the digits typed, with at least three significant figures.",
        ]
        return "\n".join(lines)

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        return shrinking_picture(spec, answer, solution=solution)


# The bars' layout: the axis's left end, the line at 1's height, the bars' height, one step's
# width, a bar's width. Four steps and the learner's bar fit in 312 px, a phone's column.
_LEFT, _TOP, _HEIGHT, _STEP, _BAR = 30, 36, 200, 56, 18


@dataclass
class _Shrinking:
    """The bars of one schedule being drawn: each step's factor, the running product."""

    t: int
    sketch: Sketch = field(default_factory=Sketch)

    def __post_init__(self) -> None:
        # The last step, then the learner's bar; never narrower than the legend's longest line.
        self.width = max(_LEFT + _STEP * self.t + 56, 300)
        self.y = svg.Axis(0, 1, _TOP + _HEIGHT, _TOP)
        # Value labels placed with the others: (text, the bar's top, the column it stays in).
        self.values: list[tuple[str, tuple[float, float], labels.Box]] = []
        # The lines written under the bars' names so far, in pixels: the names take two lines,
        # each step's 1 − β above its ᾱ, so that neighbouring names never meet.
        self.below = 14.0

    def frame(self) -> None:
        """Draw the axis at 0, the faint guide at 1 and their numbers."""
        y, width = self.y, self.width
        self.sketch.body += [
            svg.line(_LEFT, y(0), width - 10, y(0), stroke="#9ca3af"),
            # The faint dashed line at 1 is a guide a label may cross.
            svg.line(
                _LEFT,
                y(1),
                width - 10,
                y(1),
                stroke="#e5e7eb",
                stroke_dasharray="3 3",
                **{"class": "guide"},
            ),
        ]
        self.sketch.segments.append(((_LEFT, y(0)), (width - 10, y(0))))
        self.sketch.fixed(_LEFT - 8, y(1) + 4, "1", "end")
        self.sketch.fixed(_LEFT - 8, y(0) + 4, "0", "end")

    def bar(self, x: float, value: float, **extra: Any) -> None:
        """Draw a bar ``_BAR`` px wide from 0 up to ``value``, an obstacle for the labels."""
        y = self.y
        self.sketch.body.append(svg.rect(x, y(value), _BAR, y(0) - y(value), **extra))
        self.sketch.keep_off(x, y(value), x + _BAR, y(0))

    def mark_value(self, content: str, at: tuple[float, float], bounds: labels.Box) -> None:
        """Queue a value label to place above ``at`` (a bar's top), within ``bounds``."""
        candidates = [
            *labels.around_point(at, content, 12, toward=(0, -1)),
            *(labels.Candidate(at[0], _TOP - 10, a) for a in ("middle", "end", "start")),
        ]
        self.sketch.label(content, candidates, bounds, data_role="value")

    def steps(self, betas: list[Fraction], solved: bool) -> Fraction:
        """Draw each step's factor bar and, solved, the running product's bar beside it, each
        named under the axis; return the product."""
        y = self.y
        running = Fraction(1)
        for s, beta in enumerate(betas):
            x = _LEFT + _STEP * (s + 1)
            keep = 1 - beta
            running *= keep
            self.bar(
                x - 26,
                float(keep),
                fill=svg.COLOURS["given"],
                fill_opacity="0.5",
                data_role="factor",
                data_step=s + 1,
                data_value=str(keep),
            )
            self.sketch.fixed(x - 17, y(0) + 16, f"1−β{str(s + 1).translate(_SUB)}", "middle")
            # Its column, reaching a little into the previous one when its own bar crowds it.
            column = labels.Box(x - _STEP * 0.8, 0, x + _STEP / 2, y(0))
            self.values.append((svg.fmt(keep), (x - 17, y(float(keep))), column))
            if solved:
                self.bar(
                    x + 2,
                    float(running),
                    fill=svg.COLOURS["right"],
                    fill_opacity="0.6",
                    data_role="alpha-bar",
                    data_step=s + 1,
                    data_value=str(running),
                )
                self.sketch.fixed(x + 11, y(0) + 30, f"ᾱ{str(s + 1).translate(_SUB)}", "middle")
        return running

    def product(self, running: Fraction, given: float | None) -> None:
        """Write the product after the last step under the bars, and draw the learner's ᾱ
        dashed beside its bar (its value written under the product's)."""
        t = str(self.t).translate(_SUB)
        self.total(f"ᾱ{t} = {svg.fmt(running)} after all {self.t} steps", svg.COLOURS["right"])
        if given is not None:
            self.total(f"your ᾱ{t}: {_written(given)}", svg.COLOURS["answer"])
        if given is not None and 0 <= given <= 1.5:
            x = _LEFT + _STEP * self.t + 26
            self.bar(
                x,
                min(given, 1),
                fill="none",
                stroke=svg.COLOURS["answer"],
                stroke_dasharray="6 4",
                data_role="answer-alpha-bar",
                data_value=f"{given:.6g}",
            )
            self.sketch.fixed(x + 9, self.y(0) + 16, "yours", "middle")

    def total(self, words: str, colour: str) -> None:
        """Write one line under the bars' names (the product, the learner's)."""
        self.below += 18
        self.sketch.fixed(_LEFT, self.y(0) + 16 + self.below, words, fill=colour, data_role="total")

    def unknown(self) -> None:
        """Draw the product left to find: a dashed empty bar with ``ᾱₜ = ?``."""
        x = _LEFT + _STEP * self.t
        self.bar(
            x + 2,
            1,
            fill="none",
            stroke=svg.COLOURS["unknown"],
            stroke_dasharray="4 4",
            data_role="alpha-bar-unknown",
        )
        t = str(self.t).translate(_SUB)
        self.sketch.fixed(x + 11, self.y(0) + 30, f"ᾱ{t}", "middle")
        self.total(f"ᾱ{t} = ?, the product of the factors", "#374151")

    def legend(self, solved: bool, answered: bool) -> float:
        """Draw the legend below the steps' names; return the picture's height."""
        # Clear of the steps' names and the totals under the axis.
        height = _TOP + _HEIGHT + 30 + 8 + self.below
        # (fill, its opacity as the bars have it, dashed outline, words)
        entries = [(svg.COLOURS["given"], "0.5", None, "1 − β: what each step keeps")]
        if solved:
            entries.append(
                (svg.COLOURS["right"], "0.6", None, "ᾱ: the running product after each step")
            )
            if answered:
                entries.append(("none", None, svg.COLOURS["answer"], "your ᾱ"))
        for fill, opacity, stroke, words in entries:
            self.sketch.body.append(
                svg.rect(
                    _LEFT,
                    height - 10,
                    14,
                    12,
                    fill=fill,
                    fill_opacity=opacity,
                    stroke=stroke,
                    stroke_dasharray="3 2" if stroke else None,
                    data_role="legend-swatch",
                )
            )
            self.sketch.body.append(svg.text(_LEFT + 22, height, words, data_role="legend"))
            height += 20
        return height


def _shrinking_desc(solved: bool, running: Fraction, t: int, answered: bool) -> str:
    if not solved:
        return (
            "Grey bars: the factor 1 − β each step keeps; the product after the last step is "
            "left for you to work out."
        )
    desc = (
        "Grey bars: the factor 1 − β of each step. Green bars: the running product ᾱ after "
        f"each step, shrinking to ᾱ = {svg.fmt(running)} after step {t}."
    )
    return desc + (" Your ᾱ is the dashed bar." if answered else "")


def shrinking_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return bars of each step's factor ``1 - beta_s`` and, once answered, the running product
    ``abar_s`` shrinking over the steps (the learner's ``abar_t`` dashed beside the last)."""
    problem = ClosedFormNoiseKind().load(spec)
    solved = answer is not None if solution is None else solution
    given = svg.finite(answer[0] if isinstance(answer, tuple) and answer else None)
    chart = _Shrinking(problem.t)
    chart.frame()
    running = chart.steps(list(problem.betas), solved)
    if solved:
        chart.product(running, given)
    else:
        chart.unknown()
    for content, at, column in chart.values:
        chart.mark_value(content, at, column)
    chart.sketch.place_labels()
    height = chart.legend(solved, given is not None)
    title = "What each noising step keeps, and what is left after all of them"
    desc = _shrinking_desc(solved, running, problem.t, given is not None)
    return svg.document(
        chart.width, height, title, desc, chart.sketch.body, key=[spec, str(answer)]
    )


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _written(value: float) -> str:
    """Write the learner's value for a label: three decimals at most, minus signs as −."""
    return svg.fmt(value).replace("-", "−")


__all__ = ["ClosedFormNoiseGenerator", "alpha_bar", "shrinking_picture"]
