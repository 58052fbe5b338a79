"""Frozen dataclass events to JSON payloads and back, driven by their type hints.

Handles what game events are made of: str/int/bool, enums, datetimes, tuples, frozensets,
optionals and nested dataclasses. A game registers its event classes; the stored ``kind``
is the class name.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any


class EventCodec:
    def __init__(self, event_types: typing.Iterable[type]) -> None:
        self._types = {t.__name__: t for t in event_types}

    def encode(self, event: object) -> tuple[str, dict[str, Any]]:
        kind = type(event).__name__
        if self._types.get(kind) is not type(event):
            raise TypeError(f"unregistered event {kind}")
        return kind, _to_json(event)

    def decode(self, kind: str, payload: dict[str, Any]) -> object:
        return _decoder(self._types[kind])(payload)


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
