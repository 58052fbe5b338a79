"""What happened: frozen events, named in the past tense. Each carries every random choice
and every deadline, so folding them never rolls dice or reads a clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import hiding

from .model import Crew, Finish, Key, Mode, TurnEnd


@hiding("key")
@dataclass(frozen=True)
class SkyDealt:
    """The first event: who plays, the 24 pictures, the key, who starts (S5), the clock,
    and whether the table is a family table (the clue check refuses profanity too).

    Version 2 added ``family``; a version 1 payload reads as an open table (the upcaster
    in ``game.py``)."""

    mode: Mode
    players: int
    sky: tuple[str, ...]
    key: tuple[Key, ...]
    first_crew: Crew
    step_seconds: int | None
    deadline: datetime | None  # of the first naming step
    family: bool


@dataclass(frozen=True)
class ConstellationTaken:
    """T4: the Stargazer's word was accepted; spotting starts."""

    crew: Crew
    seat: int
    word: str
    count: int
    allowance: int  # T5: count, plus one if the bank was in play
    deadline: datetime | None  # of the spotting step


@dataclass(frozen=True)
class CardTouched:
    seat: int
    card: int


@dataclass(frozen=True)
class CometLit:
    """V2: the comet lit these dark stars of the rival crew (drawn by the server)."""

    crew: Crew
    cards: tuple[int, ...]


@dataclass(frozen=True)
class SpottingStopped:
    seat: int


@dataclass(frozen=True)
class TurnEnded:
    crew: Crew
    reason: TurnEnd
    banked: bool  # T10: a touch was banked
    hours_spent: int  # Before Dawn: D3 cloud 1, D4 comet 2, C2 missed naming 1


@dataclass(frozen=True)
class NamingStarted:
    crew: Crew
    deadline: datetime | None


@dataclass(frozen=True)
class GameEnded:
    winner: Crew | None  # None: dawn broke on the crew (D5)
    finish: Finish


Event = (
    SkyDealt
    | ConstellationTaken
    | CardTouched
    | CometLit
    | SpottingStopped
    | TurnEnded
    | NamingStarted
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    SkyDealt,
    ConstellationTaken,
    CardTouched,
    CometLit,
    SpottingStopped,
    TurnEnded,
    NamingStarted,
    GameEnded,
)
