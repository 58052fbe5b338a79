"""The Constellate game state: plain values, no Django, no I/O, no clock, no randomness."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from games.kit import hiding

SKY_SIZE = 24
FIRST_HOURS = 7  # D1


class Mode(StrEnum):
    RIVALRY = "rivalry"  # S2: 4-8 players, Gold against Teal
    BEFORE_DAWN = "before_dawn"  # S3: 2-3 players, one crew against the clock


class Crew(StrEnum):
    GOLD = "gold"
    TEAL = "teal"

    @property
    def rival(self) -> Crew:
        return Crew.TEAL if self is Crew.GOLD else Crew.GOLD

    @property
    def display(self) -> str:
        return self.value.capitalize()


class Key(StrEnum):
    """What a card really is; only Stargazers see it while the card is dark (K4)."""

    GOLD = "gold"  # a Gold star (in Before Dawn: the crew's star)
    TEAL = "teal"
    HAZE = "haze"
    CLOUD = "cloud"  # Before Dawn only
    COMET = "comet"


class Step(StrEnum):
    SETUP = "setup"  # nothing dealt yet
    NAMING = "naming"
    SPOTTING = "spotting"
    ENDED = "ended"


class TurnEnd(StrEnum):
    """Why a turn ended (T9-T12, V1, V2, D3, D4, C2, C3)."""

    HAZE = "haze"
    CLOUD = "cloud"
    COMET = "comet"
    RIVAL_STAR = "rival_star"
    ALLOWANCE_USED = "allowance_used"
    STOPPED = "stopped"
    NAMING_EXPIRED = "naming_expired"
    SPOTTING_EXPIRED = "spotting_expired"


class Finish(StrEnum):
    """How the game ended (E1)."""

    LAST_STAR = "last_star"  # T8 / D6: a crew lit its own last star
    GIFTED_STAR = "gifted_star"  # V1: the rival crew touched our last star
    COMET = "comet"  # V2: the comet lit the rival crew's last star(s)
    DAWN = "dawn"  # D5
    FORFEIT = "forfeit"  # C4


STAR_OF: dict[Crew, Key] = {Crew.GOLD: Key.GOLD, Crew.TEAL: Key.TEAL}


def mode_for(players: int) -> Mode:
    """S2/S3: the mode follows the number of players."""
    return Mode.RIVALRY if players >= 4 else Mode.BEFORE_DAWN


def key_counts(mode: Mode, first_crew: Crew) -> dict[Key, int]:
    """K2/K3: how many cards of each kind a sky holds."""
    if mode is Mode.BEFORE_DAWN:
        return {Key.GOLD: 8, Key.CLOUD: 7, Key.HAZE: 8, Key.COMET: 1}
    return {STAR_OF[first_crew]: 8, STAR_OF[first_crew.rival]: 7, Key.COMET: 1, Key.HAZE: 8}


@dataclass(frozen=True)
class Seat:
    """Who sits where: a seat's crew and role follow from the player count (S2, S3)."""

    number: int
    crew: Crew
    stargazer: bool

    @property
    def role(self) -> str:
        return "Stargazer" if self.stargazer else "Spotter"


def seat_of(players: int, number: int) -> Seat:
    if mode_for(players) is Mode.BEFORE_DAWN:
        return Seat(number, Crew.GOLD, number == 1)
    crew = Crew.GOLD if number % 2 == 1 else Crew.TEAL
    return Seat(number, crew, number in (1, 2))


@dataclass(frozen=True)
class Touch:
    card: int
    seat: int


@dataclass(frozen=True)
class Constellation:
    """One accepted word and what its crew touched for it (the game's log)."""

    number: int  # its place in the game: 1, 2, 3...
    crew: Crew
    seat: int  # the Stargazer who gave it
    word: str
    count: int  # the number given with the word (T2)
    allowance: int  # touches allowed (T5)
    version: int  # the game version of the event that took it
    touches: tuple[Touch, ...] = ()
    comet_lit: tuple[int, ...] = ()
    ended_by: TurnEnd | None = None


@dataclass(frozen=True)
class MissedNaming:
    """C2/C4: a naming step whose clock ran out before a word (the log shows it)."""

    crew: Crew
    version: int  # the game version of the event that ended the turn
    again: bool  # the crew's naming had run out on its turn before too (C4)


@hiding("key")
@dataclass(frozen=True)
class State:
    version: int = 0
    mode: Mode = Mode.RIVALRY
    players: int = 0
    sky: tuple[str, ...] = ()
    key: tuple[Key, ...] = ()
    lit: frozenset[int] = frozenset()
    first_crew: Crew = Crew.GOLD
    crew: Crew = Crew.GOLD  # the active crew
    step: Step = Step.SETUP
    step_started: int = 0  # the version whose event started the current step
    step_seconds: int | None = None  # C1: None means the clock is off
    deadline: datetime | None = None
    family: bool = False  # a family table: the clue check refuses profanity too
    touches_left: int = 0
    touches_made: int = 0
    banks: frozenset[Crew] = frozenset()  # T6: crews holding their one banked touch
    hours: int = FIRST_HOURS  # D1 (Before Dawn only)
    missed_naming: frozenset[Crew] = frozenset()  # C4: crews whose last naming expired
    missed_namings: tuple[MissedNaming, ...] = ()  # C2: every naming step that ran out
    winner: Crew | None = None
    finish: Finish | None = None
    constellations: tuple[Constellation, ...] = field(default=())

    # -- questions the rules and the views ask ------------------------------------------
    @property
    def ended(self) -> bool:
        return self.step is Step.ENDED

    @property
    def dealt(self) -> bool:
        return self.step is not Step.SETUP

    def seat(self, number: int) -> Seat | None:
        if not 1 <= number <= self.players:
            return None
        return seat_of(self.players, number)

    def stars(self, crew: Crew) -> list[int]:
        star = STAR_OF[crew]
        return [i for i, k in enumerate(self.key) if k is star]

    def dark_stars(self, crew: Crew) -> list[int]:
        return [i for i in self.stars(crew) if i not in self.lit]

    def crews(self) -> tuple[Crew, ...]:
        return (Crew.GOLD,) if self.mode is Mode.BEFORE_DAWN else (Crew.GOLD, Crew.TEAL)

    @property
    def current(self) -> Constellation | None:
        """The constellation being spotted now, if any."""
        if self.step is Step.SPOTTING and self.constellations:
            return self.constellations[-1]
        return None

    @property
    def bank_in_play(self) -> bool:
        """T5: the current allowance includes the banked touch."""
        current = self.current
        return current is not None and current.allowance > current.count
