"""``utf8_bytes``: the UTF-8 bytes of a short word with an accent or a symbol.

Every word holds a character whose one-byte Windows-1252 code differs from its code point
(*š*, *œ*, *€*, *’*, ...), so writing the legacy code and writing the code point are different
mistakes on every problem. Level 1: one two-byte character; 2: two of them, one a Latin-1
accent; 3: a three-byte symbol among ASCII; 4: a three-byte symbol and a two-byte letter.
"""

from __future__ import annotations

from typing import ClassVar

from .base import Draw, ProblemGenerator
from .draw.boxes import Figure
from .statement import md_word
from .words.pieces import UTF8_LEVELS

PATTERNS = (
    ("$0 \\le c \\le 127$", "1", "`0xxxxxxx`"),
    ("$128 \\le c \\le 2047$", "2", "`110xxxxx 10xxxxxx`"),
    ("$2048 \\le c \\le 65535$", "3", "`1110xxxx 10xxxxxx 10xxxxxx`"),
    ("$c \\ge 65536$", "4", "`11110xxx 10xxxxxx 10xxxxxx 10xxxxxx`"),
)


def _shown(ch: str) -> str:
    return "space" if ch == " " else ch


class Utf8BytesGenerator(ProblemGenerator):
    kind: ClassVar[str] = "utf8_bytes"
    name: ClassVar[str] = "utf8_bytes"
    version: ClassVar[int] = 2
    number: ClassVar[int] = 6
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        return {"word": draw.choice(UTF8_LEVELS[level].words)}

    def statement(self, spec: dict) -> str:
        word = spec["word"]
        rows = [
            f"| {md_word(_shown(ch))} | U+{ord(ch):04X} | ${ord(ch)}$ | `{ord(ch):b}` |"
            for ch in word
        ]
        patterns = [f"| {span} | {n} | {bits} |" for span, n, bits in PATTERNS]
        return "\n".join(
            [
                f"Write the word {md_word(word)} in UTF-8: give its bytes, in order, as whole "
                "numbers from $0$ to $255$, for example `[67, 97, 102, 195, 169]`. Hexadecimal "
                "counts too when written with `0x` in front: `[0x43, 0x61, 0x66, 0xC3, 0xA9]`.",
                "",
                "Its characters and their code points:",
                "",
                "| character | code point | decimal $c$ | binary |",
                "|---|---|---|---|",
                *rows,
                "",
                "UTF-8 writes a code point in one to four bytes. The code point's bits fill the "
                "`x` places of the pattern for its range, from the right, with zeros in front "
                "where bits are left over:",
                "",
                "| code point $c$ | bytes | pattern |",
                "|---|---|---|",
                *patterns,
            ]
        )

    def picture(
        self, spec: dict, answer: tuple[int, ...] | None = None, *, solution: bool | None = None
    ) -> str | None:
        if answer is None and not solution:
            return _characters_picture(spec["word"])
        return _bytes_picture(spec["word"], answer)


_BYTE_W, _GAP = 52.0, 10.0  # a byte wide enough for its code point label at 12 px
_LINE_END = 800.0  # a row of characters wraps here: the picture keeps its natural size


def _characters_picture(word: str) -> str:
    """Return the word's characters with their code points and bits (no bytes: a fresh
    problem)."""
    fig = Figure(
        "The word's characters with their code points",
        f"{len(word)} characters, each with its code point and its bits; the bytes are not shown.",
    )
    x, top = 8.0, 0.0
    for k, ch in enumerate(word):
        bits = f"{ord(ch):b}"
        w = max(90.0, 8.0 * len(bits) + 16)
        if x + w > _LINE_END and x > 8:
            x, top = 8.0, top + 96
        fig.box(x, top + 8, w, 30, _shown(ch), role="char", data={"index": k}, size=16)
        fig.box(x, top + 42, w, 22, f"U+{ord(ch):04X}", role="code-point", style="muted", mono=True)
        fig.box(x, top + 68, w, 22, bits, role="bits", style="muted", mono=True, size=12)
        x += w + _GAP
    return fig.render()


def _byte_boxes(
    fig: Figure, at: tuple[float, float], k: int, group: tuple[int, ...], position: int, shown: list
) -> None:
    """Draw character ``k``'s bytes from byte ``position`` on, the learner's below each."""
    x, top = at
    for j, b in enumerate(group):
        bx = x + j * (_BYTE_W + 4)
        fig.box(
            bx,
            top + 60,
            _BYTE_W,
            26,
            str(b),
            role="byte",
            style="right",
            data={"position": position + j, "char": k},
            mono=True,
        )
        if position + j < len(shown):
            ok = shown[position + j] == b
            fig.box(
                bx,
                top + 90,
                _BYTE_W,
                26,
                str(shown[position + j]),
                role="answer",
                style="right" if ok else "wrong",
                data={"position": position + j},
                mono=True,
            )


def _bytes_picture(word: str, answer: tuple[int, ...] | None) -> str:
    """Return the characters above their UTF-8 byte groups, the learner's bytes below them
    (those past the right count at the end)."""
    groups = [tuple(ch.encode("utf-8")) for ch in word]
    right = [b for g in groups for b in g]
    shown = list(answer) if answer is not None else []
    fig = Figure(
        "The word's characters above their UTF-8 byte groups",
        f"The bytes are {right}"
        + (f"; your answer, {shown}, is written below them." if answer else "."),
    )
    x, top = 8.0, 0.0
    position = 0
    for k, (ch, group) in enumerate(zip(word, groups, strict=True)):
        w = len(group) * _BYTE_W + (len(group) - 1) * 4
        if x + w > _LINE_END and x > 8:
            x, top = 8.0, top + 116
        fig.box(x, top + 8, w, 30, _shown(ch), role="char", data={"index": k}, size=16)
        fig.label(x + w / 2, top + 52, f"U+{ord(ch):04X}", anchor="middle", size=12)
        _byte_boxes(fig, (x, top), k, group, position, shown)
        position += len(group)
        x += w + _GAP
    for extra in range(len(right), len(shown)):
        if x + _BYTE_W > _LINE_END:
            x, top = 8.0, top + 116
        fig.box(
            x,
            top + 90,
            _BYTE_W,
            26,
            str(shown[extra]),
            role="answer",
            style="wrong",
            data={"position": extra},
            mono=True,
        )
        x += _BYTE_W + 4
    fig.label(
        8,
        top + 134,
        "in each row: characters; below them their UTF-8 bytes; then your answer",
        size=12,
    )
    return fig.render()
