"""The Look at the Stars game state, and a seat's submission for a round: plain values.

A round is a kit ``Round[Drawing]`` (``games.kit.rounds``): every seat submits one
``Drawing`` (R6), checked against its board as it stood when the round began, private until
the round closes. The state keeps each seat's board as of the last closed round (V2), the
provisional scores (E8), the cards revealed so far (R2) and, secretly, the whole night (R8):
no view reads ``night`` (V4).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import Round, hiding

from .board import Design, Power, ShootingStar, StarBoard
from .scoring import ScoreSheet
from .sky import Line, Point, Shape, day_rows

LEAST, MOST = 1, 8  # S1
ROUNDS = 18  # R2
PILE = 6  # R1: three piles of six
NIGHT = ROUNDS  # the cards of the night (R1)
CALLED = "round"  # what the clock runs, in the refusals' words
UNDEALT = "The night has not started yet."


@dataclass(frozen=True)
class Resolution:
    """W3, W17: one open power copy resolved: its three lines, and the power's target
    (one point; two neighbouring points for Line; the left point for Galaxy; one or two
    blank points for New stars). No target: the copy is declined (W5)."""

    copy: frozenset[Line]
    targets: tuple[Point, ...] = ()

    @property
    def declined(self) -> bool:
        return not self.targets


@dataclass(frozen=True)
class Drawing:
    """A seat's whole submission for a round (R3, R6): the card's shape lines, or a
    shooting star, or neither (a pass, R7); then the power resolutions, in order (W3, W4)."""

    lines: frozenset[Line] = frozenset()
    shooting_star: ShootingStar | None = None
    resolutions: tuple[Resolution, ...] = ()

    @property
    def passed(self) -> bool:
        """Nothing drawn from the card (R7). A pass may still resolve nothing else: a board
        has no open copy between rounds (W3)."""
        return not self.lines and self.shooting_star is None


PASS = Drawing()


@dataclass(frozen=True)
class Turn:
    """What a round asks of every seat: the card's shape (None: a shooting-star card), the
    power card with its shape, and the round (for the day rows, R4)."""

    card: Shape | None
    power: Power
    power_lines: Shape
    round: int

    @property
    def day(self) -> int:
        """How many rows from the horizon are day rows (R4)."""
        return day_rows(self.round)


@dataclass(frozen=True)
class ClosedRound:
    """A round once closed, as everyone may see it (V2, V6): its card, each seat's drawing
    (seat 1's first; a pass for a seat the clock passed) and the seats the clock passed."""

    number: int
    card: str
    version: int  # of the event that closed it
    drawings: tuple[Drawing, ...]
    passed_by_clock: tuple[int, ...]
    by_clock: bool


@hiding("night")
@dataclass(frozen=True)
class State:
    version: int = 0
    dealt: bool = False
    ended: bool = False
    players: int = 0
    designs: tuple[Design, ...] = ()  # seat 1's first (S2)
    night: tuple[str, ...] = ()  # SECRET (V4): the 18 cards in order; views never read it
    point_card: str = ""
    power: Power = Power.LINE
    step_seconds: int | None = None
    round: Round[Drawing] | None = None  # the round running (after the last one, closed)
    step_started: int = 0  # the version of the event that revealed the running round's card
    cards: tuple[str, ...] = ()  # the cards revealed so far, in order (R2)
    boards: tuple[StarBoard, ...] = ()  # as of the last closed round (V2)
    scores: tuple[ScoreSheet, ...] = ()  # provisional (E8), final once ended
    closed: tuple[ClosedRound, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def deadline(self) -> datetime | None:
        if self.ended or self.round is None or self.round.closed:
            return None
        return self.round.deadline

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))

    @property
    def round_number(self) -> int:
        return 0 if self.round is None else self.round.number

    @property
    def card(self) -> str | None:
        """The card revealed for the running round (None before the deal)."""
        return self.cards[-1] if self.cards else None

    @property
    def solo(self) -> bool:
        return self.players == 1


def pile_of(round_number: int) -> int:
    """R1: pile 1 is rounds 1-6, pile 2 rounds 7-12, pile 3 rounds 13-18."""
    return (max(round_number, 1) - 1) // PILE + 1


def cards_left(round_number: int) -> tuple[int, int, int]:
    """V1: how many cards each pile still holds once ``round_number`` cards are revealed."""
    first, second, third = (min(PILE, max(0, PILE * pile - round_number)) for pile in (1, 2, 3))
    return (first, second, third)
