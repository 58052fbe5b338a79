"""The Observatory game state, and what a seat sends in each kind of step: plain values.

The game runs in phases (``Phase``): the setup choice (G3, a simultaneous round of ``Keep``),
then Nights of turns (N1-N11), each turn a simultaneous round of ``Submission`` and an icon
Night opening with one more (N8); after a turn with completions, the draft (G5-G7), one seat
at a time, one pick per event. Every step waiting for players carries the clock (T1-T8): the
state's ``deadline`` and ``step_started`` (the version of the event that started it).

The state keeps every seat's sheet as of the last closed step (V1), the running scores, the
Night Sky and, secretly, both decks in order (G1, V2) and each seat's six dealt cards (V2):
no view reads ``large``, ``small`` or another seat's ``hands``.

Decisions (RULES.md leaves them open):

- A submission is stored as ``Entry`` records, one per step (a flat value the event codec can
  store): ``Submission.steps`` turns them back into ``steps``' step classes.
- Rounds are numbered across the game: openings and turns share one count (1, 2, ...); the
  setup choice is its own round 1. A submission names its round, never the game's version
  (seats submitting at once never conflict); a draft pick names the version (one seat acts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.kit import Round, hiding

from .scoring import ScoreSheet
from .sheet import Dice, Sheet
from .sheet_data import NIGHTS, Space, Track, icon_nights
from .steps import (
    CardBonus,
    Claim,
    FinderStar,
    Lens,
    NightBonus,
    PairPlot,
    ResearchDie,
    ResearchFill,
    ShootingPlot,
    Step,
    TrackBonus,
)

LEAST, MOST = 1, 5  # N1
DEALT_LARGE, DEALT_SMALL = 3, 3  # G2
FIRST_GAME_LARGE, FIRST_GAME_SMALL = 1, 3  # G2, the first-game option
KEEP = 4  # G3: keep 4 of 6
GOALS = 4  # G7: a seat never holds more than 4 goals
SLOTS = 3  # G4: three face-up slots in each Night Sky row
CALLED = "step"  # what the clock runs, in the refusals' words
UNDEALT = "The game has not been dealt yet."


class Phase(StrEnum):
    """Where the game is."""

    UNDEALT = "undealt"
    CHOICE = "choice"  # G3: every seat keeps 4 of its 6
    OPENING = "opening"  # N8: an icon Night's opening step
    TURN = "turn"  # N5-N11
    DRAFT = "draft"  # G5: one seat at a time takes its replacements
    ENDED = "ended"  # E1


# -- a submission, as stored -----------------------------------------------------------------


class Kind(StrEnum):
    """The kinds of steps (U5), as stored."""

    RESEARCH_DIE = "research_die"
    LENS = "lens"
    PAIR_PLOT = "pair_plot"
    SHOOTING_PLOT = "shooting_plot"
    RESEARCH_FILL = "research_fill"
    CLAIM = "claim"
    CARD_BONUS = "card_bonus"
    TRACK_BONUS = "track_bonus"
    FINDER_STAR = "finder_star"
    NIGHT_BONUS = "night_bonus"


@dataclass(frozen=True)
class Entry:
    """One step of a submission as the events store it (U5): its kind and the fields that
    kind uses (the others stay None)."""

    kind: Kind
    die: int | None = None  # the research die, or the Lens's die
    delta: int | None = None  # the Lens's +1 or -1
    space: Space | None = None
    track: Track | None = None
    position: int | None = None
    drive: int | None = None  # U5.10: the Drive number on the fill that completes the Drive
    card: str | None = None  # a claim's card
    spaces: frozenset[Space] = frozenset()  # a claim's spaces

    @classmethod
    def of(cls, step: Step) -> Entry:
        match step:
            case ResearchDie(index):
                return cls(Kind.RESEARCH_DIE, die=index)
            case Lens(die, delta):
                return cls(Kind.LENS, die=die, delta=delta)
            case PairPlot(space):
                return cls(Kind.PAIR_PLOT, space=space)
            case ShootingPlot(space):
                return cls(Kind.SHOOTING_PLOT, space=space)
            case ResearchFill(track, position, drive):
                return cls(Kind.RESEARCH_FILL, track=track, position=position, drive=drive)
            case Claim(card, spaces):
                return cls(Kind.CLAIM, card=card, spaces=frozenset(spaces))
            case FinderStar(space):
                return cls(Kind.FINDER_STAR, space=space)
            case CardBonus() | TrackBonus() | NightBonus():
                kind = _FREE_KINDS[type(step)]
                return cls(
                    kind,
                    space=step.space,
                    track=step.track,
                    position=step.position,
                    drive=step.drive,
                )
        raise TypeError(f"{step!r} is no step (U5)")

    def step(self) -> Step:
        """The step this entry stores."""
        match self.kind:
            case Kind.RESEARCH_DIE:
                return ResearchDie(_int(self.die))
            case Kind.LENS:
                return Lens(_int(self.die), _int(self.delta))
            case Kind.PAIR_PLOT:
                return PairPlot(_space(self.space))
            case Kind.SHOOTING_PLOT:
                return ShootingPlot(_space(self.space))
            case Kind.RESEARCH_FILL:
                return ResearchFill(_track(self.track), _int(self.position), self.drive)
            case Kind.CLAIM:
                return Claim(self.card or "", self.spaces)
            case Kind.FINDER_STAR:
                return FinderStar(_space(self.space))
            case Kind.CARD_BONUS:
                return CardBonus(self.space, self.track, self.position, self.drive)
            case Kind.TRACK_BONUS:
                return TrackBonus(self.space, self.track, self.position, self.drive)
            case Kind.NIGHT_BONUS:
                return NightBonus(self.space, self.track, self.position, self.drive)


_FREE_KINDS: dict[type, Kind] = {
    CardBonus: Kind.CARD_BONUS,
    TrackBonus: Kind.TRACK_BONUS,
    NightBonus: Kind.NIGHT_BONUS,
}


def _int(value: int | None) -> int:
    return -1 if value is None else value  # an impossible value, refused by its step's check


def _space(value: Space | None) -> Space:
    return (0, 0) if value is None else value  # off the map: refused by the step's check (M1)


def _track(value: Track | None) -> Track:
    return Track.FUNDING if value is None else value


@dataclass(frozen=True)
class Submission:
    """A seat's whole submission for a turn or a Night opening (U1): its steps in order. No
    steps: a pass (U4)."""

    entries: tuple[Entry, ...] = ()

    @classmethod
    def of(cls, steps: Sequence[Step]) -> Submission:
        return cls(tuple(Entry.of(step) for step in steps))

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(entry.step() for entry in self.entries)


PASS = Submission()


@dataclass(frozen=True)
class Keep:
    """G3: the four cards a seat keeps of its six (any mix)."""

    cards: tuple[str, ...]


class Source(StrEnum):
    """G6: where a replacement comes from."""

    LARGE_ROW = "large_row"
    SMALL_ROW = "small_row"
    LARGE_DECK = "large_deck"
    SMALL_DECK = "small_deck"

    @property
    def row(self) -> bool:
        return self in (Source.LARGE_ROW, Source.SMALL_ROW)

    @property
    def large(self) -> bool:
        return self in (Source.LARGE_ROW, Source.LARGE_DECK)


@dataclass(frozen=True)
class Take:
    """G6: one replacement: a face-up slot (1-3) of a row, or the top of a deck (no slot)."""

    source: Source
    slot: int | None = None


# -- what everyone may see of closed steps (V1) ----------------------------------------------


@dataclass(frozen=True)
class ClosedStep:
    """A Night opening or a turn once closed, as everyone may see it (U3): each seat's
    submission (seat 1's first; None for a seat the clock skipped, T3, T4), the cards each
    completed, the seats skipped and whether the clock closed it."""

    night: int
    turn: int  # 0: the Night opening
    active: int | None  # None: a Night opening
    dice: Dice | None
    version: int  # of the event that closed it
    submissions: tuple[Submission | None, ...]
    completed: tuple[tuple[str, ...], ...]
    skipped: tuple[int, ...]
    by_clock: bool


@dataclass(frozen=True)
class DraftPick:
    """A replacement taken (G5, G6), chosen or by the clock (T6), as everyone may see it."""

    seat: int
    source: Source
    slot: int | None
    card: str
    by_clock: bool
    version: int


# -- the state ----------------------------------------------------------------------------------


@hiding("large", "small", "hands")
@dataclass(frozen=True)
class State:
    version: int = 0
    dealt: bool = False
    ended: bool = False
    phase: Phase = Phase.UNDEALT
    players: int = 0
    first_player: int = 1  # N3
    first_game: bool = False  # G2
    step_seconds: int | None = None  # T1: None, the clock is off
    large: tuple[str, ...] = ()  # SECRET (V2): the Large deck, top first
    small: tuple[str, ...] = ()  # SECRET (V2): the Small deck, top first
    hands: tuple[tuple[str, ...], ...] = ()  # SECRET: each seat's dealt cards (V2)
    sky_large: tuple[str | None, ...] = ()  # G4: slots 1-3 of the Large row (None: empty)
    sky_small: tuple[str | None, ...] = ()
    sheets: tuple[Sheet, ...] = ()  # as of the last closed step (V1)
    scores: tuple[ScoreSheet, ...] = ()  # running (V1), final once ended (E6)
    night: int = 0
    turn: int = 0  # 0: no turn yet this Night (its opening, or before the first)
    dice: Dice | None = None  # of the current turn (N5)
    choice: Round[Keep] | None = None  # the setup choice (G3)
    round: Round[Submission] | None = None  # the running (or last) opening or turn
    step_started: int = 0  # the version of the event that started the running step
    draft_deadline: datetime | None = None  # the drafting seat's clock (T1)
    opened: tuple[int, ...] = ()  # cards each seat completed in this Night's opening (N9)
    owed: tuple[int, ...] = ()  # replacements each seat still takes in this draft (G5)
    drafter: int | None = None  # the seat drafting now
    closed: tuple[ClosedStep, ...] = ()
    picks: tuple[DraftPick, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def deadline(self) -> datetime | None:
        if self.ended:
            return None
        if self.phase is Phase.CHOICE and self.choice is not None and not self.choice.closed:
            return self.choice.deadline
        if self.phase in (Phase.OPENING, Phase.TURN) and self.round is not None:
            return None if self.round.closed else self.round.deadline
        if self.phase is Phase.DRAFT:
            return self.draft_deadline
        return None

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def nights(self) -> int:
        """N2: the Nights of this player count (0 before the deal)."""
        return NIGHTS.get(self.players, 0)

    @property
    def opening_nights(self) -> frozenset[int]:
        """X6, N8: the Nights that open with a Night bonus."""
        return icon_nights(self.nights) if self.nights else frozenset()

    @property
    def active(self) -> int | None:
        """N4: the active seat of the current turn (None outside a turn's Night)."""
        if self.turn < 1:
            return None
        return active_seat(self.first_player, self.turn, self.players)

    @property
    def round_number(self) -> int:
        return 0 if self.round is None else self.round.number

    @property
    def last_turn(self) -> bool:
        """E1: the current turn is the game's last."""
        return self.night == self.nights and self.turn == self.players

    def sheet(self, seat: int) -> Sheet:
        return self.sheets[seat - 1]

    def available(self) -> bool:
        """G6, G7: some card can still be taken: a face-up one, or a deck's top."""
        return bool(self.large or self.small) or any(
            card is not None for card in (*self.sky_large, *self.sky_small)
        )


def active_seat(first_player: int, turn: int, players: int) -> int:
    """N4: turn 1's active seat is the first player; then up the seats, wrapping."""
    return (first_player - 1 + turn - 1) % players + 1


def turn_order(first: int, players: int) -> tuple[int, ...]:
    """G5: the seats from ``first`` up the seat numbers, wrapping."""
    return tuple((first - 1 + i) % players + 1 for i in range(players))
