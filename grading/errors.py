"""The error every answer reader raises on learner text it cannot read."""

from __future__ import annotations


class AnswerError(Exception):
    """Raise when learner text cannot be read; `.message` says what and where.

    `column` (1-based) points into the learner's text; `bound` names the bound that refused
    it (`length`, `character`, `tokens`, `digits`, `depth`, `power`, `exp`, `size`, `time`,
    `count`), empty for text that is simply unreadable; `tex` is what was read, when the text
    was read but is not of the answer's shape."""

    def __init__(
        self, message: str, *, column: int | None = None, bound: str = "", tex: str = ""
    ) -> None:
        if column is not None:
            message = f"{message} (at column {column})"
        super().__init__(message)
        self.message = message
        self.column = column
        self.bound = bound
        self.tex = tex


def as_sentence(message: str) -> str:
    """Return a reason as a sentence: its first letter capitalised, a full stop at its end
    (messages are built as clauses, so they can also be nested in other messages)."""
    message = message.strip()
    if not message:
        return message
    if message[-1] not in ".!?":
        message += "."
    return message[0].upper() + message[1:]
