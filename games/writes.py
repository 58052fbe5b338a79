"""An action's two writes, their SQL made once per database.

Every action moves its game's version (a conditional UPDATE: only from the version the
action read) and inserts its events. Through the ORM, Django builds a queryset, resolves
its lookups and compiles it to SQL for each of the two on every action, which cost more
than running them: 7 % of the daphne's Python under the bench (docs/performance.md). Here
the statements are written once per database from the models' own table and column names,
and each value is put in its column's form by that column's field
(``get_db_prep_save``: a JSON payload, an aware time on SQLite), as Django's own
``update`` and ``bulk_create`` do. Nothing else differs: the same statements, run on the
same connection, inside the caller's transaction if there is one (else in one of their
own); an error marks that transaction for rollback, and a many-row insert lands whole or
not at all, as with the ORM. A traceback
through this module shows none of its values (``config.reporter``: the rows carry the
events' JSON, a hidden key included).

On PostgreSQL the two are one statement (``append_rows``): the UPDATE in a WITH, and the
INSERT of the rows only if the UPDATE moved the version, so an action that was decided
without a transaction writes in one round trip, atomic on its own; else, and on SQLite
(whose WITH takes no UPDATE), the UPDATE then the INSERT in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

from .models import Event, Game

EVENT_COLUMNS = ("game", "seq", "kind", "schema", "payload", "actor_seat", "created_at")
ROWS_A_STATEMENT = 100  # well within every database's limit on a statement's parameters


def append_rows(
    game_id: int,
    from_version: int,
    to_version: int,
    at: datetime,
    rows: Sequence[Sequence[Any]],
    *,
    ended_at: datetime | None = None,
) -> bool:
    """The game's version moved on from ``from_version`` (its ``updated_at`` stamped, and
    its ``ended_at`` if it has none and one is given) and the rows inserted, all or
    nothing, only if the game still stands at ``from_version``. True if it did."""
    alias = DEFAULT_DB_ALIAS
    connection = connections[alias]
    if connection.vendor == "postgresql" and 0 < len(rows) <= ROWS_A_STATEMENT:
        params = [*_version_params(game_id, from_version, to_version, at, ended_at), *_prep(rows)]
        with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
            cursor.execute(_append_sql(alias, len(rows)), params)
            return bool(cursor.rowcount == len(rows))
    with transaction.atomic(alias, savepoint=False):
        if not move_version(game_id, from_version, to_version, at, ended_at=ended_at):
            return False
        insert_events(rows)
        return True


def move_version(
    game_id: int, from_version: int, to_version: int, at: datetime, *, ended_at: datetime | None
) -> bool:
    """The game's version moved on, its ``updated_at`` stamped (and its ``ended_at``, if it
    has none and one is given), only if it still stands at ``from_version``. True if it
    did."""
    alias = DEFAULT_DB_ALIAS
    connection = connections[alias]
    params = _version_params(game_id, from_version, to_version, at, ended_at)
    with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
        cursor.execute(_update_sql(alias), params)
        return bool(cursor.rowcount == 1)


def _version_params(
    game_id: int, from_version: int, to_version: int, at: datetime, ended_at: datetime | None
) -> list[Any]:
    connection = connections[DEFAULT_DB_ALIAS]
    stamp = _field(Game, "updated_at").get_db_prep_save(at, connection)
    ended = _field(Game, "ended_at").get_db_prep_save(ended_at, connection)
    return [to_version, stamp, ended, game_id, from_version]


def insert_events(rows: Sequence[Sequence[Any]]) -> None:
    """The events inserted, one row each (the values of ``EVENT_COLUMNS`` in that order),
    every row or none, as ``bulk_create``."""
    alias = DEFAULT_DB_ALIAS
    connection = connections[alias]
    with transaction.atomic(alias, savepoint=False):
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            batch = rows[start : start + ROWS_A_STATEMENT]
            with connection.cursor() as cursor:
                cursor.execute(_insert_sql(alias, len(batch)), _prep(batch))


def _prep(rows: Sequence[Sequence[Any]]) -> list[Any]:
    """Each value in its column's form, by the column's field, row after row."""
    connection = connections[DEFAULT_DB_ALIAS]
    fields = [_field(Event, name) for name in EVENT_COLUMNS]
    return [
        field.get_db_prep_save(value, connection)
        for row in rows
        for field, value in zip(fields, row, strict=True)
    ]


@cache
def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    return cast("models.Field[Any, Any]", model._meta.get_field(name))


def _column(model: type[models.Model], name: str, alias: str) -> str:
    return connections[alias].ops.quote_name(_field(model, name).column)


def _type(model: type[models.Model], name: str, alias: str) -> str:
    """The column's type as the database names it (a foreign key's: its target's), to cast
    a value to (a text's without its length: a cast would cut a longer one short, where the
    column refuses it)."""
    field = _field(model, name)
    if isinstance(field, models.CharField):
        return str(connections[alias].ops.cast_char_field_without_max_length)
    found = field.db_type(connections[alias])
    if found is None:
        raise TypeError(f"{model.__name__}.{name} has no column type")
    return found


def _table(model: type[models.Model], alias: str) -> str:
    return connections[alias].ops.quote_name(model._meta.db_table)


@lru_cache(maxsize=8)
def _update_sql(alias: str) -> str:
    version = _column(Game, "version", alias)
    ended = _column(Game, "ended_at", alias)
    return (
        f"UPDATE {_table(Game, alias)} SET {version} = %s, "  # noqa: S608 (no value written in)
        f"{_column(Game, 'updated_at', alias)} = %s, {ended} = COALESCE({ended}, %s) "
        f"WHERE {_column(Game, 'id', alias)} = %s AND {version} = %s"
    )


@lru_cache(maxsize=8 * ROWS_A_STATEMENT)
def _append_sql(alias: str, rows: int) -> str:
    """PostgreSQL: the UPDATE, and the rows inserted only if it moved the version. Each
    value is cast to its column's type, as a VALUES list in a SELECT has no column to take
    its type from (a NULL seat in every row would be text)."""
    connection = connections[alias]
    names = ", ".join(_column(Event, name, alias) for name in EVENT_COLUMNS)
    cast = ", ".join(f"CAST(%s AS {_type(Event, name, alias)})" for name in EVENT_COLUMNS)
    row = f"({cast})"
    moved = connection.ops.quote_name("moved")
    given = connection.ops.quote_name("given")
    return (
        f"WITH {moved} AS ({_update_sql(alias)} RETURNING 1) "
        f"INSERT INTO {_table(Event, alias)} ({names}) "  # noqa: S608 (no value written in)
        f"SELECT {given}.* FROM (VALUES {', '.join([row] * rows)}) AS {given} ({names}) "
        f"CROSS JOIN {moved}"
    )


@lru_cache(maxsize=8 * ROWS_A_STATEMENT)
def _insert_sql(alias: str, rows: int) -> str:
    columns = ", ".join(_column(Event, name, alias) for name in EVENT_COLUMNS)
    row = "(" + ", ".join(["%s"] * len(EVENT_COLUMNS)) + ")"
    return f"INSERT INTO {_table(Event, alias)} ({columns}) VALUES " + ", ".join([row] * rows)
