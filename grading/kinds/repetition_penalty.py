"""`repetition_penalty`: next-piece probabilities after a repetition penalty, and the new top.

Spec fields: `pieces` (2 to 8 candidate next pieces), `scores` (one exact rational per piece),
`text` (the text so far, pieces; a candidate in it is "seen"), `penalty` θ > 1 and
`temperature` T > 0 (rationals). The rule: a seen piece's positive score is divided by θ, its
negative score multiplied by θ (zero stays zero); unseen pieces keep their scores. Then
`p_v = exp(z'_v / T) / Σ_u exp(z'_u / T)`. The answer is a tuple: the probabilities (a vector,
exact with `exp`, or decimals per the policy) and the piece with the highest probability.

Mistakes: penalised every piece (seen or not); multiplied positive scores by θ; divided
negative scores by θ (ignored their rule); multiplied by the temperature instead of dividing;
skipped the penalty (softmax of the scores as given). Terms name the pieces (0-based) whose
penalised score the mistake changes; [] when it changes every one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from ..shapes import Choice, Shape, TupleShape, Vector
from ..spec import SpecError, number, strings
from ..tex import scalar_tex
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Step, Variant, register, variant
from .greedy_steps import read_pieces

MAX_TEXT = 24
MAX_SCORE = 12
MAX_DENOMINATOR = 12
MAX_FACTOR = 6  # penalty and temperature stay within [1/6, 6]


@dataclass(frozen=True)
class PenaltyProblem:
    pieces: tuple[str, ...]
    scores: tuple[Fraction, ...]
    text: tuple[str, ...]
    penalty: Fraction
    temperature: Fraction

    def seen(self, k: int) -> bool:
        return self.pieces[k] in self.text


Rule = str  # "right", "every", "multiply_positive", "divide_negative", "none"


def penalised(p: PenaltyProblem, rule: Rule = "right") -> tuple[Fraction, ...]:
    """Return the scores after the penalty under a rule (the right one by default)."""
    out = []
    for k, z in enumerate(p.scores):
        hit = p.seen(k) or rule == "every"
        if rule == "none" or not hit or z == 0:
            out.append(z)
        elif z > 0:
            out.append(z * p.penalty if rule == "multiply_positive" else z / p.penalty)
        else:
            out.append(z / p.penalty if rule == "divide_negative" else z * p.penalty)
    return tuple(out)


def softmax(exponents: tuple[Fraction, ...]) -> tuple[sympy.Expr, ...]:
    """Return exact softmax probabilities exp(a_k) / Σ exp(a_j)."""
    powers = [sympy.exp(sympy.Rational(a.numerator, a.denominator)) for a in exponents]
    total = sympy.Add(*powers)
    return tuple(power / total for power in powers)


def top(exponents: tuple[Fraction, ...]) -> int | None:
    """Return the index of the unique largest exponent (None on a tie)."""
    best = max(exponents)
    found = [k for k, a in enumerate(exponents) if a == best]
    return found[0] if len(found) == 1 else None


def answer_for(p: PenaltyProblem, rule: Rule = "right", *, times_t: bool = False) -> Any:
    """Return (probabilities, top piece) under a penalty rule and a temperature use."""
    scores = penalised(p, rule)
    exponents = tuple(z * p.temperature if times_t else z / p.temperature for z in scores)
    k = top(exponents)
    return softmax(exponents), (p.pieces[k] if k is not None else "")


def _changed(p: PenaltyProblem, rule: Rule) -> tuple[int, ...]:
    right, wrong = penalised(p), penalised(p, rule)
    return tuple(k for k, (a, b) in enumerate(zip(right, wrong, strict=True)) if a != b)


def _names(p: PenaltyProblem, ks: tuple[int, ...]) -> str:
    words = [f"*{p.pieces[k]}*" for k in ks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _right_sentence(p: PenaltyProblem) -> str:
    after = penalised(p)
    scores = ", ".join(
        f"*{piece}* ${scalar_tex(z)}$" for piece, z in zip(p.pieces, after, strict=True)
    )
    _, best = answer_for(p)
    return (
        f"The penalised scores are {scores}; divided by $T = {scalar_tex(p.temperature)}$ they "
        f"go into the softmax, and the new top piece is *{best}*."
    )


def _clear_top(p: PenaltyProblem, rule: Rule, times_t: bool = False) -> bool:
    """Return whether the mistaken probabilities have one top piece (a learner could name it)."""
    scores = penalised(p, rule)
    return (
        top(tuple(z * p.temperature if times_t else z / p.temperature for z in scores)) is not None
    )


def _temperature_variants(p: PenaltyProblem) -> list[Variant]:
    if p.temperature == 1 or not _clear_top(p, "right", times_t=True):
        return []
    return [variant("multiplied_temperature")]


def _rule_variants(code: str, rule: Rule) -> Callable[[PenaltyProblem], list[Variant]]:
    def variants(p: PenaltyProblem) -> list[Variant]:
        changed = _changed(p, rule)
        if not changed or not _clear_top(p, rule):
            return []
        terms = () if len(changed) == len(p.pieces) else changed
        return [variant(code, terms)]

    return variants


def _rule_apply(rule: Rule, times_t: bool = False) -> Callable[[PenaltyProblem, Any], Any]:
    def apply(p: PenaltyProblem, d: Any) -> Any:
        return answer_for(p, rule, times_t=times_t)

    return apply


def _every_explain(p: PenaltyProblem, d: Diagnosis) -> str:
    unseen = tuple(k for k in range(len(p.pieces)) if not p.seen(k) and p.scores[k] != 0)
    return (
        f"You penalised {_names(p, unseen)} too, but {'it is' if len(unseen) == 1 else 'they are'}"
        " not in the text yet. The penalty lowers only pieces already written, so that the "
        f"text stops repeating them; new pieces keep their scores. {_right_sentence(p)}"
    )


def _multiplied_explain(p: PenaltyProblem, d: Diagnosis) -> str:
    ks = tuple(k for k in range(len(p.pieces)) if p.seen(k) and p.scores[k] > 0)
    k = ks[0]
    theta = scalar_tex(p.penalty)
    return (
        f"{_names(p, ks)}: in the text with a positive score, so the score is divided by "
        f"$\\theta = {theta}$ (for *{p.pieces[k]}*, ${scalar_tex(p.scores[k])} / {theta} = "
        f"{scalar_tex(p.scores[k] / p.penalty)}$). You multiplied it "
        f"(${scalar_tex(p.scores[k] * p.penalty)}$), which makes repeating it more likely, not "
        f"less. {_right_sentence(p)}"
    )


def _negative_explain(p: PenaltyProblem, d: Diagnosis) -> str:
    ks = tuple(k for k in range(len(p.pieces)) if p.seen(k) and p.scores[k] < 0)
    k = ks[0]
    theta = scalar_tex(p.penalty)
    return (
        f"{_names(p, ks)}: in the text with a negative score, so the score is multiplied by "
        f"$\\theta = {theta}$ (for *{p.pieces[k]}*, ${scalar_tex(p.scores[k])} \\cdot {theta} = "
        f"{scalar_tex(p.scores[k] * p.penalty)}$), which pushes it further down. You divided it "
        f"(${scalar_tex(p.scores[k] / p.penalty)}$), which raises a negative score: the rule "
        f"for negative scores is the other way round. {_right_sentence(p)}"
    )


def _temperature_explain(p: PenaltyProblem, d: Diagnosis) -> str:
    t = scalar_tex(p.temperature)
    return (
        f"You multiplied the penalised scores by the temperature $T = {t}$; the softmax takes "
        f"them divided by it, $z'_v / {t}$. "
        + (
            "A temperature below 1 sharpens the probabilities towards the top piece. "
            if p.temperature < 1
            else "A temperature above 1 flattens the probabilities. "
        )
        + _right_sentence(p)
    )


def _skipped_explain(p: PenaltyProblem, d: Diagnosis) -> str:
    seen = tuple(k for k in range(len(p.pieces)) if p.seen(k) and p.scores[k] != 0)
    return (
        f"You took the softmax of the scores as given, without the penalty: {_names(p, seen)} "
        f"{'is' if len(seen) == 1 else 'are'} already in the text, so "
        f"{'its score changes' if len(seen) == 1 else 'their scores change'} first. "
        f"{_right_sentence(p)}"
    )


@register
class RepetitionPenalty(Kind):
    name = "repetition_penalty"
    label = "Probabilities after a repetition penalty"
    mistakes = (
        MistakeDef(
            code="penalised_every_piece",
            number=1,
            label="penalised every piece, not only those in the text",
            parts="[k...]: the pieces whose score changed wrongly; [] for all",
            variants=_rule_variants("penalised_every_piece", "every"),
            apply=_rule_apply("every"),
            explain=_every_explain,
        ),
        MistakeDef(
            code="multiplied_positive",
            number=2,
            label="multiplied positive scores by the penalty",
            parts="[k...]: the seen pieces with positive scores",
            variants=_rule_variants("multiplied_positive", "multiply_positive"),
            apply=_rule_apply("multiply_positive"),
            explain=_multiplied_explain,
        ),
        MistakeDef(
            code="divided_negative",
            number=3,
            label="divided negative scores by the penalty",
            parts="[k...]: the seen pieces with negative scores",
            variants=_rule_variants("divided_negative", "divide_negative"),
            apply=_rule_apply("divide_negative"),
            explain=_negative_explain,
        ),
        MistakeDef(
            code="multiplied_temperature",
            number=4,
            label="multiplied by the temperature instead of dividing",
            variants=_temperature_variants,
            apply=_rule_apply("right", times_t=True),
            explain=_temperature_explain,
        ),
        MistakeDef(
            code="skipped_penalty",
            number=5,
            label="left the penalty out",
            parts="[k...]: the seen pieces whose score the penalty changes",
            variants=_rule_variants("skipped_penalty", "none"),
            apply=_rule_apply("none"),
            explain=_skipped_explain,
        ),
    )

    def load(self, spec: dict[str, Any]) -> PenaltyProblem:
        pieces = read_pieces(spec)
        raw = spec.get("scores")
        if not isinstance(raw, list) or len(raw) != len(pieces):
            raise SpecError("scores", f"must be a list of {len(pieces)} scores, one per piece")
        scores = tuple(number(x, f"scores[{k}]") for k, x in enumerate(raw))
        for k, z in enumerate(scores):
            if abs(z) > MAX_SCORE or z.denominator > MAX_DENOMINATOR:
                raise SpecError(
                    f"scores[{k}]",
                    f"must stay within ±{MAX_SCORE} with a denominator up to {MAX_DENOMINATOR}",
                )
        text = strings(spec, "text", low=1, high=MAX_TEXT)
        penalty = number(spec.get("penalty", ""), "penalty")
        if not 1 < penalty <= MAX_FACTOR or penalty.denominator > MAX_DENOMINATOR:
            raise SpecError("penalty", f"must be above 1 and at most {MAX_FACTOR}, is {penalty}")
        temperature = number(spec.get("temperature", ""), "temperature")
        if not Fraction(1, MAX_FACTOR) <= temperature <= MAX_FACTOR:
            raise SpecError(
                "temperature", f"must be between 1/{MAX_FACTOR} and {MAX_FACTOR}, is {temperature}"
            )
        problem = PenaltyProblem(pieces, scores, text, penalty, temperature)
        exponents = tuple(z / temperature for z in penalised(problem))
        if top(exponents) is None:
            raise SpecError("scores", "two pieces tie for the top after the penalty")
        return problem

    def normal(self, problem: PenaltyProblem) -> dict[str, Any]:
        return {
            "pieces": list(problem.pieces),
            "scores": [str(z) for z in problem.scores],
            "text": list(problem.text),
            "penalty": str(problem.penalty),
            "temperature": str(problem.temperature),
        }

    def shape(self, problem: PenaltyProblem) -> Shape:
        return TupleShape(
            (Vector(len(problem.pieces)), Choice(problem.pieces)),
            ("the probabilities", "the new top piece"),
        )

    def right(self, problem: PenaltyProblem) -> Any:
        return answer_for(problem)

    def size(self, problem: PenaltyProblem) -> int:
        return len(problem.pieces)

    def steps(self, problem: PenaltyProblem) -> tuple[Step, ...]:
        theta, temp = problem.penalty, problem.temperature
        th, tt = scalar_tex(theta), scalar_tex(temp)
        lines = []
        new = []
        for piece, z in zip(problem.pieces, problem.scores, strict=True):
            zt = scalar_tex(z)
            if piece not in problem.text:
                new.append(z)
                lines.append(f"*{piece}* is not in the text: ${zt}$ stays")
            elif z > 0:
                new.append(z / theta)
                lines.append(f"*{piece}* is seen: ${zt} / {th} = {scalar_tex(z / theta)}$")
            elif z < 0:
                new.append(z * theta)
                lines.append(f"*{piece}* is seen: ${zt} \\cdot {th} = {scalar_tex(z * theta)}$")
            else:
                new.append(z)
                lines.append(f"*{piece}* is seen, but $0$ stays $0$")
        exponents = tuple(z / temp for z in new)
        powers = [sympy.exp(sympy.Rational(a.numerator, a.denominator)) for a in exponents]
        total = sympy.Add(*powers)
        probabilities = tuple(power / total for power in powers)
        best = max(range(len(exponents)), key=exponents.__getitem__)
        shares = ", ".join(
            f"*{piece}* $\\approx {float(x):.3f}$"
            for piece, x in zip(problem.pieces, probabilities, strict=True)
        )
        scaled = ", ".join(f"{scalar_tex(a)}" for a in exponents)
        return (
            Step(
                f"Penalise with $\\theta = {th}$ (divide a seen piece's positive score, "
                "multiply its negative one): " + "; ".join(lines) + "."
            ),
            Step(f"Divide every score by the temperature $T = {tt}$: $({scaled})$."),
            Step(
                "Softmax: $p_v = e^{z'_v/T} / Z$ with "
                f"$Z = {' + '.join(f'e^{{{scalar_tex(a)}}}' for a in exponents)}$, so "
                f"{shares}. The highest is *{problem.pieces[best]}*.",
                (probabilities, problem.pieces[best]),
            ),
        )

    def hint(self, problem: PenaltyProblem) -> str:
        return (
            "First penalise: for each piece already in the text, divide a positive score by "
            "θ and multiply a negative one by θ; leave the other pieces alone. Then divide "
            "every score by the temperature, take exp of each, and divide each by their sum."
        )
