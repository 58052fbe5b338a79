"""What happened (I2): frozen events named in the past tense. They carry every draw of the
server (the deal, H5) and every deadline (Z2), and each event that moves a card off the deck
names it (I3), so folding them never shuffles, draws or reads a clock.

The clock's expiries (Z3-Z7) are recorded on the events they make (``by_clock``), each
step's deadline on the event that starts it (Z2).

A tied group's Boon picks (D6, H4) are a kit round: ``BoonPicked`` is a seat's sealed pick
(its repr hides it; views must show it to that seat only) and ``BoonsCrossed`` reveals the
group's picks at once, crosses their boxes out and is when the Boons are gained (D7).

With 2 players the Dream phase (V5-V13) opens a step (``DreamOpened``) unless the server
marks the only legal chain itself (V12) or no card is left (``DreamSkipped``, V13); the
dreamer's marks are ``DreamMarked``; a card it completes is ``DreamDiscovered`` and, after its
Boons, goes to the discard pile (``DreamCardDiscarded``, V10).

An Ability (A1-A8, K1-K18) is ``AbilityUsed``: the card exhausted (A2) with what it gained at
once; the stars it marks follow, one ``AbilityMarked`` per card (then ``CardDiscovered`` for
a card it completed, D14). What the this-turn effects pay is on ``TurnEnded`` (T3).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import kit
from games.kit import hiding

from .cards import AbilityKind, Element
from .model import Ending, Pick


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
class AbilityUsed:
    """A1-A4, I2: ``seat`` used the Ability of ``card`` (its ``kind``), which is Exhausted
    now (A2); what it changed at once: Stardust gained (K3) or spent (K4, negative),
    Telescopes (K4, K11), Wisdom (K8; gains past the track's top lost, J4), Fame (K9, K15)
    and Pouch size (K12, J3). A this-turn kind (K2, K6, K7, K13, K16) is in force until the
    end of the turn (A4); a Star Burst (K1) skips the Action phase."""

    seat: int
    card: int
    kind: AbilityKind
    stardust: int = 0
    telescopes: int = 0
    wisdom: int = 0
    fame: int = 0
    pouch: int = 0


@dataclass(frozen=True)
class AbilityMarked:
    """K1, K5, K10, K14, K18: the Ability just used marked ``stars`` (in order) on ``card``
    in ``slot``, for free; they are ``seat``'s marks (D4, F2), and its Grand stars gained
    ``wisdom`` (O8, J4)."""

    seat: int
    slot: int
    card: int
    stars: tuple[int, ...]
    wisdom: int


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


@dataclass(frozen=True)
class BoonPickOpened:
    """D5, D6, Z2: a pick step opens for one group of assisting players of the card in
    ``slot`` (tied on stars marked): its seats, the boxes each may pick (``boxes``, one tuple
    per seat, in the order of ``seats``) and its deadline (half the turn step's). The step is
    this event's version."""

    slot: int
    card: int
    seats: tuple[int, ...]
    boxes: tuple[tuple[int, ...], ...]
    deadline: datetime | None


@dataclass(frozen=True)
class BoonPicked(kit.Submitted[Pick]):
    """D6, D8, H4: ``seat``'s pick in the step ``round``: sealed (its repr hides it) until
    the group completes. ``by_server``: D8 picked it (one Boon left, no choice to make);
    ``by_clock``: Z5 did (the step ran out: the leftmost Boon open to the seat)."""

    submission: Pick
    by_server: bool = False
    by_clock: bool = False


@dataclass(frozen=True)
class BoonsCrossed(kit.RoundClosed[Pick]):
    """D6, D7, B1-B7: the group completed: every pick shows, each picker gains its Boon,
    and the boxes picked (``crossed``, left to right) are crossed out on the card in
    ``slot``."""

    submissions: tuple[BoonPicked, ...]
    slot: int
    card: int
    crossed: tuple[int, ...]


@dataclass(frozen=True)
class CardGained:
    """D10: the discoverer takes the card from its slot, Active; its marks are gone."""

    seat: int
    slot: int
    card: int


@dataclass(frozen=True)
class CardLimitExceeded:
    """L1, Z2: the discoverer holds more cards than the card limit: a step opens for them
    to discard down to ``limit``, with its deadline (half the turn step's)."""

    seat: int
    limit: int
    deadline: datetime | None


@dataclass(frozen=True)
class CardsDiscarded:
    """L1, L2: the cards discarded to the limit, face up on the discard pile, in the order
    they were held (the last one named lies on top)."""

    seat: int
    cards: tuple[int, ...]
    by_clock: bool = False  # Z7


@dataclass(frozen=True)
class DreamOpened:
    """V5-V7, Z2: the Dream step opens for the active ``seat``: the slots of the cards the
    dreamer may mark (tied, V6), how many stars it marks (``stars``, the active Sphere's
    number, V7) and the step's deadline (half the turn step's). The step is this event's
    version."""

    seat: int
    slots: tuple[int, ...]
    stars: int
    deadline: datetime | None


@dataclass(frozen=True)
class DreamSkipped:
    """V13: no undiscovered card is on the Sphere: the Dream phase marks nothing."""

    seat: int


@dataclass(frozen=True)
class DreamMarked:
    """V7-V9, V12, Z6: the dreamer marked ``stars`` in order on ``card`` in ``slot``, chosen
    by the active ``seat`` (or by the server: the only legal choice, V12; or by the clock,
    with the random numbers it drew, ``picks``, Z6). Nobody pays or gains anything (V9)."""

    seat: int
    slot: int
    card: int
    stars: tuple[int, ...]
    by_server: bool = False
    by_clock: bool = False
    picks: tuple[int, ...] = ()


@dataclass(frozen=True)
class DreamDiscovered:
    """V10, D2: the dreamer marked the card's last star: it is discovered, with no
    discoverer; its assisting players pick Boons next."""

    slot: int
    card: int


@dataclass(frozen=True)
class DreamCardDiscarded:
    """V10: the dream-discovered card goes face up to the discard pile; nobody gains it.
    Its slot waits for one replacement (V11)."""

    slot: int
    card: int


@dataclass(frozen=True)
class CardDrawn:
    """D12, D13, I3: the deck's top card laid face up in the emptied ``slot`` (None: the deck
    is empty and the slot stays empty)."""

    slot: int
    card: int | None


@dataclass(frozen=True)
class GameEndExposed:
    """E1, E2, E5: the Game End card became the deck's top card during turn ``turn`` and is
    set aside for good; the game's last turn is ``last_turn``."""

    turn: int
    last_turn: int


@dataclass(frozen=True)
class TurnEnded:
    """T3: ``seat``'s turn ``turn`` is over, and what the turn-lasting effects in force paid
    (K2, K16: Stardust returned, K17; K7: Fame)."""

    seat: int
    turn: int
    stardust_returned: int = 0
    fame: int = 0


@dataclass(frozen=True)
class FinalScore:
    """F1-F8, U8: one seat's final score, line by line, with its Final Scoring card (shown
    now, H1) and the marks in its rows, Fire, Water, Air, Earth (F4)."""

    seat: int
    scoring_card: str
    fame_in_play: int  # J5
    marked_stars: int  # F2
    active_cards: int  # F3
    element_rows: int  # F4
    element_columns: int  # F5
    pouch_size: int  # F6
    card_limit: int  # F7
    leftover_stardust: int  # F8
    total: int  # F1
    rows: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    """E7, F9, H1, I2: the final scoring: every seat's breakdown, seat 1's first, and the
    winners (the highest total; ties share the victory)."""

    scores: tuple[FinalScore, ...]
    winners: tuple[int, ...]


Event = (
    GameDealt
    | TableSet
    | TurnStarted
    | AbilityUsed
    | AbilityMarked
    | TelescopeSpent
    | StarsMarked
    | CardDiscovered
    | ActionPhaseEnded
    | Rested
    | BoonPickOpened
    | BoonPicked
    | BoonsCrossed
    | CardGained
    | CardLimitExceeded
    | CardsDiscarded
    | DreamOpened
    | DreamSkipped
    | DreamMarked
    | DreamDiscovered
    | DreamCardDiscarded
    | CardDrawn
    | GameEndExposed
    | TurnEnded
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    GameDealt,
    TableSet,
    TurnStarted,
    AbilityUsed,
    AbilityMarked,
    TelescopeSpent,
    StarsMarked,
    CardDiscovered,
    ActionPhaseEnded,
    Rested,
    BoonPickOpened,
    BoonPicked,
    BoonsCrossed,
    CardGained,
    CardLimitExceeded,
    CardsDiscarded,
    DreamOpened,
    DreamSkipped,
    DreamMarked,
    DreamDiscovered,
    DreamCardDiscarded,
    CardDrawn,
    GameEndExposed,
    TurnEnded,
    GameEnded,
)
