"""The Under One Sky rules: pure Python, no Django, no I/O, no clock, no randomness.

decide(state, command, now) -> list of events | Refusal
evolve(state, event) -> state;  fold(events) -> state
due_expiry(state, now, picks) -> the events that expire a turn whose deadline passed
view_for(state, seat) -> what that seat (or a spectator, seat None) may see
"""

from games.kit import Decision

from .charts import CARDS, CHARTS, RECOMMENDED, Chart, difficulty, loose_stars, parse_pattern
from .commands import Command, Deal, Expire, Move, Place, Problem, Refusal
from .decide import STALE, completed, decide, due_expiry
from .events import (
    EVENT_TYPES,
    ActionSkipped,
    BoardRotated,
    Event,
    GameDealt,
    GameEnded,
    TileMoved,
    TilePlaced,
    TurnStarted,
)
from .evolve import evolve, fold
from .geometry import label, legal_moves, oriented, rotate_board, rotate_space, surrounding
from .model import (
    CENTRE,
    COLOURS,
    FACE_UP,
    PLAYERS,
    SIZE,
    SPACES,
    TILES_PER_COLOUR,
    Action,
    Card,
    Compass,
    Finish,
    State,
    Step,
    Tile,
    TurnRecord,
)
from .view import CardView, SeatView, view_for

__all__ = [
    "CARDS",
    "CENTRE",
    "CHARTS",
    "COLOURS",
    "EVENT_TYPES",
    "FACE_UP",
    "PLAYERS",
    "RECOMMENDED",
    "SIZE",
    "SPACES",
    "STALE",
    "TILES_PER_COLOUR",
    "Action",
    "ActionSkipped",
    "BoardRotated",
    "Card",
    "CardView",
    "Chart",
    "Command",
    "Compass",
    "Deal",
    "Decision",
    "Event",
    "Expire",
    "Finish",
    "GameDealt",
    "GameEnded",
    "Move",
    "Place",
    "Problem",
    "Refusal",
    "SeatView",
    "State",
    "Step",
    "Tile",
    "TileMoved",
    "TilePlaced",
    "TurnRecord",
    "TurnStarted",
    "completed",
    "decide",
    "difficulty",
    "due_expiry",
    "evolve",
    "fold",
    "label",
    "legal_moves",
    "loose_stars",
    "oriented",
    "parse_pattern",
    "rotate_board",
    "rotate_space",
    "surrounding",
    "view_for",
]
