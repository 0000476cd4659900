"""``word_ids``: a sentence's ids under a whole-word vocabulary with ``<unk>`` = 0.

Every problem's sentence begins with a capitalised word whose lowercase form is listed (so
ignoring case shows), ends with a punctuation mark (so dropping punctuation shows) and holds at
least one unlisted inflection or typo of a listed word (so the look-alike shows); from level 2 a
name no list holds, from level 3 a comma inside, from level 4 a typo as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds.word_ids import PUNCTUATION, UNK, split_tokens

from .base import Draw, ProblemGenerator
from .draw.boxes import Figure, text_width
from .statement import md_word
from .words.pieces import (
    DETERMINERS,
    ING_FORMS,
    NAMES,
    NOUNS,
    OBJECT_PAST_FORMS,
    PAST_FORMS,
    PLACES,
    SPARE_WORDS,
    TYPOS,
)

# Frames: D determiner (capitalised when first), N noun, V unlisted past form (T: one taking an
# object), G unlisted -ing form, P place,
# M name; anything else is written as it stands (and listed).
FRAMES: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (("D", "N", "V", "."), ("D", "N", "V", "home", "."), ("D", "N", "is", "G", ".")),
    2: (
        ("D", "N", "T", "M", "."),
        ("D", "N", "V", "with", "M", "!"),
        ("Yesterday", "M", "T", "D", "N", "."),
    ),
    3: (
        ("D", "N", "V", "to", "the", "P", ",", "M", "said", "."),
        ("In", "the", "P", ",", "D", "N", "and", "M", "were", "G", "."),
        ("After", "school", ",", "M", "T", "D", "N", "!"),
    ),
    4: (
        ("At", "the", "P", ",", "D", "N", "T", "M", "!"),
        ("Near", "the", "P", ",", "did", "D", "N", "see", "M", "G", "?"),
        ("When", "M", "V", ",", "the", "N", "was", "in", "the", "P", "."),
    ),
}
VOCAB_SIZE = {1: 9, 2: 11, 3: 13, 4: 15}


@dataclass(frozen=True)
class Drawn:
    tokens: tuple[str, ...]
    listed: tuple[str, ...]  # entries the vocabulary must hold


def draw_sentence(draw: Draw, level: int) -> Drawn:
    """Fill a frame of the level: the tokens and the entries the vocabulary must hold."""
    frame = draw.choice(FRAMES[level])
    tokens: list[str] = []
    listed: list[str] = []
    nouns = draw.sample(NOUNS, 2)
    for slot in frame:
        if slot == "D":
            word = draw.choice(DETERMINERS)
            listed.append(word)
            # Capitalised at the start of a sentence only (after a comma it stays small).
            tokens.append(word.capitalize() if not tokens or tokens[-1] in ".!?" else word)
        elif slot == "N":
            word = nouns.pop()
            listed.append(word)
            tokens.append(word)
        elif slot in ("V", "T", "G"):
            forms = {"V": PAST_FORMS, "T": OBJECT_PAST_FORMS, "G": ING_FORMS}[slot]
            base, form = draw.choice(forms)
            listed.append(base)
            tokens.append(form)
        elif slot == "P":
            place = draw.choice(PLACES)
            listed.append(place)
            tokens.append(place)
        elif slot == "M":
            tokens.append(draw.choice(NAMES))
        else:
            tokens.append(slot)
            listed.append(slot.lower() if slot[0].isupper() else slot)
    if level >= 4:
        # One listed word of the sentence misspelt: its correct form stays listed.
        spots = [k for k, t in enumerate(tokens) if any(t == right for right, _ in TYPOS)]
        if spots:
            k = draw.choice(spots)
            tokens[k] = dict(TYPOS)[tokens[k]]
    return Drawn(tuple(tokens), tuple(dict.fromkeys(listed)))


def sentence_text(tokens: tuple[str, ...]) -> str:
    """Join tokens as written text: a space between words, none before punctuation."""
    out = ""
    for token in tokens:
        out += token if (not out or token in PUNCTUATION) else " " + token
    return out


class WordIdsGenerator(ProblemGenerator):
    kind: ClassVar[str] = "word_ids"
    name: ClassVar[str] = "word_ids"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 5
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        drawn = draw_sentence(draw, level)
        sentence = sentence_text(drawn.tokens)
        assert split_tokens(sentence) == drawn.tokens
        must = list(drawn.listed)
        marks = [m for m in (".", ",", "!", "?") if m not in must]
        spare = [w for w in SPARE_WORDS if w not in must]
        room = VOCAB_SIZE[level] - len(must)
        extra_marks = draw.sample(marks, min(len(marks), 1 + draw.below(2)))
        fill = draw.sample(spare, max(0, room - len(extra_marks)))
        entries = [*must, *extra_marks, *fill]
        if level >= 3:
            # Both cases of the sentence's first word listed: ignoring case gives a wrong id,
            # not 0 for 0.
            first = drawn.tokens[0]
            if first[0].isupper() and first not in entries and first.lower() in entries:
                entries.append(first)
        return {"sentence": sentence, "vocab": [UNK, *draw.shuffled(entries)]}

    def statement(self, spec: dict) -> str:
        vocab = spec["vocab"]
        ids = " | ".join(str(i) for i in range(len(vocab)))
        entries = " | ".join("`<unk>`" if e == UNK else md_word(e) for e in vocab)
        return "\n".join(
            [
                f"A whole-word tokenizer gives each entry of its vocabulary an id, from $0$ to "
                f"${len(vocab) - 1}$:",
                "",
                f"| id | {ids} |",
                "|" + "---|" * (len(vocab) + 1),
                f"| entry | {entries} |",
                "",
                f"The sentence is: {md_word(spec['sentence'])}",
                "",
                "Its rules: the sentence is split at spaces, and every punctuation mark "
                "(`.` `,` `!` `?`) is a token of its own. A token matches an entry only if it is "
                "written exactly the same, capital letters included (*The* and *the* are "
                "different entries). A token that is not listed gets the id of `<unk>`, $0$.",
                "",
                "Write the ids of the sentence's tokens in order, for example `[4, 0, 7]`.",
            ]
        )

    def picture(
        self, spec: dict, answer: tuple[int, ...] | None = None, *, solution: bool | None = None
    ) -> str | None:
        vocab = spec["vocab"]
        if answer is None and not solution:
            return _vocab_picture(vocab)
        tokens = split_tokens(spec["sentence"])
        index = {e: i for i, e in enumerate(vocab)}
        right = tuple(index.get(t, 0) for t in tokens)
        return _ids_picture(tokens, right, answer)


RIGHT = 300  # the rightmost x a box may reach: with the figure's 12 px margin, 312 px wide
GAP = 4


def _places(widths: list[float], top: float, band: float) -> list[tuple[float, float]]:
    """Return the top-left corner of each column of boxes, left to right, a column wrapping to
    a new band ``band`` px lower before it would pass ``RIGHT``."""
    out: list[tuple[float, float]] = []
    x, y = 8.0, top
    for w in widths:
        if x > 8 and x + w > RIGHT:
            x, y = 8.0, y + band
        out.append((x, y))
        x += w + GAP
    return out


def _vocab_picture(vocab: list[str]) -> str:
    """Return the fresh picture: each vocabulary entry above its id, in wrapped rows."""
    fig = Figure(
        "The vocabulary: each entry above its id",
        f"{len(vocab)} entries, ids 0 to {len(vocab) - 1}; the sentence's ids are not shown.",
    )
    fig.label(8, 16, "vocabulary", weight="bold")
    widths = [text_width(entry) for entry in vocab]
    for i, (entry, w, (x, y)) in enumerate(
        zip(vocab, widths, _places(widths, 26, 66), strict=True)
    ):
        fig.box(x, y, w, 28, entry, role="entry", data={"id": i}, mono=True)
        fig.box(x, y + 32, w, 24, str(i), role="entry-id", style="muted")
    return fig.render()


def _ids_picture(tokens: tuple[str, ...], right: tuple[int, ...], answer: Any) -> str:
    """Return the sentence's tokens above their ids and the learner's ids, in wrapped rows
    (each column's three boxes share one x and width, so an id stays centred under its
    token); extra ids of the learner's follow the last token."""
    shown = tuple(answer) if answer is not None else ()
    fig = Figure(
        "The sentence's tokens above their ids, unknown tokens marked",
        f"The ids are {list(right)}"
        + (f"; your answer, {list(shown)}, is written below them." if answer else "."),
    )
    fig.label(8, 16, "tokens", weight="bold")
    band = 98 if shown else 68
    widths = [text_width(t) for t in tokens] + [36.0] * max(0, len(shown) - len(tokens))
    places = _places(widths, 26, band)
    for k, (token, i) in enumerate(zip(tokens, right, strict=True)):
        (x, y), w, unknown = places[k], widths[k], i == 0
        fig.box(
            x,
            y,
            w,
            28,
            token,
            role="token",
            style="unknown" if unknown else "plain",
            data={"position": k, "unknown": int(unknown)},
            mono=True,
            dashed=unknown,
        )
        fig.box(x, y + 32, w, 26, str(i), role="id", style="right", data={"position": k})
    for k, given in enumerate(shown):
        (x, y), w = places[k], widths[k]
        style = "right" if k < len(right) and given == right[k] else "wrong"
        fig.box(x, y + 62, w, 26, str(given), role="answer", style=style, data={"position": k})
    bottom = places[-1][1] + band + 10
    fig.label(8, bottom, "top: tokens", size=12)
    fig.label(8, bottom + 18, "(dashed: not in the vocabulary, id 0)", size=12)
    fig.label(8, bottom + 36, "middle: the ids; bottom: your answer", size=12)
    return fig.render()
