"""What happened: frozen events, named in the past tense. Each carries every random choice
the server made (the stack's order, the cards, who starts, the clock's placement and move)
and every deadline, so folding them never rolls dice or reads a clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import hiding

from .model import Card, Compass, Finish, Tile


@hiding("cards", "face_down", "stack")
@dataclass(frozen=True)
class GameDealt:
    """The first event: the chart and its compass, each player's secret card, the face-down
    card, the shuffled stack of 27 tiles (top first), who starts, and the clock."""

    chart: Tile
    compass: Compass
    cards: tuple[Card, ...]
    face_down: Card
    stack: tuple[Tile, ...]
    first_seat: int
    step_seconds: int | None


@dataclass(frozen=True)
class TurnStarted:
    """A turn begins: the tiles beside the board are refilled to three from the stack."""

    seat: int
    turn: int
    drawn: tuple[Tile, ...]
    deadline: datetime | None


@dataclass(frozen=True)
class TilePlaced:
    """A tile went onto an empty space: one beside the board (``face_up`` is its place
    there) or the blind top of the stack (``face_up`` None)."""

    seat: int
    tile: Tile
    face_up: int | None
    space: int
    by_clock: bool = False


@dataclass(frozen=True)
class TileMoved:
    """Blue or orange: a surrounding tile moved one space."""

    seat: int
    origin: int
    target: int
    by_clock: bool = False


@dataclass(frozen=True)
class BoardRotated:
    """Yellow: the board turned 90 degrees clockwise (the North Star stays in the centre)."""

    seat: int


@dataclass(frozen=True)
class ActionSkipped:
    """Blue or orange, with no surrounding tile able to move that way: nothing to do."""

    seat: int
    tile: Tile


@dataclass(frozen=True)
class GameEnded:
    winner: int | None  # None: a draw
    finish: Finish
    spaces: tuple[int, ...]  # the completed constellation(s), if any


Event = GameDealt | TurnStarted | TilePlaced | TileMoved | BoardRotated | ActionSkipped | GameEnded
EVENT_TYPES = (
    GameDealt,
    TurnStarted,
    TilePlaced,
    TileMoved,
    BoardRotated,
    ActionSkipped,
    GameEnded,
)
