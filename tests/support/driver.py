"""Play any game's pure rules to the end with a chooser: the engine of the property tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

Chooser = Callable[[list[Any]], Any]


def decided(rules: ModuleType, state: Any, command: Any, now: datetime) -> list[object]:
    decision = rules.decide(state, command, now)
    assert not isinstance(decision, rules.Refusal), (command, decision)
    return decision


def when(rules: ModuleType, state: Any, command: Any, clock: datetime) -> datetime:
    """An expiry happens just after the deadline; anything else just after the last event."""
    if isinstance(command, rules.Expire):
        return state.deadline + timedelta(milliseconds=1)
    return clock + timedelta(seconds=1)


def play_out(
    rules: ModuleType,
    first: Any,
    legal: Callable[[Any, random.Random], list[Any]],
    choose: Chooser,
    rng: random.Random,
    *,
    start: datetime,
    limit: int,
) -> tuple[Any, list[list[object]], list[Any]]:
    """Play a game to its end (or ``limit`` commands): each step's events and each state."""
    clock = start
    state = rules.fold(decided(rules, rules.State(), first, clock))
    batches: list[list[object]] = []
    states = [state]
    for _ in range(limit):
        if state.ended:
            break
        command = choose(legal(state, rng))
        clock = when(rules, state, command, clock)
        events = decided(rules, state, command, clock)
        state = rules.fold(events, state)
        batches.append(events)
        states.append(state)
    return state, batches, states
