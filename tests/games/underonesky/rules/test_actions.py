"""Step 3: the placed tile's colour acts. Blue moves a surrounding tile one space
orthogonally, orange diagonally; the action is mandatory when a legal move exists and is
skipped, with a message, when none does. The North Star never moves."""

from games.underonesky.rules import (
    CENTRE,
    ActionSkipped,
    Move,
    Place,
    Step,
    Tile,
    TileMoved,
    TurnStarted,
    fold,
    legal_moves,
    surrounding,
)
from games.underonesky.rules.geometry import space
from tests.support.uos import arranged, dealt, decided, refused

BLUE, ORANGE, YELLOW = 1, 2, 0  # where each colour lies beside the board after the deal


def placed(text: str, at: int, pick: int) -> tuple:
    """The position, the events of placing tile ``pick`` on ``at``, and the state after."""
    state = arranged(dealt(), text)
    events = decided(state, Place(1, at, state.version, pick))
    return state, events, fold(events, state)


def test_surrounding_tiles_are_the_up_to_eight_touching_orthogonally_or_diagonally():
    assert sorted(surrounding(space(2, 1))) == sorted(
        [space(1, 0), space(1, 1), space(1, 2), space(2, 0), space(2, 2), space(3, 0),
         space(3, 1), space(3, 2)]
    )  # fmt: skip
    assert sorted(surrounding(0)) == [1, 5, 6]  # a corner has three


def test_blue_moves_one_surrounding_tile_one_space_orthogonally_into_an_empty_space():
    _, _, after = placed(
        """
        .....
        .O...
        ..N..
        .....
        .....
        """,
        at=space(1, 2),
        pick=BLUE,
    )
    assert after.step is Step.ACTING and after.placed == space(1, 2)
    # O at B2 may go up, left or down (right is the blue tile itself); N never moves.
    assert sorted(legal_moves(after.board, after.placed)) == sorted(
        [(space(1, 1), space(0, 1)), (space(1, 1), space(1, 0)), (space(1, 1), space(2, 1))]
    )
    events = decided(after, Move(1, space(0, 1), after.version, space(1, 1)))
    assert events[0] == TileMoved(seat=1, origin=space(1, 1), target=space(0, 1))
    assert isinstance(events[1], TurnStarted) and events[1].seat == 2
    done = fold(events, after)
    assert done.board[space(0, 1)] is Tile.ORANGE and done.board[space(1, 1)] is None


def test_orange_moves_one_surrounding_tile_one_space_diagonally():
    _, _, after = placed(
        """
        .....
        .B...
        ..N..
        .....
        .....
        """,
        at=space(1, 2),
        pick=ORANGE,
    )
    moves = legal_moves(after.board, after.placed)
    assert sorted(moves) == sorted(
        [(space(1, 1), space(0, 0)), (space(1, 1), space(0, 2)), (space(1, 1), space(2, 0))]
    )  # B2 -> A1, C1, A3; C3 is the North Star
    refusal = refused(after, Move(1, space(1, 0), after.version, space(1, 1)))
    assert "diagonally" in refusal.reason


def test_a_tile_that_does_not_surround_the_placed_one_cannot_move():
    _, _, after = placed(
        """
        B....
        .O...
        ..N..
        .....
        .....
        """,
        at=space(3, 3),
        pick=BLUE,
    )
    # D4 touches only C3 (the North Star): no legal move, so the action was skipped.
    assert after.seat == 2
    state = arranged(dealt(), "B....\n.O...\n..N..\n.....\n.....")
    after = fold(decided(state, Place(1, space(1, 2), state.version, BLUE))[:1], state)
    assert refused(after, Move(1, space(0, 1), after.version, space(0, 0))).reason.startswith(
        "That move is not allowed"
    )


def test_the_north_star_never_moves():
    _, _, after = placed(
        """
        .....
        .....
        ..NO.
        .....
        .....
        """,
        at=space(1, 2),
        pick=BLUE,
    )
    assert all(origin != CENTRE for origin, _ in legal_moves(after.board, after.placed))
    refusal = refused(after, Move(1, space(2, 1), after.version, CENTRE))
    assert refusal.reason == "The North Star never moves."


def test_the_placed_tile_itself_does_not_move():
    _, _, after = placed("O....\n.....\n..N..\n.....\n.....", at=1, pick=BLUE)
    assert all(origin != 1 for origin, _ in legal_moves(after.board, after.placed))
    assert "not allowed" in refused(after, Move(1, 2, after.version, 1)).reason


def test_a_tile_cannot_move_onto_another_or_off_the_board():
    _, _, after = placed(
        """
        OY...
        Y....
        ..N..
        .....
        .....
        """,
        at=space(1, 1),
        pick=BLUE,
    )
    # A1 is boxed in by B1, A2, the board's edges; B1 can go right; A2 can go down.
    assert sorted(legal_moves(after.board, after.placed)) == [(1, 2), (5, 10)]
    assert "not allowed" in refused(after, Move(1, 1, after.version, 0)).reason


def test_the_action_is_mandatory_the_turn_waits_for_the_move():
    _, events, after = placed("..O..\n.....\n..N..\n.....\n.....", at=7, pick=BLUE)
    assert len(events) == 1 and after.step is Step.ACTING and after.seat == 1
    assert "Place a tile first" in refused(dealt(), Move(1, 0, dealt().version, 1)).reason


def test_the_action_is_skipped_with_a_message_when_no_legal_move_exists():
    state, events, after = placed(
        """
        .....
        .....
        ..N..
        .....
        .....
        """,
        at=0,
        pick=BLUE,
    )
    assert events[1] == ActionSkipped(seat=1, tile=Tile.BLUE)
    assert after.seat == 2 and after.turns[0].action.value == "skipped"
    # Orange beside tiles with room only up, down, left or right: skipped too.
    state, events, after = placed(
        """
        .O.O.
        O.O..
        .ON..
        .....
        .....
        """,
        at=0,
        pick=ORANGE,
    )
    assert events[1] == ActionSkipped(seat=1, tile=Tile.ORANGE)
    blue_there = arranged(dealt(), "BO.O.\nO.O..\n.ON..\n.....\n.....")
    assert legal_moves(blue_there.board, 0)  # a blue tile there would have had a move


def test_a_move_named_by_its_target_alone_is_made_when_only_one_tile_can_reach_it():
    _, _, after = placed(".....\n.O...\n..N..\n.....\n.....", at=space(1, 2), pick=BLUE)
    events = decided(after, Move(1, space(0, 1), after.version))
    assert events[0] == TileMoved(seat=1, origin=space(1, 1), target=space(0, 1))


def test_a_target_two_tiles_could_reach_needs_the_tile_chosen():
    _, _, after = placed(
        """
        .....
        .O.O.
        ..N..
        .....
        .....
        """,
        at=space(1, 2),
        pick=ORANGE,
    )
    # B2 -> C1 and D2 -> C1 both diagonal: which one?
    assert "Choose which tile" in refused(after, Move(1, space(0, 2), after.version)).reason
    assert "No surrounding tile" in refused(after, Move(1, 24, after.version)).reason


def test_only_the_player_whose_turn_it_is_moves():
    _, _, after = placed("..O..\n.....\n..N..\n.....\n.....", at=7, pick=BLUE)
    assert refused(after, Move(2, 8, after.version, 2)).problem.value == "forbidden"
