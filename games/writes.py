"""An action's two writes, their SQL made once per database.

Every action moves its game's version (a conditional UPDATE: only from the version the
action read) and inserts its events. Through the ORM, Django builds a queryset, resolves
its lookups and compiles it to SQL for each of the two on every action, which cost more
than running them: 7 % of the daphne's Python under the bench (docs/performance.md). Here
the statements are written once per database from the models' own table and column names,
and each value is put in its column's form by that column's field
(``get_db_prep_save``: a JSON payload, an aware time on SQLite), as Django's own
``update`` and ``bulk_create`` do. Nothing else differs: the same statements, run on the
same connection, inside the caller's transaction; an error marks that transaction for
rollback, and a many-row insert lands whole or not at all, as with the ORM. A traceback
through this module shows none of its values (``config.reporter``: the rows carry the
events' JSON, a hidden key included).
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


def move_version(game_id: int, from_version: int, to_version: int, at: datetime) -> bool:
    """The game's version moved on, and its ``updated_at`` stamped, only if it still stands
    at ``from_version``. True if it did."""
    alias = DEFAULT_DB_ALIAS
    connection = connections[alias]
    stamp = _field(Game, "updated_at").get_db_prep_save(at, connection)
    with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
        cursor.execute(_update_sql(alias), [to_version, stamp, game_id, from_version])
        return bool(cursor.rowcount == 1)


def insert_events(rows: Sequence[Sequence[Any]]) -> None:
    """The events inserted, one row each (the values of ``EVENT_COLUMNS`` in that order),
    every row or none, as ``bulk_create``."""
    alias = DEFAULT_DB_ALIAS
    connection = connections[alias]
    fields = [_field(Event, name) for name in EVENT_COLUMNS]
    with transaction.atomic(alias, savepoint=False):
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            batch = rows[start : start + ROWS_A_STATEMENT]
            params = [
                field.get_db_prep_save(value, connection)
                for row in batch
                for field, value in zip(fields, row, strict=True)
            ]
            with connection.cursor() as cursor:
                cursor.execute(_insert_sql(alias, len(batch)), params)


@cache
def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    return cast("models.Field[Any, Any]", model._meta.get_field(name))


def _column(model: type[models.Model], name: str, alias: str) -> str:
    return connections[alias].ops.quote_name(_field(model, name).column)


def _table(model: type[models.Model], alias: str) -> str:
    return connections[alias].ops.quote_name(model._meta.db_table)


@lru_cache(maxsize=8)
def _update_sql(alias: str) -> str:
    version = _column(Game, "version", alias)
    return (
        f"UPDATE {_table(Game, alias)} SET {version} = %s, "  # noqa: S608 (no value written in)
        f"{_column(Game, 'updated_at', alias)} = %s "
        f"WHERE {_column(Game, 'id', alias)} = %s AND {version} = %s"
    )


@lru_cache(maxsize=8 * ROWS_A_STATEMENT)
def _insert_sql(alias: str, rows: int) -> str:
    columns = ", ".join(_column(Event, name, alias) for name in EVENT_COLUMNS)
    row = "(" + ", ".join(["%s"] * len(EVENT_COLUMNS)) + ")"
    return f"INSERT INTO {_table(Event, alias)} ({columns}) VALUES " + ", ".join([row] * rows)
