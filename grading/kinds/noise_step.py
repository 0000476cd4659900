"""``noise_step``: one forward step of Gaussian noising, its value and its variance.

The learner computes ``x_t = sqrt(1 - beta) x_{t-1} + sqrt(beta) eps`` for given ``x_{t-1}``,
``eps`` and ``beta``, and the variance after the step, ``(1 - beta) v + beta``, when the values
at step ``t - 1`` have variance ``v`` and ``eps`` is standard Gaussian. The answer is a pair
``x_t; variance`` (``x_t`` a number, or a vector when ``x_{t-1}`` is one).

Spec fields: ``beta`` (a rational strictly between 0 and 1), ``x_prev`` and ``eps`` (a number,
or lists of numbers of the same length), ``variance`` (a positive rational).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.kinds._noise_math import (
    Value,
    combine,
    factor_tex,
    rational,
    root,
    value_field,
    value_tex,
)
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import ScalarShape, TupleShape, Vector
from grading.spec import SpecError
from grading.tex import scalar_tex

MAX_DIM = 4
VALUE, VARIANCE = 0, 1
PART_NAMES = ("the value $x_t$", "the variance")


@dataclass(frozen=True)
class NoiseStep:
    """One validated step: beta, the value before, the noise draw and the variance before."""

    beta: Fraction
    x_prev: Value
    eps: Value
    variance: Fraction

    @property
    def keep(self) -> Fraction:
        """Return 1 - beta, the share of the variance the signal keeps."""
        return 1 - self.beta


def step_value(p: NoiseStep, signal: Any, noise: Any) -> Value:
    """Return ``signal * x_prev + noise * eps``, exactly."""
    return combine(((signal, p.x_prev), (noise, p.eps)))


def step_variance(p: NoiseStep, signal_sq: Any, noise_sq: Any) -> Any:
    """Return ``signal_sq * v + noise_sq``, exactly."""
    return combine(((signal_sq, p.variance), (noise_sq, Fraction(1))))


def right_value(p: NoiseStep) -> Value:
    """Return ``sqrt(1 - beta) x_prev + sqrt(beta) eps``."""
    return step_value(p, root(p.keep), root(p.beta))


def right_variance(p: NoiseStep) -> Any:
    """Return ``(1 - beta) v + beta``."""
    return step_variance(p, p.keep, p.beta)


# ---------------------------------------------------------------- the mistakes
# Each mistake can show in the value, in the variance, or in both (a learner who holds the
# wrong rule applies it to both parts); `terms` lists the parts it changes.

_PARTS = ((VALUE,), (VARIANCE,), (VALUE, VARIANCE))


def _by_parts(code: str) -> Any:
    return lambda p: [Variant(code, parts, {}) for parts in _PARTS]


def _answer(p: NoiseStep, parts: Iterable[int], value: Value, variance: Any) -> tuple:
    parts = tuple(parts)
    return (
        value if VALUE in parts else right_value(p),
        variance if VARIANCE in parts else right_variance(p),
    )


def _unsquared_apply(p: NoiseStep, v: Variant) -> tuple:
    return (right_value(p), step_variance(p, root(p.keep), root(p.beta)))


def _no_shrink_apply(p: NoiseStep, v: Variant) -> tuple:
    return _answer(
        p, v.terms, step_value(p, Fraction(1), root(p.beta)), step_variance(p, 1, p.beta)
    )


def _swapped_apply(p: NoiseStep, v: Variant) -> tuple:
    return _answer(
        p, v.terms, step_value(p, root(p.beta), root(p.keep)), step_variance(p, p.beta, p.keep)
    )


def _unrooted_apply(p: NoiseStep, v: Variant) -> tuple:
    return (step_value(p, p.keep, p.beta), right_variance(p))


def _noise_variance_apply(p: NoiseStep, v: Variant) -> tuple:
    return (right_value(p), step_variance(p, p.keep, 0))


def _formula_value(p: NoiseStep) -> str:
    b = scalar_tex(p.beta)
    return (
        f"$x_t = \\sqrt{{1 - {b}}}\\,x_{{t-1}} + \\sqrt{{{b}}}\\,\\epsilon = "
        f"{value_tex(right_value(p))}$"
    )


def _formula_variance(p: NoiseStep) -> str:
    b, v = scalar_tex(p.beta), scalar_tex(p.variance)
    return (
        f"$\\operatorname{{Var}}(x_t) = (1 - {b})\\cdot {v} + {b} = "
        f"{scalar_tex(right_variance(p))}$"
    )


def _should_be(p: NoiseStep, parts: Iterable[int]) -> str:
    parts = tuple(parts)
    said = []
    if VALUE in parts:
        said.append(_formula_value(p))
    if VARIANCE in parts:
        said.append(_formula_variance(p))
    return " and ".join(said)


def _where(parts: Iterable[int]) -> str:
    parts = tuple(parts)
    if parts == (VALUE, VARIANCE):
        return "In both parts"
    return "In " + PART_NAMES[parts[0]]


def _unsquared_explain(p: NoiseStep, d: Any) -> str:
    b = scalar_tex(p.beta)
    return (
        "In the variance, you seem to have used the coefficients themselves, "
        f"$\\sqrt{{1 - {b}}}\\cdot v + \\sqrt{{{b}}}$. Scaling a value by $c$ scales its "
        "variance by $c^2$, and the noise has variance 1, so the coefficients enter squared: "
        f"{_formula_variance(p)}."
    )


def _no_shrink_explain(p: NoiseStep, d: Any) -> str:
    b = scalar_tex(p.beta)
    return (
        f"{_where(d.terms)}, you seem to have added the noise $\\sqrt{{{b}}}\\,\\epsilon$ "
        f"without first shrinking the signal by $\\sqrt{{1 - {b}}}$. The step scales "
        f"$x_{{t-1}}$ down so that the spread stays put: {_should_be(p, d.terms)}."
    )


def _swapped_explain(p: NoiseStep, d: Any) -> str:
    b = scalar_tex(p.beta)
    return (
        f"{_where(d.terms)}, you seem to have exchanged $\\beta$ and $1 - \\beta$: the signal "
        f"got $\\beta = {b}$ and the noise $1 - \\beta$. $\\beta$ is the noise's share, so "
        f"the signal keeps $1 - \\beta$: {_should_be(p, d.terms)}."
    )


def _unrooted_explain(p: NoiseStep, d: Any) -> str:
    b = scalar_tex(p.beta)
    return (
        f"In the value $x_t$, you seem to have multiplied by $1 - {b}$ and ${b}$ without the "
        "square roots. Those are the shares of the *variance*; the values are scaled by their "
        f"square roots: {_formula_value(p)}."
    )


def _noise_variance_explain(p: NoiseStep, d: Any) -> str:
    return (
        "In the variance, you seem to have kept only the shrunken signal's part, "
        "$(1 - \\beta)\\,v$, and left out the variance the fresh noise brings, $\\beta$. "
        f"Independent parts add their variances: {_formula_variance(p)}."
    )


@register
class NoiseStepKind(Kind):
    name = "noise_step"
    label = "One Gaussian noising step: value and variance"
    mistakes = (
        MistakeDef(
            code="unsquared_variance",
            number=1,
            label="did not square the coefficients in the variance",
            parts="[1]: the variance",
            variants=lambda p: [Variant("unsquared_variance", (VARIANCE,), {})],
            apply=_unsquared_apply,
            explain=_unsquared_explain,
        ),
        MistakeDef(
            code="noise_without_shrinking",
            number=2,
            label="added the noise without shrinking the signal",
            parts="the parts it changed: [0] the value, [1] the variance",
            variants=_by_parts("noise_without_shrinking"),
            apply=_no_shrink_apply,
            explain=_no_shrink_explain,
        ),
        MistakeDef(
            code="swapped_beta",
            number=3,
            label="swapped β and 1 − β",
            parts="the parts it changed: [0] the value, [1] the variance",
            variants=_by_parts("swapped_beta"),
            apply=_swapped_apply,
            explain=_swapped_explain,
        ),
        MistakeDef(
            code="unrooted_coefficients",
            number=4,
            label="scaled the value by 1 − β and β, without square roots",
            parts="[0]: the value",
            variants=lambda p: [Variant("unrooted_coefficients", (VALUE,), {})],
            apply=_unrooted_apply,
            explain=_unrooted_explain,
        ),
        MistakeDef(
            code="noise_variance_left_out",
            number=5,
            label="left the noise's variance out of the new variance",
            parts="[1]: the variance",
            variants=lambda p: [Variant("noise_variance_left_out", (VARIANCE,), {})],
            apply=_noise_variance_apply,
            explain=_noise_variance_explain,
        ),
    )

    def load(self, spec: dict) -> NoiseStep:
        """Return the validated step, or raise SpecError naming the field."""
        beta = rational(spec.get("beta"), "beta")
        if not 0 < beta < 1:
            raise SpecError("beta", f"must be strictly between 0 and 1, is {beta}")
        x_prev = value_field(spec, "x_prev", max_dim=MAX_DIM)
        eps = value_field(spec, "eps", max_dim=MAX_DIM)
        if isinstance(x_prev, tuple) != isinstance(eps, tuple) or (
            isinstance(x_prev, tuple) and len(x_prev) != len(eps)
        ):
            raise SpecError("eps", "must have the same form as x_prev (a number or a list)")
        variance = rational(spec.get("variance"), "variance")
        if variance <= 0:
            raise SpecError("variance", f"must be positive, is {variance}")
        return NoiseStep(beta, x_prev, eps, variance)

    def shape(self, problem: NoiseStep) -> TupleShape:
        value = Vector(len(problem.x_prev)) if isinstance(problem.x_prev, tuple) else ScalarShape()
        # The parts' names show in the answer box's help and in messages: as a reader writes them.
        return TupleShape((value, ScalarShape()), ("xₜ", "the variance"))

    def right(self, problem: NoiseStep) -> tuple:
        return (right_value(problem), right_variance(problem))

    def right_tex(self, problem: NoiseStep) -> str:
        return f"{_formula_value(problem)}; {_formula_variance(problem)}"

    def steps(self, problem: NoiseStep) -> tuple[Step, ...]:
        b, keep, v = problem.beta, problem.keep, problem.variance
        signal, noise = root(keep), root(b)
        value = combine(((signal, problem.x_prev), (noise, problem.eps)))
        variance = combine(((keep, v), (b, Fraction(1))))
        bt = scalar_tex(b)
        return (
            Step(
                f"The signal keeps $\\sqrt{{1 - \\beta}} = \\sqrt{{1 - {bt}}} = "
                f"{scalar_tex(signal)}$ of its size; the noise gets "
                f"$\\sqrt{{\\beta}} = \\sqrt{{{bt}}} = {scalar_tex(noise)}$."
            ),
            Step(
                f"$x_t = {scalar_tex(signal)}\\cdot {factor_tex(problem.x_prev)} + "
                f"{scalar_tex(noise)}\\cdot {factor_tex(problem.eps)} = {value_tex(value)}$.",
                value,
            ),
            Step(
                "Variances add with the coefficients squared: "
                f"$\\operatorname{{Var}}(x_t) = (1 - {bt})\\cdot {scalar_tex(v)} + {bt} = "
                f"{scalar_tex(variance)}$. The answer is "
                f"${value_tex(value)};\\ {scalar_tex(variance)}$.",
                (value, variance),
            ),
        )

    def hint(self, problem: NoiseStep) -> str:
        return (
            "Scale $x_{t-1}$ by $\\sqrt{1-\\beta}$ and the noise by $\\sqrt{\\beta}$, then add; "
            "the variances add with the coefficients squared: $(1-\\beta)\\,v + \\beta$."
        )
