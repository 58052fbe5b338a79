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
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

from .models import Event, Game

EVENT_COLUMNS = ("game", "seq", "kind", "schema", "payload", "actor_seat", "created_at")
ROWS_A_STATEMENT = 100  # well within every database's limit on a statement's parameters


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    return cast("models.Field[Any, Any]", model._meta.get_field(name))


def _column(model: type[models.Model], name: str, alias: str) -> str:
    return connections[alias].ops.quote_name(_field(model, name).column)


def _table(model: type[models.Model], alias: str) -> str:
    return connections[alias].ops.quote_name(model._meta.db_table)


class VersionMove:
    """``run(game, from_version, to_version, at)``: the game's version moved on, and its
    ``updated_at`` stamped, only if it still stands at ``from_version``. True if it did."""

    def __init__(self) -> None:
        self._sql: dict[str, str] = {}
        self._stamp = _field(Game, "updated_at")

    def run(self, game_id: int, from_version: int, to_version: int, at: datetime) -> bool:
        alias = DEFAULT_DB_ALIAS
        connection = connections[alias]
        stamp = self._stamp.get_db_prep_save(at, connection)
        with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
            cursor.execute(self._statement(alias), [to_version, stamp, game_id, from_version])
            return bool(cursor.rowcount == 1)

    def _statement(self, alias: str) -> str:
        sql = self._sql.get(alias)
        if sql is None:
            version = _column(Game, "version", alias)
            sql = self._sql[alias] = (
                f"UPDATE {_table(Game, alias)} SET {version} = %s, "
                f"{_column(Game, 'updated_at', alias)} = %s "
                f"WHERE {_column(Game, 'id', alias)} = %s AND {version} = %s"
            )
        return sql


class EventInsert:
    """``run(rows)``: the events inserted, one row each, in one statement; each row is the
    values of ``EVENT_COLUMNS`` in that order (the game's id first)."""

    def __init__(self) -> None:
        self._sql: dict[tuple[str, int], str] = {}
        self._fields = tuple(_field(Event, name) for name in EVENT_COLUMNS)

    def run(self, rows: Sequence[Sequence[Any]]) -> None:
        alias = DEFAULT_DB_ALIAS
        with transaction.atomic(alias, savepoint=False):  # every row or none, as bulk_create
            self._insert(alias, rows)

    def _insert(self, alias: str, rows: Sequence[Sequence[Any]]) -> None:
        connection = connections[alias]
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            batch = rows[start : start + ROWS_A_STATEMENT]
            params: list[Any] = []
            for row in batch:
                if len(row) != len(self._fields):
                    raise ValueError(f"an event row has {len(self._fields)} values, not {len(row)}")
                params += [
                    field.get_db_prep_save(value, connection)
                    for field, value in zip(self._fields, row, strict=True)
                ]
            with connection.cursor() as cursor:
                cursor.execute(self._statement(alias, len(batch)), params)

    def _statement(self, alias: str, count: int) -> str:
        sql = self._sql.get((alias, count))
        if sql is None:
            columns = ", ".join(_column(Event, name, alias) for name in EVENT_COLUMNS)
            row = "(" + ", ".join(["%s"] * len(EVENT_COLUMNS)) + ")"
            sql = self._sql[(alias, count)] = (
                f"INSERT INTO {_table(Event, alias)} ({columns}) VALUES " + ", ".join([row] * count)
            )
        return sql
