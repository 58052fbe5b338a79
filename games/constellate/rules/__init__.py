"""The Constellate rules: pure Python, no Django, no I/O, no clock, no randomness.

decide(state, command, now, check_word=...) -> list of events | Refusal
evolve(state, event) -> state;  fold(events) -> state
due_expiry(state, now) -> the events that expire a step whose deadline passed (C6)
view_for(state, seat) -> what that seat (or a spectator, seat None) may see (K4)
"""

from games.kit import Decision

from .commands import Command, Deal, Expire, Name, Problem, Refusal, Stop, TouchCard
from .decide import STALE, WordCheck, decide, due_expiry, letters_only
from .events import (
    EVENT_TYPES,
    CardTouched,
    CometLit,
    ConstellationTaken,
    Event,
    GameEnded,
    NamingStarted,
    SkyDealt,
    SpottingStopped,
    TurnEnded,
)
from .evolve import evolve, fold
from .model import (
    FIRST_HOURS,
    SKY_SIZE,
    STAR_OF,
    Constellation,
    Crew,
    Finish,
    Key,
    MissedNaming,
    Mode,
    Seat,
    State,
    Step,
    Touch,
    TurnEnd,
    key_counts,
    mode_for,
    seat_of,
)
from .view import CardView, SeatView, sees_key, view_for

__all__ = [
    "EVENT_TYPES",
    "FIRST_HOURS",
    "SKY_SIZE",
    "STALE",
    "STAR_OF",
    "CardTouched",
    "CardView",
    "CometLit",
    "Command",
    "Constellation",
    "ConstellationTaken",
    "Crew",
    "Deal",
    "Decision",
    "Event",
    "Expire",
    "Finish",
    "GameEnded",
    "Key",
    "MissedNaming",
    "Mode",
    "Name",
    "NamingStarted",
    "Problem",
    "Refusal",
    "Seat",
    "SeatView",
    "SkyDealt",
    "SpottingStopped",
    "State",
    "Step",
    "Stop",
    "Touch",
    "TouchCard",
    "TurnEnd",
    "TurnEnded",
    "WordCheck",
    "decide",
    "due_expiry",
    "evolve",
    "fold",
    "key_counts",
    "letters_only",
    "mode_for",
    "seat_of",
    "sees_key",
    "view_for",
]
