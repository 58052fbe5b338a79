"""The turn's clock: an expired turn places the blind top tile on a random empty space and,
when the action is mandatory, makes a random legal move. The server draws the random numbers
(``picks``); the events record what was done."""

from dataclasses import replace
from datetime import timedelta

import pytest

from games.underonesky.rules import (
    ActionSkipped,
    BoardRotated,
    Expire,
    Move,
    Place,
    Problem,
    Step,
    Tile,
    TileMoved,
    TilePlaced,
    TurnStarted,
    due_expiry,
    fold,
    legal_moves,
)
from tests.support.uos import NOW, arranged, dealt, decided, refused

LATE = NOW + timedelta(seconds=61)


def clocked(**options):
    return dealt(step_seconds=60, **options)


def test_each_turn_gets_its_deadline_from_the_clock():
    state = clocked()
    assert state.deadline == NOW + timedelta(seconds=60)
    assert state.step_started == 2  # the TurnStarted event's version
    assert dealt().deadline is None


def test_an_expired_turn_places_the_blind_top_tile_on_a_random_empty_space():
    state = clocked()  # the top of the stack is yellow: it turns the board
    empty = state.empty_spaces()
    events = decided(state, Expire(state.step_started, picks=(5, 0)), LATE)
    assert events[0] == TilePlaced(
        seat=1, tile=Tile.YELLOW, face_up=None, space=empty[5], by_clock=True
    )
    assert isinstance(events[1], BoardRotated) and isinstance(events[2], TurnStarted)
    after = fold(events, state)
    assert after.seat == 2 and after.turns[0].by_clock and after.turns[0].blind


@pytest.mark.parametrize("pick", [0, 1, 2, 1000])
def test_then_a_random_legal_move_when_the_action_is_mandatory(pick):
    state = arranged(clocked(), ".....\n.O...\n..N..\n.....\n.....")
    state = fold(decided(state, Place(1, 7, state.version, 1), NOW), state)  # blue on C2
    assert state.step is Step.ACTING
    moves = legal_moves(state.board, state.placed)
    events = decided(state, Expire(state.step_started, picks=(0, pick)), LATE)
    origin, target = moves[pick % len(moves)]
    assert events[0] == TileMoved(seat=1, origin=origin, target=target, by_clock=True)
    assert isinstance(events[1], TurnStarted)


def test_a_blind_tile_placed_by_the_clock_whose_action_has_no_move_is_skipped():
    state = clocked()
    rest = list(state.stack)
    rest.remove(Tile.BLUE)
    state = replace(state, stack=(Tile.BLUE, *rest))  # a blue tile on top of the stack
    spot = state.empty_spaces().index(7)  # C2: it touches only the North Star
    events = decided(state, Expire(state.step_started, picks=(spot, 0)), LATE)
    assert events[0] == TilePlaced(seat=1, tile=Tile.BLUE, face_up=None, space=7, by_clock=True)
    assert events[1] == ActionSkipped(seat=1, tile=Tile.BLUE)


def test_the_clock_refuses_a_turn_that_is_over_or_still_has_time():
    state = clocked()
    assert "still has time" in refused(state, Expire(state.step_started), NOW).reason
    assert "already over" in refused(state, Expire(state.step_started - 1), LATE).reason
    assert "no clock" in refused(dealt(), Expire(dealt().step_started), LATE).reason


def test_a_player_acting_after_the_deadline_is_refused_and_due_expiry_plays_the_turn():
    state = clocked()
    refusal = refused(state, Place(1, 0, state.version, 0), LATE)
    assert refusal.reason == "Time is up for this turn." and refusal.problem is Problem.CONFLICT
    assert due_expiry(state, NOW) == []
    expired = due_expiry(state, LATE, (3, 4))
    assert expired == decided(state, Expire(state.step_started, (3, 4)), LATE)


def test_the_next_turn_after_an_expiry_has_a_fresh_deadline():
    state = clocked()
    after = fold(decided(state, Expire(state.step_started, (0, 0)), LATE), state)
    assert after.deadline == LATE + timedelta(seconds=60)
    assert after.step_started > state.step_started
    assert refused(after, Move(2, 0, after.version), LATE).reason == "Place a tile first."
