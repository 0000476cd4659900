"""``noise_step``: one noising step ``x_t = sqrt(1 - beta) x_{t-1} + sqrt(beta) eps`` and the
variance after it, ``(1 - beta) v + beta``.

Level 1 uses a ``beta`` whose ``1 - beta`` and ``beta`` are both squares of rationals
(``9/25``: the coefficients are ``4/5`` and ``3/5``), so the whole answer is rational; level 2
has a genuine square root (``beta = 1/4``: ``sqrt(3)/2`` and ``1/2``). Levels 3 and 4 do the
same with a vector of two or three coordinates. The variance before the step is never 1
(there swapping ``beta`` and ``1 - beta`` gives the right variance) and ``x_{t-1}`` never
equals ``eps`` (there it gives the right value).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from grading.kinds._noise_math import value_float, value_tex
from grading.kinds.noise_step import right_value, right_variance

from .base import Draw, ProblemGenerator, frac_str
from .draw import svg
from .statement import format_example, tex_number

# beta with both sqrt(beta) and sqrt(1 - beta) rational: squares of Pythagorean ratios.
SQUARE_BETAS = ("9/25", "25/169", "64/289", "49/625")
ROOT_BETAS = ("1/4", "1/9", "1/16", "1/10", "1/5")
VARIANCES = ("4", "9", "1/4", "9/4", "2", "1/2")


def flat(value: Any) -> list[float]:
    """Return every number of a value (a number, a vector or a tuple of parts) as floats."""
    if isinstance(value, tuple | list):
        return [x for part in value for x in flat(part)]
    return [float(value)]


def stands_out(right: Any, answers: list[tuple[Any, Any]], gap: float = 0.5) -> bool:
    """Return whether some answer differs from ``right`` by at least ``gap`` in some number."""
    want = flat(right)
    return any(
        max(abs(a - b) for a, b in zip(flat(value), want, strict=True)) >= gap
        for _, value in answers
    )


def nonzero_entry(draw: Draw, low: int, high: int) -> int:
    """Return a nonzero integer with absolute value in [low, high]."""
    return draw.integer(low, high) * draw.choice((-1, 1))


# Format examples, tried in order (see statement.format_example).
_VECTOR_EXAMPLES = ("[4/5, -1]; 73/25", "[-7/5, 2]; 41/25", "[3/5, 9/4]; 97/50")
_NUMBER_EXAMPLES = ("11/5; 73/25", "-7/5; 41/25", "9/4; 97/50")


class NoiseStepGenerator(ProblemGenerator):
    kind: ClassVar[str] = "noise_step"
    name: ClassVar[str] = "noise_step"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 23
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)
    # A mistake in a small beta moves a number by about beta: a targeted problem shows it when
    # some number moves by at least this much (tests read it too).
    clear_gap: ClassVar[float] = 0.1

    def draw_fields(self, draw: Draw, level: int, target: Any) -> dict:
        betas = SQUARE_BETAS[:2] if level == 1 else ROOT_BETAS if level in (2, 4) else SQUARE_BETAS
        fields: dict[str, Any] = {"beta": draw.choice(betas)}
        dim = {1: 0, 2: 0, 3: 2, 4: 3}[level]
        if dim == 0:
            fields["x_prev"] = frac_str(nonzero_entry(draw, 1, 5))
            fields["eps"] = frac_str(nonzero_entry(draw, 1, 2))
        else:
            fields["x_prev"] = [frac_str(draw.integer(-4, 4)) for _ in range(dim)]
            fields["eps"] = [frac_str(nonzero_entry(draw, 1, 2)) for _ in range(dim)]
        fields["variance"] = draw.choice(VARIANCES)
        return fields

    def plausible(self, spec: dict, target: Any) -> bool:
        x, e = spec["x_prev"], spec["eps"]
        xs = x if isinstance(x, list) else [x]
        es = e if isinstance(e, list) else [e]
        # every coordinate must move under every value mistake: x != eps and x != 0 somewhere
        return any(a != "0" for a in xs) and xs != es

    def shows_clearly(self, spec: dict, target: Any, right: Any, answers: list) -> bool:
        return stands_out(right, answers, self.clear_gap)

    def statement(self, spec: dict) -> str:
        beta, v = tex_number(spec["beta"]), tex_number(spec["variance"])
        vector = isinstance(spec["x_prev"], list)
        x, e = tex_value(spec["x_prev"]), tex_value(spec["eps"])
        example = "`" + format_example(spec, _VECTOR_EXAMPLES if vector else _NUMBER_EXAMPLES) + "`"
        lines = [
            "One noising step shrinks the current value and adds fresh Gaussian noise:",
            "",
            "$$x_t = \\sqrt{1 - \\beta}\\; x_{t-1} + \\sqrt{\\beta}\\; \\epsilon$$",
            "",
            f"Here $\\beta = {beta}$, "
            f"$x_{{t-1}} = {x}$ and the noise drawn for this step is $\\epsilon = {e}$. "
            "The noise comes from the standard Gaussian (mean 0, variance 1), independently of "
            f"$x_{{t-1}}$, and the values at step $t-1$ have variance $v = {v}$"
            + (" in every coordinate." if vector else "."),
            "",
            "**Compute** the value $x_t$ and the variance of $x_t$"
            + (" (one coordinate's; they are all the same)." if vector else "."),
            "",
            "Answer with both, separated by `;`: the value first, then the variance, for "
            f"example {example}. Write square roots as `sqrt(3)`; a decimal counts when it "
            "rounds the exact value at the digits typed, with at least three significant "
            "figures.",
        ]
        return "\n".join(lines)

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        return step_picture(spec, answer, solution=solution)


def tex_value(value: Any) -> str:
    if isinstance(value, list):
        return "\\begin{bmatrix}" + "\\\\".join(tex_number(v) for v in value) + "\\end{bmatrix}"
    return tex_number(value)


def _floats(value: Any) -> list[float] | None:
    if value is None:
        return None
    items = value if isinstance(value, list | tuple) else [value]
    out = [svg.finite(v) for v in items]
    return None if any(v is None for v in out) else out  # type: ignore[return-value]


# A band's row: its role, caption, variance, the values drawn as dots, and its colour.
_Row = tuple[str, str, float, list[float], str]
# Narrow enough for a phone's column: each row is its caption above its band.
_LEFT, _RIGHT, _WIDTH, _ROW = 20, 296, 316, 64
_TICK_STEPS = (0.5, 1, 2, 5, 10, 20)


def _written(value: Any) -> str:
    """Write a value for a caption: exact when rational, minus signs as −."""
    return svg.fmt(value).replace("-", "−")


def _step_rows(problem: Any, spec: dict, solved: bool) -> list[_Row]:
    """Return the bands to draw: before the step, the noise and, solved, after the step."""
    rows: list[_Row] = [
        (
            "before",
            f"step t−1: variance {_written(problem.variance)}, xₜ₋₁ as dots",
            float(problem.variance),
            _floats(spec["x_prev"]) or [],
            "given",
        ),
        ("noise", "the noise ε: variance 1, ε as dots", 1.0, _floats(spec["eps"]) or [], "noise"),
    ]
    if solved:
        right_x = value_float(right_value(problem))
        rows.append(
            (
                "after",
                f"step t: variance {_written(right_variance(problem))}, xₜ as dots",
                float(right_variance(problem)),
                list(right_x) if isinstance(right_x, tuple) else [right_x],
                "right",
            )
        )
    return rows


def _learner_step(answer: Any) -> tuple[list[float] | None, float | None]:
    """Return the learner's values and variance where they can be drawn (a variance > 0)."""
    parts = answer if isinstance(answer, tuple) and len(answer) == 2 else (None, None)
    values, variance = _floats(parts[0]), svg.finite(parts[1])
    return values, variance if variance is not None and variance > 0 else None


def _band(axis: svg.Axis, y: float, sd: float, **extra: Any) -> str:
    """Return a band 24 px high spanning 0 ± ``sd`` on the axis."""
    return svg.rect(axis(-sd), y, axis(sd) - axis(-sd), 24, **extra)


def _dots(axis: svg.Axis, y: float, values: list[float], extent: float, **extra: Any) -> list[str]:
    """Return the values as dots on a band's middle (clamped to the axis)."""
    return [
        svg.circle(
            axis(max(min(value, extent), -extent)),
            y + 12,
            4,
            **extra,
            data_index=k,
            data_value=f"{value:.6g}",
        )
        for k, value in enumerate(values)
    ]


def _top(n: int) -> float:
    """Return the height of row ``n``'s caption; its band lies just below."""
    return 24 + _ROW * n


def _given_rows(axis: svg.Axis, rows: list[_Row], extent: float) -> list[str]:
    """Return each row's caption, band and dots."""
    body: list[str] = []
    for n, (role, caption, var, dots, colour) in enumerate(rows):
        y = _top(n) + 8
        sd = var**0.5
        body.append(svg.text(4, _top(n), caption))
        body.append(
            _band(
                axis,
                y,
                sd,
                fill=svg.COLOURS[colour],
                fill_opacity="0.18",
                stroke=svg.COLOURS[colour],
                data_role=f"band-{role}",
                data_sd=f"{sd:.6g}",
            )
        )
        body += _dots(axis, y, dots, extent, fill=svg.COLOURS[colour], data_role=f"value-{role}")
    return body


def _unknown_row(n: int) -> list[str]:
    """Return the row left to work out: a dashed empty band across the axis."""
    return [
        svg.text(4, _top(n), "step t: ?"),
        svg.rect(
            _LEFT,
            _top(n) + 8,
            _RIGHT - _LEFT,
            24,
            fill="none",
            stroke=svg.COLOURS["unknown"],
            stroke_dasharray="4 4",
            data_role="band-unknown",
        ),
    ]


def _answer_row(
    axis: svg.Axis, n: int, learner: tuple[list[float] | None, float | None], extent: float
) -> list[str]:
    """Return the learner's band and values, dashed, in the row below the right ones."""
    values, variance = learner
    y = _top(n) + 8
    body: list[str] = []
    if variance is not None:
        body.append(svg.text(4, _top(n), f"your answer: variance {_written(variance)}"))
        body.append(
            _band(
                axis,
                y,
                min(variance**0.5, extent),
                fill="none",
                stroke=svg.COLOURS["answer"],
                stroke_dasharray="6 4",
                data_role="band-answer",
                data_sd=f"{variance**0.5:.6g}",
            )
        )
    elif values:
        body.append(svg.text(4, _top(n), "your answer"))
    body += _dots(
        axis,
        y,
        values or [],
        extent,
        fill="none",
        stroke=svg.COLOURS["answer"],
        data_role="value-answer",
    )
    return body


def _scale(axis: svg.Axis, extent: float, y: float) -> list[str]:
    """Return the bands' shared scale: a line with round values marked (minus signs as −)."""
    step = next((s for s in _TICK_STEPS if 2 * extent / s <= 8), _TICK_STEPS[-1])
    body = [svg.line(_LEFT, y, _RIGHT, y, stroke="#9ca3af")]
    for k in range(-int(extent // step), int(extent // step) + 1):
        value = k * step
        body.append(svg.line(axis(value), y - 4, axis(value), y, stroke="#9ca3af"))
        written = f"{value:g}".replace("-", "−")
        body.append(
            svg.text(
                axis(value), y + 15, written, text_anchor="middle", fill="#4b5563", data_role="tick"
            )
        )
    return body


def _step_desc(problem: Any, solved: bool, variance: float | None) -> str:
    if not solved:
        return (
            f"Bands of one standard deviation around 0: before the step (variance "
            f"{svg.fmt(problem.variance)}) with xₜ₋₁ as dots, and the noise (variance 1) with "
            "ε; the band after the step is left for you to work out."
        )
    desc = (
        f"Bands of one standard deviation around 0: before the step (variance "
        f"{svg.fmt(problem.variance)}), the noise (variance 1), and after the step (variance "
        f"{svg.fmt(right_variance(problem))}, value {_plain(right_value(problem))})."
    )
    if variance is not None:
        desc += f" Your variance, {svg.fmt(variance)}, is the dashed band."
    return desc


def step_picture(spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
    """Return the spread before and after the step as bands of plus or minus one standard
    deviation around 0, with the values as dots; the band after the step and ``x_t`` only once
    an answer is given (the learner's dashed beside the right one)."""
    from grading.kinds import noise_step as kind_module

    problem = kind_module.NoiseStepKind().load(spec)
    solved = answer is not None if solution is None else solution
    rows = _step_rows(problem, spec, solved)
    learner = _learner_step(answer) if solved else (None, None)
    extent = max(
        [2 * r[2] ** 0.5 for r in rows]
        + [abs(x) for r in rows for x in r[3]]
        + [abs(x) for x in (learner[0] or [])]
        + [2 * learner[1] ** 0.5 if learner[1] else 0]
    )
    extent = min(max(extent, 1.0), 40.0)
    axis = svg.Axis(-extent * 1.1, extent * 1.1, _LEFT, _RIGHT)
    bottom = _top(len(rows) + 1) - 8
    # The faint line at 0 is a guide the captions may cross.
    body = [svg.line(axis(0), _top(0) + 4, axis(0), bottom, stroke="#d1d5db", class_="guide")]
    body += _given_rows(axis, rows, extent)
    n = len(rows)
    body += _answer_row(axis, n, learner, extent) if solved else _unknown_row(n)
    body += _scale(axis, extent, bottom)
    height = bottom + 40
    # What a band's width means, said on the picture: its half-width is √variance.
    for words in ("a band spans one standard deviation,", "√variance, on each side of 0"):
        body.append(svg.text(4, height, words, fill="#374151", data_role="key"))
        height += 18
    title = "The spread before and after one noising step"
    desc = _step_desc(problem, solved, learner[1])
    return svg.document(_WIDTH, height, title, desc, body, key=[spec, str(answer)])


def _plain(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(svg.fmt(x) for x in value) + ")"
    return svg.fmt(value)


__all__ = ["Fraction", "NoiseStepGenerator", "value_tex"]
