"""``closed_form_noise``: many noising steps in one, ``x_t = sqrt(abar_t) x_0 +
sqrt(1 - abar_t) eps`` with ``abar_t = prod_s (1 - beta_s)``.

The learner computes ``abar_t`` from the schedule ``beta_1..beta_t`` and then ``x_t`` for given
``x_0`` and one standard Gaussian draw ``eps``. The answer is the pair ``abar_t; x_t`` (``x_t`` a
number, or a vector when ``x_0`` is one). A diagnosis's terms name a step (0-based: term ``s``
is step ``s + 1``) where the mistake concerns one.

Spec fields: ``betas`` (2 to 8 rationals strictly between 0 and 1), ``x0`` and ``eps`` (a
number, or lists of the same length).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
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

from .base import Numbered

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

MAX_STEPS = 8
MAX_DIM = 4


@dataclass(frozen=True)
class ClosedFormNoise:
    """A validated schedule, the clean value and the one noise draw."""

    betas: tuple[Fraction, ...]
    x0: Value
    eps: Value

    @property
    def t(self) -> int:
        """Return the number of steps."""
        return len(self.betas)


def alpha_bar(betas: Sequence[Fraction]) -> Fraction:
    """Return ``prod (1 - beta)`` over the given betas."""
    return reduce(lambda a, b: a * (1 - b), betas, Fraction(1))


def noisy(p: ClosedFormNoise, signal: Any, noise: Any) -> Value:
    """Return ``signal * x0 + noise * eps``, exactly."""
    return combine(((signal, p.x0), (noise, p.eps)))


def answer_for(p: ClosedFormNoise, abar: Fraction) -> tuple:
    """Return ``(abar, sqrt(abar) x0 + sqrt(1 - abar) eps)`` for a (possibly wrong) abar."""
    return (abar, noisy(p, root(abar), root(1 - abar)))


def right_answer(p: ClosedFormNoise) -> tuple:
    """Return the right ``(abar_t, x_t)``."""
    return answer_for(p, alpha_bar(p.betas))


def _alpha_bar_tex(p: ClosedFormNoise) -> str:
    factors = " \\cdot ".join(f"(1 - {scalar_tex(b)})" for b in p.betas)
    return f"\\bar\\alpha_{{{p.t}}} = {factors} = {scalar_tex(alpha_bar(p.betas))}"


def _x_tex(p: ClosedFormNoise) -> str:
    abar = alpha_bar(p.betas)
    return (
        f"x_{{{p.t}}} = \\sqrt{{{scalar_tex(abar)}}}\\,x_0 + \\sqrt{{{scalar_tex(1 - abar)}}}"
        f"\\,\\epsilon = {value_tex(right_answer(p)[1])}"
    )


def _should_be(p: ClosedFormNoise) -> str:
    return f"${_alpha_bar_tex(p)}$, so ${_x_tex(p)}$"


# ---------------------------------------------------------------- the mistakes


def _summed_apply(p: ClosedFormNoise, v: Any) -> tuple:
    return answer_for(p, 1 - sum(p.betas, Fraction(0)))


def _last_apply(p: ClosedFormNoise, v: Any) -> tuple:
    return answer_for(p, 1 - p.betas[-1])


def _unrooted_apply(p: ClosedFormNoise, v: Any) -> tuple:
    abar = alpha_bar(p.betas)
    return (abar, noisy(p, abar, 1 - abar))


def _forgot_variants(p: ClosedFormNoise) -> list[Variant]:
    return [Variant("forgot_step", (s,), {}) for s in range(p.t)]


def _forgot_apply(p: ClosedFormNoise, v: Any) -> tuple:
    (s,) = v.terms
    return answer_for(p, alpha_bar([b for r, b in enumerate(p.betas) if r != s]))


def _complement_apply(p: ClosedFormNoise, v: Any) -> tuple:
    abar = alpha_bar(p.betas)
    signal = root(abar)
    return (abar, noisy(p, signal, 1 - signal))


def _summed_explain(p: ClosedFormNoise, d: Any) -> str:
    total = sum(p.betas, Fraction(0))
    return (
        "You seem to have added the $\\beta_s$ up and taken "
        f"$\\bar\\alpha_{{{p.t}}} = 1 - {scalar_tex(total)}$. Each step keeps the fraction "
        "$1 - \\beta_s$ of the signal's variance, and fractions of fractions multiply: "
        f"{_should_be(p)}."
    )


def _last_explain(p: ClosedFormNoise, d: Any) -> str:
    return (
        f"You seem to have used only the last step, $1 - \\beta_{{{p.t}}} = "
        f"{scalar_tex(1 - p.betas[-1])}$, as $\\bar\\alpha_{{{p.t}}}$. The bar means the "
        f"product over all {p.t} steps: {_should_be(p)}."
    )


def _unrooted_explain(p: ClosedFormNoise, d: Any) -> str:
    abar = alpha_bar(p.betas)
    return (
        f"Your $\\bar\\alpha_{{{p.t}}} = {scalar_tex(abar)}$ is right, but in $x_{{{p.t}}}$ you "
        f"seem to have multiplied by $\\bar\\alpha_{{{p.t}}}$ and $1 - \\bar\\alpha_{{{p.t}}}$ "
        "themselves, without square roots. They are the variances' shares; the values are "
        f"scaled by their square roots: ${_x_tex(p)}$."
    )


def _forgot_explain(p: ClosedFormNoise, d: Any) -> str:
    (s,) = d.terms
    return (
        f"Your product seems to leave out step {s + 1}, the factor "
        f"$1 - \\beta_{{{s + 1}}} = 1 - {scalar_tex(p.betas[s])}$. Every one of the {p.t} "
        f"steps shrinks the signal: {_should_be(p)}."
    )


def _complement_explain(p: ClosedFormNoise, d: Any) -> str:
    abar = alpha_bar(p.betas)
    return (
        f"Your $\\bar\\alpha_{{{p.t}}} = {scalar_tex(abar)}$ is right, but the noise in "
        f"$x_{{{p.t}}}$ seems to be scaled by $1 - \\sqrt{{\\bar\\alpha_{{{p.t}}}}}$. The "
        "variances add to 1, not the coefficients: the noise's coefficient is "
        f"$\\sqrt{{1 - \\bar\\alpha_{{{p.t}}}}}$, so ${_x_tex(p)}$."
    )


def _forgot_describe(p: ClosedFormNoise, d: Any) -> str:
    return f"leaving step {d.terms[0] + 1} out of the product"


@register
class ClosedFormNoiseKind(Kind):
    name = "closed_form_noise"
    label = "Many noising steps in one: ᾱₜ and xₜ"
    # What its sentences number: the schedule's steps from 1.
    numbering = {"step": Numbered(lambda p: len(p.betas))}
    mistakes = (
        MistakeDef(
            code="summed_betas",
            number=1,
            label="summed the βs instead of multiplying the (1 − β)s",
            explain=_summed_explain,
            apply=_summed_apply,
        ),
        MistakeDef(
            code="last_step_only",
            number=2,
            label="used only the last step's 1 − β",
            explain=_last_explain,
            apply=_last_apply,
        ),
        MistakeDef(
            code="unrooted_alpha_bar",
            number=3,
            label="scaled x₀ and the noise by ᾱ and 1 − ᾱ, without square roots",
            explain=_unrooted_explain,
            apply=_unrooted_apply,
        ),
        MistakeDef(
            code="forgot_step",
            number=4,
            label="left one step out of the product",
            parts="[s]: the step left out (0-based)",
            explain=_forgot_explain,
            variants=_forgot_variants,
            apply=_forgot_apply,
            describe=_forgot_describe,
        ),
        MistakeDef(
            code="noise_scale_one_minus_root",
            number=5,
            label="scaled the noise by 1 − √ᾱ instead of √(1 − ᾱ)",
            explain=_complement_explain,
            apply=_complement_apply,
        ),
    )

    def load(self, spec: dict) -> ClosedFormNoise:
        """Return the validated problem, or raise SpecError naming the field."""
        raw = spec.get("betas")
        if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_STEPS:
            raise SpecError("betas", f"must be a list of 2 to {MAX_STEPS} rationals")
        betas = tuple(rational(b, f"betas[{s}]") for s, b in enumerate(raw))
        for s, beta in enumerate(betas):
            if not 0 < beta < 1:
                raise SpecError(f"betas[{s}]", f"must be strictly between 0 and 1, is {beta}")
        if sum(betas, Fraction(0)) >= 1:
            raise SpecError("betas", "must add up to less than 1 (small steps)")
        x0 = value_field(spec, "x0", max_dim=MAX_DIM)
        eps = value_field(spec, "eps", max_dim=MAX_DIM)
        if isinstance(x0, tuple) != isinstance(eps, tuple) or (
            isinstance(x0, tuple) and len(x0) != len(eps)
        ):
            raise SpecError("eps", "must have the same form as x0 (a number or a list)")
        return ClosedFormNoise(betas, x0, eps)

    def shape(self, problem: ClosedFormNoise) -> TupleShape:
        value = Vector(len(problem.x0)) if isinstance(problem.x0, tuple) else ScalarShape()
        # The parts' names show in the answer box's help and in messages: as a reader writes them.
        t = str(problem.t).translate(_SUBSCRIPT)
        return TupleShape((ScalarShape(), value), (f"ᾱ{t}", f"x{t}"))

    def right(self, problem: ClosedFormNoise) -> tuple:
        return right_answer(problem)

    def right_tex(self, problem: ClosedFormNoise) -> str:
        return f"{_alpha_bar_tex(problem)};\\quad {_x_tex(problem)}"

    def size(self, problem: ClosedFormNoise) -> int:
        return problem.t

    def steps(self, problem: ClosedFormNoise) -> tuple[Step, ...]:
        t = problem.t
        steps = []
        abar = Fraction(1)
        for s, beta in enumerate(problem.betas, 1):
            abar *= 1 - beta
            steps.append(
                Step(
                    f"Step {s}: $1 - \\beta_{{{s}}} = 1 - {scalar_tex(beta)} = "
                    f"{scalar_tex(1 - beta)}$; the product so far is "
                    f"$\\bar\\alpha_{{{s}}} = {scalar_tex(abar)}$.",
                )
            )
        signal, noise = root(abar), root(1 - abar)
        x = combine(((signal, problem.x0), (noise, problem.eps)))
        steps.append(
            Step(
                f"So $\\bar\\alpha_{{{t}}} = {scalar_tex(abar)}$: the signal is scaled by "
                f"$\\sqrt{{{scalar_tex(abar)}}} = {scalar_tex(signal)}$ and the noise by "
                f"$\\sqrt{{1 - {scalar_tex(abar)}}} = {scalar_tex(noise)}$.",
                abar,
            )
        )
        steps.append(
            Step(
                f"$x_{{{t}}} = {scalar_tex(signal)}\\cdot {factor_tex(problem.x0)} + "
                f"{scalar_tex(noise)}\\cdot {factor_tex(problem.eps)} = {value_tex(x)}$. The "
                f"answer is ${scalar_tex(abar)};\\ {value_tex(x)}$.",
                (abar, x),
            )
        )
        return tuple(steps)

    def hint(self, problem: ClosedFormNoise) -> str:
        return (
            "Multiply the factors $1 - \\beta_s$ of every step to get $\\bar\\alpha_t$, then "
            "scale $x_0$ by $\\sqrt{\\bar\\alpha_t}$ and the noise by "
            "$\\sqrt{1 - \\bar\\alpha_t}$."
        )
