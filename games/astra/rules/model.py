"""The Astra table as the rules keep it: frozen values, folded from the events.

What is here: the seats and the first player (P1, P3), each seat's Journal (J1-J5) with its
held cards, Active or Exhausted, in the order gained; the Sphere's slots with every star's
mark (a seat, the dreamer pen, or nobody); the Draw deck as the server dealt it and the count
above the Game End card (S2, H2); the discard pile, top last (S3, R5); the active Sphere (the
marker, S3, R5); the running turn (T1: its number, round and active seat, and how far it has
gone) and the step clock's fields (``deadline``, ``step_started``, ``step_seconds``) that the
kit's clock guards read.

Secrets (H1, H2): the deck's order and each seat's Final Scoring card. The repr hides them
(``kit.hiding``), so no log line or traceback can carry them; views (next) must not read them.

After the Action phase (3-5 players): the Discovery phase (D1-D14) with its Boon pick step
(``picks``, a kit round: a tied group's picks are sealed until the group completes, H4), the
Boons crossed on the card being resolved (``Slot.crossed``), the slots emptied by the cards
taken (``taken``, refilled by D12), the card-limit step (L1), the end of the turn (T3), the
Game End card set aside (``game_end_exposed``, E1, E2) with the last turn it sets (E5), and
the game's end (``ended``, E7).

With 2 players (V1-V13): the dreamer pen's marks (``DREAMER``), the Dream phase after a
Rest (``Phase.DREAMING`` while the active player chooses, ``dreamed`` once it is over) and
the card the dreamer discovered (``dream_discovered``, V10), resolved without a discoverer.

The Abilities (A1-A8, K1-K18): ``Phase.ABILITY`` is the turn before its first Observe or
Rest (A5); the cards whose this-turn effects are in force (``in_force``, A4, K17), whether a
Star Burst skipped the Action phase (``skipped``, K1), and every star the active player
marked this turn (``turn_marks``), which the end of the turn reads for K2, K7 and K16 (T3).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.kit import Round, hiding

from .boards import (
    SPHERE_BOARDS,
    STARTING_FAME,
    STARTING_STARDUST,
    STARTING_TELESCOPES,
    SphereBoard,
    card_limit,
    pouch_size,
)
from .cards import BOX_COUNT, BY_NUMBER, Boon, Card, Element

LEAST, MOST = 2, 5  # P1
DREAMER = 0  # V1: the dreamer pen's mark; seats are 1..N
CALLED = "turn"  # what the clock runs now (Z2's turn step), in the refusals' words
UNDEALT = "The game has not been dealt yet."

Mark = int | None  # a star's mark: the seat that marked it, DREAMER, or None (unmarked)


class Phase(StrEnum):
    """How far the table or the running turn has gone (T1)."""

    UNDEALT = "undealt"
    ABILITY = "ability"  # T1, A1, A5: the turn started, no Action yet: Abilities may be used
    OBSERVING = "observing"  # O9, O11: after an Observe action: another one, or done
    ACTION_ENDED = "action_ended"  # O11, R1: what follows (D1, V5, T3) comes next
    DISCOVERY = "discovery"  # D1-D14: under way, no player's step open
    PICKING = "picking"  # D5-D8: a group of assisting players picks Boons (``picks``)
    DISCARDING = "discarding"  # L1: the discoverer discards down to the card limit
    DREAMING = "dreaming"  # V6-V8: the active player chooses the dreamer's card and stars
    TURN_ENDED = "turn_ended"  # T3: the next seat's turn or the final scoring comes next
    ENDED = "ended"  # E7, F1-F9: the game is over


class Ending(StrEnum):
    """Why an Action phase of Observes ended (O7, O11)."""

    DONE = "done"  # the player said so
    NO_TELESCOPE = "no_telescope"
    NO_STARDUST = "no_stardust"
    NO_CARD = "no_card"  # no undiscovered card left on the Sphere
    TIME_UP = "time_up"  # Z4: the turn step's clock ran out after an Observe


@dataclass(frozen=True)
class Pick:
    """D6, B1, B7: one assisting player's Boon: the box (1-4) and, for a Boon of
    Activation, the Exhausted cards it reactivates (as resolved when picked: all of them
    when the picker has no more than the amount). Sealed until its group completes (H4)."""

    box: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class TurnMark:
    """Stars the active player marked this turn on one card, in order (T3 reads them for K2,
    K7, K16): by an Observe action (``observe``: each paid 1 Stardust, O6) or by an Ability
    (free, K18)."""

    card: int
    stars: tuple[int, ...]
    observe: bool


@dataclass(frozen=True)
class Held:
    """A card a player holds (Words): Active, or Exhausted (A2)."""

    card: int
    active: bool = True


@dataclass(frozen=True)
class Journal:
    """A player's Journal (J1-J5). ``pouch_gains`` and ``wisdom`` count the marks made on
    the tracks after the start (J3, J4): the sizes and limits are read from the tracks.
    ``held``: the cards held, in the order gained (Z5, Z7 read that order)."""

    stardust: int = STARTING_STARDUST  # J1
    telescopes: int = STARTING_TELESCOPES  # J2
    pouch_gains: int = 0  # J3
    wisdom: int = 0  # J4: Wisdom gained, 0-11
    fame: int = STARTING_FAME  # J5
    held: tuple[Held, ...] = ()

    @property
    def pouch_size(self) -> int:
        """J3: 5 + gains, at most 12."""
        return pouch_size(self.pouch_gains)

    @property
    def card_limit(self) -> int:
        """J4: 2 + ceil(wisdom / 2), at most 8."""
        return card_limit(self.wisdom)


@dataclass(frozen=True)
class Slot:
    """One card placement around the Sphere (Words) and the card on it, with every star's
    mark, star 0 first. ``card`` None: the slot is empty (the deck ran out, D13)."""

    card: int | None = None
    marks: tuple[Mark, ...] = ()
    crossed: tuple[int, ...] = ()  # D6, D7, H3: the Boon boxes crossed out, in order

    @property
    def available(self) -> tuple[int, ...]:
        """D6, D7: the Boon boxes not crossed out, left to right (B1)."""
        return tuple(box for box in range(1, BOX_COUNT + 1) if box not in self.crossed)

    def boon(self, box: int) -> Boon:
        """B1: box 1-4 of the card's Boons, from the left."""
        return self.constellation.boons[box - 1]

    def marked_by(self, seat: int) -> int:
        """D4, D5, F2: how many of the card's stars ``seat`` marked."""
        return sum(mark == seat for mark in self.marks)

    @classmethod
    def laid(cls, card: int) -> Slot:
        """A card placed face up, no star marked (S6)."""
        return cls(card, (None,) * BY_NUMBER[card].stars)

    @property
    def constellation(self) -> Card:
        assert self.card is not None, "an empty slot holds no card"
        return BY_NUMBER[self.card]

    @property
    def marked(self) -> frozenset[int]:
        """The stars marked by anyone (O3, O5)."""
        return frozenset(star for star, mark in enumerate(self.marks) if mark is not None)

    @property
    def discovered(self) -> bool:
        """O12: every star is marked (it may still sit on its slot until D10)."""
        return self.card is not None and all(mark is not None for mark in self.marks)

    @property
    def undiscovered(self) -> bool:
        """Words: on the Sphere with at least one unmarked star."""
        return self.card is not None and not self.discovered


@hiding("deck", "scoring")
@dataclass(frozen=True)
class State:
    version: int = 0
    dealt: bool = False
    ended: bool = False
    players: int = 0
    first_player: int = 1  # P3
    step_seconds: int | None = None  # Z1: None, the clock is off
    scoring: tuple[str, ...] = ()  # SECRET (H1): each seat's Final Scoring card, seat 1's first
    deck: tuple[int, ...] = ()  # SECRET (H2): the Draw deck's cards, top first (S2)
    above_game_end: int = 0  # H2, S2: how many of the deck's cards lie above the Game End card
    discard: tuple[int, ...] = ()  # S3, R5, H3: face up, the top card last
    sphere: Element | None = None  # S3, R5: the active Sphere, where the marker is
    journals: tuple[Journal, ...] = ()  # seat 1's first
    slots: tuple[Slot, ...] = ()  # slot 1's first (S1, S6)
    phase: Phase = Phase.UNDEALT
    turn: int = 0  # E5: turns are numbered 0, 1, ... from the first player's first turn
    active: int | None = None  # T2: the seat whose turn it is
    observes: int = 0  # O9: the Observe actions taken this turn (all but the first cost)
    rested: bool = False  # R1, V5: this turn's Action was a Rest
    discovered: tuple[int, ...] = ()  # O12: the slots discovered this turn, in order (D1)
    in_force: tuple[int, ...] = ()  # A4, K17: the cards whose this-turn effects are in force
    skipped: bool = False  # K1, A5: a Star Burst skipped this turn's Action phase
    turn_marks: tuple[TurnMark, ...] = ()  # K2, K7, K16: the active player's marks this turn
    dreamed: bool = False  # V5, V13: this turn's Dream phase is over
    dream_discovered: int | None = None  # V10: the slot whose last star the dreamer marked
    picks: Round[Pick] | None = None  # D6, H4: the open Boon pick step (its number: the step)
    picked: tuple[int, ...] = ()  # D5: the seats that picked a Boon of the card resolved now
    taken: tuple[int, ...] = ()  # D10, D12: the slots emptied this turn, not refilled yet
    game_end_exposed: bool = False  # E1, E2: the Game End card was set aside
    last_turn: int | None = None  # E3-E5: the game's last turn, once the endgame is triggered
    step_started: int = 0  # the version of the event that started the running step
    deadline: datetime | None = None  # Z2: the running step's deadline (None: no clock)
    recent: tuple[object, ...] = ()  # H3: the last public events, oldest first (the log, U2)
    turns: tuple[tuple[int, int], ...] = ()  # every turn's start: (version, seat), for a replay

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))

    @property
    def round(self) -> int:
        """E5: turn k is round k // N."""
        return self.turn // self.players if self.players else 0

    @property
    def board(self) -> SphereBoard:
        """S1, M9: the Sphere board side for the player count."""
        return SPHERE_BOARDS[self.players]

    @property
    def dreamer(self) -> bool:
        """S7, P2: with 2 players the dreamer pen marks stars too (its marks: V*)."""
        return self.players == 2

    @property
    def below_game_end(self) -> int:
        """H2: how many cards lie below the Game End card (anyone may count them)."""
        return len(self.deck) - self.above_game_end

    def journal(self, seat: int) -> Journal:
        return self.journals[seat - 1]

    def slot(self, number: int) -> Slot:
        return self.slots[number - 1]

    def undiscovered(self) -> tuple[int, ...]:
        """The slots holding an undiscovered card (O1, O11)."""
        return tuple(n for n, slot in enumerate(self.slots, 1) if slot.undiscovered)


def seat_of_turn(first_player: int, turn: int, players: int) -> int:
    """P3: turn 0 is the first player's, then clockwise (up the seat numbers, wrapping)."""
    return (first_player - 1 + turn) % players + 1
