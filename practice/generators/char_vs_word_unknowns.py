"""``char_vs_word_unknowns``: unknown positions of a sentence under words and under characters."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_emphasis

from .base import Draw, ProblemGenerator
from .draw.text_figures import BOX_HEIGHT, COLOURS, label, legend, shown, svg_root
from .statement import md_word
from .words.characters import COMMON_WORDS, draw_words

LATIN = frozenset(string.ascii_letters + " ")


@dataclass(frozen=True)
class UnknownsLevel:
    typo: bool  # one common word misspelled (two letters swapped)
    long: bool  # a longer word the vocabulary does not list
    accented: bool  # the name has a letter outside a-z, A-Z; the table is then "latin"
    extra_words: int  # vocabulary words beyond the sentence's


UNKNOWNS_LEVELS: dict[int, UnknownsLevel] = {
    1: UnknownsLevel(typo=False, long=False, accented=False, extra_words=4),
    2: UnknownsLevel(typo=True, long=False, accented=False, extra_words=5),
    3: UnknownsLevel(typo=True, long=True, accented=False, extra_words=6),
    4: UnknownsLevel(typo=True, long=False, accented=True, extra_words=6),
}


def misspell(word: str) -> str:
    """Return ``word`` with its second and third letters swapped (*bridge* -> *brdige*)."""
    return word[0] + word[2] + word[1] + word[3:]


class CharVsWordUnknownsGenerator(ProblemGenerator):
    kind: ClassVar[str] = "char_vs_word_unknowns"
    name: ClassVar[str] = "char_vs_word_unknowns"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 9
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        spec_level = UNKNOWNS_LEVELS[level]
        words = draw_words(draw, long=spec_level.long, accented=spec_level.accented)
        listed = [w for w in dict.fromkeys(words) if w in COMMON_WORDS]
        if spec_level.typo:
            # The swap must change the word (not *apples*, *door*) into no other listed word.
            candidates = [
                k
                for k, w in enumerate(words)
                if len(w) >= 4
                and w in COMMON_WORDS
                and w[1] != w[2]
                and misspell(w) not in COMMON_WORDS
            ]
            k = draw.choice(candidates)
            words[k] = misspell(words[k])
        spare = [w for w in COMMON_WORDS if w not in listed]
        vocab = sorted([*listed, *draw.sample(spare, spec_level.extra_words)])
        return {
            "vocab": vocab,
            "tokens": words,
            "table": "latin" if spec_level.accented or draw.below(2) else "unicode",
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        # A misspelling that is itself a word, or leaves the word as it was, teaches nothing.
        return all(t in spec["vocab"] or t not in COMMON_WORDS for t in spec["tokens"])

    def statement(self, spec: dict) -> str:
        vocab, tokens = spec["vocab"], spec["tokens"]
        table = (
            "the 26 lowercase letters *a* to *z*, the 26 capitals *A* to *Z* and the space"
            if spec["table"] == "latin"
            else "every character of every script (all of Unicode), the space included"
        )
        return "\n".join(
            [
                f"The sentence is {md_emphasis(' '.join(tokens))}.",
                "",
                "- **Word vocabulary.** The sentence is cut at its spaces; each word is one "
                "position. The vocabulary lists exactly these words, and any other word "
                "(another spelling or case included) becomes `<unk>`: "
                + ", ".join(md_word(w) for w in vocab)
                + ".",
                f"- **Character table.** Every character is one position, spaces included. "
                f"The table lists {table}; any other character becomes `<unk>`.",
                "",
                "How many positions are `<unk>`: $u_{\\text{word}}$ under the word "
                "vocabulary, and $u_{\\text{char}}$ under the character table?",
                "",
                "Answer $u_{\\text{word}}$, a semicolon, then $u_{\\text{char}}$, for example "
                "`3; 1`.",
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        tokens = spec["tokens"]
        vocab = set(spec["vocab"])
        cell, x0, y_words, y_chars = 12, 16, 30, 30 + BOX_HEIGHT + 14
        body: list[str] = [
            label(x0, 18, "words"),
            label(x0, y_chars + BOX_HEIGHT + 30, "characters", colour=COLOURS["char"]),
        ]
        x = x0
        index = 0
        for k, word in enumerate(tokens):
            if k:
                # The space between words: a character position, no word position.
                body.append(_char_box(x, y_chars, " ", index, cell, reveal, spec["table"]))
                x, index = x + cell, index + 1
            unknown = reveal and word not in vocab
            role = "unknown" if unknown else "piece"
            width = len(word) * cell - 2
            body.append(
                f'<rect x="{x}" y="{y_words}" width="{width}" height="{BOX_HEIGHT}" rx="4" '
                f'fill="{"#fee2e2" if unknown else "none"}" stroke="{COLOURS[role]}" '
                f'stroke-width="1.5" data-role="{"unknown-word" if unknown else "word"}" '
                f'data-index="{k}" data-text="{_attr(word)}"/>'
            )
            body.append(
                label(x + width / 2, y_words + 17, "<unk>" if unknown else word, anchor="middle")
            )
            for ch in word:
                body.append(_char_box(x, y_chars, ch, index, cell, reveal, spec["table"]))
                x, index = x + cell, index + 1
        width = max(x + x0, 380)
        height = y_chars + BOX_HEIGHT + 44
        title = "The sentence as words and as characters, aligned"
        desc = "Top: one box per word. Below: one box per character, spaces shown as ▁."
        if reveal:
            words = sum(1 for t in tokens if t not in vocab)
            chars = sum(1 for ch in " ".join(tokens) if not _known(ch, spec["table"]))
            desc += f" Unknown positions, in red: {words} words, {chars} characters."
            body.extend(legend(x0, height, [("unknown", "<unk>: not in the vocabulary or table")]))
            height += 24
        return svg_root(width, height, title, desc, body)


def _known(ch: str, table: str) -> bool:
    return table == "unicode" or ch in LATIN


def _char_box(x: float, y: float, ch: str, index: int, cell: int, reveal: bool, table: str) -> str:
    unknown = reveal and not _known(ch, table)
    colour = COLOURS["unknown"] if unknown else COLOURS["char"]
    return (
        f'<rect x="{x}" y="{y}" width="{cell - 1}" height="{BOX_HEIGHT}" '
        f'fill="{"#fee2e2" if unknown else "none"}" stroke="{colour}" stroke-width="1" '
        f'data-role="{"unknown-char" if unknown else "char"}" data-index="{index}" '
        f'data-text="{_attr(shown(ch))}"/>'
        + label(x + cell / 2, y + 17, shown(ch), anchor="middle")
    )


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
