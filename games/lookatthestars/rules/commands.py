"""What the server, a seat or the clock asks for (R6, R8, T3). A refusal is the kit's."""

from __future__ import annotations

from dataclasses import dataclass

from games.kit import Problem, Refusal, hiding

from .board import Design, Power
from .model import Drawing


@hiding("night")
@dataclass(frozen=True)
class Deal:
    """Set the table. Everything random is drawn by the server and passed in (R8): each
    seat's board design (seat 1's first, all different, S2), the 18 cards of the night in
    order (R1), the point card's id and the power card (S3). ``step_seconds``: the round's
    clock (None: off, T1)."""

    players: int
    designs: tuple[Design, ...]
    night: tuple[str, ...]
    point_card: str
    power: Power
    step_seconds: int | None = None


@hiding("drawing")
@dataclass(frozen=True)
class Submit:
    """R6: a seat's one submission for a round, naming the round (never the game's version:
    seats submitting at the same moment never conflict)."""

    seat: int
    round: int
    drawing: Drawing


@dataclass(frozen=True)
class Expire:
    """T3: the clock ran out on the round whose card was revealed at version ``step`` (the
    platform's clock names a step by that version, ``GameDefinition.clock``)."""

    step: int


Command = Deal | Submit | Expire

__all__ = ["Command", "Deal", "Expire", "Problem", "Refusal", "Submit"]
