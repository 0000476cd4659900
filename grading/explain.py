"""Explanations a learner can act on: name the term by position and token, say what the
learner seems to have done, and show what that term should have been, in TeX.

Positions are 0-based, as in the problem statement and the spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from .compare import Scalar, approx, as_fraction, to_sympy
from .kinds import MistakeCode, ProblemKind
from .mistakes import Vector, combine, expected_cached, scores, term_weights
from .spec import Problem
from .tex import scalar_tex, term_tex, vector_tex
from .verdict import Diagnosis

M = MistakeCode
SELF_POINT = (
    "The sum $\\mathbf{{h}}_i = \\sum_j w_{{ij}}\\,\\mathbf{{x}}_j$ includes $j = i$: the word's "
    "own row is one of the terms, with weight ${w}$."
)
SAME_ROW_POINT = (
    "The lookup consults the id alone: the same id gives the same row in either sentence."
)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(index: int) -> str:
    """Return 'first', 'second', ... for a 0-based coordinate index."""
    return _ORDINALS[index] if index < len(_ORDINALS) else f"number {index + 1}"


def term_name(problem: Problem, k: int) -> str:
    """Return 'the term for position 2, *river*' (with both tokens for contrast problems)."""
    if problem.kind == ProblemKind.CONTRAST:
        if problem.tokens_a:
            a, b = problem.tokens_a[k], problem.tokens_b[k]
            words = f"*{a}* in both sentences" if a == b else f"*{a}* in A, *{b}* in B"
            return f"the term for position {k} ({words})"
        return f"the term for position {k}"
    if problem.tokens:
        return f"the term for position {k}, *{problem.tokens[k]}*"
    return f"the term for position {k}"


def _row_name(problem: Problem, r: int) -> str:
    if problem.tokens:
        return f"the row at position {r}, *{problem.tokens[r]}*"
    return f"the row at position {r}"


def _weight(problem: Problem, k: int) -> Scalar:
    return term_weights(problem)[k]


def _right_term(problem: Problem, k: int) -> str:
    weight = _weight(problem, k)
    row = problem.rows[k]
    if all(isinstance(w, Fraction) for w in (weight, *row)):
        product: tuple[Scalar, ...] = tuple(weight * x for x in row)
    else:
        product = tuple(to_sympy(weight) * to_sympy(x) for x in row)
    return f"${term_tex(weight, row)} = {vector_tex(product)}$"


def _diff_tex(a: Vector, b: Vector) -> Vector:
    return tuple(
        x - y if isinstance(x, Fraction) and isinstance(y, Fraction) else to_sympy(x) - to_sympy(y)
        for x, y in zip(a, b, strict=True)
    )


def describe(problem: Problem, diagnosis: Diagnosis) -> str:
    """Return a short phrase for a diagnosis, for listing ambiguous matches."""
    code, terms, detail = diagnosis.mistake, diagnosis.terms, diagnosis.detail
    if code == M.OMITTED_TERM:
        return f"leaving out {term_name(problem, terms[0])}"
    if code == M.WRONG_WEIGHT:
        weight = scalar_tex(Fraction(detail["weight"]))
        return f"using the weight ${weight}$ in {term_name(problem, terms[0])}"
    if code == M.WRONG_ROW and "row" in detail:
        return f"using {_row_name(problem, int(detail['row']))} in {term_name(problem, terms[0])}"
    if code == M.SWAPPED_WEIGHTS:
        first, second = term_name(problem, terms[0]), term_name(problem, terms[1])
        return f"exchanging the weights of {first}, and {second}"
    if code == M.FORGOT_WEIGHT:
        return f"leaving the weight out of {term_name(problem, terms[0])}"
    if code == M.ROW_BY_POSITION:
        return f"taking the row numbered by the position (row {detail.get('row')})"
    if code == M.OFF_BY_ONE_ROW:
        return f"taking the row next to the right one (row {detail.get('row')})"
    if code == M.OTHER_TOKEN_ROW:
        return f"taking the row of *{detail.get('token')}*, another token (row {detail.get('row')})"
    if code == M.ANSWERED_ONE_SIDE:
        return f"giving $\\mathbf{{h}}_i^{detail.get('side', 'b').upper()}$ alone"
    return code.value.replace("_", " ")


@lru_cache(maxsize=2048)
def explain(problem: Problem, diagnosis: Diagnosis) -> str:
    """Return the explanation of one diagnosed mistake, naming the term and its right form.

    Cached: it depends on the problem and the diagnosis only, and both repeat.
    """
    code, terms, detail = diagnosis.mistake, diagnosis.terms, diagnosis.detail
    i = problem.position
    if code == M.OMITTED_TERM:
        (k,) = terms
        text = (
            f"Your answer leaves out {term_name(problem, k)}: it is the sum without that term. "
            f"That term is {_right_term(problem, k)}."
        )
        if k == i:
            text += " " + SELF_POINT.format(w=scalar_tex(_weight(problem, i)))
        return text
    if code == M.WRONG_WEIGHT:
        (k,) = terms
        used = Fraction(detail["weight"])
        where = "1, as if the row had no weight"
        if used != 1:
            owners = [j for j, w in enumerate(problem.weights) if w == used and j != k]
            where = f"${scalar_tex(used)}$" + (
                f", the weight of {term_name(problem, owners[0])}" if owners else ""
            )
        return (
            f"In {term_name(problem, k)}, you seem to have used the weight {where}. Its weight "
            f"is ${scalar_tex(_weight(problem, k))}$, so the term should be "
            f"{_right_term(problem, k)}."
        )
    if code == M.WRONG_ROW:
        (k,) = terms
        if "row" in detail:
            row = int(detail["row"])
            used = f"{_row_name(problem, row)}, ${vector_tex(problem.rows[row])}$"
        else:
            vector = [Fraction(x) for x in detail.get("vector", ())]
            used = f"the row ${vector_tex(vector)}$" if vector else "a different row"
        return (
            f"In {term_name(problem, k)}, you seem to have used {used}, instead of its own "
            f"row ${vector_tex(problem.rows[k])}$. The term should be {_right_term(problem, k)}."
        )
    if code == M.SWAPPED_WEIGHTS:
        a, b = terms
        return (
            f"You seem to have exchanged the weights of {term_name(problem, a)}, and "
            f"{term_name(problem, b)}. Each weight belongs to its own row: the terms should be "
            f"{_right_term(problem, a)} and {_right_term(problem, b)}."
        )
    if code == M.UNWEIGHTED_SUM:
        return (
            "You seem to have added the rows without their weights. Each row is multiplied by "
            f"its weight first: $\\mathbf{{h}}_i = {_sum_tex(problem)}$."
        )
    if code == M.PLAIN_AVERAGE:
        n = len(problem.rows)
        return (
            f"You seem to have averaged the rows, each with weight $\\frac{{1}}{{{n}}}$. The "
            f"weights are the problem's own, not equal: $\\mathbf{{h}}_i = {_sum_tex(problem)}$."
        )
    if code in (M.ROW_BY_POSITION, M.OFF_BY_ONE_ROW, M.OTHER_TOKEN_ROW):
        return _explain_lookup(problem, diagnosis)
    if code in (M.FORGOT_WEIGHT, M.REVERSED_DIFFERENCE, M.ANSWERED_ONE_SIDE):
        return _explain_contrast(problem, diagnosis)
    return _explain_content(problem, diagnosis)


def _sum_tex(problem: Problem) -> str:
    weights = term_weights(problem)
    parts = " + ".join(term_tex(w, x) for w, x in zip(weights, problem.rows, strict=True))
    return f"{parts} = {vector_tex(combine(weights, problem.rows))}"


def lookup_answer(problem: Problem) -> str:
    """Return the sentence giving a lookup's right row and why."""
    i = problem.position
    right = problem.token_id(i)
    return (
        f"The word at position {i} is *{problem.tokens[i]}*, whose id is {right}, so its row "
        f"is $E[{right}] = {vector_tex(problem.table[right])}$."
    )


def _explain_lookup(problem: Problem, diagnosis: Diagnosis) -> str:
    i = problem.position
    token = problem.tokens[i]
    right = problem.token_id(i)
    used = int(diagnosis.detail.get("row", -1))
    answer = f"$E[{right}] = {vector_tex(problem.table[right])}$"
    if diagnosis.mistake == M.ROW_BY_POSITION:
        did = f"You seem to have taken row {used} of the table, the row numbered by the position."
    elif diagnosis.mistake == M.OFF_BY_ONE_ROW:
        did = f"You seem to have taken row {used} of the table, next to the right one."
    else:
        other = diagnosis.detail.get("token", "")
        did = (
            f"You seem to have taken the row of *{other}* (id {used}), another token of the "
            "sentence."
        )
    return (
        f"{did} The word at position {i} is *{token}*, whose id is {right}, so its row is "
        f"{answer}. {SAME_ROW_POINT}"
    )


def _explain_contrast(problem: Problem, diagnosis: Diagnosis) -> str:
    weights = problem.weights
    # the right answer of a contrast problem is h^B - h^A itself
    answer = f"$\\mathbf{{h}}_i^B - \\mathbf{{h}}_i^A = {vector_tex(expected_cached(problem))}$"
    code = diagnosis.mistake
    if code == M.FORGOT_WEIGHT:
        (k,) = diagnosis.terms
        diff = _diff_tex(problem.rows_b[k], problem.rows_a[k])
        right = tuple(weights[k] * x for x in diff)
        return (
            f"In {term_name(problem, k)}, you seem to have used "
            f"$\\mathbf{{x}}_{k}^B - \\mathbf{{x}}_{k}^A = {vector_tex(diff)}$ without its "
            f"weight ${scalar_tex(weights[k])}$. The term should be "
            f"${scalar_tex(weights[k])}\\,{vector_tex(diff)} = {vector_tex(right)}$, "
            f"so {answer}."
        )
    if code == M.REVERSED_DIFFERENCE:
        return (
            "You seem to have computed $\\mathbf{h}_i^A - \\mathbf{h}_i^B$: every sign is "
            f"flipped. The question asks for sentence B minus sentence A: {answer}."
        )
    side = str(diagnosis.detail.get("side", "b")).upper()
    return (
        f"You seem to have given $\\mathbf{{h}}_i^{side}$ alone. The question asks for the "
        f"difference, {answer}. {SAME_ROW_POINT} Only the rows around it differ, so only "
        "those terms survive the difference."
    )


def _exp_weights_tex(problem: Problem) -> str:
    s = scores(problem)
    listed = ", ".join(scalar_tex(x) for x in s)
    i = problem.position
    return f"the scores $s_{{{i}j}} = \\mathbf{{x}}_{i}\\cdot\\mathbf{{x}}_j$ are $({listed})$"


def _explain_content(problem: Problem, diagnosis: Diagnosis) -> str:
    i = problem.position
    formula = f"$w_{{{i}j}} = e^{{s_{{{i}j}}}} / \\sum_k e^{{s_{{{i}k}}}}$, which add to 1"
    code = diagnosis.mistake
    answer = f"$\\mathbf{{h}}_{i} = {vector_tex(expected_cached(problem))}$"
    if code == M.UNNORMALISED_WEIGHTS:
        did = (
            f"You seem to have used $e^{{s_{{{i}j}}}}$ as the weights without dividing by their "
            f"sum."
        )
    elif code == M.POSITIONAL_WEIGHTS:
        did = (
            "You seem to have weighted the positions by their distance, "
            f"$\\mathrm{{softmax}}_j(-|{i}-j|)$. The weights come from the content, not the "
            "position."
        )
    elif code == M.OMITTED_SELF_SCORE:
        did = (
            f"You seem to have left the self score $s_{{{i}{i}}}$ out of the softmax and the "
            "sum. " + SELF_POINT.format(w=scalar_tex(term_weights(problem)[i]))
        )
    else:
        did = (
            f"You seem to have used the scores $s_{{{i}j}}$ themselves as weights; the weights "
            "are their softmax."
        )
    return f"{did} Here {_exp_weights_tex(problem)}, the weights are {formula}, and {answer}."


def coordinate_offsets(answer: Sequence[Scalar], expected: Sequence[Scalar]) -> str:
    """Return a sentence saying which coordinates are off and by how much."""
    parts = []
    for d, (got, want) in enumerate(zip(answer, expected, strict=True)):
        got_fraction, want_fraction = as_fraction(got), as_fraction(want)
        if got_fraction is not None and want_fraction is not None:
            diff = got_fraction - want_fraction
            if diff == 0:
                continue
            sign = "+" if diff > 0 else ""
            parts.append(f"the {ordinal(d)} coordinate is off by ${sign}{scalar_tex(diff)}$")
        else:
            off = float(approx(got) - approx(want))
            if abs(off) < 1e-12:
                continue
            parts.append(f"the {ordinal(d)} coordinate is off by about ${off:+.4g}$")
    if not parts:
        return "Your vector is not the answer."
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"No common mistake explains this answer: {listed}."
