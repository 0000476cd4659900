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
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds.closed_form_noise import ClosedFormNoiseKind, alpha_bar

from . import geometry, labels, svg
from .base import Draw, ProblemGenerator, frac_str
from .noise_step import _entry, _tex_value, stands_out
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
            fields["x0"] = frac_str(_entry(draw, 1, 3))
            fields["eps"] = frac_str(_entry(draw, 1, 2))
        else:
            fields["x0"] = [frac_str(draw.integer(-3, 3)) for _ in range(2)]
            fields["eps"] = [frac_str(_entry(draw, 1, 2)) for _ in range(2)]
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
            f"{_tex_value(spec['x0'])}$ and $\\epsilon = {_tex_value(spec['eps'])}$.",
            "",
            "Answer with both, separated by `;`: $\\bar\\alpha_t$ first, then $x_t$, for example "
            f"{example}. Write square roots as `sqrt(61)`; a decimal counts when it rounds the "
            "exact value at the digits typed, with at least three significant figures.",
        ]
        return "\n".join(lines)

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        return shrinking_picture(spec, answer, solution=solution)


def shrinking_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return bars of each step's factor ``1 - beta_s`` and, once answered, the running product
    ``abar_s`` shrinking over the steps (the learner's ``abar_t`` dashed beside the last)."""
    problem = ClosedFormNoiseKind().load(spec)
    t = problem.t
    solved = answer is not None if solution is None else solution
    # Above the line at 1, a lane where a value label goes when there is no room by its bar.
    left, top, height, step_width = 60, 36, 200, 90
    width = left + step_width * (t + 1) + 20
    y = svg.Axis(0, 1, top + height, top)
    body = [
        svg.line(left, y(0), width - 10, y(0), stroke="#9ca3af"),
        # The faint dashed line at 1 is a guide a label may cross.
        svg.line(
            left,
            y(1),
            width - 10,
            y(1),
            stroke="#e5e7eb",
            stroke_dasharray="3 3",
            **{"class": "guide"},
        ),
    ]
    segments: list[labels.Segment] = [((left, y(0)), (width - 10, y(0)))]
    obstacles: list[labels.Box] = []
    marks: list[labels.Label] = []

    def fixed(x: float, y_: float, content: str, anchor: str = "middle") -> None:
        """Write a text whose place is fixed, and keep the placed labels off it."""
        body.append(svg.text(x, y_, content, text_anchor=anchor))
        obstacles.append(labels.text_box(x, y_, content, size=12, anchor=anchor))

    def bar(x: float, top_: float) -> None:
        obstacles.append(labels.Box(x, top_, x + 22, y(0)))

    def mark_value(content: str, at: tuple[float, float], bounds: labels.Box) -> None:
        """Add a value label to place above ``at`` (a bar's top), within ``bounds``."""
        candidates = [
            *labels.around_point(at, content, 12, toward=(0, -1)),
            *(labels.Candidate(at[0], top - 10, a) for a in ("middle", "end", "start")),
        ]
        marks.append(labels.Label(content, 12, tuple(candidates), bounds=bounds))

    fixed(left - 8, y(1) + 4, "1", "end")
    fixed(left - 8, y(0) + 4, "0", "end")
    running = Fraction(1)
    factors: list[tuple[str, tuple[float, float], labels.Box]] = []
    points = [(left + step_width * 0.5, y(1))]
    for s, beta in enumerate(problem.betas):
        x = left + step_width * (s + 1)
        keep = 1 - beta
        running *= keep
        body.append(
            svg.rect(
                x - 28,
                y(float(keep)),
                22,
                y(0) - y(float(keep)),
                fill=svg.COLOURS["given"],
                fill_opacity="0.5",
                data_role="factor",
                data_step=s + 1,
                data_value=str(keep),
            )
        )
        bar(x - 28, y(float(keep)))
        fixed(x - 17, y(0) + 16, f"1−β{str(s + 1).translate(_SUB)}")
        # Its column, reaching a little into the previous one when its own bar crowds it.
        column = labels.Box(x - step_width * 0.8, 0, x + step_width / 2, y(0))
        factors.append((svg.fmt(keep), (x - 17, y(float(keep))), column))
        if solved:
            body.append(
                svg.rect(
                    x + 2,
                    y(float(running)),
                    22,
                    y(0) - y(float(running)),
                    fill=svg.COLOURS["right"],
                    fill_opacity="0.6",
                    data_role="alpha-bar",
                    data_step=s + 1,
                    data_value=str(running),
                )
            )
            bar(x + 2, y(float(running)))
            points.append((x + 13, y(float(running))))
    if solved:
        body.append(
            "<polyline "
            + svg.attrs(
                points=" ".join(f"{svg.px(a)},{svg.px(b)}" for a, b in points),
                fill="none",
                stroke=svg.COLOURS["right"],
                data_role="alpha-bar-path",
            )
            + "/>"
        )
        segments.extend(geometry.polyline_segments(points))
        mark_value(f"ᾱ = {svg.fmt(running)}", points[-1], labels.Box(0, 0, width, y(0)))
        given = answer[0] if isinstance(answer, tuple) and answer else None
        value = svg.finite(given)
        if value is not None and 0 <= value <= 1.5:
            x = left + step_width * t + 30
            body.append(
                svg.rect(
                    x,
                    y(min(value, 1)),
                    22,
                    y(0) - y(min(value, 1)),
                    fill="none",
                    stroke=svg.COLOURS["answer"],
                    stroke_dasharray="6 4",
                    data_role="answer-alpha-bar",
                    data_value=f"{value:.6g}",
                )
            )
            bar(x, y(min(value, 1)))
            fixed(x + 11, y(0) + 16, "yours")
    else:
        x = left + step_width * t
        body.append(
            svg.rect(
                x + 2,
                y(1),
                22,
                y(0) - y(1),
                fill="none",
                stroke=svg.COLOURS["unknown"],
                stroke_dasharray="4 4",
                data_role="alpha-bar-unknown",
            )
        )
        bar(x + 2, y(1))
        mark_value(f"ᾱ{str(t).translate(_SUB)} = ?", (x + 13, y(1)), labels.Box(0, 0, width, y(0)))
    for content, at, column in factors:
        mark_value(content, at, column)
    spots = labels.place(marks, segments=segments, obstacles=obstacles)
    body += [labels.svg_text(spot, data_role="value") for spot in spots]
    total_height = top + height + 30
    # A legend: which bars are which (the value labels above them say only numbers).
    total_height += 8  # clear of the steps' names under the axis
    # (fill, its opacity as the bars have it, dashed outline, words)
    entries = [(svg.COLOURS["given"], "0.5", None, "1 − β: what each step keeps")]
    if solved:
        entries.append(
            (svg.COLOURS["right"], "0.6", None, "ᾱ: the running product after each step")
        )
        if svg.finite(answer[0] if isinstance(answer, tuple) and answer else None) is not None:
            entries.append(("none", None, svg.COLOURS["answer"], "your ᾱ"))
    for fill, opacity, stroke, words in entries:
        body.append(
            svg.rect(
                left,
                total_height - 10,
                14,
                12,
                fill=fill,
                fill_opacity=opacity,
                stroke=stroke,
                stroke_dasharray="3 2" if stroke else None,
                data_role="legend-swatch",
            )
        )
        body.append(svg.text(left + 22, total_height, words, data_role="legend"))
        total_height += 20
    title = "What each noising step keeps, and what is left after all of them"
    if solved:
        desc = (
            "Grey bars: the factor 1 − β of each step. Green bars: the running product ᾱ after "
            f"each step, shrinking to ᾱ = {svg.fmt(running)} after step {t}."
        )
        if svg.finite(answer[0] if isinstance(answer, tuple) and answer else None) is not None:
            desc += " Your ᾱ is the dashed bar."
    else:
        desc = (
            "Grey bars: the factor 1 − β each step keeps; the product after the last step is "
            "left for you to work out."
        )
    return svg.document(width, total_height, title, desc, body, key=[spec, str(answer)])


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

__all__ = ["ClosedFormNoiseGenerator", "alpha_bar", "shrinking_picture"]
