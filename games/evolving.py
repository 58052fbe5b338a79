"""Pure helpers the games' rules share (no Django, no I/O): folding events into a state,
a cheap copy of a frozen state with some fields changed, and a repr that hides secrets."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

S = TypeVar("S")


def with_changes(state: S, **changes: Any) -> S:
    """``dataclasses.replace`` without re-running ``__init__``: a fold makes hundreds of
    these. Only for frozen dataclasses without ``__post_init__`` or slots."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def make_fold(evolve: Callable[[S, object], S], initial: Callable[[], S]) -> Callable[..., S]:
    """``fold(events, state=None)``: the state after every event, from ``initial()``."""

    def fold(events: Iterable[object], state: S | None = None) -> S:
        state = initial() if state is None else state
        for event in events:
            state = evolve(state, event)
        return state

    return fold


T = TypeVar("T", bound=type)


def hiding(*secrets: str) -> Callable[[T], T]:
    """A class decorator for a dataclass whose ``secrets`` fields nobody may read from a log:
    its repr (and so str, log lines and tracebacks) shows ``key=<hidden>`` instead of the
    value, so an error can never carry a game's key, cards or stack."""

    def decorate(cls: T) -> T:
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = set(secrets) - set(names)
        assert not unknown, f"{cls.__name__} has no field {unknown}"

        def __repr__(self: object) -> str:
            shown = (
                f"{name}=<hidden>" if name in secrets else f"{name}={getattr(self, name)!r}"
                for name in names
            )
            return f"{type(self).__qualname__}({', '.join(shown)})"

        cls.__repr__ = __repr__  # type: ignore[method-assign]
        return cls

    return decorate
