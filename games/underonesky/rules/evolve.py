"""How each event changes the state: one small function per event, and the fold."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from games.kit import make_fold, with_changes

from .events import (
    ActionSkipped,
    BoardRotated,
    GameDealt,
    GameEnded,
    TileMoved,
    TilePlaced,
    TurnStarted,
)
from .geometry import move, rotate_board
from .model import Action, State, Step, TurnRecord, empty_board


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, with_changes(state, version=state.version + 1))


fold = make_fold(evolve, State)


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not an Under One Sky event: {event!r}")


def _log(state: State, **changes: Any) -> tuple[TurnRecord, ...]:
    """The turns with the current (last) one updated."""
    *done, current = state.turns
    return (*done, replace(current, **changes))


@_apply.register
def _(event: GameDealt, state: State) -> State:
    return replace(
        state,
        step=Step.PLACING,
        chart=event.chart,
        compass=event.compass,
        cards=event.cards,
        face_down=event.face_down,
        board=empty_board(),
        stack=event.stack,
        face_up=(),
        first_seat=event.first_seat,
        seat=event.first_seat,
        step_seconds=event.step_seconds,
    )


@_apply.register
def _(event: TurnStarted, state: State) -> State:
    count = len(event.drawn)
    return replace(
        state,
        step=Step.PLACING,
        seat=event.seat,
        turn=event.turn,
        face_up=state.face_up + state.stack[:count],
        stack=state.stack[count:],
        placed=None,
        step_started=state.version,
        deadline=event.deadline,
        turns=(*state.turns, TurnRecord(event.turn, event.seat, started=state.version)),
    )


@_apply.register
def _(event: TilePlaced, state: State) -> State:
    if event.face_up is None:
        stack, face_up = state.stack[1:], state.face_up
    else:
        i = event.face_up
        stack, face_up = state.stack, state.face_up[:i] + state.face_up[i + 1 :]
    board = list(state.board)
    board[event.space] = event.tile
    return replace(
        state,
        step=Step.ACTING,
        board=tuple(board),
        stack=stack,
        face_up=face_up,
        placed=event.space,
        turns=_log(
            state,
            tile=event.tile,
            blind=event.face_up is None,
            space=event.space,
            by_clock=event.by_clock,
        ),
    )


@_apply.register
def _(event: TileMoved, state: State) -> State:
    return replace(
        state,
        board=move(state.board, event.origin, event.target),
        placed=None,
        turns=_log(
            state,
            action=Action.MOVED,
            origin=event.origin,
            target=event.target,
            by_clock=state.turns[-1].by_clock or event.by_clock,
        ),
    )


@_apply.register
def _(event: BoardRotated, state: State) -> State:
    return replace(
        state,
        board=rotate_board(state.board),
        placed=None,
        turns=_log(state, action=Action.ROTATED),
    )


@_apply.register
def _(event: ActionSkipped, state: State) -> State:
    return replace(state, placed=None, turns=_log(state, action=Action.SKIPPED))


@_apply.register
def _(event: GameEnded, state: State) -> State:
    return replace(
        state,
        step=Step.ENDED,
        winner=event.winner,
        finish=event.finish,
        completed=event.spaces,
        placed=None,
        deadline=None,
    )
