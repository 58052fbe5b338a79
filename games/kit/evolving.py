"""Folding events into a state, and the cheap copy of a frozen state each event makes."""

from __future__ import annotations

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
