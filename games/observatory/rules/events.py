"""What happened: frozen events, named in the past tense. Each carries every draw of the
server (the deck orders and the first player, G1, N3; the dice of a turn, D2) and every
deadline (T7), so folding them never shuffles, rolls or reads a clock.

The submissions and the closes are the kit's simultaneous-round events (``games.kit.rounds``)
with the submission's type written out, so the codec can store them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import kit
from games.kit import hiding

from .model import Keep, Source, Submission
from .scoring import ScoreSheet
from .sheet import Dice


@hiding("large", "small")
@dataclass(frozen=True)
class GameDealt:
    """G1, G2, N3: who plays, both decks in their shuffled order (top first, secret, V2),
    the first player, the first-game option and the step's clock (None: off, T1). The deal
    itself (G2) and, in a first game, the Night Sky (G4) follow from these."""

    players: int
    large: tuple[str, ...]
    small: tuple[str, ...]
    first_player: int
    first_game: bool
    step_seconds: int | None


@dataclass(frozen=True)
class ChoiceStarted:
    """G3, T5: the setup choice opens, with its clock."""

    deadline: datetime | None


@dataclass(frozen=True)
class KeepSubmitted(kit.Submitted[Keep]):
    """G3: a seat's four kept cards were accepted: final, private until the choice closes."""

    submission: Keep


@dataclass(frozen=True)
class ChoicesRevealed(kit.RoundClosed[Keep]):
    """G3, G4, T5: the choice closed; the kept cards become goals, the returned ones go
    under their decks and the Night Sky is turned up. ``defaulted``: the seats the clock
    chose for (T5)."""

    submissions: tuple[KeepSubmitted, ...]


@dataclass(frozen=True)
class OpeningStarted:
    """N8: an icon Night opens with its Night-opening step, before its first roll."""

    night: int
    round: int
    deadline: datetime | None


@dataclass(frozen=True)
class TurnStarted:
    """N4, N5, D2: a turn starts: its active seat and the four dice the server rolled."""

    night: int
    turn: int
    active: int
    round: int
    dice: Dice
    deadline: datetime | None


@dataclass(frozen=True)
class StepsSubmitted(kit.Submitted[Submission]):
    """U1, U3: a seat's whole submission for a turn or a Night opening was accepted: final,
    and private to that seat until the step closes."""

    submission: Submission


@dataclass(frozen=True)
class StepsRevealed(kit.RoundClosed[Submission]):
    """N10, T3, T4: the turn (or Night opening) closed; every submission is revealed at once,
    in seat order, and applied to its seat's sheet. ``silent``: the seats the clock skipped."""

    submissions: tuple[StepsSubmitted, ...]


@dataclass(frozen=True)
class DraftStarted:
    """G5, T1: a seat's draft starts: it takes ``picks`` replacements, with its clock."""

    seat: int
    picks: int
    deadline: datetime | None


@dataclass(frozen=True)
class Picked:
    """G6, T6: one replacement taken: from a row's slot (refilled at once from its deck,
    G6, G7) or a deck's top; ``card`` is the card taken, ``by_clock`` when the clock took it."""

    seat: int
    source: Source
    slot: int | None
    card: str
    by_clock: bool


@dataclass(frozen=True)
class GameEnded:
    """E1, E5, E6, S3: every seat's score sheet (seat 1's first) and the winners (none in a
    solo game)."""

    scores: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]


Event = (
    GameDealt
    | ChoiceStarted
    | KeepSubmitted
    | ChoicesRevealed
    | OpeningStarted
    | TurnStarted
    | StepsSubmitted
    | StepsRevealed
    | DraftStarted
    | Picked
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    GameDealt,
    ChoiceStarted,
    KeepSubmitted,
    ChoicesRevealed,
    OpeningStarted,
    TurnStarted,
    StepsSubmitted,
    StepsRevealed,
    DraftStarted,
    Picked,
    GameEnded,
)
