"""What happened: frozen events, named in the past tense (R9). Each carries every random
draw (R8) and every deadline (T2), so folding them never rolls dice or reads a clock.

The submission and the close are the kit's simultaneous-round events (``games.kit.rounds``)
with the submission's type written out, so the codec can store them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import kit
from games.kit import hiding

from .board import Design, Power
from .model import Drawing
from .scoring import ScoreSheet


@hiding("night")
@dataclass(frozen=True)
class GameDealt:
    """R8, R9, S2, S3: who plays, each seat's board design (seat 1's first), the 18 cards of
    the night in order (secret until revealed, V4), the point card, the power card and the
    round's clock (None: off, T1)."""

    players: int
    designs: tuple[Design, ...]
    night: tuple[str, ...]
    point_card: str
    power: Power
    step_seconds: int | None


@dataclass(frozen=True)
class RoundStarted:
    """R2, T2: the round's card is revealed to everyone and its clock starts."""

    round: int
    card: str
    deadline: datetime | None


@dataclass(frozen=True)
class DrawingSubmitted(kit.Submitted[Drawing]):
    """R6: a seat's whole submission was accepted: final, and private to that seat until
    the round closes (V3; the kit hides it from the repr)."""

    submission: Drawing


@dataclass(frozen=True)
class RoundClosed(kit.RoundClosed[Drawing]):
    """R5, T3: the round closed; every submission is revealed at once, in seat order.
    ``silent``: the seats that passed because the clock ran out (T3)."""

    submissions: tuple[DrawingSubmitted, ...]

    @property
    def passed_by_clock(self) -> tuple[int, ...]:
        return self.silent


@dataclass(frozen=True)
class GameEnded:
    """E1, E6, E7: each seat's score sheet (seat 1's first) and the winners (none in a solo
    game; equal highest totals share the win)."""

    scores: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]


Event = GameDealt | RoundStarted | DrawingSubmitted | RoundClosed | GameEnded

EVENT_TYPES: tuple[type, ...] = (GameDealt, RoundStarted, DrawingSubmitted, RoundClosed, GameEnded)
