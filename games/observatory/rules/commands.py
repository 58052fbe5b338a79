"""What the server, a seat or the clock asks for. A refusal is the kit's.

Decision (D2, N5): the server rolls the four dice of a turn when the turn starts, and a turn
starts as the result of another command: the deal of a first game, the last seat's choice,
submission or pick that closes a step, or the clock's expiry. So every one of these commands
carries ``dice``, drawn by the server (never by the seat: the platform fills the field); they
are stored in ``TurnStarted`` only when the command does start a turn, and ignored otherwise.
A command that starts a turn without them is refused and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kit import Problem, Refusal, hiding

from .model import Take
from .sheet import Dice
from .steps import Step


@hiding("large", "small", "dice")
@dataclass(frozen=True)
class Deal:
    """Set the table. Everything random is drawn by the server and passed in: both decks
    shuffled (top first, G1), the first player (N3) and, for a first game (G2: no choosing
    step, the first turn starts at once), the first turn's dice. ``step_seconds``: the step's
    clock (None: off, T1)."""

    players: int
    large: tuple[str, ...]
    small: tuple[str, ...]
    first_player: int
    first_game: bool = False
    step_seconds: int | None = None
    dice: Dice | None = None


@hiding("keep", "dice")
@dataclass(frozen=True)
class Choose:
    """G3: a seat keeps four of its six dealt cards (the other two go back), naming the
    choice's round."""

    seat: int
    round: int
    keep: tuple[str, ...]
    dice: Dice | None = None


@hiding("steps", "dice")
@dataclass(frozen=True)
class Submit:
    """U1: a seat's one submission for a turn or a Night opening, naming the round (never
    the game's version: seats submitting at the same moment never conflict)."""

    seat: int
    round: int
    steps: tuple[Step, ...]
    dice: Dice | None = None


@hiding("dice")
@dataclass(frozen=True)
class Pick:
    """G5, G6: the drafting seat takes one replacement, naming the game's version it saw (a
    second tap on a slot just refilled is stale, not a second pick)."""

    seat: int
    version: int
    take: Take
    dice: Dice | None = None


@hiding("dice")
@dataclass(frozen=True)
class Expire:
    """T3-T6: the clock ran out on the step that started at version ``step`` (the
    platform's clock names a step by that version)."""

    step: int
    dice: Dice | None = None


Command = Deal | Choose | Submit | Pick | Expire

__all__ = ["Choose", "Command", "Deal", "Expire", "Pick", "Problem", "Refusal", "Submit"]
