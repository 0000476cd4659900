"""``predict_clean``: the clean value a noise prediction implies,
``xhat_0 = (x_t - sqrt(1 - abar_t) epshat) / sqrt(abar_t)``.

The learner is given ``x_t``, the network's noise prediction ``epshat``, ``abar_t`` and this
step's own ``beta_t`` (which the formula does not use: taking it for ``abar_t`` is a catalogued
mistake, in two readings: one step's noise, ``(x_t - sqrt(beta) epshat) / sqrt(1 - beta)``, and
the literal one that keeps ``sqrt(abar_t)``, ``(x_t - sqrt(1 - beta) epshat) / sqrt(abar_t)``).
The answer is ``xhat_0``: a number, or a vector when ``x_t`` is one.

Spec fields: ``t`` (the step, an integer 1..1000, for the statement), ``alpha_bar`` and ``beta``
(rationals strictly between 0 and 1, with ``beta <= 1 - alpha_bar``: one step cannot add more
noise than all of them), ``x_t`` and ``eps_hat`` (a number, or lists of the same length).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from grading.kinds._noise_math import (
    Value,
    combine,
    divide,
    factor_tex,
    rational,
    root,
    scale,
    value_field,
)
from grading.kinds._noise_math import value_tex as tex
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register, variant
from grading.shapes import ScalarShape, Vector
from grading.spec import SpecError
from grading.tex import scalar_tex

MAX_DIM = 4
# The literal reading of `beta_for_alpha_bar`: beta_t put for abar_t in the noise term only.
LITERAL = MappingProxyType({"reading": "literal"})
MAX_STEP = 1000


@dataclass(frozen=True)
class PredictClean:
    """A validated reverse-step problem."""

    t: int
    alpha_bar: Fraction
    beta: Fraction
    x_t: Value
    eps_hat: Value


def estimate(p: PredictClean, signal_share: Fraction, sign: int = -1) -> Value:
    """Return ``(x_t + sign * sqrt(1 - share) epshat) / sqrt(share)``, exactly."""
    return divide(
        combine(((1, p.x_t), (sign * root(1 - signal_share), p.eps_hat))), root(signal_share)
    )


def right_estimate(p: PredictClean) -> Value:
    """Return ``(x_t - sqrt(1 - abar) epshat) / sqrt(abar)``."""
    return estimate(p, p.alpha_bar)


def _removed(p: PredictClean) -> Value:
    """Return ``x_t - sqrt(1 - abar) epshat``: the value with the noise taken out."""
    return combine(((1, p.x_t), (-root(1 - p.alpha_bar), p.eps_hat)))


def _formula(p: PredictClean) -> str:
    a = scalar_tex(p.alpha_bar)
    return (
        f"$\\hat x_0 = \\dfrac{{x_{{{p.t}}} - \\sqrt{{1 - {a}}}\\,\\hat\\epsilon}}"
        f"{{\\sqrt{{{a}}}}} = {tex(right_estimate(p))}$"
    )


# ---------------------------------------------------------------- the mistakes


def _no_rescale_apply(p: PredictClean, v: Any) -> Value:
    return _removed(p)


def _added_apply(p: PredictClean, v: Any) -> Value:
    return estimate(p, p.alpha_bar, sign=1)


def _beta_variants(p: PredictClean) -> list[Variant]:
    return [variant("beta_for_alpha_bar"), variant("beta_for_alpha_bar", (), LITERAL)]


def _beta_apply(p: PredictClean, v: Any) -> Value:
    if v.detail.get("reading") == "literal":
        # beta_t written where abar_t stands in the noise term, the division by sqrt(abar_t) kept
        return divide(combine(((1, p.x_t), (-root(1 - p.beta), p.eps_hat))), root(p.alpha_bar))
    # one step's noise only: beta_t in place of 1 - abar_t, so 1 - beta_t in place of abar_t
    return estimate(p, 1 - p.beta)


def _unrooted_apply(p: PredictClean, v: Any) -> Value:
    inner = combine(((1, p.x_t), (-(1 - p.alpha_bar), p.eps_hat)))
    return divide(inner, p.alpha_bar)


def _multiplied_apply(p: PredictClean, v: Any) -> Value:
    return scale(root(p.alpha_bar), _removed(p))


def _no_rescale_explain(p: PredictClean, d: Any) -> str:
    return (
        f"You seem to have removed the noise, $x_{{{p.t}}} - \\sqrt{{1 - \\bar\\alpha_{{{p.t}}}}}"
        f"\\,\\hat\\epsilon = {tex(_removed(p))}$, and stopped there. That is "
        f"$\\sqrt{{\\bar\\alpha_{{{p.t}}}}}\\,x_0$, the clean value still shrunk by the forward "
        f"steps; divide by $\\sqrt{{\\bar\\alpha_{{{p.t}}}}}$ to undo the shrinking: {_formula(p)}."
    )


def _added_explain(p: PredictClean, d: Any) -> str:
    return (
        "You seem to have added the predicted noise instead of taking it away. Since "
        f"$x_{{{p.t}}} = \\sqrt{{\\bar\\alpha}}\\,x_0 + \\sqrt{{1 - \\bar\\alpha}}\\,\\epsilon$, "
        f"the noise term is subtracted before rescaling: {_formula(p)}."
    )


def _beta_explain(p: PredictClean, d: Any) -> str:
    b = scalar_tex(p.beta)
    if d.detail.get("reading") == "literal":
        return (
            f"In the noise term you seem to have put this step's $\\beta_{{{p.t}}} = {b}$ where "
            f"$\\bar\\alpha_{{{p.t}}}$ belongs: $\\sqrt{{1 - {b}}}\\,\\hat\\epsilon$ "
            f"instead of $\\sqrt{{1 - \\bar\\alpha_{{{p.t}}}}}\\,\\hat\\epsilon$, while "
            f"still dividing by $\\sqrt{{\\bar\\alpha_{{{p.t}}}}}$. Both places need "
            f"$\\bar\\alpha_{{{p.t}}} = {scalar_tex(p.alpha_bar)}$, which accounts for the "
            f"noise of all {p.t} steps; $\\beta_{{{p.t}}}$ is one step's: {_formula(p)}."
        )
    return (
        f"You seem to have used this step's $\\beta_{{{p.t}}} = {b}$ where "
        f"$\\bar\\alpha_{{{p.t}}}$ belongs, as if $x_{{{p.t}}}$ were one step away from "
        f"$x_0$: noise scaled by $\\sqrt{{{b}}}$ and a division by $\\sqrt{{1 - {b}}}$. "
        f"$x_{{{p.t}}}$ holds the noise of all {p.t} steps, and "
        f"$\\bar\\alpha_{{{p.t}}} = {scalar_tex(p.alpha_bar)}$ accounts for every one of "
        f"them: {_formula(p)}."
    )


def _unrooted_explain(p: PredictClean, d: Any) -> str:
    return (
        f"You seem to have used $1 - \\bar\\alpha_{{{p.t}}}$ and $\\bar\\alpha_{{{p.t}}}$ "
        "themselves, without square roots. They are the shares of the variance; the values "
        f"are scaled by their square roots: {_formula(p)}."
    )


def _multiplied_explain(p: PredictClean, d: Any) -> str:
    return (
        f"You seem to have multiplied by $\\sqrt{{\\bar\\alpha_{{{p.t}}}}}$ instead of dividing. "
        f"The forward process multiplied $x_0$ by $\\sqrt{{\\bar\\alpha_{{{p.t}}}}}$, so going "
        f"back divides by it: {_formula(p)}."
    )


@register
class PredictCleanKind(Kind):
    name = "predict_clean"
    label = "The clean value from a noise prediction"
    mistakes = (
        MistakeDef(
            code="no_rescale",
            number=1,
            label="did not divide by √ᾱₜ",
            explain=_no_rescale_explain,
            apply=_no_rescale_apply,
        ),
        MistakeDef(
            code="added_noise",
            number=2,
            label="added the predicted noise instead of removing it",
            explain=_added_explain,
            apply=_added_apply,
        ),
        MistakeDef(
            code="beta_for_alpha_bar",
            number=3,
            label="used βₜ where ᾱₜ belongs",
            explain=_beta_explain,
            variants=_beta_variants,
            apply=_beta_apply,
        ),
        MistakeDef(
            code="no_square_roots",
            number=4,
            label="used ᾱₜ and 1 − ᾱₜ without square roots",
            explain=_unrooted_explain,
            apply=_unrooted_apply,
        ),
        MistakeDef(
            code="multiplied_by_root",
            number=5,
            label="multiplied by √ᾱₜ instead of dividing",
            explain=_multiplied_explain,
            apply=_multiplied_apply,
        ),
    )

    def load(self, spec: dict) -> PredictClean:
        """Return the validated problem, or raise SpecError naming the field."""
        t = spec.get("t")
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= MAX_STEP:
            raise SpecError("t", f"must be an integer from 1 to {MAX_STEP}")
        alpha_bar = rational(spec.get("alpha_bar"), "alpha_bar")
        if not 0 < alpha_bar < 1:
            raise SpecError("alpha_bar", f"must be strictly between 0 and 1, is {alpha_bar}")
        beta = rational(spec.get("beta"), "beta")
        if not 0 < beta <= 1 - alpha_bar:
            raise SpecError("beta", f"must be positive and at most 1 - alpha_bar, is {beta}")
        x_t = value_field(spec, "x_t", max_dim=MAX_DIM)
        eps_hat = value_field(spec, "eps_hat", max_dim=MAX_DIM)
        if isinstance(x_t, tuple) != isinstance(eps_hat, tuple) or (
            isinstance(x_t, tuple) and len(x_t) != len(eps_hat)
        ):
            raise SpecError("eps_hat", "must have the same form as x_t (a number or a list)")
        return PredictClean(t, alpha_bar, beta, x_t, eps_hat)

    def shape(self, problem: PredictClean) -> ScalarShape | Vector:
        return Vector(len(problem.x_t)) if isinstance(problem.x_t, tuple) else ScalarShape()

    def right(self, problem: PredictClean) -> Value:
        return right_estimate(problem)

    def right_tex(self, problem: PredictClean) -> str:
        return _formula(problem)[1:-1]

    def steps(self, problem: PredictClean) -> tuple[Step, ...]:
        a = problem.alpha_bar
        at = scalar_tex(a)
        noise, signal = root(1 - a), root(a)
        removed = combine(((1, problem.x_t), (-noise, problem.eps_hat)))
        clean = divide(removed, signal)
        return (
            Step(
                f"Solve $x_t = \\sqrt{{\\bar\\alpha_t}}\\,x_0 + \\sqrt{{1-\\bar\\alpha_t}}"
                f"\\,\\epsilon$ for $x_0$ with $\\bar\\alpha_{{{problem.t}}} = {at}$ (this "
                f"step's own $\\beta_{{{problem.t}}} = {scalar_tex(problem.beta)}$ is not used)."
            ),
            Step(
                f"Take the predicted noise out: $x_{{{problem.t}}} - \\sqrt{{1 - {at}}}\\,"
                f"\\hat\\epsilon = {tex(problem.x_t)} - {scalar_tex(noise)}\\cdot "
                f"{factor_tex(problem.eps_hat)} = {tex(removed)}$."
            ),
            Step(
                f"Divide by $\\sqrt{{{at}}} = {scalar_tex(signal)}$: $\\hat x_0 = {tex(clean)}$.",
                clean,
            ),
        )

    def hint(self, problem: PredictClean) -> str:
        return (
            "Solve $x_t = \\sqrt{\\bar\\alpha_t}\\,x_0 + \\sqrt{1-\\bar\\alpha_t}\\,\\epsilon$ for "
            "$x_0$ with the predicted noise: subtract the noise term, then divide by "
            "$\\sqrt{\\bar\\alpha_t}$."
        )
