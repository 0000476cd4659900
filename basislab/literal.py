"""Choice values written into a statement's text, for columns a partial index is conditioned on.

SQLite compiles a statement once and runs it again with new bound values, except when a bound
value is compared with a column that a partial index's condition names: then it compiles the
statement again on every run, in case this value lets it use the index. ``practice_probleminstance``
has one (at most one open practice problem per idea and kind: ``state = 'open' AND purpose =
'practice'``), so every read that filters problems by a bound state or purpose paid a full
compile each time: about 90 µs of Continue's 110 µs statement. Written into the text, the same
value keeps the compiled statement (on PostgreSQL a written-in value is as good or better:
a plan may then use the partial index).

Only a model's choice values are written in: lower-case words, checked, so there is nothing to
escape; anything else is refused. ``tests/practice/test_sqlite_statements.py`` checks that no
warm request of the practice loop compiles a statement again.
"""

import re

from django.db.models import CharField, Value

_PLAIN = re.compile(r"[a-z_]+")


def choice_literal(value: str) -> str:
    """Return a choice value as an SQL string literal; refuse anything but lower-case words."""
    if not isinstance(value, str) or not _PLAIN.fullmatch(value):
        raise ValueError(f"not a plain choice value: {value!r}")
    return f"'{value}'"


class Choice(Value):
    """A choice value the ORM writes into the statement instead of binding it:
    ``.filter(purpose=Choice(ProblemInstance.Purpose.REVIEW))``."""

    def __init__(self, value: str) -> None:
        choice_literal(value)  # refused at once, not when the query is first compiled
        super().__init__(str(value), output_field=CharField())

    def as_sql(self, compiler, connection):
        return choice_literal(self.value), []
