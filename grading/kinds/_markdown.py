"""Write text from a spec into Markdown safely: as a code span, or emphasised prose.

Specs may be written by authors, so a word or a piece can hold Markdown's own characters
(`*`, a backtick, `|`, `<`); these helpers keep it literal. Spaces in pieces are shown as `▁`.
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()>#+\-.!|~])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", "$": "&#36;"}
SPACE_MARK = "▁"


def md_code(text: str, *, spaces: bool = True) -> str:
    """Return ``text`` as a Markdown code span (spaces as ``▁`` unless ``spaces`` is False),
    fenced with more backticks than any run inside it."""
    shown = text.replace(" ", SPACE_MARK) if spaces else text
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    if longest or shown.startswith(" ") or shown.endswith(" "):
        return f"{fence} {shown} {fence}"
    return f"{fence}{shown}{fence}"


def md_text(text: str) -> str:
    """Return ``text`` with Markdown's special characters escaped (and ``$``, ``<``, ``&`` as
    character references, so no formula or tag opens)."""
    escaped = _SPECIAL.sub(r"\\\1", text)
    return "".join(_ENTITIES.get(ch, ch) for ch in escaped)


def md_emphasis(text: str) -> str:
    """Return ``text`` escaped and emphasised: ``*word*``."""
    return f"*{md_text(text)}*"
