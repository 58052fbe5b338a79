"""Step 1 and 2 of a turn: refill the tiles beside the board to three, then place one of
them, or the blind top tile of the stack, on an empty space."""

import pytest

from games.underonesky.rules import (
    CENTRE,
    STALE,
    Place,
    Problem,
    Step,
    Tile,
    TilePlaced,
    fold,
)
from tests.support.uos import NOW, STACK, arranged, dealt, decided, refused


def test_a_tile_beside_the_board_goes_to_an_empty_space():
    state = dealt()  # beside the board: yellow, blue, orange
    events = decided(state, Place(seat=1, space=0, version=state.version, face_up=1))
    assert events[0] == TilePlaced(seat=1, tile=Tile.BLUE, face_up=1, space=0)
    after = fold(events[:1], state)
    assert after.board[0] is Tile.BLUE
    assert after.face_up == (Tile.YELLOW, Tile.ORANGE)
    assert after.stack == STACK[3:]


def test_the_blind_top_tile_of_the_stack_can_be_placed_instead():
    state = dealt()
    top = state.stack[0]
    events = decided(state, Place(seat=1, space=6, version=state.version, face_up=None))
    assert events[0] == TilePlaced(seat=1, tile=top, face_up=None, space=6)
    after = fold(events[:1], state)
    assert after.board[6] is top and after.stack == state.stack[1:]
    assert after.face_up == state.face_up


def test_at_the_start_of_the_next_turn_the_tiles_beside_the_board_are_refilled_to_three():
    state = dealt()
    # Yellow turns the board and ends the turn: no move to wait for.
    after = fold(decided(state, Place(seat=1, space=0, version=state.version, face_up=0)), state)
    assert after.seat == 2 and after.turn == 2 and after.step is Step.PLACING
    assert len(after.face_up) == 3
    assert after.face_up == (Tile.BLUE, Tile.ORANGE, STACK[3])
    assert len(after.stack) == len(state.stack) - 1


def test_after_a_blind_tile_the_three_beside_the_board_need_no_refill():
    state = dealt()
    top = state.stack[0]
    assert top is Tile.YELLOW  # it turns the board, and the turn is over
    after = fold(decided(state, Place(seat=1, space=0, version=state.version)), state)
    assert after.seat == 2 and after.face_up == state.face_up
    assert after.turns[-1].seat == 2 and after.turns[0].blind


def test_two_tiles_never_share_a_space():
    state = arranged(dealt(), "B....\n.....\n..N..\n.....\n.....")
    refusal = refused(state, Place(seat=1, space=0, version=state.version, face_up=0))
    assert "never share a space" in refusal.reason
    refusal = refused(state, Place(seat=1, space=CENTRE, version=state.version, face_up=0))
    assert refusal.problem is Problem.CONFLICT


@pytest.mark.parametrize("face_up", [3, -1, 7])
def test_only_the_tiles_beside_the_board_can_be_picked(face_up):
    state = dealt()
    refusal = refused(state, Place(seat=1, space=0, version=state.version, face_up=face_up))
    assert "Pick one of the tiles" in refusal.reason


@pytest.mark.parametrize("space", [-1, 25, 100])
def test_a_space_off_the_board_is_refused(space):
    state = dealt()
    assert "no such space" in refused(state, Place(1, space, state.version, 0)).reason


def test_only_the_player_whose_turn_it_is_places_and_only_against_the_current_version():
    state = dealt(first_seat=2)
    assert refused(state, Place(1, 0, state.version, 0)).problem is Problem.FORBIDDEN
    assert refused(state, Place(3, 0, state.version, 0)).problem is Problem.FORBIDDEN
    assert refused(state, Place(2, 0, state.version - 1, 0)).reason == STALE


def test_one_tile_per_turn_then_its_action():
    state = arranged(
        dealt(),
        """
        .....
        .....
        .ON..
        .....
        .....
        """,
    )
    after = fold(decided(state, Place(1, 6, state.version, 1)), state)  # blue, beside O
    assert after.step is Step.ACTING and after.placed == 6 and after.seat == 1
    refusal = refused(after, Place(1, 0, after.version, 0), NOW)
    assert "now do its action" in refusal.reason
