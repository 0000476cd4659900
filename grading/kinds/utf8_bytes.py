"""`utf8_bytes`: the UTF-8 bytes of a short word with an accent or a symbol.

Spec field: `word` (1 to 12 characters, NFC, every character a letter, digit, mark,
punctuation, symbol or the plain space). The answer is the integer sequence of its bytes
(`word.encode("utf-8")`), in decimal or, where the shape allows, hexadecimal. A diagnosis's
terms are byte positions in the right answer (0-based): the bytes of the character concerned.

The byte sequences come from Python's codecs (`str.encode`), the library every test compares
with: the kind computes nothing by hand but the mistakes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from ..shapes import IntegerSequence, Shape
from ..spec import SpecError
from ..verdict import Diagnosis
from .base import Kind, MistakeDef, Numbered, Step, Variant, register, variant

MAX_CHARS = 12
LEGACY = "cp1252"  # Windows-1252: Latin-1 with letters and symbols in 0x80-0x9F


@dataclass(frozen=True)
class Utf8Problem:
    word: str
    chars: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]  # each character's bytes
    starts: tuple[int, ...]  # each character's first byte position

    @property
    def right(self) -> tuple[int, ...]:
        return tuple(b for group in self.groups for b in group)

    def multi(self) -> tuple[int, ...]:
        """Return the indices of characters written with more than one byte."""
        return tuple(k for k, g in enumerate(self.groups) if len(g) > 1)

    def positions(self, chars: tuple[int, ...]) -> tuple[int, ...]:
        """Return the byte positions of the given characters."""
        return tuple(self.starts[k] + j for k in chars for j in range(len(self.groups[k])))

    def char_of(self, position: int) -> int:
        """Return the index of the character holding byte `position`."""
        return max(k for k, s in enumerate(self.starts) if s <= position)

    def legacy(self) -> tuple[int, ...] | None:
        """Return the one-byte Windows-1252 codes, or None where a character has none."""
        try:
            return tuple(self.word.encode(LEGACY))
        except UnicodeEncodeError:
            return None


# The UTF-8 patterns by the code point's range: (last code point, bits, lead byte's mark).
_PATTERNS = ((0x7F, 7, 0), (0x7FF, 11, 0xC0), (0xFFFF, 16, 0xE0), (0x10FFFF, 21, 0xF0))
_TEMPLATES = {
    7: "0xxxxxxx",
    11: "110xxxxx 10xxxxxx",
    16: "1110xxxx 10xxxxxx 10xxxxxx",
    21: "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
}


def encode_by_hand(ch: str) -> tuple[int, ...]:
    """Return a character's UTF-8 bytes from its code point, the way the course fills the
    pattern by hand (the worked solution's own arithmetic, checked against the codec)."""
    point = ord(ch)
    bits, mark = next((b, m) for last, b, m in _PATTERNS if point <= last)
    if bits == 7:
        return (point,)
    tail = (bits - 6) // 5  # continuation bytes: 1, 2 or 3
    out = [0x80 | (point >> (6 * k)) & 0x3F for k in range(tail)]
    return (mark | point >> (6 * tail), *reversed(out))


def _char(ch: str) -> str:
    shown = "space" if ch == " " else ch
    return f"*{shown}* (U+{ord(ch):04X})"


def _bytes(group: tuple[int, ...]) -> str:
    return " ".join(str(b) for b in group)


def _seq(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _byte_span(p: Utf8Problem, k: int) -> str:
    start, n = p.starts[k], len(p.groups[k])
    # Counted from 1, as every position a learner is told (docs/kinds.md).
    return f"position {start + 1}" if n == 1 else f"positions {start + 1}–{start + n}"


def _rebuild(p: Utf8Problem, replace: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    return tuple(b for k, g in enumerate(p.groups) for b in replace.get(k, g))


def _chars_of(p: Utf8Problem, d: Any) -> tuple[int, ...]:
    return tuple(sorted({p.char_of(t) for t in d.terms}))


def _per_char_variants(code: str):
    def variants(p: Utf8Problem) -> list[Variant]:
        multi = p.multi()
        out = [variant(code, p.positions((k,))) for k in multi]
        if len(multi) > 1:
            out.append(variant(code, p.positions(multi)))
        return out

    return variants


def _all_multi_variants(code: str):
    def variants(p: Utf8Problem) -> list[Variant]:
        multi = p.multi()
        return [variant(code, p.positions(multi))] if multi else []

    return variants


def _code_point_apply(p: Utf8Problem, v: Any) -> tuple[int, ...]:
    return _rebuild(p, {k: (ord(p.chars[k]),) for k in _chars_of(p, v)})


def _lead_byte_apply(p: Utf8Problem, v: Any) -> tuple[int, ...]:
    return _rebuild(p, {k: p.groups[k][:1] for k in _chars_of(p, v)})


def _no_marker_apply(p: Utf8Problem, v: Any) -> tuple[int, ...]:
    return _rebuild(
        p, {k: (p.groups[k][0], *(b & 0x3F for b in p.groups[k][1:])) for k in _chars_of(p, v)}
    )


def _legacy_variants(p: Utf8Problem) -> list[Variant]:
    multi = p.multi()
    if not multi or p.legacy() is None:
        return []
    return [variant("legacy_codes", p.positions(multi))]


def _legacy_apply(p: Utf8Problem, v: Any) -> tuple[int, ...]:
    legacy = p.legacy()
    if legacy is None:
        raise ValueError("the word has a character Windows-1252 cannot write")
    return legacy


def _scheme(p: Utf8Problem, k: int) -> str:
    n = len(p.groups[k])
    pattern = {
        2: "110xxxxx 10xxxxxx",
        3: "1110xxxx 10xxxxxx 10xxxxxx",
        4: "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
    }[n]
    bits = format(ord(p.chars[k]), "b")
    return (
        f"its code point {ord(p.chars[k])} is {bits} in binary, which fills the pattern "
        f"`{pattern}` as `{' '.join(format(b, '08b') for b in p.groups[k])}`"
    )


def _code_point_explain(p: Utf8Problem, d: Diagnosis) -> str:
    parts = [
        f"{_char(p.chars[k])} at byte {_byte_span(p, k)} is {len(p.groups[k])} bytes, "
        f"{_bytes(p.groups[k])}; you wrote its code point {ord(p.chars[k])} as one number"
        for k in _chars_of(p, d)
    ]
    text = "; ".join(parts)
    return (
        f"{text[0].upper()}{text[1:]}. A byte holds 0 to 255; UTF-8 writes a code point above "
        "127 in two to four bytes, spreading its bits over a lead byte and continuation bytes. "
        f"The bytes are {_seq(p.right)}."
    )


def _lead_byte_explain(p: Utf8Problem, d: Diagnosis) -> str:
    parts = [
        f"{_char(p.chars[k])} at byte {_byte_span(p, k)} is {len(p.groups[k])} bytes, "
        f"{_bytes(p.groups[k])}, not only {p.groups[k][0]}"
        for k in _chars_of(p, d)
    ]
    text = "; ".join(parts)
    return (
        f"Your answer has one byte per character. {text[0].upper()}{text[1:]}: the lead byte "
        f"says how many bytes follow (110… two, 1110… three), and the continuation bytes "
        f"(10…) carry the rest of the code point. The bytes are {_seq(p.right)}."
    )


def _legacy_explain(p: Utf8Problem, d: Diagnosis) -> str:
    legacy = p.legacy() or ()
    parts = [
        f"{_char(p.chars[k])} is {legacy[k]} there, but {_bytes(p.groups[k])} in UTF-8"
        for k in p.multi()
    ]
    return (
        f"Your answer is the word in Windows-1252 (Latin-1 with extra symbols), one byte per "
        f"character: {'; '.join(parts)}. That older encoding has only 256 characters; UTF-8 "
        f"writes every character outside ASCII in two to four bytes. The bytes are "
        f"{_seq(p.right)}."
    )


def _no_marker_explain(p: Utf8Problem, d: Diagnosis) -> str:
    parts = []
    for k in _chars_of(p, d):
        group = p.groups[k]
        for j, b in enumerate(group[1:], start=1):
            parts.append(
                f"the byte at position {p.starts[k] + j + 1} (in {_char(p.chars[k])}) should be "
                f"{b} "
                f"(`{format(b, '08b')}`), not {b & 0x3F} (`{format(b & 0x3F, '08b')}`)"
            )
    return (
        f"{'; '.join(parts)[0].upper()}{'; '.join(parts)[1:]}. You seem to have written the "
        f"six payload bits of each continuation byte without its marker `10` in front, which "
        f"adds 128. For {_char(p.chars[_chars_of(p, d)[0]])}, {_scheme(p, _chars_of(p, d)[0])}. "
        f"The bytes are {_seq(p.right)}."
    )


MISTAKES = (
    MistakeDef(
        code="code_point",
        number=1,
        label="wrote the code point instead of its bytes",
        parts="[k, ...]: the byte positions of the character(s)",
        variants=_per_char_variants("code_point"),
        apply=_code_point_apply,
        explain=_code_point_explain,
    ),
    MistakeDef(
        code="one_byte_per_character",
        number=2,
        label="wrote one byte per character (the lead byte only)",
        parts="[k, ...]: the byte positions of the multi-byte characters",
        variants=_all_multi_variants("one_byte_per_character"),
        apply=_lead_byte_apply,
        explain=_lead_byte_explain,
    ),
    MistakeDef(
        code="legacy_codes",
        number=3,
        label="wrote the one-byte Windows-1252 (Latin-1) codes",
        parts="[k, ...]: the byte positions of the multi-byte characters",
        variants=_legacy_variants,
        apply=_legacy_apply,
        explain=_legacy_explain,
    ),
    MistakeDef(
        code="continuation_without_marker",
        number=4,
        label="wrote a continuation byte without its 10 marker",
        parts="[k, ...]: the byte positions of the character(s)",
        variants=_per_char_variants("continuation_without_marker"),
        apply=_no_marker_apply,
        explain=_no_marker_explain,
    ),
)


@register
class Utf8Bytes(Kind):
    name = "utf8_bytes"
    label = "UTF-8 bytes of a word"
    # What its sentences number: byte positions in the answer from 1.
    numbering = {"position": Numbered(lambda p: len(p.right))}
    mistakes = MISTAKES

    def load(self, spec: dict[str, Any]) -> Utf8Problem:
        word = spec.get("word")
        if not isinstance(word, str) or not 1 <= len(word) <= MAX_CHARS:
            raise SpecError("word", f"is required and must be 1 to {MAX_CHARS} characters")
        if unicodedata.normalize("NFC", word) != word:
            raise SpecError("word", "must be in Unicode normal form C (composed accents)")
        for index, char in enumerate(word):
            if char != " " and unicodedata.category(char)[0] not in "LMNPS":
                raise SpecError("word", f"character {index} (U+{ord(char):04X}) is not visible")
        groups = tuple(tuple(ch.encode("utf-8")) for ch in word)
        starts, at = [], 0
        for group in groups:
            starts.append(at)
            at += len(group)
        return Utf8Problem(word, tuple(word), groups, tuple(starts))

    def shape(self, problem: Utf8Problem) -> Shape:
        return IntegerSequence(4 * MAX_CHARS + 4, hexadecimal=True)

    def right(self, problem: Utf8Problem) -> tuple[int, ...]:
        return problem.right

    def size(self, problem: Utf8Problem) -> int:
        return len(problem.right)

    def steps(self, problem: Utf8Problem) -> tuple[Step, ...]:
        plain = [ch for ch in problem.chars if ord(ch) < 0x80]
        steps = []
        if plain:
            shown = ", ".join(f"{_char(ch)} = {ord(ch)}" for ch in dict.fromkeys(plain))
            steps.append(
                Step("A character below U+0080 is one byte, its code point: " + shown + ".")
            )
        out: list[int] = []
        done: set[str] = set()
        for ch in problem.chars:
            group = encode_by_hand(ch)
            out.extend(group)
            if len(group) == 1 or ch in done:
                continue
            done.add(ch)
            bits = next(b for last, b, _ in _PATTERNS if ord(ch) <= last)
            binary = " ".join(f"{b:08b}" for b in group)
            steps.append(
                Step(
                    f"{_char(ch)} is code point {ord(ch)}, {len(group)} bytes with the pattern "
                    f"`{_TEMPLATES[bits]}`; its bits `{ord(ch):0{bits}b}` fill the x's: "
                    f"`{binary}` = {_bytes(group)}."
                )
            )
        steps.append(
            Step(f"The bytes of *{problem.word}* in order: {_seq(tuple(out))}.", tuple(out))
        )
        return tuple(steps)

    def hint(self, problem: Utf8Problem) -> str:
        return (
            "Write each character's code point in binary and fill the pattern for its range: "
            "up to 127 one byte `0xxxxxxx`; up to 2047 two bytes `110xxxxx 10xxxxxx`; up to "
            "65535 three bytes `1110xxxx 10xxxxxx 10xxxxxx`. Fill the x's from the right."
        )
