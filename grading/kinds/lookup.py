"""`lookup`: the starting row of a token, `E[id(tokens[position])]`.

Spec fields: `vocab` (distinct tokens; a token's id is its index), `table` (one row per vocab
entry), `tokens` (the sentence, every token in vocab), `position`. The answer is a vector.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..exact import floats
from ..shapes import Shape, Vector
from ..spec import (
    MAX_POSITIONS,
    MAX_VOCAB,
    SpecError,
    position,
    rows,
    rows_out,
    same_length,
    strings,
)
from ..tex import vector_tex
from ..verdict import Diagnosis
from .base import (
    Form,
    Gap,
    Kind,
    MistakeDef,
    Numbered,
    Step,
    Variant,
    gettext_noop,
    register,
    variant,
)

SAME_ROW_POINT = (
    "The lookup consults the id alone: the same id gives the same row in either sentence."
)


@dataclass(frozen=True, eq=False)
class LookupProblem:
    vocab: tuple[str, ...]
    table: tuple[tuple[Fraction, ...], ...]
    tokens: tuple[str, ...]
    position: int

    def token_id(self, position: int) -> int:
        """Return the vocabulary id of the token at `position`."""
        return self.vocab.index(self.tokens[position])


def _answer(p: LookupProblem) -> str:
    i = p.position
    right = p.token_id(i)
    return (
        f"The word at position {i} is *{p.tokens[i]}*, whose id is {right}, so its row "
        f"is $E[{right}] = {vector_tex(p.table[right])}$."
    )


def _explain(did: str):
    def explain(p: LookupProblem, d: Diagnosis) -> str:
        i = p.position
        right = p.token_id(i)
        used = int(d.detail.get("row", -1))
        answer = f"$E[{right}] = {vector_tex(p.table[right])}$"
        text = did.format(used=used, token=d.detail.get("token", ""))
        return (
            f"{text} The word at position {i} is *{p.tokens[i]}*, whose id is {right}, so its "
            f"row is {answer}. {SAME_ROW_POINT}"
        )

    return explain


def _table_row_form(p: LookupProblem, d: Any) -> Form:
    return (0, ((Fraction(1), p.table[int(d.detail["row"])]),))


def _row_by_position_variants(p: LookupProblem) -> list[Variant]:
    if p.position >= len(p.table):
        return []
    return [variant("row_by_position", detail={"row": p.position})]


def _off_by_one_variants(p: LookupProblem) -> list[Variant]:
    right = p.token_id(p.position)
    return [
        variant("off_by_one_row", detail={"row": row})
        for row in (right - 1, right + 1)
        if 0 <= row < len(p.table)
    ]


def _other_token_variants(p: LookupProblem) -> list[Variant]:
    right = p.token_id(p.position)
    out: list[Variant] = []
    seen = {right}
    for at, token in enumerate(p.tokens):
        row = p.vocab.index(token)
        if row not in seen:
            seen.add(row)
            out.append(
                variant("other_token_row", detail={"row": row, "position": at, "token": token})
            )
    return out


def _table_row_solve(variants: Any) -> Any:
    """Return the solver of a mistake whose form is one row of the table: its variants whose
    row is the learner's answer (floats first, then exactly; only the rows the variants name
    are read, each once per answer)."""

    def solve(p: LookupProblem, gap: Gap) -> list[Variant]:
        same: dict[int, bool] = gap.memo.setdefault("rows", {})
        out = []
        for v in variants(p):
            r = int(v.detail["row"])
            found = same.get(r)
            if found is None:
                row = p.table[r]
                found = same[r] = floats(row) == gap.answer_approx and row == gap.answer
            if found:
                out.append(v)
        return out

    return solve


@register
class Lookup(Kind):
    name = "lookup"
    label = gettext_noop("Look up a row")
    # What its sentences number: sentence positions from 0, as the subscripts.
    numbering = {"position": Numbered(lambda p: len(p.tokens), first=0)}
    mistakes = (
        MistakeDef(
            code="row_by_position",
            number=7,
            label=gettext_noop("took the row numbered by the position, not the token's id"),
            parts="[]",
            variants=_row_by_position_variants,
            form=_table_row_form,
            solve=_table_row_solve(_row_by_position_variants),
            explain=_explain(
                "You seem to have taken row {used} of the table, the row numbered by the position."
            ),
            describe=lambda p, d: (
                f"taking the row numbered by the position (row {d.detail.get('row')})"
            ),
        ),
        MistakeDef(
            code="off_by_one_row",
            number=8,
            label=gettext_noop("took the row next to the right one"),
            parts="[]",
            variants=_off_by_one_variants,
            form=_table_row_form,
            solve=_table_row_solve(_off_by_one_variants),
            explain=_explain(
                "You seem to have taken row {used} of the table, next to the right one."
            ),
            describe=lambda p, d: (
                f"taking the row next to the right one (row {d.detail.get('row')})"
            ),
        ),
        MistakeDef(
            code="other_token_row",
            number=9,
            label=gettext_noop("took the row of another token in the sentence"),
            parts="[]",
            variants=_other_token_variants,
            form=_table_row_form,
            solve=_table_row_solve(_other_token_variants),
            explain=_explain(
                "You seem to have taken the row of *{token}* (id {used}), another token of the "
                "sentence."
            ),
            describe=lambda p, d: (
                f"taking the row of *{d.detail.get('token')}*, another token "
                f"(row {d.detail.get('row')})"
            ),
        ),
    )

    def load(self, spec: dict[str, Any]) -> LookupProblem:
        vocab = strings(spec, "vocab", low=1, high=MAX_VOCAB)
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "has a repeated entry")
        table = rows(spec, "table", low=1, high=MAX_VOCAB)
        same_length("table", table, "vocab", len(vocab))
        tokens = strings(spec, "tokens", low=1, high=MAX_POSITIONS)
        for index, token in enumerate(tokens):
            if token not in vocab:
                raise SpecError(f"tokens[{index}]", f"{token!r} is not in vocab")
        return LookupProblem(vocab, table, tokens, position(spec, len(tokens)))

    def normal(self, problem: LookupProblem) -> dict[str, Any]:
        return {
            "vocab": list(problem.vocab),
            "table": rows_out(problem.table),
            "tokens": list(problem.tokens),
            "position": problem.position,
        }

    def shape(self, problem: LookupProblem) -> Shape:
        return Vector(len(problem.table[0]))

    def right(self, problem: LookupProblem) -> tuple[Fraction, ...]:
        return problem.table[problem.token_id(problem.position)]

    def size(self, problem: LookupProblem) -> int:
        return len(problem.tokens)

    def steps(self, problem: LookupProblem) -> tuple[Step, ...]:
        i = problem.position
        word = problem.tokens[i]
        row_id = problem.vocab.index(word)
        row = problem.table[row_id]
        return (
            Step(f"The word at position {i} (counting from 0) is *{word}*."),
            Step(f"*{word}* is entry {row_id} of the vocabulary, so its id is {row_id}."),
            Step(
                f"The id picks the row of the table: $E[{row_id}] = {vector_tex(row)}$. "
                "The position plays no part.",
                row,
            ),
        )

    def hint(self, problem: LookupProblem) -> str:
        return "Find the token's id in the vocabulary, then take that row of the table."

    def ambiguity_note(self, problem: LookupProblem) -> str:
        return _answer(problem)
