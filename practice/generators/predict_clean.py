"""``predict_clean``: ``xhat_0 = (x_t - sqrt(1 - abar_t) epshat) / sqrt(abar_t)``.

The problem is built backwards from a clean value: level 1 draws ``abar_t`` with both
``abar_t`` and ``1 - abar_t`` squares (``16/25``), a whole-number ``x_0`` and noise, and gives
``x_t`` exactly, so the answer is a whole number found on paper; level 2 draws ``abar_t`` such
as ``3/4`` and a simple ``x_t``, so the answer holds a square root. Levels 3 and 4 do the same
with two or three coordinates. This step's ``beta_t`` is given too (small, and at most
``1 - abar_t``), because mistaking it for ``abar_t`` is the mistake to catch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds._noise_math import combine, root
from grading.kinds.predict_clean import PredictCleanKind, right_estimate

from .base import Draw, ProblemGenerator, frac_str
from .draw import labels, svg
from .draw.sketch import Sketch
from .noise_step import nonzero_entry, tex_value
from .statement import tex_number

SQUARE_ALPHA_BARS = ("16/25", "9/25", "144/169", "25/169", "64/289", "225/289")
SQUARE_BETAS = ("49/625", "25/169", "9/25", "64/289")
ROOT_ALPHA_BARS = ("1/2", "3/4", "2/3", "4/5", "3/5", "1/3")
SMALL_BETAS = ("1/10", "1/5", "1/4", "1/9", "1/6", "1/8", "1/16")


class PredictCleanGenerator(ProblemGenerator):
    kind: ClassVar[str] = "predict_clean"
    name: ClassVar[str] = "predict_clean"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 25
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: Any) -> dict:
        dim = {1: 0, 2: 0, 3: 2, 4: draw.choice((2, 3))}[level]
        square = level in (1, 3)
        alpha_bar = Fraction(draw.choice(SQUARE_ALPHA_BARS if square else ROOT_ALPHA_BARS))
        betas = [
            b for b in (SQUARE_BETAS if square else SMALL_BETAS) if Fraction(b) < 1 - alpha_bar
        ]
        beta = draw.choice(betas) if betas else frac_str((1 - alpha_bar) / 2)
        count = max(dim, 1)
        eps = [nonzero_entry(draw, 1, 2) for _ in range(count)]
        if square:
            x0 = [
                nonzero_entry(draw, 1, 3) if dim == 0 else draw.integer(-3, 3) for _ in range(count)
            ]
            x_t = [
                combine(((root(alpha_bar), Fraction(a)), (root(1 - alpha_bar), Fraction(e))))
                for a, e in zip(x0, eps, strict=True)
            ]
        else:
            x_t = [Fraction(draw.integer(-6, 6), 2) for _ in range(count)]
        fields: dict[str, Any] = {
            "t": draw.integer(3, 40),
            "alpha_bar": frac_str(alpha_bar),
            "beta": beta,
        }
        if dim == 0:
            fields.update(x_t=frac_str(x_t[0]), eps_hat=frac_str(eps[0]))
        else:
            fields.update(x_t=[frac_str(x) for x in x_t], eps_hat=[frac_str(e) for e in eps])
        return fields

    def statement(self, spec: dict) -> str:
        t = spec["t"]
        vector = isinstance(spec["x_t"], list)
        example = "`[2, -1/2]`" if vector else "`(3 - sqrt(2)/2)*2/sqrt(3)`"
        lines = [
            f"After {t} noising steps, $x_{{{t}}} = \\sqrt{{\\bar\\alpha_{{{t}}}}}\\, x_0 + "
            f"\\sqrt{{1 - \\bar\\alpha_{{{t}}}}}\\, \\epsilon$, with "
            f"$\\bar\\alpha_{{{t}}} = {tex_number(spec['alpha_bar'])}$ (this step on its own has "
            f"$\\beta_{{{t}}} = {tex_number(spec['beta'])}$).",
            "",
            f"A network looks at $x_{{{t}}} = {tex_value(spec['x_t'])}$ and predicts the noise "
            f"that was mixed in: $\\hat\\epsilon = {tex_value(spec['eps_hat'])}$.",
            "",
            "**Compute** the clean value this prediction implies, $\\hat x_0$: solve the line "
            "above for $x_0$ with $\\hat\\epsilon$ in place of $\\epsilon$.",
            "",
            f"Answer with {'the vector' if vector else 'the number'}, for example {example}. "
            "Write square roots as `sqrt(3)`; a decimal counts when it rounds the exact value at "
            "the digits typed, with at least three significant figures.",
        ]
        return "\n".join(lines)

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        return reverse_picture(spec, answer, solution=solution)


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, tuple | list) else [value]


# The number lines, narrow enough for a phone's column: their ends, the picture's width, and
# each coordinate's height (its caption, the line, its tick labels and the labels of its marks).
_LEFT, _RIGHT, _WIDTH, _ROW = 20, 296, 316, 120
_TICK_STEPS = (0.25, 0.5, 1, 2, 5, 10, 20)


def _written(value: Any) -> str:
    """Write a value for a label as a reader does: exact when rational, minus signs as −."""
    return svg.fmt(value).replace("-", "−")


def _ticks(low: float, high: float) -> list[float]:
    """Return evenly spaced round values across [low, high], six at most, 0 among them."""
    step = next((s for s in _TICK_STEPS if (high - low) / s <= 6), _TICK_STEPS[-1])
    first = -int(-low // step)
    return [k * step for k in range(first, int(high // step) + 1)]


def _band(y: float) -> labels.Box:
    """Return where the labels of the line at height ``y`` may go: its own row."""
    return labels.Box(0, y - 64, _WIDTH, y + 52)


@dataclass
class _NumberLines:
    """One number line per coordinate being drawn, on one axis, labels placed last."""

    count: int
    axis: svg.Axis
    sketch: Sketch = field(default_factory=Sketch)

    def mark(self, text: str, at: tuple[float, float], below: bool, radius: float) -> None:
        """Queue a label for the dot at ``at``, above it (or below), off the dot itself."""
        band = _band(at[1])
        gaps = [radius + g for g in (3, 8, 14, 22, 32, 44, 56)]
        candidates = labels.around_point(at, text, 12, toward=(0, 1 if below else -1), gaps=gaps)
        self.sketch.label(text, candidates, band, data_role="label")

    def line(self, d: int, x: Any) -> float:
        """Draw coordinate ``d``'s caption, its line with round values marked, and ``x_t`` on
        it; return the line's height."""
        top = 20 + _ROW * d
        y, axis = top + 60, self.axis
        if self.count > 1:
            self.sketch.fixed(_LEFT - 10, top, f"coordinate {d + 1}")
        self.sketch.body.append(svg.line(_LEFT, y, _RIGHT, y, stroke="#9ca3af"))
        self.sketch.segments.append(((_LEFT, y), (_RIGHT, y)))
        for value in _ticks(axis.low, axis.high):
            tick = ((axis(value), y - 5), (axis(value), y + 5))
            self.sketch.body.append(svg.line(*tick[0], *tick[1], stroke="#9ca3af"))
            self.sketch.segments.append(tick)
        at = axis(float(x))
        self.sketch.dot(
            at,
            y,
            5,
            fill=svg.COLOURS["given"],
            data_role="x-t",
            data_index=d,
            data_value=svg.fmt(x),
        )
        self.mark(f"xₜ = {_written(x)}", (at, y), False, 5)
        return y

    def removed(self, d: int, y: float, values: tuple[Any, Any, Any]) -> None:
        """Draw the noise removed from ``x_t`` as a labelled bar just below the line
        (``values``: ``x_t``, what is left, the noise)."""
        x, removed, noise = (float(values[0]), float(values[1]), values[2])
        ends = ((self.axis(x), y + 12), (self.axis(removed), y + 12))
        self.sketch.body.append(
            svg.line(
                *ends[0],
                *ends[1],
                stroke=svg.COLOURS["noise"],
                stroke_width="3",
                data_role="removed-noise",
                data_index=d,
                data_value=svg.fmt(noise),
            )
        )
        self.sketch.segments.append(ends)
        text = f"√(1 − ᾱ) ε̂ = {_written(noise)}"
        candidates = [
            *labels.along_segment(ends, text, 12, side=1, fractions=(0.5,)),
            *labels.around_point(ends[1], text, 12, toward=(0, 1), gaps=(6, 12, 20)),
        ]
        band = _band(y)
        self.sketch.label(text, candidates, band, fill=svg.COLOURS["noise"], data_role="label")

    def estimate(self, d: int, y: float, right: Any, mine: float | None) -> None:
        """Draw the right ``x̂₀`` and, dashed, the learner's (at the line's end when beyond)."""
        at = self.axis(float(right))
        self.sketch.dot(
            at,
            y,
            6,
            fill=svg.COLOURS["right"],
            data_role="x0-hat",
            data_index=d,
            data_value=svg.fmt(right),
        )
        self.mark(f"x̂₀ = {_written(right)}", (at, y), True, 6)
        if mine is None:
            return
        shown = max(min(mine, self.axis.high), self.axis.low)
        self.sketch.dot(
            self.axis(shown),
            y,
            8,
            fill="none",
            stroke=svg.COLOURS["answer"],
            stroke_dasharray="3 2",
            data_role="answer",
            data_index=d,
            data_value=f"{mine:.6g}",
        )
        beyond = " (off the line)" if shown != mine else ""
        self.mark(f"yours: {_written(mine)}{beyond}", (self.axis(shown), y), False, 8)

    def predicted(self, y: float, eps: Any) -> None:
        """Write the predicted noise above the line's right end (a fresh problem)."""
        self.sketch.fixed(
            _RIGHT,
            y - 30,
            f"ε̂ = {_written(eps)}",
            "end",
            fill=svg.COLOURS["noise"],
            data_role="eps-hat",
        )

    def scale(self) -> float:
        """Draw the lines' shared scale below them: the round values their ticks mark; return
        the height below it."""
        y, axis = 20 + _ROW * self.count, self.axis
        self.sketch.body.append(svg.line(_LEFT, y, _RIGHT, y, stroke="#d1d5db"))
        for value in _ticks(axis.low, axis.high):
            self.sketch.body.append(svg.line(axis(value), y - 4, axis(value), y, stroke="#9ca3af"))
            written = f"{value:g}".replace("-", "−")
            self.sketch.body.append(
                svg.text(
                    axis(value),
                    y + 15,
                    written,
                    text_anchor="middle",
                    fill="#4b5563",
                    data_role="tick",
                )
            )
        return y + 38

    def key(self, solved: bool, answered: bool) -> float:
        """Write what each mark is, the purple bar's length included; return the height."""
        height = self.scale()
        lines = (
            [
                "grey: xₜ, the noisy value",
                "purple bar: the noise removed, √(1 − ᾱ) ε̂",
                "green: x̂₀, what is left divided by √ᾱ",
                *(["dashed circle: your answer"] if answered else []),
            ]
            if solved
            else ["grey: xₜ, the noisy value; ε̂: the predicted noise"]
        )
        for words in lines:
            self.sketch.body.append(svg.text(4, height, words, fill="#374151", data_role="key"))
            height += 18
        return height


def _reverse_desc(solved: bool, right: list[Any], answered: bool) -> str:
    if not solved:
        return (
            "Grey: xₜ on a number line, with the predicted noise ε̂; the clean value is left "
            "for you to work out."
        )
    desc = (
        "Grey: xₜ. Purple: the noise removed, √(1 − ᾱ) ε̂. Green: x̂₀ = "
        + ", ".join(_written(v) for v in right)
        + ", the rest divided by √ᾱ."
    )
    return desc + (" Your answer is the dashed circle." if answered else "")


def _learner_values(answer: Any, count: int, solved: bool) -> list[float | None]:
    """Return the learner's coordinates (None where not finite), or [] when not drawn."""
    mine = [svg.finite(v) for v in _listed(answer)] if solved else []
    return mine if len(mine) == count else []


def _axis(values: list[float], mine: list[float | None]) -> svg.Axis:
    """Return the number lines' axis: 0 and every value drawn, with a margin; the learner's
    values widen it up to three times its span (further out, they sit at its end)."""
    low, high = min(0.0, *values), max(0.0, *values)
    span = max(high - low, 1.0)
    for v in mine:
        if v is not None and low - 3 * span <= v <= high + 3 * span:
            low, high = min(low, v), max(high, v)
    low, high = max(low, -40.0), min(high, 40.0)
    margin = 0.12 * max(high - low, 1.0)
    return svg.Axis(low - margin, high + margin, _LEFT, _RIGHT)


def reverse_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return one number line per coordinate: ``x_t``, the noise removed from it, and (once
    answered) the rescaled ``xhat_0``, with the learner's value dashed beside the right one."""
    problem = PredictCleanKind().load(spec)
    solved = answer is not None if solution is None else solution
    xs = _listed(problem.x_t)
    noise = _listed(combine(((root(1 - problem.alpha_bar), problem.eps_hat),)))
    removed = [
        x - n if isinstance(x, Fraction) and isinstance(n, Fraction) else float(x) - float(n)
        for x, n in zip(xs, noise, strict=True)
    ]
    right = _listed(right_estimate(problem))
    mine = _learner_values(answer, len(xs), solved)
    values = [float(v) for v in xs + (removed + right if solved else [])]
    lines = _NumberLines(len(xs), _axis(values, mine))
    for d, x in enumerate(xs):
        y = lines.line(d, x)
        if solved:
            lines.removed(d, y, (x, removed[d], noise[d]))
            lines.estimate(d, y, right[d], mine[d] if mine else None)
        else:
            lines.predicted(y, _listed(problem.eps_hat)[d])
    lines.sketch.place_labels()
    answered = any(v is not None for v in mine)
    height = lines.key(solved, answered)
    title = "From the noisy value back to the clean one"
    desc = _reverse_desc(solved, right, answered)
    return svg.document(_WIDTH, height, title, desc, lines.sketch.body, key=[spec, str(answer)])


__all__ = ["PredictCleanGenerator", "reverse_picture"]
