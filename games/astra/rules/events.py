"""What happened (I2): frozen events named in the past tense. They carry every draw of the
server (the deal, H5) and every deadline (Z2), and each event that moves a card off the deck
names it (I3), so folding them never shuffles, draws or reads a clock.

The clock's events and fields (``by_clock``, Z3, Z4) are in the schema from the start, so
that adding the clock later changes no stored event; until then they are always False.

Not here yet (I2): AbilityUsed, BoonPickOpened, BoonPicked, BoonsCrossed, CardGained,
CardsDiscarded, CardDrawn, GameEndExposed, DreamMarked, DreamDiscovered, TurnEnded, GameEnded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import hiding

from .cards import Element
from .model import Ending


@hiding("deck", "scoring")
@dataclass(frozen=True)
class GameDealt:
    """H5, S2, S5, P3, Z1: who plays, the deck in the server's order (top first, secret,
    H2) with the count above the Game End card, each seat's Final Scoring card (secret, H1),
    the first player and the turn step's clock."""

    players: int
    deck: tuple[int, ...]
    above_game_end: int
    scoring: tuple[str, ...]
    first_player: int
    step_seconds: int | None


@dataclass(frozen=True)
class TableSet:
    """S3, S6: the deck's top card face up on the discard pile, the marker on its Element's
    Sphere, and the next N+1 cards face up in slots 1..N+1."""

    discarded: int
    sphere: Element
    slots: tuple[int, ...]


@dataclass(frozen=True)
class TurnStarted:
    """T1, P3, Z2: a seat's turn starts: turn k of round k // N, with its deadline."""

    seat: int
    turn: int
    round: int
    deadline: datetime | None


@dataclass(frozen=True)
class TelescopeSpent:
    """O9: an additional Observe action started, paid with 1 Telescope."""

    seat: int


@dataclass(frozen=True)
class StarsMarked:
    """O2-O8: ``seat`` marked ``stars`` in order on ``card`` in ``slot``, paying ``stardust``
    (O6) and gaining ``wisdom`` for its Grand stars (O8; gains past the track's top are lost,
    J4, and not counted)."""

    seat: int
    slot: int
    card: int
    stars: tuple[int, ...]
    stardust: int
    wisdom: int


@dataclass(frozen=True)
class CardDiscovered:
    """O12, D2: the card in ``slot`` has every star marked: discovered at once, by ``seat``.
    It stays on its slot until the Discovery phase (D1-D14, next)."""

    seat: int
    slot: int
    card: int


@dataclass(frozen=True)
class ActionPhaseEnded:
    """O7, O11: the Action phase of Observes is over, and why."""

    seat: int
    ending: Ending
    by_clock: bool = False  # Z4


@dataclass(frozen=True)
class Rested:
    """R1-R7: the Rest action, which is the whole Action: Stardust gained by the refill
    (R2), the cards reactivated (R4, in the order held), the marker's move (R5) and the card
    discarded from the deck when the move passes the discard icon (None: no discard, or the
    deck is empty, R6)."""

    seat: int
    stardust: int
    reactivated: tuple[int, ...]
    sphere_from: Element
    sphere_to: Element
    discarded: int | None
    by_clock: bool = False  # Z3


Event = (
    GameDealt
    | TableSet
    | TurnStarted
    | TelescopeSpent
    | StarsMarked
    | CardDiscovered
    | ActionPhaseEnded
    | Rested
)

EVENT_TYPES: tuple[type, ...] = (
    GameDealt,
    TableSet,
    TurnStarted,
    TelescopeSpent,
    StarsMarked,
    CardDiscovered,
    ActionPhaseEnded,
    Rested,
)
