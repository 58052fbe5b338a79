"""The step clock as the rules see it: a deadline is a moment written into an event, and
``now`` always comes from the caller, so the rules never read a clock.

A game's state answers ``Clocked``; each game names what the clock runs (Constellate's
"step", Under One Sky's "turn") so that refusals read in its words.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol, TypeVar

from .refusals import Decision, Problem, Refusal


class Clocked(Protocol):
    """What the clock reads of a game's state."""

    @property
    def dealt(self) -> bool: ...

    @property
    def ended(self) -> bool: ...

    @property
    def step_started(self) -> int: ...  # the version of the event that started the step

    @property
    def deadline(self) -> datetime | None: ...

    @property
    def step_seconds(self) -> int | None: ...  # None: the clock is off for the whole game


C = TypeVar("C", bound=Clocked)


def deadline_after(step_seconds: int | None, now: datetime) -> datetime | None:
    """The deadline of a step starting ``now`` (None: the clock is off)."""
    return None if step_seconds is None else now + timedelta(seconds=step_seconds)


def due(state: Clocked, now: datetime) -> bool:
    """The running step's deadline has passed: the clock's command would expire it."""
    return not state.ended and state.deadline is not None and now >= state.deadline


def time_is_up(state: Clocked, now: datetime, *, called: str = "step") -> Refusal | None:
    """A player's command at or after the deadline is too late, even before the clock's
    job has run: the service applies the expiry first."""
    if state.deadline is not None and now >= state.deadline:
        return Refusal(f"Time is up for this {called}.", Problem.CONFLICT)
    return None


def in_play(state: Clocked, now: datetime, *, undealt: str, called: str = "step") -> Refusal | None:
    """A player may act only between the deal and the end, before the step's deadline."""
    if not state.dealt:
        return Refusal(undealt, Problem.CONFLICT)
    if state.ended:
        return Refusal("The game is over.", Problem.CONFLICT)
    return time_is_up(state, now, called=called)


def expiry_refused(
    state: Clocked, step: int, now: datetime, *, called: str = "step"
) -> Refusal | None:
    """The guard on the clock's own command: it expires only the step still running
    (the one that started at version ``step``), and only once its time is up, so a late
    or repeated job changes nothing."""
    if not state.dealt or state.ended:
        return Refusal("The game is not running.", Problem.CONFLICT)
    if step != state.step_started:
        return Refusal(f"That {called} is already over.", Problem.CONFLICT)
    if state.deadline is None:
        return Refusal(f"This {called} has no clock.", Problem.CONFLICT)
    if now < state.deadline:
        return Refusal(f"This {called} still has time.", Problem.CONFLICT)
    return None


def expire_if_due(state: C, now: datetime, expire: Callable[[C], Decision]) -> list[object]:
    """If the running step's deadline has passed, the events that expire it (else none):
    ``expire(state)`` decides the clock's command for that step. The service applies these
    before any action, so the game is right even when the clock's job is late."""
    if not due(state, now):
        return []
    decision = expire(state)
    return decision if isinstance(decision, list) else []
