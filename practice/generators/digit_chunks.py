"""``digit_chunks``: cut a number into digit pieces from the left; say what one digit is worth."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from grading.kinds._markdown import md_emphasis
from grading.kinds.digit_chunks import chunks_from_left

from .base import Draw, ProblemGenerator
from .draw.text_figures import BOX_HEIGHT, first_part_pieces, label, legend, svg_root

# Sentences a number really turns up in; {n} is the number.
CONTEXTS: tuple[str, ...] = (
    "The warehouse counted {n} boxes.",
    "Her order number is {n}.",
    "The town had {n} visitors last year.",
    "The invoice total was {n} dollars.",
    "The telescope logged {n} stars.",
    "The file is {n} bytes long.",
)

GROUP = 3
# At most this many digits after the marked one, so its worth stays short to type (9000000).
MAX_AFTER = 6


@dataclass(frozen=True)
class DigitLevel:
    lengths: tuple[int, ...]


# Lengths that are not multiples of the group, so that grouping from the right differs.
DIGIT_LEVELS: dict[int, DigitLevel] = {
    1: DigitLevel(lengths=(4,)),
    2: DigitLevel(lengths=(5,)),
    3: DigitLevel(lengths=(7, 8)),
    4: DigitLevel(lengths=(8, 10)),
}

ORDINALS = (
    "1st",
    "2nd",
    "3rd",
    "4th",
    "5th",
    "6th",
    "7th",
    "8th",
    "9th",
    "10th",
    "11th",
    "12th",
    "13th",
    "14th",
    "15th",
)


class DigitChunksGenerator(ProblemGenerator):
    kind: ClassVar[str] = "digit_chunks"
    name: ClassVar[str] = "digit_chunks"
    version: ClassVar[int] = 1
    number: ClassVar[int] = 13
    levels: ClassVar[tuple[int, ...]] = (1, 2, 3, 4)

    def draw_fields(self, draw: Draw, level: int, target: str | None) -> dict:
        length = draw.choice(DIGIT_LEVELS[level].lengths)
        digits = [draw.integer(1, 9), *(draw.integer(0, 9) for _ in range(length - 1))]
        number = "".join(str(d) for d in digits)
        # The marked digit sits before the last piece (so its piece hides digits after it) and
        # is not 0 (a 0 is worth 0 whatever its place), with at most MAX_AFTER digits after it.
        last_start = (length - 1) // GROUP * GROUP
        candidates = [
            k for k in range(last_start) if number[k] != "0" and length - 1 - k <= MAX_AFTER
        ]
        marked = draw.choice(candidates) if candidates else 0
        return {
            "context": draw.choice(CONTEXTS),
            "number": number,
            "group": GROUP,
            "marked": marked,
        }

    def plausible(self, spec: dict, target: str | None) -> bool:
        number, marked = spec["number"], spec["marked"]
        return (
            number[marked] != "0"
            and marked < (len(number) - 1) // GROUP * GROUP
            and len(number) - 1 - marked <= MAX_AFTER
        )

    def statement(self, spec: dict) -> str:
        number, group, marked = spec["number"], spec["group"], spec["marked"]
        sentence = spec.get("context", "The number is {n}.").replace("{n}", number)
        digit = number[marked]
        return "\n".join(
            [
                f"A tokenizer cuts every run of digits into pieces of up to {group} digits, "
                f"**counting from the left**: the first piece takes the first {group} digits, "
                f"the next piece the next {group}, and only the last piece may be shorter.",
                "",
                f"The text {md_emphasis(sentence)} holds the number ${number}$ "
                f"({len(number)} digits).",
                "",
                "1. Write the number's pieces, in order.",
                f"2. The **{ORDINALS[marked]} digit from the left** is a ${digit}$. What is it "
                f"worth in the whole number? A digit is worth the digit times $10^k$, where $k$ "
                f"is the number of digits after it (the $2$ in $1234$ is worth "
                f"$2 \\times 10^2 = 200$).",
                "",
                "Answer with the pieces separated by `|`, a semicolon, then the worth, for "
                "example `10 | 20; 3000`.",
            ]
        )

    def picture(self, spec: dict, answer: Any = None, *, solution: bool | None = None) -> str:
        reveal = answer is not None if solution is None else solution
        number, marked = spec["number"], spec["marked"]
        x0, y0, cell = 16, 34, 26
        body: list[str] = []
        for k, digit in enumerate(number):
            x = x0 + k * (cell + 2)
            fill = "#ede9fe" if k == marked else "none"
            colour = "#7c3aed" if k == marked else "#6b7280"
            body.append(
                f'<rect x="{x}" y="{y0}" width="{cell}" height="{BOX_HEIGHT}" rx="3" '
                f'fill="{fill}" stroke="{colour}" stroke-width="1.5" data-role="digit" '
                f'data-index="{k}" data-text="{digit}"/>'
            )
            body.append(label(x + cell / 2, y0 + 18, digit, anchor="middle"))
            body.append(label(x + cell / 2, y0 - 8, str(k + 1), anchor="middle", colour="#9ca3af"))
        width = max(2 * x0 + len(number) * (cell + 2), 180)  # the legend needs 180 px
        height = y0 + BOX_HEIGHT + 16
        title = f"The digits of {number}, the {ORDINALS[marked]} marked"
        desc = "Each digit in a box, numbered from the left; the marked digit is shaded."
        if reveal:
            right = chunks_from_left(number, spec["group"])
            rows = [("right", right, "the right pieces")]
            pieces = first_part_pieces(answer)
            if pieces is not None and "".join(pieces) == number:
                rows.append(("answer", pieces, "your pieces"))
            desc += " Below: " + "; ".join(f"{words}: {' '.join(p)}" for _, p, words in rows) + "."
            for role, pieces_row, _ in rows:
                y = height
                x = x0
                for index, piece in enumerate(pieces_row):
                    w = len(piece) * (cell + 2) - 2
                    # One box spanning the piece's digits, aligned under them.
                    body.append(
                        f'<rect x="{x}" y="{y}" width="{w}" height="{BOX_HEIGHT}" rx="4" '
                        f'fill="none" stroke-width="2" stroke="'
                        f'{"#047857" if role == "right" else "#c2410c"}" data-role="{role}" '
                        f'data-index="{index}" data-text="{piece}"/>'
                    )
                    body.append(label(x + w / 2, y + 18, piece, anchor="middle"))
                    x += w + 2
                height += BOX_HEIGHT + 10
            body.extend(legend(x0, height + 8, [(r, w) for r, _, w in rows]))
            height += 18 * len(rows) + 10
        return svg_root(width, height, title, desc, body)
