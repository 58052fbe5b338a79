"""How a rule says no: a ``Refusal`` carries a reason a person can read and the kind of
problem, from which the edges pick a status code. A decision is the events a command makes,
or a refusal: nothing happens, and here is why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Problem(StrEnum):
    """The kind of refusal, for the edges to pick a status code."""

    FORBIDDEN = "forbidden"  # not your seat, not your role, not your turn
    CONFLICT = "conflict"  # wrong step, stale version, game over, time is up
    INVALID = "invalid"  # a value out of range, malformed or not allowed here
    WORD = "word"  # a word check refused what the player typed: the turn is not spent


@dataclass(frozen=True)
class Refusal:
    """A command that breaks a rule: nothing happens, and here is why, for a person."""

    reason: str
    problem: Problem = Problem.INVALID


Decision = list[object] | Refusal


def stale(version: int, current: int, reason: str) -> Refusal | None:
    """A command made against a version another action already replaced: refused, and the
    player's view refreshes (``reason`` says so in the game's words)."""
    if version != current:
        return Refusal(reason, Problem.CONFLICT)
    return None
