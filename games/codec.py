"""Frozen dataclass events to JSON payloads and back, driven by their type hints.

Handles what game events are made of: str/int/bool, enums, datetimes, tuples, frozensets,
optionals and nested dataclasses. A game registers its event classes; the stored ``kind``
is the class name.

Events can evolve: each stored event carries the schema version it was written in. A game
declares (``EventSchemas``) the current version of each kind and the upcasters, pure
functions that turn a payload of version n into version n+1 (possibly of another kind: a
rename is an upcast). Reading an older event applies the chain before decoding; a version
newer than the code, or a missing upcaster, raises ``SchemaError`` (never a guess).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any

Payload = dict[str, Any]
# An upcaster: a payload of version n in, the kind and payload of version n+1 out.
Upcast = Callable[[Payload], tuple[str, Payload]]
FIRST_SCHEMA = 1


class SchemaError(Exception):
    """A stored event this code cannot read: newer than it knows, or no upcaster for it.
    The message names the kind and versions, never the payload (it may hold secrets)."""


@dataclass(frozen=True)
class EventSchemas:
    """How a game's events evolved. ``current``: each kind's version now (a kind not
    listed is at version 1). ``upcasts``: (kind, n) -> the upcaster from version n.

    To change a stored event (rename a field or the class, add or drop one): bump its
    kind's version in ``current`` and add an upcaster for the old version, a pure function
    from the old payload (plain JSON) to the new kind and payload, e.g.
    ``("CardTouched", 1): lambda p: ("CardTouched", {**p, "new": 0})``. A rename is an
    upcast to the new kind: ``("OldName", 1): lambda p: ("NewName", p)`` with
    ``current={"NewName": 2}``. Never edit or drop an upcaster once deployed: old games
    replay through it (tests/games/test_golden.py replays a recorded whole game)."""

    current: Mapping[str, int] = field(default_factory=dict)
    upcasts: Mapping[tuple[str, int], Upcast] = field(default_factory=dict)

    def version_of(self, kind: str) -> int:
        return self.current.get(kind, FIRST_SCHEMA)


class EventCodec:
    def __init__(
        self, event_types: typing.Iterable[type], schemas: EventSchemas | None = None
    ) -> None:
        self._types = {t.__name__: t for t in event_types}
        self._schemas = schemas or EventSchemas()
        _check_schemas(self._types, self._schemas)

    def encode(self, event: object) -> tuple[str, Payload]:
        kind = type(event).__name__
        if self._types.get(kind) is not type(event):
            raise TypeError(f"unregistered event {kind}")
        return kind, _to_json(event)

    def schema(self, kind: str) -> int:
        """The version an event of this kind is written in now."""
        return self._schemas.version_of(kind)

    def decode(self, kind: str, payload: Payload, schema: int | None = None) -> object:
        """The event stored as ``kind`` in version ``schema`` (None: the current one),
        upcast first when it is older."""
        if schema is not None:
            kind, payload = self.upcast(kind, payload, schema)
        if kind not in self._types:
            raise SchemaError(f"unknown event kind {kind}")
        return _decoder(self._types[kind])(payload)

    def upcast(self, kind: str, payload: Payload, schema: int) -> tuple[str, Payload]:
        """The kind and payload of the current version, from those of ``schema``."""
        while kind not in self._types or schema < self.schema(kind):
            step = self._schemas.upcasts.get((kind, schema))
            if step is None:
                raise SchemaError(_missing(kind, schema, self._types, self._schemas))
            kind, payload = step(payload)
            schema += 1
        if schema > self.schema(kind):
            raise SchemaError(
                f"{kind} version {schema} is newer than this code knows "
                f"(version {self.schema(kind)}): deploy the newer code to read it"
            )
        return kind, payload


def _missing(kind: str, schema: int, types: Mapping[str, type], schemas: EventSchemas) -> str:
    if kind not in types:
        return f"unknown event kind {kind} (version {schema}), and no upcaster from it"
    current = schemas.version_of(kind)
    return f"no upcaster for {kind} from version {schema} (current version {current})"


def _check_schemas(types: Mapping[str, type], schemas: EventSchemas) -> None:
    """A declaration that cannot be right fails when the game registers, not on a read."""
    for kind, version in schemas.current.items():
        if kind not in types:
            raise SchemaError(f"a current version is declared for unknown event kind {kind}")
        if version < FIRST_SCHEMA:
            raise SchemaError(f"{kind}: versions start at {FIRST_SCHEMA}")
    for kind, version in schemas.upcasts:
        if kind in types and version >= schemas.version_of(kind):
            raise SchemaError(f"an upcaster from {kind} version {version}, not older than now")


def to_json(value: Any) -> Any:
    """Any event or state as plain JSON (sets sorted): what a payload is made of."""
    return _to_json(value)


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_to_json(v) for v in value)
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _identity(value: Any) -> Any:
    return value


@cache
def _decoder(tp: Any) -> typing.Callable[[Any], Any]:
    """A function that rebuilds a value of type ``tp`` from JSON, made once per type: a
    replay decodes thousands of events, so the type hints are read only the first time."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        decode = _decoder(inner)
        return lambda v: None if v is None else decode(v)
    if origin in (tuple, frozenset):
        decode = _decoder(args[0])
        if decode is _identity:
            return origin
        return lambda v: origin(decode(x) for x in v)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        fields = {name: _decoder(hint) for name, hint in _hints(tp).items()}
        return lambda v: tp(**{k: fields[k](x) for k, x in v.items()})
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp
    if tp is datetime:
        return datetime.fromisoformat
    return _identity
