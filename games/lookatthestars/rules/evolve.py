"""How each event changes the state: one small function per event, and the fold.

A round's close applies every seat's revealed drawing to that seat's board (G7: each to its
own) and scores every board again: the provisional scores (E8).
"""

from __future__ import annotations

from functools import singledispatch

from games import kit
from games.kit import Refusal, Round

from . import drawing
from .board import StarBoard
from .cards import POINT_CARDS, POWER_CARDS, SHAPES, is_shooting_star
from .events import DrawingSubmitted, GameDealt, GameEnded, RoundClosed, RoundStarted
from .model import PASS, ClosedRound, Drawing, State, Turn
from .scoring import ScoreSheet, score


def turn_of(state: State) -> Turn:
    """What the running round asks: its card's shape (None: a shooting star), the power."""
    card = state.card
    assert card is not None, "a dealt game has a card"
    shape = None if is_shooting_star(card) else SHAPES[card].lines
    return Turn(shape, state.power, POWER_CARDS[state.power].lines, state.round_number)


def scored(state: State, board: StarBoard) -> ScoreSheet:
    """E2, E8: the board's score with the game's point card."""
    card = POINT_CARDS[state.point_card]
    return score(board, card.lines, card.value)


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, kit.with_changes(state, version=state.version + 1))


fold = kit.make_fold(evolve, State)


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not a Look at the Stars event: {type(event).__name__}")


@_apply.register
def _(event: GameDealt, state: State) -> State:
    dealt = kit.with_changes(
        state,
        dealt=True,
        players=event.players,
        designs=event.designs,
        night=event.night,
        point_card=event.point_card,
        power=event.power,
        step_seconds=event.step_seconds,
        boards=tuple(StarBoard(design) for design in event.designs),
    )
    return kit.with_changes(dealt, scores=tuple(scored(dealt, b) for b in dealt.boards))


@_apply.register
def _(event: RoundStarted, state: State) -> State:
    opened: Round[Drawing] = Round(
        number=event.round,
        seats=frozenset(state.seats),
        started=state.version,
        deadline=event.deadline,
    )
    return kit.with_changes(
        state, round=opened, step_started=state.version, cards=(*state.cards, event.card)
    )


@_apply.register
def _(event: DrawingSubmitted, state: State) -> State:
    assert state.round is not None
    return kit.with_changes(state, round=kit.evolve_round(state.round, event))


@_apply.register
def _(event: RoundClosed, state: State) -> State:
    assert state.round is not None and state.card is not None
    turn = turn_of(state)
    by_seat = event.by_seat()
    drawings = tuple(by_seat.get(seat, PASS) for seat in state.seats)
    boards = tuple(_drawn(b, d, turn) for b, d in zip(state.boards, drawings, strict=True))
    closed = ClosedRound(
        number=event.round,
        card=state.card,
        version=state.version,
        drawings=drawings,
        passed_by_clock=event.passed_by_clock,
        by_clock=event.by_clock,
    )
    after = kit.with_changes(
        state,
        round=kit.evolve_round(state.round, event),
        boards=boards,
        closed=(*state.closed, closed),
    )
    return kit.with_changes(after, scores=tuple(scored(after, b) for b in boards))


def _drawn(board: StarBoard, submission: Drawing, turn: Turn) -> StarBoard:
    after = drawing.apply(board, submission, turn)
    if isinstance(after, Refusal):  # never: decide accepted it against this very board
        raise ValueError(f"a stored drawing breaks the rules: {after.reason}")
    return after


@_apply.register
def _(event: GameEnded, state: State) -> State:
    return kit.with_changes(state, ended=True, scores=event.scores, winners=event.winners)
