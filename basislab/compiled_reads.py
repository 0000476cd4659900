"""Compiled reads: a select the ORM compiles once per process and connection, then runs with
new values.

Building a query costs Django far more than running it: on the Verdict page's attempt lookup
(three joins) about 1 ms to build and make models against 0.1 ms to run on SQLite. The hot
reads of every practice request (the ownership-checked lookups, the review card's lock) are
the same statement each time with other ids, so a ``CompiledRead`` asks the ORM for the SQL once,
with a placeholder id in each slot, and afterwards only binds the ids, runs the statement and
makes the rows into models with the ORM's own converters and related-object populators. The
statement is the ORM's, so ownership filters, joins and ordering are exactly the queryset's;
tests compare each compiled read with its queryset (docs/practice.md lists the reads and their
tests; tests/practice/test_compiled_reads.py tests this module). The statement is compiled by the
ORM in Python; it is not a prepared statement of the database (psycopg's server-side prepared
statements are ``DATABASE_PREPARED_STATEMENTS``, basislab/settings.py), though on PostgreSQL the
statement it sends may be prepared by psycopg like any other.

Values are whole numbers (ids) or strings (slugs), named with their type. A placeholder must
come through the ORM unchanged as one parameter, so a lookup that rewrites its value (``contains``)
or whose SQL depends on it (``None``, a list) is refused when the read is first compiled.
The checks the ORM makes while compiling are made then, once per connection: a
``select_for_update()`` read must first run inside a transaction, as the ORM requires, and a
later run outside one is not refused again (the reads here run inside the submit's).
"""

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

# Placeholders no row has: negative ids far from any sequence, yet inside a 32-bit integer
# field's range (the ORM drops a lookup out of a field's range before any SQL is made), and
# strings no slug can be.
_PLACEHOLDER_BASE = -2_000_000_001


def _placeholder(index: int, kind: type) -> int | str:
    if kind is int:
        return _PLACEHOLDER_BASE - index
    if kind is str:
        return f"\x00compiled-read placeholder {index}\x00"
    raise TypeError(f"a compiled read binds int or str values, not {kind.__name__}")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    slots: tuple[str | None, ...]  # the value's name for each parameter, None for a constant
    constants: tuple[Any, ...]
    compiler: Any  # the ORM's compiler: its select list and converters make the rows
    converters: dict
    init_list: list[str]
    model_slice: slice
    populators: list
    annotations: tuple[tuple[str, int], ...]  # each annotation's name and column, as the ORM


class CompiledRead:
    """A queryset built from named values, compiled once per connection.

    ``build`` takes the values by name and returns the queryset; ``types`` names each value's
    type (int or str); ``rows(**values)`` runs it.
    """

    def __init__(self, build: Callable[..., QuerySet], *, using: str = "default", **types: type):
        for index, kind in enumerate(types.values()):
            _placeholder(index, kind)  # refuses a type it cannot bind, at import
        self._build = build
        self._types = types
        self._using = using
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def rows(self, **values: int | str) -> list[Model]:
        """Run the select with these values; return its rows as model instances."""
        if values.keys() != self._types.keys():
            raise TypeError(f"expected values for {sorted(self._types)}, got {sorted(values)}")
        connection = connections[self._using]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = self._compile(connection)
        params = tuple(
            self._types[name](values[name]) if name is not None else constant
            for name, constant in zip(compiled.slots, compiled.constants, strict=True)
        )
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        return self._models(compiled, fetched)

    def _compile(self, connection) -> _Compiled:
        placeholders = {
            name: _placeholder(index, kind)
            for index, (name, kind) in enumerate(self._types.items())
        }
        queryset = self._build(**placeholders)
        if queryset._iterable_class is not ModelIterable:
            raise ValueError("a compiled read makes models: not values() or values_list()")
        compiler = queryset.query.get_compiler(connection=connection)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet as exc:
            raise ValueError(
                f"the ORM made no statement for placeholders {placeholders} (a value out of a "
                "field's range, as a negative id in a positive field): bind another field"
            ) from exc
        by_value = {(type(v), v): name for name, v in placeholders.items()}
        slots = tuple(
            by_value.get((type(p), p)) if isinstance(p, int | str) else None for p in params
        )
        missing = set(self._types) - set(slots)
        if missing:
            raise ValueError(f"the query does not bind {sorted(missing)} as a plain parameter")
        klass_info, select = compiler.klass_info, compiler.select
        fields = select[klass_info["select_fields"][0] : klass_info["select_fields"][-1] + 1]
        start = klass_info["select_fields"][0]
        return _Compiled(
            sql=sql,
            slots=slots,
            constants=tuple(params),
            compiler=compiler,
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            init_list=[f[0].target.attname for f in fields],
            model_slice=slice(start, start + len(fields)),
            populators=get_related_populators(klass_info, select, connection.alias),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )

    def _models(self, compiled: _Compiled, fetched: list) -> list[Model]:
        rows = fetched
        if compiled.converters:
            rows = compiled.compiler.apply_converters(fetched, compiled.converters)
        model = compiled.compiler.klass_info["model"]
        alias = compiled.compiler.connection.alias
        objects = []
        for row in rows:
            obj = model.from_db(alias, compiled.init_list, row[compiled.model_slice])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, column in compiled.annotations:
                setattr(obj, name, row[column])
            objects.append(obj)
        return objects
