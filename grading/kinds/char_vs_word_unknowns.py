"""``char_vs_word_unknowns``: how many positions are unknown under a word vocabulary, and how
many under a character table, for one sentence.

Under the word vocabulary the sentence is cut at its spaces and each word is one position; a
word the vocabulary does not list (exact spelling, case included) becomes ``<unk>``. Under the
character table every character is one position, the spaces included; a character the table
does not list becomes ``<unk>``. The ``latin`` table lists a-z, A-Z and the space; the
``unicode`` table lists every character.

The answer is a tuple of two integers: part 0 the unknowns under the words, part 1 under the
characters.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass

from grading.kinds._markdown import md_code, md_emphasis
from grading.kinds.base import Kind, MistakeDef, Step, Variant, register
from grading.shapes import IntegerShape, TupleShape
from grading.spec import SpecError

TABLES = ("latin", "unicode")
LATIN = frozenset(string.ascii_letters + " ")
MAX_WORDS = 20
MAX_VOCAB = 200
MAX_WORD_CHARS = 30

Answer = tuple[int, int]


@dataclass(frozen=True)
class UnknownsProblem:
    """The word vocabulary, the sentence's words and the character table's name."""

    vocab: frozenset[str]
    tokens: tuple[str, ...]
    table: str

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def known_char(self, ch: str) -> bool:
        return self.table == "unicode" or ch in LATIN

    def unknown_words(self) -> list[str]:
        return [t for t in self.tokens if t not in self.vocab]

    def unknown_chars(self) -> list[str]:
        return [ch for ch in self.text if not self.known_char(ch)]


def _right(p: UnknownsProblem) -> Answer:
    return len(p.unknown_words()), len(p.unknown_chars())


def _words_md(words: list[str]) -> str:
    listed = [md_emphasis(w) for w in words]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def _chars_md(chars: list[str]) -> str:
    listed = [md_code(ch) for ch in chars]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def _char_part_words(p: UnknownsProblem) -> str:
    unknown = p.unknown_chars()
    if not unknown:
        return (
            "every character of the sentence is in the table, so nothing is unknown at "
            "character level: 0"
        )
    return (
        f"only {_chars_md(unknown)} {'is' if len(unknown) == 1 else 'are'} missing from the "
        f"table, so {len(unknown)}"
    )


# -- mistakes ------------------------------------------------------------------------------


def _letters_variants(p: UnknownsProblem) -> Iterable[Variant]:
    yield Variant("name_letters_unknown", (1,), {})


def _letters_count(p: UnknownsProblem) -> int:
    unknown = set(p.unknown_words())
    inside = sum(len(t) for t in p.tokens if t in unknown)
    outside = sum(1 for t in p.tokens if t not in unknown for ch in t if not p.known_char(ch))
    return inside + outside


def _letters_apply(p: UnknownsProblem, v: Variant) -> Answer:
    return len(p.unknown_words()), _letters_count(p)


def _letters_explain(p: UnknownsProblem, d: object) -> str:
    words = p.unknown_words()
    return (
        f"Your second number, {_letters_count(p)}, counts every character of "
        f"{_words_md(words)} as unknown: the words the word vocabulary lacks. The character "
        f"table does not look at words: it looks up each character on its own, and "
        f"{_char_part_words(p)}."
    )


def _spaces_variants(p: UnknownsProblem) -> Iterable[Variant]:
    yield Variant("counted_spaces", (1,), {})


def _spaces_apply(p: UnknownsProblem, v: Variant) -> Answer:
    return len(p.unknown_words()), len(p.unknown_chars()) + p.text.count(" ")


def _spaces_explain(p: UnknownsProblem, d: object) -> str:
    spaces = p.text.count(" ")
    return (
        f"Your second number counts the {spaces} spaces as unknown. The space is in the "
        f"character table like the letters: each space is a position with its own id. "
        f"{_char_part_words(p)[0].upper()}{_char_part_words(p)[1:]}."
    )


def _count_variants(p: UnknownsProblem) -> Iterable[Variant]:
    yield Variant("gave_word_count", (0,), {})


def _count_apply(p: UnknownsProblem, v: Variant) -> Answer:
    return len(p.tokens), len(p.unknown_chars())


def _count_explain(p: UnknownsProblem, d: object) -> str:
    words = p.unknown_words()
    return (
        f"Your first number, {len(p.tokens)}, is the number of words: the positions, not the "
        f"unknown ones. Only {_words_md(words)} {'is' if len(words) == 1 else 'are'} missing "
        f"from the word vocabulary, so {len(words)} "
        f"position{'' if len(words) == 1 else 's'} become{'s' if len(words) == 1 else ''} "
        f"`<unk>`."
    )


@register
class CharVsWordUnknowns(Kind):
    """Count the unknown positions of a sentence under words and under characters."""

    name = "char_vs_word_unknowns"
    label = "Unknown positions: words against characters"
    mistakes = (
        MistakeDef(
            code="name_letters_unknown",
            number=1,
            label="counted an unknown word's letters as unknown characters",
            parts="[1]: the character-level count",
            variants=_letters_variants,
            apply=_letters_apply,
            explain=_letters_explain,
        ),
        MistakeDef(
            code="counted_spaces",
            number=2,
            label="counted the spaces as unknown",
            parts="[1]: the character-level count",
            variants=_spaces_variants,
            apply=_spaces_apply,
            explain=_spaces_explain,
        ),
        MistakeDef(
            code="gave_word_count",
            number=3,
            label="gave the number of words, not of unknown words",
            parts="[0]: the word-level count",
            variants=_count_variants,
            apply=_count_apply,
            explain=_count_explain,
        ),
    )

    def load(self, spec: dict) -> UnknownsProblem:
        """Validate ``vocab``, ``tokens`` and ``table``; raise ``SpecError`` naming the field."""
        vocab, tokens, table = spec.get("vocab"), spec.get("tokens"), spec.get("table")
        if not isinstance(vocab, list) or not 1 <= len(vocab) <= MAX_VOCAB:
            raise SpecError("vocab", f"must be a list of 1 to {MAX_VOCAB} words")
        if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_WORDS:
            raise SpecError("tokens", f"must be a list of 1 to {MAX_WORDS} words")
        for field, words in (("vocab", vocab), ("tokens", tokens)):
            for k, word in enumerate(words):
                if (
                    not isinstance(word, str)
                    or not 1 <= len(word) <= MAX_WORD_CHARS
                    or any(ch.isspace() for ch in word)
                ):
                    raise SpecError(
                        f"{field}[{k}]",
                        f"must be a word of 1 to {MAX_WORD_CHARS} characters without spaces",
                    )
        if len(set(vocab)) != len(vocab):
            raise SpecError("vocab", "must not list a word twice")
        if table not in TABLES:
            raise SpecError("table", f"must be one of {list(TABLES)}")
        return UnknownsProblem(vocab=frozenset(vocab), tokens=tuple(tokens), table=table)

    def shape(self, problem: UnknownsProblem) -> TupleShape:
        return TupleShape(
            (IntegerShape(), IntegerShape()),
            ("unknown under the word vocabulary", "unknown under the character table"),
        )

    def right(self, problem: UnknownsProblem) -> Answer:
        return _right(problem)

    def right_tex(self, problem: UnknownsProblem) -> str:
        words, chars = _right(problem)
        return f"{words};\\ {chars}"

    def steps(self, problem: UnknownsProblem) -> tuple[Step, ...]:
        words = [t for t in problem.tokens if t not in problem.vocab]
        chars = [ch for ch in " ".join(problem.tokens) if not problem.known_char(ch)]
        table = (
            "lists a–z, A–Z and the space" if problem.table == "latin" else "lists every character"
        )
        word_text = (
            f"{_words_md(words)} {'is' if len(words) == 1 else 'are'} not listed (exact "
            f"spelling, case included): {len(words)} unknown"
            if words
            else "every word is listed: 0 unknown"
        )
        char_text = (
            f"{_chars_md(chars)} {'is' if len(chars) == 1 else 'are'} not in it: "
            f"{len(chars)} unknown"
            if chars
            else "every character is in it: 0 unknown"
        )
        return (
            Step(
                f"Words: the sentence has {len(problem.tokens)} words; {word_text}.",
                len(words),
            ),
            Step(
                f"Characters: the table {table}; counting every character, spaces included, "
                f"{char_text}.",
                len(chars),
            ),
            Step(
                f"The answer is ${len(words)};\\ {len(chars)}$.",
                (len(words), len(chars)),
            ),
        )

    def hint(self, problem: UnknownsProblem) -> str:
        return (
            "For the words: cut the sentence at its spaces and count the words the vocabulary "
            "does not list exactly. For the characters: count the characters (spaces included) "
            "the table does not list."
        )
