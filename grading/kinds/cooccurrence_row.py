"""`cooccurrence_row`: a word's co-occurrence counts over a listed context vocabulary.

Spec fields: `sentences` (1 to 8 sentences, each a list of 1 to 16 tokens), `word` (the target,
in some sentence), `context` (1 to 10 distinct words: the columns of the row; it may hold the
target itself) and `window` (1 to 5). For every occurrence of the target, every other position
at most `window` tokens before or after it, within the same sentence, counts its token (when
the token is in the context list). The answer is the integer sequence of counts, one per
context word, in the listed order.

Mistakes: window one wider or one narrower than stated; counted the occurrence itself as its
own context; counted one side only (terms [0] before, [1] after); counted each context word
once per sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..shapes import IntegerSequence, Shape
from ..spec import SpecError, list_field, strings
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

MAX_SENTENCES = 8
MAX_TOKENS = 16
MAX_CONTEXT = 10
MAX_WINDOW = 5

# (sentence, occurrence position, counted position)
Hit = tuple[int, int, int]


@dataclass(frozen=True)
class CooccurrenceProblem:
    sentences: tuple[tuple[str, ...], ...]
    word: str
    context: tuple[str, ...]
    window: int


def hits(
    p: CooccurrenceProblem,
    window: int | None = None,
    *,
    before: bool = True,
    after: bool = True,
    itself: bool = False,
) -> list[Hit]:
    """Return every counted (sentence, occurrence, position) whose token is a context word."""
    reach = p.window if window is None else window
    out = []
    for s, tokens in enumerate(p.sentences):
        for i, token in enumerate(tokens):
            if token != p.word:
                continue
            for j in range(max(0, i - reach), min(len(tokens), i + reach + 1)):
                if (j == i and not itself) or (j < i and not before) or (j > i and not after):
                    continue
                if tokens[j] in p.context:
                    out.append((s, i, j))
    return out


def counts(p: CooccurrenceProblem, found: list[Hit]) -> tuple[int, ...]:
    """Return the count of each context word among the hits."""
    totals = dict.fromkeys(p.context, 0)
    for s, _, j in found:
        totals[p.sentences[s][j]] += 1
    return tuple(totals[w] for w in p.context)


def once_per_sentence(p: CooccurrenceProblem) -> tuple[int, ...]:
    """Return the counts when each context word counts at most once per sentence."""
    present = {(s, p.sentences[s][j]) for s, _, j in hits(p)}
    return tuple(sum(1 for _, w in present if w == word) for word in p.context)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _occurrence(p: CooccurrenceProblem, s: int, i: int) -> str:
    """Return "the *tea*" or "the second *tea*" for the occurrence at position i of sentence s."""
    positions = [k for k, token in enumerate(p.sentences[s]) if token == p.word]
    if len(positions) == 1:
        return f"the *{p.word}*"
    n = positions.index(i)
    return f"the {_ORDINALS[n] if n < len(_ORDINALS) else f'number {n + 1}'} *{p.word}*"


def _where(p: CooccurrenceProblem, hit: Hit, *, sentence: bool = True) -> str:
    s, i, j = hit
    distance = abs(j - i)
    side = "before" if j < i else "after"
    token = p.sentences[s][j]
    place = f"in sentence {s + 1}, " if sentence else ""
    if distance == 0:
        return f"{place}{_occurrence(p, s, i)} itself"
    return (
        f"{place}*{token}* {distance} "
        f"word{'s' if distance != 1 else ''} {side} {_occurrence(p, s, i)}"
    )


def _right_sentence(p: CooccurrenceProblem) -> str:
    right = counts(p, hits(p))
    listed = ", ".join(f"*{w}* {c}" for w, c in zip(p.context, right, strict=True))
    return f"The right counts are {listed}."


def _window_variants(code: str, shift: int) -> Callable[[CooccurrenceProblem], list[Variant]]:
    def variants(p: CooccurrenceProblem) -> list[Variant]:
        window = p.window + shift
        if window < 1:
            return []
        return [variant(code, (), {"window": window})]

    return variants


def _window_apply(p: CooccurrenceProblem, d: Any) -> tuple[int, ...]:
    return counts(p, hits(p, int(d.detail["window"])))


def _window_explain(p: CooccurrenceProblem, d: Diagnosis) -> str:
    used = int(d.detail["window"])
    right = set(hits(p))
    wrong = set(hits(p, used))
    if used > p.window:
        example = min(wrong - right)
        what = f"You counted words {used} places away, for example {_where(p, example)}"
    else:
        example = min(right - wrong)
        what = f"You left out words {p.window} places away, for example {_where(p, example)}"
    return (
        f"{what}: your counts match a window of {used}. The window here is {p.window}: words "
        f"at most {p.window} place{'s' if p.window != 1 else ''} before or after each "
        f"*{p.word}* count, no further. {_right_sentence(p)}"
    )


def _itself_explain(p: CooccurrenceProblem, d: Diagnosis) -> str:
    extra = sorted(set(hits(p, itself=True)) - set(hits(p)))
    return (
        f"You counted each *{p.word}* as its own neighbour ({len(extra)} time"
        f"{'s' if len(extra) != 1 else ''}, once per occurrence). An occurrence is not part of "
        f"its own context; another *{p.word}* inside the window does count. "
        f"{_right_sentence(p)}"
    )


def _side_variants(p: CooccurrenceProblem) -> list[Variant]:
    return [variant("one_side_only", (0,)), variant("one_side_only", (1,))]


def _side_apply(p: CooccurrenceProblem, d: Any) -> tuple[int, ...]:
    (side,) = d.terms
    return counts(p, hits(p, before=side == 0, after=side == 1))


def _side_explain(p: CooccurrenceProblem, d: Diagnosis) -> str:
    (side,) = d.terms
    counted, missed = ("before", "after") if side == 0 else ("after", "before")
    left_out = sorted(set(hits(p)) - set(hits(p, before=side == 0, after=side == 1)))
    example = f" ({_where(p, left_out[0])})" if left_out else ""
    return (
        f"You counted only the words {counted} each *{p.word}*; the words {missed} it count as "
        f"well{example}. The window reaches {p.window} place{'s' if p.window != 1 else ''} on "
        f"both sides. {_right_sentence(p)}"
    )


def _once_explain(p: CooccurrenceProblem, d: Diagnosis) -> str:
    seen: dict[tuple[int, str], list[Hit]] = {}
    for hit in hits(p):
        seen.setdefault((hit[0], p.sentences[hit[0]][hit[2]]), []).append(hit)
    repeated = next(group for group in seen.values() if len(group) > 1)
    s, token = repeated[0][0], p.sentences[repeated[0][0]][repeated[0][2]]
    return (
        f"You counted each word at most once per sentence. In sentence {s + 1}, *{token}* is in "
        f"a window of *{p.word}* {len(repeated)} times "
        f"({'; '.join(_where(p, h, sentence=False) for h in repeated)}), and each time counts: "
        "the row adds up "
        f"every time the two words are near each other. {_right_sentence(p)}"
    )


@register
class CooccurrenceRow(Kind):
    name = "cooccurrence_row"
    label = "Co-occurrence counts of a word"
    # What its sentences number: positions within a sentence from 1.
    numbering = {"position": Numbered(lambda p: max(map(len, p.sentences)))}
    mistakes = (
        MistakeDef(
            code="window_too_wide",
            number=1,
            label="used a window one wider than stated",
            variants=_window_variants("window_too_wide", 1),
            apply=_window_apply,
            explain=_window_explain,
        ),
        MistakeDef(
            code="window_too_narrow",
            number=2,
            label="used a window one narrower than stated",
            variants=_window_variants("window_too_narrow", -1),
            apply=_window_apply,
            explain=_window_explain,
        ),
        MistakeDef(
            code="counted_word_itself",
            number=3,
            label="counted the word itself",
            apply=lambda p, d: counts(p, hits(p, itself=True)),
            explain=_itself_explain,
        ),
        MistakeDef(
            code="one_side_only",
            number=4,
            label="counted one side only",
            parts="[0]: only the words before; [1]: only the words after",
            variants=_side_variants,
            apply=_side_apply,
            explain=_side_explain,
        ),
        MistakeDef(
            code="once_per_sentence",
            number=5,
            label="counted each word once per sentence",
            apply=lambda p, d: once_per_sentence(p),
            explain=_once_explain,
        ),
    )

    def load(self, spec: dict[str, Any]) -> CooccurrenceProblem:
        raw = list_field(spec, "sentences", low=1, high=MAX_SENTENCES)
        sentences = []
        for s, tokens in enumerate(raw):
            field = f"sentences[{s}]"
            sentences.append(strings({field: tokens}, field, low=1, high=MAX_TOKENS))
        word = spec.get("word")
        if not isinstance(word, str) or not any(word in tokens for tokens in sentences):
            raise SpecError("word", "is required and must occur in some sentence")
        context = strings(spec, "context", low=1, high=MAX_CONTEXT)
        if len(set(context)) != len(context):
            raise SpecError("context", "has a repeated word")
        window = spec.get("window")
        if isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= MAX_WINDOW:
            raise SpecError(
                "window", f"is required and must be a whole number from 1 to {MAX_WINDOW}"
            )
        return CooccurrenceProblem(tuple(sentences), word, context, window)

    def normal(self, problem: CooccurrenceProblem) -> dict[str, Any]:
        return {
            "sentences": [list(s) for s in problem.sentences],
            "word": problem.word,
            "context": list(problem.context),
            "window": problem.window,
        }

    def shape(self, problem: CooccurrenceProblem) -> Shape:
        n = len(problem.context)
        return IntegerSequence(n, min_len=n)

    def right(self, problem: CooccurrenceProblem) -> tuple[int, ...]:
        return counts(problem, hits(problem))

    def size(self, problem: CooccurrenceProblem) -> int:
        return 2

    def steps(self, problem: CooccurrenceProblem) -> tuple[Step, ...]:
        reach, word = problem.window, problem.word
        totals = dict.fromkeys(problem.context, 0)
        steps = [
            Step(
                f"For every *{word}*, look at most {reach} "
                f"{'word' if reach == 1 else 'words'} to the left and to the right, within "
                "its sentence, and tally the context words seen there (not the occurrence "
                "itself)."
            )
        ]
        for s, tokens in enumerate(problem.sentences):
            for i, token in enumerate(tokens):
                if token != word:
                    continue
                seen = [
                    tokens[j]
                    for j in range(max(0, i - reach), min(len(tokens), i + reach + 1))
                    if j != i
                ]
                counted = [t for t in seen if t in totals]
                for t in counted:
                    totals[t] += 1
                window = " ".join(f"*{t}*" for t in seen) or "nothing"
                tally = ", ".join(f"*{t}*" for t in counted) or "no context word"
                steps.append(
                    Step(
                        f"Sentence {s + 1}, {_occurrence(problem, s, i)} at position {i + 1}: the "
                        f"window holds {window}; counted: {tally}."
                    )
                )
        row = tuple(totals[w] for w in problem.context)
        listed = ", ".join(f"*{w}* {n}" for w, n in zip(problem.context, row, strict=True))
        steps.append(Step(f"Add the tallies, in the context's order: {listed}.", row))
        return tuple(steps)

    def hint(self, problem: CooccurrenceProblem) -> str:
        return (
            f"Find every *{problem.word}*; around each, look {problem.window} words to the left "
            "and to the right (not past the sentence's end) and tally the context words you "
            "see. Add the tallies over all occurrences and sentences."
        )
