"""Yellow: the board turns 90 degrees clockwise. The North Star stays in the centre (the
turn's centre is its space); the chart, and so the cards' orientation, does not turn."""

from games.underonesky.rules import (
    CENTRE,
    BoardRotated,
    Compass,
    Place,
    Tile,
    TurnStarted,
    completed,
    fold,
    rotate_board,
    rotate_space,
)
from games.underonesky.rules.geometry import oriented, space
from tests.support.uos import arranged, board, dealt, decided, drawn

YELLOW = 0  # beside the board after the deal: yellow, blue, orange


def test_a_quarter_turn_clockwise_takes_the_top_row_to_the_right_column():
    before = board(
        """
        BOY..
        .....
        ..N..
        .....
        .....
        """
    )
    assert drawn(rotate_board(before)) == "....B\n....O\n..N.Y\n.....\n....."
    assert rotate_space(space(0, 0)) == space(0, 4)
    assert rotate_space(space(0, 4)) == space(4, 4)
    assert rotate_space(space(4, 4)) == space(4, 0)


def test_the_north_star_stays_in_the_centre_and_four_turns_are_the_whole_circle():
    tiles = board("BOY..\n.B...\n..N.O\nY....\n....B")
    turned = tiles
    for _ in range(4):
        turned = rotate_board(turned)
        assert turned[CENTRE] is Tile.NORTH
    assert turned == tiles
    assert rotate_space(CENTRE) == CENTRE


def test_placing_a_yellow_tile_turns_the_board_and_ends_the_turn():
    state = arranged(dealt(), "B....\n.....\n..N..\n.....\n.....")
    events = decided(state, Place(1, space(0, 1), state.version, YELLOW))
    assert [type(e) for e in events][1:] == [BoardRotated, TurnStarted]
    after = fold(events, state)
    # B on A1 and the yellow tile on B1 are now down the right-hand column.
    assert drawn(after.board) == "....B\n....Y\n..N..\n.....\n....."
    assert after.turns[0].action.value == "rotated"


def test_the_yellow_action_always_has_a_move_so_it_is_never_skipped():
    state = arranged(dealt(), "BOYBO\nYBOYB\nOYNOY\nBOYBO\nYBOY.", face_up=(Tile.YELLOW,))
    events = decided(state, Place(1, 24, state.version, YELLOW))  # the last empty space
    assert isinstance(events[1], BoardRotated)


def test_a_turn_of_the_board_can_complete_a_constellation_facing_the_chart():
    # Northern Cross (orange-2) facing north: a bar on top, a stem of two below its middle.
    state = arranged(
        dealt(cards=("orange-2", "orange-1", "orange-3")),
        """
        B....
        BBB..
        B.N..
        .....
        .....
        """,
    )
    # As it lies, the cross points left (a bar down column A, a stem to the right): not yet.
    assert completed(state, 1) is None
    # A turn clockwise stands the bar on top: the card is complete.
    events = decided(state, Place(1, 24, state.version, YELLOW))
    after = fold(events, state)
    assert after.ended and after.winner == 1


def test_the_same_shape_counts_only_turned_to_the_charts_compass():
    tiles = "BBB..\n.B...\n.BN..\n.....\n....."  # the cross, bar on top
    facing_north = arranged(dealt(cards=("orange-2", "orange-1", "orange-3")), tiles)
    facing_east = arranged(
        dealt(cards=("orange-2", "orange-1", "orange-3"), compass=Compass.E), tiles
    )
    assert completed(facing_north, 1) is not None
    assert completed(facing_east, 1) is None
    # Facing east, the card is drawn a quarter turn clockwise: the bar on the right.
    east = oriented(facing_east.card_of(1).cells, Compass.E)
    assert sorted(east) == [(0, 2), (1, 0), (1, 1), (1, 2), (2, 2)]
