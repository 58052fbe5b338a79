"""A hot ORM query compiled to SQL once, then run with new values.

Django compiles a queryset to SQL every time it runs it. For the query every action and
page load starts with, a player with their room, its game and its match (three relations,
``select_related``), compiling was most of the query's cost: 6 % of the daphne's Python
under the bench (docs/performance.md). A prepared query is that queryset, made once with
stand-in values, compiled once per thread and database, and run after by putting the values
in the stand-ins' places. Its rows become model instances, relations included, by the steps
of Django's own ``ModelIterable`` (Django 5.2), with the compiler that made its SQL.

Only values compared as they are (an exact lookup on a text or an integer field) can be
bound: a value a lookup changes (``__contains``) would not be found in the compiled
parameters, and preparing such a query fails at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.query import (  # type: ignore[attr-defined]
    ModelIterable,
    get_related_populators,
)

M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    places: tuple[int | None, ...]  # each parameter: the bound value's index, or None (fixed)
    fixed: tuple[Any, ...]
    compiler: Any  # the SQLCompiler that made the SQL: its select, klass_info
    converters: dict[int, Any]  # the compiler's converters of the selected columns, by place
    init_list: tuple[str, ...]
    fields: slice
    populators: list[Any]


class Prepared(Generic[M]):
    """``Prepared(lambda code: Room.objects.filter(code=code)[:1], str)``: ``run(code)`` is
    that queryset's list, its SQL compiled once. Each value's type is given (``str`` or
    ``int``): its stand-in is made of it."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], *kinds: type) -> None:
        if not kinds or any(kind not in (str, int) for kind in kinds):
            raise TypeError("a prepared query binds text and integers")
        self.build = build
        self.kinds = kinds
        self.arity = len(kinds)
        self._local = threading.local()  # a compiler holds its thread's connection

    def run(self, *values: str | int, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        if len(values) != self.arity:
            raise TypeError(f"this query takes {self.arity} values, not {len(values)}")
        compiled = self._compiled(using)
        params = [
            compiled.fixed[i] if place is None else values[place]
            for i, place in enumerate(compiled.places)
        ]
        with connections[using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        return self._objects(compiled, rows, using)

    def first(self, *values: str | int, using: str = DEFAULT_DB_ALIAS) -> M | None:
        found = self.run(*values, using=using)
        return found[0] if found else None

    def _compiled(self, using: str) -> _Compiled:
        known: dict[str, _Compiled] = self._local.__dict__.setdefault("compiled", {})
        compiled = known.get(using)
        if compiled is None:
            compiled = known[using] = self._compile(using)
        return compiled

    def _compile(self, using: str) -> _Compiled:
        stand_ins = [_stand_in(kind, n) for n, kind in enumerate(self.kinds)]
        queryset = self.build(*stand_ins)
        _check_plain(queryset)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        places = tuple(stand_ins.index(p) if p in stand_ins else None for p in params)
        if sorted(p for p in places if p is not None) != list(range(self.arity)):
            raise ValueError("each value must appear once, as given, in the query's parameters")
        fixed = [p for p, place in zip(params, places, strict=True) if place is None]
        if _carries_stand_in(fixed, sql, stand_ins):
            raise ValueError("a value is also used changed (by a lookup) in the query")
        klass_info = compiler.klass_info
        start, *_, end = klass_info["select_fields"]
        init_list = tuple(f[0].target.attname for f in compiler.select[start : end + 1])
        populators = get_related_populators(klass_info, compiler.select, using)
        columns = [column[0] for column in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("a prepared query reads no composite primary key")
        converters = compiler.get_converters(columns)
        return _Compiled(
            sql,
            places,
            tuple(params),
            compiler,
            converters,
            init_list,
            slice(start, end + 1),
            populators,
        )

    @staticmethod
    def _objects(compiled: _Compiled, rows: list[tuple[Any, ...]], using: str) -> list[M]:
        """``ModelIterable.__iter__``'s steps for these rows. Its ``results_iter`` asks the
        backend for every column's converters each time; they are the compiled columns',
        found once (``_compile``)."""
        compiler = compiled.compiler
        model = compiler.klass_info["model"]
        found = []
        converted = (
            compiler.apply_converters(rows, compiled.converters) if compiled.converters else rows
        )
        for row in converted:
            obj = model.from_db(using, compiled.init_list, row[compiled.fields])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiler.annotation_col_map.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found


def _check_plain(queryset: models.QuerySet[Any]) -> None:
    """Refuse what the steps above would silently leave out: only a plain list of model
    instances, on the database ``run`` is given, with ``select_related`` at most."""
    if queryset._iterable_class is not ModelIterable:  # values(), values_list()
        raise ValueError("a prepared query returns model instances")
    if queryset._prefetch_related_lookups or queryset._known_related_objects:  # type: ignore[attr-defined]
        raise ValueError("a prepared query cannot prefetch")
    if queryset._db is not None or queryset.query.combinator:  # type: ignore[attr-defined]
        raise ValueError("a prepared query runs alone, on the database it is given")


def _carries_stand_in(fixed: list[Any], sql: str, stand_ins: list[str | int]) -> bool:
    """A value also used changed: a fixed parameter made from it (``value + "%"``), or a
    number written into the SQL. Either would keep the stand-in when the query runs."""
    texts = [s for s in stand_ins if isinstance(s, str)]
    numbers = [str(n) for n in stand_ins if isinstance(n, int)]
    made = any(isinstance(p, str) and any(t in p for t in texts) for p in fixed)
    return made or any(number in sql for number in numbers)


def _stand_in(kind: type, n: int) -> str | int:
    """A value no query is written with, in the place of the ``n``-th value: an integer in
    range of an integer field on every database (Django leaves out a lookup of a value out
    of its field's range; a ``SmallIntegerField`` is too small on PostgreSQL, and fails when
    first compiled there), and of no row this project will have."""
    return f"\x00prepared {n}\x00" if kind is str else 2**31 - 1001 - n
