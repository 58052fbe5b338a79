"""The Under One Sky game state: plain values, no Django, no I/O, no clock, no randomness.

The board is 25 spaces, numbered row by row from the top left (0) to the bottom right (24);
the North Star sits on the centre space (12) from the start and never moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.kit import hiding

SIZE = 5
SPACES = SIZE * SIZE
CENTRE = SPACES // 2  # 12: the North Star's space
FACE_UP = 3  # tiles beside the board at the start of a turn
PLAYERS = 2
TILES_PER_COLOUR = 9  # 27 coloured tiles: 9 blue, 9 orange, 9 yellow


class Tile(StrEnum):
    BLUE = "blue"  # action: move a surrounding tile one space orthogonally
    ORANGE = "orange"  # action: move a surrounding tile one space diagonally
    YELLOW = "yellow"  # action: rotate the board 90 degrees clockwise
    NORTH = "north"  # the North Star: every colour at once, never moved

    @property
    def display(self) -> str:
        return "North Star" if self is Tile.NORTH else self.value.capitalize()


COLOURS = (Tile.BLUE, Tile.ORANGE, Tile.YELLOW)


class Compass(StrEnum):
    """Where the chart's north points on the table (the screen): the host's choice."""

    N = "N"  # north up
    E = "E"  # north to the right: a quarter turn clockwise
    S = "S"  # north down
    W = "W"  # north to the left

    @property
    def quarter_turns(self) -> int:
        return "NESW".index(self.value)


class Step(StrEnum):
    SETUP = "setup"  # nothing dealt yet
    PLACING = "placing"  # the player picks a tile and places it
    ACTING = "acting"  # a blue or orange tile was placed: its move is still to make
    ENDED = "ended"


class Finish(StrEnum):
    CONSTELLATION = "constellation"  # one player's card is on the board
    BOTH = "both"  # both cards completed on the same turn: a draw
    FULL = "full"  # every space filled and neither card complete: a draw


class Action(StrEnum):
    """What a placed tile's colour did, for the log."""

    MOVED = "moved"
    ROTATED = "rotated"
    SKIPPED = "skipped"  # no legal move existed


Cell = tuple[int, int]  # (row, column), row 0 at the top (north on the card)


@dataclass(frozen=True)
class Card:
    """A constellation card: five stars in a shape, drawn with the chart's north up."""

    id: str
    name: str
    cells: tuple[Cell, ...]

    @property
    def chart(self) -> Tile:
        return Tile(self.id.split("-")[0])


@dataclass(frozen=True)
class TurnRecord:
    """One turn, for the log and the replay. Spaces are as the board stood at that moment."""

    number: int
    seat: int
    started: int  # the version of the event that started it
    tile: Tile | None = None
    blind: bool = False
    space: int | None = None
    action: Action | None = None
    origin: int | None = None
    target: int | None = None
    by_clock: bool = False


def empty_board() -> tuple[Tile | None, ...]:
    return tuple(Tile.NORTH if i == CENTRE else None for i in range(SPACES))


@hiding("cards", "face_down", "stack")
@dataclass(frozen=True)
class State:
    version: int = 0
    step: Step = Step.SETUP
    chart: Tile | None = None
    compass: Compass = Compass.N
    cards: tuple[Card, ...] = ()  # seat 1's, seat 2's: each secret from the other
    face_down: Card | None = None  # the third card of the set, seen by nobody
    board: tuple[Tile | None, ...] = empty_board()
    stack: tuple[Tile, ...] = ()  # face down, top first
    face_up: tuple[Tile, ...] = ()  # the tiles beside the board
    first_seat: int = 1
    seat: int = 1  # whose turn it is
    turn: int = 0
    placed: int | None = None  # where this turn's tile went (while its action is due)
    step_started: int = 0  # the version whose event started the current turn
    step_seconds: int | None = None  # None: the clock is off
    deadline: datetime | None = None
    winner: int | None = None
    finish: Finish | None = None
    completed: tuple[int, ...] = ()  # the spaces of the completed constellation(s)
    turns: tuple[TurnRecord, ...] = ()
    players: int = PLAYERS

    # -- questions the rules and the views ask ------------------------------------------
    @property
    def ended(self) -> bool:
        return self.step is Step.ENDED

    @property
    def dealt(self) -> bool:
        return self.step is not Step.SETUP

    @property
    def placed_tile(self) -> Tile | None:
        return self.board[self.placed] if self.placed is not None else None

    def card_of(self, seat: int) -> Card | None:
        return self.cards[seat - 1] if 1 <= seat <= len(self.cards) else None

    def empty_spaces(self) -> list[int]:
        return [i for i, tile in enumerate(self.board) if tile is None]

    @property
    def full(self) -> bool:
        return all(tile is not None for tile in self.board)

    @staticmethod
    def other(seat: int) -> int:
        return 2 if seat == 1 else 1
