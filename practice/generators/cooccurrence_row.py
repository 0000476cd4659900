"""``cooccurrence_row``: count a word's neighbours within a window, over a listed vocabulary.

Sentences come from one topic's frames with the target in its slot. The context list always
holds the target itself (another occurrence inside the window counts; the occurrence itself
does not) and words of the sentences. Every accepted problem lets each catalogued mistake show:
a context word exactly one place past the window and one exactly at its edge, words on both
sides, a word near the target twice in one sentence.

Levels: 1, two sentences, window 2, four context words; 2, three sentences, window 2, four
words; 3, three sentences, window 2 or 3, five words; 4, four sentences, window 3, six words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.cooccurrence_row import CooccurrenceProblem, counts, hits

from .base import Draw, ProblemGenerator
from .draw import svg
from .statement import format_example, md_sentence, md_word
from .words.embedding import TOPICS, WORD


def _count_examples(n: int) -> tuple[str, ...]:
    """Return format examples of n counts: 0 1 2 0 ..., then shifted, then with a 3 in them."""
    return tuple(
        "[" + ", ".join(str((k + shift) % modulus) for k in range(n)) + "]"
        for modulus in (3, 4)
        for shift in range(modulus)
    )


@dataclass(frozen=True)
class CooccurrenceLevel:
    sentences: int
    windows: tuple[int, ...]
    context: int


LEVELS: dict[int, CooccurrenceLevel] = {
    1: CooccurrenceLevel(sentences=2, windows=(2,), context=4),
    2: CooccurrenceLevel(sentences=3, windows=(2,), context=4),
    3: CooccurrenceLevel(sentences=3, windows=(2, 3), context=5),
    4: CooccurrenceLevel(sentences=4, windows=(3,), context=6),
}


def problem_of(spec: dict) -> CooccurrenceProblem:
    """Return the grading kind's problem object for a generated spec (no validation)."""
    return CooccurrenceProblem(
        tuple(tuple(s) for s in spec["sentences"]),
        spec["word"],
        tuple(spec["context"]),
        spec["window"],
    )


class CooccurrenceRowGenerator(ProblemGenerator):
    kind: ClassVar[str] = "cooccurrence_row"
    name: ClassVar[str] = "cooccurrence_row"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 15
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = LEVELS[level]
        topic = draw.choice(TOPICS)
        word = draw.choice(topic.targets)
        # One frame with the target twice, so some word can sit near it twice in a sentence.
        frames = [
            draw.choice(topic.double),
            *draw.sample(topic.single + topic.double, spec_level.sentences - 1),
        ]
        if len(set(frames)) != len(frames):
            frames = []
        sentences = [[word if t == WORD else t for t in frame] for frame in frames]
        window = draw.choice(spec_level.windows)
        if not sentences:
            return {"sentences": sentences, "word": word, "context": [], "window": window}
        sentences = draw.shuffled(sentences)
        p = CooccurrenceProblem(
            tuple(tuple(s) for s in sentences),
            word,
            tuple({t for s in sentences for t in s}),
            window,
        )

        def words_of(found: list) -> set[str]:
            return {p.sentences[s][j] for s, _, j in found}

        right = hits(p)
        # Words that make each mistake show: counted twice in one sentence, just past the
        # window, at its edge.
        per_sentence: dict[tuple[int, str], int] = {}
        for s, _, j in right:
            key = (s, p.sentences[s][j])
            per_sentence[key] = per_sentence.get(key, 0) + 1
        twice = sorted({w for (_, w), n in per_sentence.items() if n > 1})
        past = sorted(words_of(hits(p, window + 1)) - words_of(right))
        edge = sorted({p.sentences[s][j] for s, i, j in right if abs(j - i) == window})
        context = [word]
        for pool in (twice, past, edge):
            fresh = [w for w in pool if w not in context]
            if pool and not set(pool) & set(context) and fresh:
                context.append(draw.choice(fresh))
        near = sorted(words_of(hits(p, window + 1)) - set(context))
        missing = spec_level.context - len(context)
        if missing < 0 or len(near) < missing:
            return {"sentences": sentences, "word": word, "context": [], "window": window}
        context += draw.sample(near, missing)
        return {
            "sentences": sentences,
            "word": word,
            "context": draw.shuffled(context),
            "window": window,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        if not spec["context"]:
            return False
        p = problem_of(spec)
        right = set(hits(p))
        # Words on both sides, and words at the window's edge and just past it.
        sides = {(j > i) for _, i, j in right}
        edge = any(abs(j - i) == p.window for _, i, j in right)
        past = any(abs(j - i) == p.window + 1 for _, i, j in hits(p, p.window + 1))
        return sides == {False, True} and edge and past

    def statement(self, spec: dict) -> str:
        word, window = spec["word"], spec["window"]
        lines = ["The sentences:", ""]
        for s, tokens in enumerate(spec["sentences"]):
            lines.append(f"{s + 1}. {md_sentence(tokens)}")
        context = ", ".join(md_word(w) for w in spec["context"])
        lines += [
            "",
            f"**Count** how often each of {context} occurs near {md_word(word)}: for every "
            f"occurrence of {md_word(word)}, look at the {window} words before it and the "
            f"{window} words after it, in the same sentence (the window is {window} on each "
            f"side: positions $j$ with $1 \\le |j - i| \\le {window}$ around an occurrence at "
            "$i$), and count each context word every time it appears there. An occurrence is "
            f"not its own context, but another {md_word(word)} inside the window counts. Add "
            "the counts over all occurrences and all sentences.",
            "",
            f"Answer with the counts in the order listed ({context}), for example "
            f"`{format_example(spec, _count_examples(len(spec['context'])))}`.",
        ]
        return "\n".join(lines)

    def picture(
        self, spec: dict, answer: Any = None, *, solution: bool | None = None
    ) -> str | None:
        show = answer is not None if solution is None else solution
        return windows_picture(spec, solution=show, answer=answer)


def _learner_counts(p: CooccurrenceProblem, answer: Any) -> tuple[int, ...] | None:
    if not isinstance(answer, tuple | list) or len(answer) != len(p.context):
        return None
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in answer):
        return None
    return tuple(answer)


def _counts_rows(p: CooccurrenceProblem, y: float, answer: Any) -> list[str]:
    """Return the context words with the right counts, and the learner's below them."""
    right = counts(p, hits(p))
    learner = _learner_counts(p, answer)
    cell = 70
    out = [svg.text(8, y + 30, "right"), svg.text(8, y + 50, "yours" if learner else "")]
    for k, word in enumerate(p.context):
        x = 80 + cell * k
        out.append(svg.text(x, y + 12, word, font_weight="bold"))
        out.append(
            svg.text(x, y + 30, str(right[k]), fill=svg.COLOURS["right"], data_role="right-count")
        )
        if learner is not None:
            differs = learner[k] != right[k]
            out.append(
                svg.text(
                    x,
                    y + 50,
                    str(learner[k]),
                    fill=svg.COLOURS["answer"] if differs else svg.COLOURS["text"],
                    data_role="answer-count",
                    data_differs="yes" if differs else "no",
                )
            )
    return out


_BOX_W, _BOX_H, _GAP = 62, 24, 4  # a word's box and the gap between boxes
_TOP, _ROW_H = 30, 58  # the first sentence's top and each sentence's height


def _window_bands(p: CooccurrenceProblem, s: int, tokens: list[str], y: float) -> list[str]:
    """Return a dashed band over each occurrence's window in sentence ``s`` (staggered, so two
    overlapping windows stay apart)."""
    out = []
    for i, token in enumerate(tokens):
        if token != p.word:
            continue
        lo, hi = max(0, i - p.window), min(len(tokens) - 1, i + p.window)
        out.append(
            svg.rect(
                30 + (_BOX_W + _GAP) * lo - 2,
                y - 10 + (i % 2) * 3,
                (_BOX_W + _GAP) * (hi - lo + 1),
                _BOX_H + 18,
                fill="none",
                stroke=svg.COLOURS["window"],
                stroke_dasharray="4 3",
                data_role="window",
                data_sentence=s,
                data_occurrence=i,
                data_from=lo,
                data_to=hi,
                rx=6,
            )
        )
    return out


def _word_boxes(
    p: CooccurrenceProblem, s: int, tokens: list[str], y: float, counted: set | None
) -> list[str]:
    """Return sentence ``s``'s words as boxes, the word bold and the context words shaded;
    with ``counted`` (the solution), each followed by its ticks."""
    out = []
    for j, token in enumerate(tokens):
        is_word = token == p.word
        fill = "#e0e7ff" if is_word else ("#f3f4f6" if token in p.context else "#ffffff")
        x = 30 + (_BOX_W + _GAP) * j
        out.append(
            svg.rect(
                x,
                y,
                _BOX_W,
                _BOX_H,
                fill=fill,
                stroke=svg.COLOURS["muted"],
                data_role="token",
                data_sentence=s,
                data_position=j,
                data_token=token,
                rx=3,
            )
        )
        out.append(
            svg.text(
                x + _BOX_W / 2,
                y + 16,
                token,
                text_anchor="middle",
                font_weight="bold" if is_word else None,
            )
        )
        if counted is not None:
            out += _ticks(counted, s, j, y)
    return out


def _ticks(counted: set, s: int, j: int, y: float) -> list[str]:
    """Return a tick under word ``j`` of sentence ``s`` per time it is counted (none: [])."""
    times = sum(1 for hs, _, hj in counted if hs == s and hj == j)
    if not times:
        return []
    return [
        svg.text(
            30 + (_BOX_W + _GAP) * j + _BOX_W / 2,
            y + _BOX_H + 12,
            "✓" * times,
            text_anchor="middle",
            fill=svg.COLOURS["right"],
            data_role="counted",
            data_sentence=s,
            data_position=j,
            data_times=times,
        )
    ]


def windows_picture(spec: dict, *, solution: bool, answer: Any = None) -> str:
    """Draw the sentences as rows of word boxes, a band over each occurrence's window; with
    the solution, every counted word is marked with the occurrence it counts for."""
    p = problem_of(spec)
    longest = max(len(s) for s in p.sentences)
    width = max(40 + (_BOX_W + _GAP) * longest, 100 + 70 * len(p.context))
    counts_top = _TOP + _ROW_H * len(p.sentences) + 10
    height = counts_top + (70 if solution else 20)
    prefix = svg.picture_id(("cooc", spec.get("sentences"), spec.get("context"), solution))
    body: list[str] = [svg.text(8, 16, f"window: {p.window} words on each side of {p.word}")]
    counted = set(hits(p))
    for s, tokens in enumerate(p.sentences):
        y = _TOP + _ROW_H * s + 14
        body.append(svg.text(8, y + 16, f"{s + 1}."))
        body += _window_bands(p, s, tokens, y)
        body += _word_boxes(p, s, tokens, y, counted if solution else None)
    desc = (
        f"Each sentence as word boxes; a dashed band marks the {p.window} words on each side of "
        f"every {p.word}. Context words are shaded."
    )
    if solution:
        body += _counts_rows(p, counts_top, answer)
        desc += " Below, the right count of each context word"
        desc += " and yours, differences in orange." if _learner_counts(p, answer) else "."
        desc += " A tick under a word marks each time it is counted."
    title = "The sentences with the window around each occurrence"
    return svg.document(width, height, title, desc, body, prefix=prefix)
