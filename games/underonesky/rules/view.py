"""Who may know what: the view of the state for one seat, or for a spectator (seat None).

Everything a browser receives is built from a ``SeatView``. It holds your own card, never
the other player's or the face-down one while the game is on, and never the stack's order
(only how many tiles it holds), so a template cannot leak what it was never given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .geometry import Move, legal_moves, oriented
from .model import Card, Cell, Compass, Finish, State, Step, Tile, TurnRecord


@dataclass(frozen=True)
class CardView:
    seat: int | None  # whose card (None: the face-down one)
    card: Card
    shape: tuple[Cell, ...]  # turned to the chart's compass, as it must lie on the board


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None: a spectator
    version: int
    step: Step
    chart: Tile | None
    compass: Compass
    board: tuple[Tile | None, ...]
    face_up: tuple[Tile, ...]
    stack_count: int
    turn_seat: int
    turn: int
    placed: int | None
    placed_tile: Tile | None
    deadline: datetime | None
    step_seconds: int | None
    cards: tuple[CardView, ...]  # only those this viewer may see
    my_turn: bool
    targets: tuple[int, ...]  # empty spaces a tile may go to (placing, my turn)
    moves: tuple[Move, ...]  # legal moves (acting, my turn)
    winner: int | None
    finish: Finish | None
    completed: tuple[int, ...]
    turns: tuple[TurnRecord, ...]


def visible_cards(state: State, seat: int | None, *, reveal: bool = False) -> tuple[CardView, ...]:
    """Your own card while the game is on; every card, the face-down one too, at the end
    (or in a replay: ``reveal``)."""
    everyone = state.ended or reveal
    shown = [
        CardView(n, card, oriented(card.cells, state.compass))
        for n, card in enumerate(state.cards, start=1)
        if everyone or n == seat
    ]
    if everyone and state.face_down is not None:
        card = state.face_down
        shown.append(CardView(None, card, oriented(card.cells, state.compass)))
    return tuple(shown)


def view_for(state: State, seat: int | None, *, reveal: bool = False) -> SeatView:
    seat = seat if seat in (1, 2) and state.dealt else None
    mine = seat is not None and seat == state.seat and not state.ended
    placing = mine and state.step is Step.PLACING
    acting = mine and state.step is Step.ACTING and state.placed is not None
    return SeatView(
        seat=seat,
        version=state.version,
        step=state.step,
        chart=state.chart,
        compass=state.compass,
        board=state.board,
        face_up=state.face_up,
        stack_count=len(state.stack),
        turn_seat=state.seat,
        turn=state.turn,
        placed=state.placed,
        placed_tile=state.placed_tile,
        deadline=state.deadline,
        step_seconds=state.step_seconds,
        cards=visible_cards(state, seat, reveal=reveal),
        my_turn=mine,
        targets=tuple(state.empty_spaces()) if placing else (),
        moves=tuple(legal_moves(state.board, state.placed)) if acting else (),
        winner=state.winner,
        finish=state.finish,
        completed=state.completed,
        turns=state.turns,
    )
