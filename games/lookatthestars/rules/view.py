"""Who may know what (V1-V6): the view of the state for one seat, or for anyone else.

Everything a browser receives is built from a ``View``. It holds the boards as of the last
closed round (V2), every seat's "done" or "drawing" (V3), the viewer's own accepted
submission this round and its board with it (V3, U10: that seat only), and the cards
revealed so far (V4: never the night's unrevealed cards, their order or the unused ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import RoundStatus, SeatStatus

from . import drawing
from .board import Design, Power, StarBoard
from .evolve import turn_of
from .model import ROUNDS, ClosedRound, Drawing, State, cards_left, pile_of
from .scoring import ScoreSheet
from .sky import day_rows


@dataclass(frozen=True)
class SeatBoard:
    """One seat's public board (V1, V2): its design, the board and the provisional score as
    of the last closed round, and whether it has submitted this round (None: no round
    is open)."""

    seat: int
    design: Design
    board: StarBoard
    score: ScoreSheet
    status: SeatStatus | None


@dataclass(frozen=True)
class View:
    seat: int | None  # None: a spectator (S5)
    version: int
    dealt: bool
    ended: bool
    players: int
    solo: bool
    round: int  # the running round (or the last one), 0 before the deal
    rounds: int
    card: str | None  # the card revealed for the running round
    pile: int
    cards_left: tuple[int, int, int]  # V1: per pile
    day: int  # R4: how many rows from the horizon are day rows
    point_card: str
    power: Power
    step_seconds: int | None
    deadline: datetime | None
    boards: tuple[SeatBoard, ...]
    status: RoundStatus[Drawing] | None  # done / choosing, and the viewer's own submission
    own: StarBoard | None  # V3, U10: the viewer's board with its accepted submission
    can_submit: bool
    revealed: tuple[str, ...]  # the cards revealed so far (E7: all 18 at the end)
    closed: tuple[ClosedRound, ...]  # V6: closed rounds only
    winners: tuple[int, ...]


def view_for(state: State, seat: int | None) -> View:
    viewer = seat if seat is not None and 1 <= seat <= state.players else None
    running = state.round is not None and not state.round.closed and not state.ended
    status = state.round.status_for(viewer) if state.round is not None else None
    seats = status.seats if status is not None and running else {}
    number = state.round_number
    return View(
        seat=viewer,
        version=state.version,
        dealt=state.dealt,
        ended=state.ended,
        players=state.players,
        solo=state.solo,
        round=number,
        rounds=ROUNDS,
        card=state.card,
        pile=pile_of(number),
        cards_left=cards_left(number),
        day=day_rows(number) if number else 0,
        point_card=state.point_card,
        power=state.power,
        step_seconds=state.step_seconds,
        deadline=state.deadline,
        boards=tuple(_public(state, s, seats.get(s)) for s in state.seats),
        status=status,
        own=_own(state, viewer) if running else None,
        can_submit=bool(running and viewer is not None and status and viewer in status.waiting),
        revealed=state.cards,
        closed=state.closed,
        winners=state.winners,
    )


def _public(state: State, seat: int, status: SeatStatus | None) -> SeatBoard:
    i = seat - 1
    return SeatBoard(seat, state.designs[i], state.boards[i], state.scores[i], status)


def _own(state: State, seat: int | None) -> StarBoard | None:
    """The seat's own board with its accepted submission this round (V3: that seat only)."""
    if seat is None or state.round is None or not state.round.done(seat):
        return None
    after = drawing.apply(state.boards[seat - 1], state.round.submitted[seat], turn_of(state))
    return after if isinstance(after, StarBoard) else None
