"""Seats as the rules see them: numbered 1 to the number of players."""

from __future__ import annotations

from typing import Protocol

from .refusals import Problem, Refusal


class Seated(Protocol):
    @property
    def players(self) -> int: ...


def seat_refused(state: Seated, seat: int) -> Refusal | None:
    """A command from a seat outside the game (seats are numbered 1 to N)."""
    if not 1 <= seat <= state.players:
        return Refusal("That seat is not in this game.", Problem.FORBIDDEN)
    return None
